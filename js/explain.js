// "Explain a log": paste ComfyUI's own log (console output, comfyui.log, the Desktop app's log, an
// error report) or drop the file, and Memory Probe explains its failure the way it judges a traced
// run: which memory ran out, at which node and stage, and one change to try first.
// The server does the reading (POST /memprobe/explain); this module only shows the dialog.
// Loaded as an extension module too, so it does nothing on import.

import { fmtBytes } from "./format.js";

const MAX_BYTES = 32 * 1024 * 1024; // the route's limit; a bigger file is cut to its end (where the failure is)

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function nodeWords(failure) {
  const node = failure.node || {};
  const parts = [];
  if (node.class_type) parts.push(node.class_type + (node.id ? ` (node ${node.id})` : ""));
  else if (node.pack) parts.push(`a node of custom_nodes/${node.pack}`);
  if (failure.stage) parts.push(`stage ${failure.stage}`);
  return parts.join(", ") || "node and stage not in the log";
}

/** The explanation document (the JSON of `memprobe explain --json`) as DOM. */
export function renderExplanation(doc) {
  const failure = doc.failure;
  const machine = doc.machine || {};
  const versions = doc.versions || {};
  const verdict = doc.verdict || {};
  const head = failure
    ? el(
        "div",
        { class: `mp-failure mp-explain-kind mp-tone-${verdict.tone}`, "data-kind": failure.kind },
        el("b", {}, verdict.title || failure.kind),
        ` — ${nodeWords(failure)}`,
      )
    : el("div", { class: "mp-explain-kind", "data-kind": "none" }, doc.no_failure);
  const message = failure?.message
    ? el(
        "pre",
        { class: "mp-explain-message" },
        (failure.exception_type ? `${failure.exception_type}: ` : "") + failure.message,
      )
    : null;
  const evidence = failure?.evidence?.length
    ? el(
        "ul",
        { class: "mp-explain-evidence" },
        ...failure.evidence.slice(0, 4).map((e) => el("li", {}, `line ${e.line}: ${e.text}`)),
      )
    : null;
  const consequences = (doc.consequences || []).length
    ? el(
        "div",
        { class: "mp-muted" },
        `Then, as a consequence: ${doc.consequences.map((c) => `${c.kind} (${nodeWords(c)})`).join("; ")}`,
      )
    : null;
  const gpu =
    machine.gpu_name || machine.vram_total_bytes
      ? `${machine.gpu_name || "GPU"} (${fmtBytes(machine.vram_total_bytes)} VRAM)`
      : null;
  const system = [
    gpu,
    machine.ram_total_bytes ? `${fmtBytes(machine.ram_total_bytes)} RAM` : null,
    machine.os,
    machine.install !== "unknown" ? machine.install : null,
  ]
    .filter(Boolean)
    .join(", ");
  const versionText = [
    ["comfyui", "ComfyUI"],
    ["frontend", "frontend"],
    ["torch", "torch"],
  ]
    .filter(([key]) => versions[key])
    .map(([key, label]) => `${label} ${versions[key]}`)
    .join(", ");
  const cards = (doc.suggestions || []).map((s) =>
    el(
      "div",
      { class: `mp-card mp-${s.severity}`, "data-suggestion": s.id },
      el("div", { class: "mp-card-title" }, s.title),
      el("div", { class: "mp-why" }, el("b", {}, "Why: "), s.why),
      el("div", { class: "mp-try" }, el("b", {}, "Try: "), s.try),
    ),
  );
  return el(
    "div",
    { class: "mp-explain-doc" },
    el("h4", {}, "First failure"),
    head,
    message,
    failure?.stage_evidence ? el("div", { class: "mp-muted" }, `Stage: ${failure.stage_evidence}`) : null,
    evidence,
    consequences,
    el(
      "div",
      { class: "mp-muted" },
      `Machine: ${system || "not in the log"} · Versions: ${versionText || "not in the log"}`,
    ),
    ...(doc.fallbacks || []).map((f) =>
      el(
        "div",
        { class: "mp-note" },
        `Silent fallback (${f.kind}${f.count > 1 ? `, ${f.count} times` : ""}), line ${f.line}`,
      ),
    ),
    el("h4", {}, "Try first"),
    cards.length
      ? el("div", { class: "mp-suggestions" }, ...cards)
      : el(
          "p",
          { class: "mp-muted" },
          verdict.memory_ran_out || verdict.kind === "abrupt"
            ? "The log does not show enough for a suggestion (see below)."
            : "Nothing in this log points to a memory limit.",
        ),
    el("h4", {}, "What the log cannot tell"),
    el("ul", { class: "mp-explain-unknown" }, ...(doc.unknown || []).map((u) => el("li", {}, u))),
  );
}

async function post(api, body, format) {
  const response = await api.fetchApi(`/memprobe/explain${format === "md" ? "?format=md" : ""}`, {
    method: "POST",
    headers: { "Content-Type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/octet-stream" },
    body,
  });
  if (!response.ok) {
    let reason = response.statusText;
    try {
      reason = (await response.json()).error || reason;
    } catch {
      // not JSON: keep the status text
    }
    throw new Error(reason);
  }
  return format === "md" ? response.text() : response.json();
}

