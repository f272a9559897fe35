// Memory Probe in the ComfyUI frontend: the "Memory" sidebar tab, the "Memory timeline" tab of
// the bottom panel, live memprobe.* events, node badges, settings (MemProbe.*), a toast when a
// run fails off screen, and the probe node's on-canvas reading. Only documented frontend APIs:
// registerExtension (settings, bottomPanelTabs, afterConfigureGraph), extensionManager
// (registerSidebarTab, toast, setting, command, workflow), api events.

import { api } from "../../scripts/api.js";
import { app } from "../../scripts/app.js";
import { fmtBytes } from "./format.js";
import { setBadges } from "./graphedit.js";
import { canActOn } from "./identity.js";
import { headline, memoryOf, NEAR_LIMIT } from "./memory.js";
import { MemoryPanel } from "./panel.js";
import { MemProbeStore } from "./store.js";
import { heaviestNodes } from "./tabledata.js";
import { TimelineView } from "./timeline.js";

const PROBE_CLASS = "MemProbe";
const EVENTS = ["run_start", "node", "samples", "mark", "fallback", "model", "run_end"];

async function fetchJson(path, init) {
  const response = await api.fetchApi(path, init);
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error || response.statusText);
  return body;
}

const TIMELINE_TAB = "memprobe-timeline";

const toasts = []; // the last few, for the browser tests and curious users

/** A toast through the frontend (its newer title/description API where it has one). */
function toast(severity, summary, detail, life = 6000) {
  toasts.push({ severity, summary, detail, at: Date.now() });
  if (toasts.length > 20) toasts.shift();
  const t = app.extensionManager?.toast;
  const method = { warn: "warning", error: "error", success: "success", info: "info" }[severity] || "info";
  if (typeof t?.[method] === "function" && typeof t?.dismiss === "function")
    t[method](summary, { description: detail, duration: life });
  else if (t?.add) t.add({ severity, summary, detail, life });
  else console.info(`[Memory Probe] ${summary}: ${detail}`);
}

