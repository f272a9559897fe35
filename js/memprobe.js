// Memory Probe in the ComfyUI frontend: the "Memory" sidebar tab, live memprobe.* events, node
// badges, settings (MemProbe.*) and the probe node's on-canvas reading. Only documented frontend
// APIs: registerExtension, extensionManager.registerSidebarTab / toast / setting, api events.
import { app } from "../../scripts/app.js";
import { api } from "../../scripts/api.js";
import { fmtBytes } from "./format.js";
import { setBadges } from "./graphedit.js";
import { MemoryPanel } from "./panel.js";
import { MemProbeStore } from "./store.js";
import { heaviestNodes } from "./tabledata.js";

const PROBE_CLASS = "MemProbe";
const EVENTS = ["run_start", "node", "samples", "mark", "fallback", "model", "run_end"];

async function fetchJson(path, init) {
  const response = await api.fetchApi(path, init);
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error || response.statusText);
  return body;
}

function toast(severity, summary, detail) {
  const t = app.extensionManager?.toast;
  if (t?.add) t.add({ severity, summary, detail, life: 6000 });
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
        await fetchJson("/memprobe/config", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      } catch (e) {
        toast("error", "Memory Probe settings", e.message);
      }
    }, 400);
  };
})();

const store = new MemProbeStore(fetchJson);
const panel = new MemoryPanel({
  app,
  api,
  store,
  fetchJson,
  toast,
  get LiteGraph() {
    return globalThis.LiteGraph; // set by the frontend once the canvas exists
  },
});

function updateBadges(doc) {
  if (!doc || !setting("MemProbe.Badges", true)) return setBadges(app, globalThis.LGraphBadge, []);
  const metric = doc.memory?.metric || "ram_used_bytes";
  const name = metric.startsWith("gpu") ? "VRAM" : "RAM";
  const threshold = setting("MemProbe.BadgeThresholdMB", 256) * 1024 ** 2;
  const heavy = heaviestNodes(doc, metric, { count: 3, threshold });
  return setBadges(app, globalThis.LGraphBadge, heavy.map((n) => ({ id: n.id, text: `${name} ${fmtBytes(n.peak)}` })));
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
      tooltip: "The timeline's resolution. Node peaks come from the OS's and torch's own peak counters where they exist, whatever the rate.",
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
      onChange: () => updateBadges(store.doc),
    },
    {
      id: "MemProbe.BadgeThresholdMB",
      category: ["Memory Probe", "Canvas", "Badge threshold"],
      name: "Badge a node when it raised memory by at least (MB)",
      type: "number",
      attrs: { min: 0, max: 1048576, step: 64 },
      defaultValue: 256,
      onChange: () => updateBadges(store.doc),
    },
  ],

  async setup() {
    const handlers = {
      run_start: (d) => store.onRunStart(d),
      node: (d) => store.onNode(d),
      samples: (d) => store.onSamples(d),
      mark: (d) => store.onMark(d),
      fallback: (d) => store.onFallback(d),
      model: (d) => store.onFallback(d), // a model-manager log line: an event of the run like a fallback
      run_end: (d) => {
        store.onRunEnd(d);
        updateBadges(store.doc);
      },
    };
    for (const name of EVENTS) api.addEventListener(`memprobe.${name}`, ({ detail }) => handlers[name](detail));
    for (const type of ["runs", "status", "live", "doc", "samples", "overlays"]) {
      store.addEventListener(type, (e) => panel.onStoreEvent(type, e.detail));
    }
    store.addEventListener("doc", (e) => {
      if (!e.detail.live) updateBadges(e.detail.doc);
    });

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
        panel.mount(el).catch((e) => toast("error", "Memory Probe", `The panel failed to draw: ${e.message}`));
      },
    });

    try {
      await Promise.all([store.refreshRuns(), store.refreshStatus()]);
      if (!store.doc && store.runs.length) await store.select(store.runs[0].id).then(() => (store.follow = true));
    } catch (e) {
      console.warn("[Memory Probe] could not reach the server part:", e);
    }
  },

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

// For the browser tests and curious users: the panel's state, read-only in spirit.
globalThis.__memprobe = { store, panel };