function loadCss() {
  if (document.querySelector("link[data-memprobe-explain-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./explain.css", import.meta.url).href;
  link.dataset.memprobeExplainCss = "1";
  document.head.appendChild(link);
}

let open = null;

/** Open the dialog. `ctx`: {api, toast(severity, summary, detail)} (the panel's context). */
export function openExplainDialog(ctx) {
  open?.close();
  loadCss();
  let file = null; // {name, bytes}: a dropped or chosen file is sent as bytes (the server detects its encoding)
  const text = el("textarea", {
    class: "mp-explain-text",
    "data-testid": "memprobe-explain-text",
    "aria-label": "ComfyUI log",
    placeholder:
      "Paste ComfyUI's console output, comfyui.log or an error report here, or drop the log file onto this window.",
    spellcheck: "false",
    oninput: () => {
      file = null;
      fileNote.textContent = "";
    },
  });
  const fileNote = el("span", { class: "mp-muted", "data-testid": "memprobe-explain-file" });
  const input = el("input", {
    type: "file",
    accept: ".log,.txt,text/*",
    hidden: true,
    "data-testid": "memprobe-explain-input",
    onchange: () => input.files[0] && useFile(input.files[0]),
  });
  const result = el("div", {
    class: "mp-explain-result",
    "data-testid": "memprobe-explain-result",
    "aria-live": "polite",
  });
  const explainButton = el(
    "button",
    { class: "mp-btn mp-apply", "data-action": "explain", onclick: () => run() },
    "Explain",
  );
  const reportButton = el(
    "button",
    { class: "mp-btn", "data-action": "explain-report", disabled: true, onclick: () => saveReport() },
    "Save shareable report",
  );
  const close = () => {
    overlay.remove();
    document.removeEventListener("keydown", onKey);
    open = null;
  };
  const onKey = (e) => e.key === "Escape" && close();
  const dialog = el(
    "div",
    {
      class: "mp-explain",
      role: "dialog",
      "aria-modal": "true",
      "aria-label": "Explain a ComfyUI log",
      "data-testid": "memprobe-explain",
    },
    el(
      "div",
      { class: "mp-explain-head" },
      el("b", {}, "Explain a ComfyUI log"),
      el("button", { class: "mp-btn", "aria-label": "Close", onclick: close }, "×"),
    ),
    el(
      "p",
      { class: "mp-muted" },
      "For a run that failed without Memory Probe tracing it. The log stays on this machine: it goes to your own ComfyUI server only.",
    ),
    text,
    el(
      "div",
      { class: "mp-actions" },
      explainButton,
      el("button", { class: "mp-btn", onclick: () => input.click() }, "Choose a file…"),
      input,
      fileNote,
      reportButton,
    ),
    result,
  );
  const overlay = el("div", { class: "mp-explain-overlay", onclick: (e) => e.target === overlay && close() }, dialog);
  dialog.addEventListener("dragover", (e) => {
    e.preventDefault();
    dialog.classList.add("mp-drop");
  });
  dialog.addEventListener("dragleave", () => dialog.classList.remove("mp-drop"));
  dialog.addEventListener("drop", (e) => {
    e.preventDefault();
    dialog.classList.remove("mp-drop");
    const dropped = e.dataTransfer?.files?.[0];
    if (dropped) useFile(dropped);
  });

  async function useFile(chosen) {
    const buffer = await chosen.arrayBuffer();
    const cut = buffer.byteLength > MAX_BYTES;
    file = { name: chosen.name, bytes: cut ? buffer.slice(buffer.byteLength - MAX_BYTES) : buffer };
    text.value = "";
    fileNote.textContent = `${chosen.name} (${fmtBytes(buffer.byteLength)})${cut ? ", only its last 32 MiB" : ""}`;
    await run();
  }

  function body() {
    return file ? file.bytes : text.value;
  }

  async function run() {
    const payload = body();
    if (!file && !payload.trim()) {
      result.replaceChildren(el("p", { class: "mp-muted" }, "Paste a log or choose a file first."));
      return;
    }
    explainButton.disabled = true;
    result.replaceChildren(el("p", { class: "mp-muted" }, "Reading the log…"));
    try {
      const doc = await post(ctx.api, payload, "json");
      result.replaceChildren(renderExplanation(doc));
      reportButton.disabled = false;
      dialog.dataset.state = "explained";
    } catch (e) {
      result.replaceChildren(
        el(
          "p",
          { class: "mp-note", "data-testid": "memprobe-explain-error" },
          `The log could not be explained: ${e.message}`,
        ),
      );
      dialog.dataset.state = "error";
    } finally {
      explainButton.disabled = false;
    }
  }

  async function saveReport() {
    try {
      const markdown = await post(ctx.api, body(), "md");
      const a = el("a", {
        href: URL.createObjectURL(new Blob([markdown], { type: "text/markdown" })),
        download: "memprobe-log-explanation.md",
      });
      document.body.append(a);
      a.click();
      a.remove();
      ctx.toast?.(
        "info",
        "Memory Probe",
        "Report saved: prompts, user names and paths are removed; check it before you share it.",
      );
    } catch (e) {
      ctx.toast?.("error", "Memory Probe", `The report failed: ${e.message}`);
    }
  }

  document.body.append(overlay);
  document.addEventListener("keydown", onKey);
  text.focus();
  open = { close, dialog };
  return open;
}