function setting(id, fallback) {
  try {
    const value = app.extensionManager?.setting?.get(id);
    return value === undefined || value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

const pushConfig = (() => {
  let timer = null;
  let pending = {};
  return (changes) => {
    Object.assign(pending, changes);
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const body = pending;
      pending = {};
      try {
        await fetchJson("/memprobe/config", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      } catch (e) {
        toast("error", "Memory Probe settings", e.message);
      }
    }, 400);
  };
})();

const store = new MemProbeStore(fetchJson);
const liveMemory = () => store.status?.memory ?? null; // the live status's {metric, limit_bytes, limit_name, limit_enforced}
const timeline = new TimelineView({ store, fallback: liveMemory, onBandClick: (band) => panel.focus(band.nodeId) });
const panel = new MemoryPanel({
  app,
  api,
  store,
  fetchJson,
  toast,
  fallback: liveMemory,
  openTimeline,
  get LiteGraph() {
    return globalThis.LiteGraph; // set by the frontend once the canvas exists
  },
});

/** Show the bottom panel's timeline tab (its toggle command would hide it when it is shown). */
function openTimeline() {
  if (timeline.visible) return timeline.root.scrollIntoView?.({ block: "nearest" });
  try {
    app.extensionManager.command.execute(`Workspace.ToggleBottomPanelTab.${TIMELINE_TAB}`);
  } catch (e) {
    toast("warn", "Memory Probe", `The bottom panel could not be opened: ${e.message}`);
  }
}

/** Badges on the heaviest nodes of the run on screen, only when the open workflow is its own;
 * neutral unless a node came near the limit the OS enforces. */
function updateBadges(doc = store.doc) {
  const LGraphBadge = globalThis.LGraphBadge;
  if (!doc || store.isLive(doc) || !setting("MemProbe.Badges", true)) return setBadges(app, LGraphBadge, []);
  const memory = memoryOf(doc, liveMemory());
  const threshold = setting("MemProbe.BadgeThresholdMB", 256) * 1024 ** 2;
  const target = panel.target(doc);
  const badges = heaviestNodes(doc, memory.metric, { count: 3, threshold })
    .filter((n) => canActOn(target, doc, n.id).ok)
    .map((n) => {
      const near = memory.enforced && memory.limitBytes && n.peak >= NEAR_LIMIT * memory.limitBytes;
      return {
        id: n.id,
        text: `${memory.label} ${fmtBytes(n.peak)}`,
        tone: n.failed ? "failed" : near ? "near" : "neutral",
      };
    });
  return setBadges(app, LGraphBadge, badges);
}

/** `text` ending in a full stop (an exception's message often has none). */
const sentence = (text) => (/[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** A run that failed while another one is on screen (or the panel is closed) is announced. */
function announce({ run, shown }) {
  if (!["error", "ended_abruptly"].includes(run.status)) return;
  if (shown && panel.visible) return;
  const head = headline(run, { fallback: liveMemory() });
  toast(
    "error",
    `Run failed: ${head.title}`,
    `${head.detail ? `${sentence(head.detail)} ` : ""}Open the Memory panel to see it.`,
    10000,
  );
}

let graphTimer = null;
function onGraphChanged() {
  clearTimeout(graphTimer);
  graphTimer = setTimeout(() => {
    panel.onGraphChanged();
    updateBadges();
  }, 120);
}

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

app.registerExtension({
  name: "MemProbe.Core",
  settings: [
    {
      id: "MemProbe.Tracing",
      category: ["Memory Probe", "Tracing", "Trace every node"],
      name: "Trace every node (memory before/after/peak of each node)",
      type: "boolean",
      defaultValue: true,
      onChange: (value) => pushConfig({ tracing: !!value }),
    },
    {
      id: "MemProbe.SampleRate",
      category: ["Memory Probe", "Tracing", "Sampling rate"],
      name: "Sampling rate while a run executes (Hz; 0 = automatic: 10 on the CPU, 20 with a GPU)",
      tooltip:
        "The timeline's resolution. Node peaks come from the OS's and torch's own peak counters where they exist, whatever the rate.",
      type: "slider",
      attrs: { min: 0, max: 200, step: 1 },
      defaultValue: 0,
      onChange: (value) => pushConfig({ sample_hz: Number(value) }),
    },
    {
      id: "MemProbe.RetentionRuns",
      category: ["Memory Probe", "History", "Runs kept"],
      name: "Runs kept in the ledger",
      type: "number",
      attrs: { min: 1, max: 10000, step: 1 },
      defaultValue: 200,
      onChange: (value) => pushConfig({ retention_runs: Number(value) }),
    },
    {
      id: "MemProbe.Metrics",
      category: ["Memory Probe", "Metrics", "Prometheus"],
      name: "Serve Prometheus metrics at /memprobe/metrics",
      tooltip: "Read-only memory figures and run counts for Prometheus/Grafana; off, the route answers 404.",
      type: "boolean",
      defaultValue: true,
      onChange: (value) => pushConfig({ metrics: !!value }),
    },
    {
      id: "MemProbe.MetricsWorkflowLabel",
      category: ["Memory Probe", "Metrics", "Workflow label"],
      name: "Label run metrics by workflow (at most 20 workflows)",
      tooltip:
        "Adds a workflow label (an API client's extra_data.memprobe_workflow, else a hash of the node types) to the run counters and stage peaks. Each workflow multiplies their series, so it is off by default.",
      type: "boolean",
      defaultValue: false,
      onChange: (value) => pushConfig({ metrics_workflow_label: !!value }),
    },
    {
      id: "MemProbe.Badges",
      category: ["Memory Probe", "Canvas", "Badges"],
      name: "Badge the heaviest nodes of the last run",
      type: "boolean",
      defaultValue: true,
      onChange: () => updateBadges(),
    },
    {
      id: "MemProbe.BadgeThresholdMB",
      category: ["Memory Probe", "Canvas", "Badge threshold"],
      name: "Badge a node when it raised memory by at least (MB)",
      type: "number",
      attrs: { min: 0, max: 1048576, step: 64 },
      defaultValue: 256,
      onChange: () => updateBadges(),
    },
  ],

  bottomPanelTabs: [
    {
      id: TIMELINE_TAB,
      title: "Memory timeline",
      type: "custom",
      render: (el) => {
        timeline.mount(el).catch((e) => toast("error", "Memory Probe", `The timeline failed to draw: ${e.message}`));
      },
      destroy: () => timeline.destroy(),
    },
  ],

  /** The canvas shows another workflow now (a tab switch, an undo, a load). */
  afterConfigureGraph() {
    onGraphChanged();
  },

  async setup() {
    const handlers = {
      run_start: (d) => store.onRunStart(d),
      node: (d) => store.onNode(d),
      samples: (d) => store.onSamples(d),
      mark: (d) => store.onMark(d),
      fallback: (d) => store.onFallback(d),
      model: (d) => store.onFallback(d), // a model-manager log line: an event of the run like a fallback
      run_end: (d) => store.onRunEnd(d),
    };
    for (const name of EVENTS) api.addEventListener(`memprobe.${name}`, ({ detail }) => handlers[name](detail));
    for (const type of ["runs", "status", "live", "doc", "samples", "overlays"]) {
      store.addEventListener(type, (e) => {
        panel.onStoreEvent(type, e.detail);
        timeline.onStoreEvent(type, e.detail);
      });
    }
    store.addEventListener("doc", () => updateBadges());
    store.addEventListener("run-end", (e) => announce(e.detail));
    api.addEventListener("graphChanged", onGraphChanged);

    if (!document.querySelector("link[data-memprobe-css]")) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL("./memprobe.css", import.meta.url).href;
      link.dataset.memprobeCss = "1";
      document.head.appendChild(link);
    }

    app.extensionManager.registerSidebarTab({
      id: "memprobe",
      icon: "pi pi-chart-line",
      title: "Memory",
      tooltip: "Memory Probe: which memory runs out, and where",
      type: "custom",
      render: (el) => {
        try {
          panel.mount(el);
        } catch (e) {
          toast("error", "Memory Probe", `The panel failed to draw: ${e.message}`);
        }
      },
    });

    try {
      await Promise.all([store.refreshRuns(), store.refreshStatus()]);
      if (!store.doc && store.runs.length) await store.followLive();
    } catch (e) {
      console.warn("[Memory Probe] could not reach the server part:", e);
    }
  },

  async beforeRegisterNodeDef(nodeType, nodeData) {
    if (nodeData?.name !== PROBE_CLASS) return;
    const onExecuted = nodeType.prototype.onExecuted;
    nodeType.prototype.onExecuted = function (output, ...rest) {
      onExecuted?.apply(this, [output, ...rest]);
      const text = Array.isArray(output?.text) ? output.text.join("\n") : output?.text;
      if (text) showProbeText(this, String(text));
    };
  },
});

// For the browser tests and curious users: the panel's state, read-only in spirit.
globalThis.__memprobe = { store, panel, timeline, toasts };
