// Memory Probe in the ComfyUI frontend: registration only. It wires the store (store.js), the
// Memory sidebar tab (panel.js), the "Memory timeline" tab of the bottom panel (timeline.js), the
// badges (badges.js), the toasts (toasts.js), the settings (settings.js) and the probe node's
// reading (probenode.js) to the frontend's documented APIs: registerExtension (settings,
// bottomPanelTabs, afterConfigureGraph, beforeRegisterNodeDef), extensionManager
// (registerSidebarTab, toast, setting, command), and the server's memprobe.* events, whose names
// come with the vocabulary (GET /memprobe/vocabulary).

import { api } from "../../scripts/api.js";
import { app } from "../../scripts/app.js";
import { updateBadges } from "./badges.js";
import { MemoryPanel } from "./panel.js";
import { beforeRegisterNodeDef } from "./probenode.js";
import { configPusher, readSetting, settings } from "./settings.js";
import { MemProbeStore, STORE } from "./store.js";
import { TimelineView } from "./timeline.js";
import { announceFailure, announceForecast, makeToast, toasts } from "./toasts.js";
import { eventNames, setVocabulary } from "./vocab.js";

const TIMELINE_TAB = "memprobe-timeline";

async function fetchJson(path, init) {
  const response = await api.fetchApi(path, init);
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error || response.statusText);
  return body;
}

const toast = makeToast(app);
const setting = (id, fallback) => readSetting(app, id, fallback);
const store = new MemProbeStore(fetchJson);
const liveMemory = () => store.status?.memory ?? null; // the live status's memory and its limit
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
const badges = { app, store, panel, setting, fallback: liveMemory };
const redrawBadges = () => updateBadges(badges);

/** Show the bottom panel's timeline tab (its toggle command would hide it when it is shown). */
function openTimeline() {
  if (timeline.visible) return timeline.root.scrollIntoView?.({ block: "nearest" });
  try {
    app.extensionManager.command.execute(`Workspace.ToggleBottomPanelTab.${TIMELINE_TAB}`);
  } catch (e) {
    toast("warn", "Memory Probe", `The bottom panel could not be opened: ${e.message}`);
  }
}

let graphTimer = null;
function onGraphChanged() {
  clearTimeout(graphTimer);
  graphTimer = setTimeout(() => {
    panel.onGraphChanged();
    redrawBadges();
  }, 120);
}

function loadStylesheet() {
  if (document.querySelector("link[data-memprobe-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./memprobe.css", import.meta.url).href;
  link.dataset.memprobeCss = "1";
  document.head.appendChild(link);
}

app.registerExtension({
  name: "MemProbe.Core",
  settings: settings({ push: configPusher(fetchJson, toast), redraw: redrawBadges }),
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
    try {
      setVocabulary(await fetchJson("/memprobe/vocabulary"));
    } catch (e) {
      console.warn("[Memory Probe] could not reach the server part:", e);
    }
    for (const name of eventNames()) api.addEventListener(name, ({ detail }) => store.onServerEvent(name, detail));
    for (const type of STORE.views) {
      store.addEventListener(type, (e) => {
        panel.onStoreEvent(type, e.detail);
        timeline.onStoreEvent(type, e.detail);
      });
    }
    store.addEventListener(STORE.doc, () => redrawBadges());
    store.addEventListener(STORE.runEnd, (e) => announceFailure(toast, e.detail, panel.visible));
    store.addEventListener(STORE.queuedForecast, (e) => announceForecast(toast, e.detail));
    api.addEventListener("graphChanged", onGraphChanged);
    loadStylesheet();

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

  beforeRegisterNodeDef,
});

// For the browser tests and curious users: the panel's state, read-only in spirit.
globalThis.__memprobe = { store, panel, timeline, toasts };
