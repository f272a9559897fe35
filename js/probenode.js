// The Memory Probe node shows its reading on the canvas, under its widgets.

const PROBE_CLASS = "MemProbe";

function showProbeText(node, text) {
  let widget = node.widgets?.find((w) => w.name === "memprobe_reading");
  if (!widget) {
    const pre = document.createElement("pre");
    pre.className = "memprobe-reading";
    widget = node.addDOMWidget("memprobe_reading", "memprobe_reading", pre, { serialize: false });
    widget.serialize = false;
  }
  widget.element.textContent = text;
  node.setDirtyCanvas?.(true, true);
}

/** The extension's beforeRegisterNodeDef: the probe node's onExecuted shows the reading. */
export async function beforeRegisterNodeDef(nodeType, nodeData) {
  if (nodeData?.name !== PROBE_CLASS) return;
  const onExecuted = nodeType.prototype.onExecuted;
  nodeType.prototype.onExecuted = function (output, ...rest) {
    onExecuted?.apply(this, [output, ...rest]);
    const text = Array.isArray(output?.text) ? output.text.join("\n") : output?.text;
    if (text) showProbeText(this, String(text));
  };
}
