// Memory Probe: the browser side. This entry module registers the extension; the panel,
// chart and graph edits live in the modules next to it.
import { app } from "../../scripts/app.js";

const PROBE_CLASS = "MemProbe";

function showProbeText(node, text) {
  let widget = node.widgets?.find((w) => w.name === "memprobe_reading");
  if (!widget) {
    const pre = document.createElement("pre");
    pre.className = "memprobe-reading";
    pre.style.cssText = "margin:0;padding:4px;font:11px/1.35 monospace;white-space:pre-wrap;overflow:auto;opacity:.85";
    widget = node.addDOMWidget("memprobe_reading", "memprobe_reading", pre, { serialize: false });
    widget.serialize = false;
  }
  widget.element.textContent = text;
  node.setDirtyCanvas?.(true, true);
}

app.registerExtension({
  name: "MemProbe.Core",
  async beforeRegisterNodeDef(nodeType, nodeData) {
    if (nodeData?.name !== PROBE_CLASS) return;
    const onExecuted = nodeType.prototype.onExecuted;
    nodeType.prototype.onExecuted = function (output) {
      onExecuted?.apply(this, arguments);
      const text = Array.isArray(output?.text) ? output.text.join("\n") : output?.text;
      if (text) showProbeText(this, String(text));
    };
  },
});
