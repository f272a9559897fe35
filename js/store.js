// What the server said: the list of runs, the run on screen, and the run executing now (built
// from memprobe.* websocket events). No DOM here; the views listen to the store's events (STORE):
// runs, status, live, doc {doc, live}, samples (a batch), overlays (the live run), run-end
// {run, shown}, forecast (a queued prompt that won't fit).
//
// The panel follows the newest run by default: a run that starts is shown as it runs. Picking
// an older run pins it (`follow` false) until the user follows live again.

import { appendSamples } from "./chartdata.js";

const emptyTimeline = () => ({ t: [], series: {} });

/** The store's own events. `views`: the ones the panel and the timeline redraw on. */
export const STORE = Object.freeze({
  runs: "runs",
  status: "status",
  live: "live",
  doc: "doc",
  samples: "samples",
  overlays: "overlays",
  runEnd: "run-end",
  queuedForecast: "queued-forecast",
  get views() {
    return [this.runs, this.status, this.live, this.doc, this.samples, this.overlays];
  },
});

/** "memprobe.run_start" -> "onRunStart": the handler of a server event. */
const handlerOf = (event) =>
  `on${event
    .replace(/^memprobe\./, "")
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")}`;

export class MemProbeStore extends EventTarget {
  /** `fetchJson(path, init)` returns parsed JSON (api.fetchApi in the browser). */
  constructor(fetchJson) {
    super();
    this.fetchJson = fetchJson;
    this.runs = [];
    this.doc = null; // the run on screen
    this.live = null; // the run executing now, as far as the events told
    this.follow = true; // show each new run as soon as it starts
    this.status = null;
  }

  emit(type, detail = null) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  isLive(doc) {
    return !!doc && doc === this.live;
  }

  /** The newest run: the one executing, else the newest stored one. */
  get newestId() {
    return this.live?.id ?? this.runs[0]?.id ?? null;
  }

  get pinned() {
    return !this.follow && !!this.doc && this.doc.id !== this.newestId;
  }

  async refreshRuns() {
    const listing = await this.fetchJson(`/memprobe/runs?limit=100&server=${this.allServers ? "all" : "this"}`);
    this.runs = listing.runs || [];
    this.server = listing.server ?? null; // this ComfyUI's id: servers of one install share the ledger
    this.servers = listing.servers || [];
    this.emit(STORE.runs);
    return this.runs;
  }

  /** Show every server's runs (servers started from one install share the ledger), or this one's. */
  async showAllServers(all) {
    this.allServers = !!all;
    return this.refreshRuns();
  }

  async refreshStatus() {
    const live = await this.fetchJson("/memprobe/live");
    this.status = live.status;
    if (live.run && !this.live) {
      this.live = { ...live.run, nodes: live.run.nodes || [], timeline: live.run.timeline || emptyTimeline() };
      if (this.follow) this.show(this.live, true);
      this.emit(STORE.live);
    }
    this.emit(STORE.status);
    return live;
  }

  /** Show a run. Picking any run but the newest pins it; the newest (or the live one) follows. */
  async select(runId) {
    if (!runId) return this.followLive();
    this.follow = runId === this.newestId;
    if (this.live && this.live.id === runId) return this.show(this.live, true);
    const doc = await this.fetchJson(`/memprobe/runs/${encodeURIComponent(runId)}?max_points=20000`);
    this.show(doc, false);
    return doc;
  }

  /** Follow live again: show the run executing now, else the newest stored one. */
  async followLive() {
    this.follow = true;
    if (this.live) return this.show(this.live, true);
    const newest = this.runs[0]?.id;
    if (newest && this.doc?.id !== newest) {
      const doc = await this.fetchJson(`/memprobe/runs/${encodeURIComponent(newest)}?max_points=20000`);
      if (this.follow) this.show(doc, false);
    } else {
      this.emit(STORE.doc, { doc: this.doc, live: false });
    }
  }

  show(doc, live) {
    this.doc = doc;
    this.emit(STORE.doc, { doc, live });
  }

  // ---------------------------------------------------------------- websocket events
  /** A memprobe.* event from the server, to its handler (onRunStart, onNode, ...); an event this
   * store has no handler for is ignored. */
  onServerEvent(name, detail) {
    const handler = this[handlerOf(name)];
    if (typeof handler === "function") handler.call(this, detail);
  }

  onRunStart(header) {
    this.live = {
      ...header,
      nodes: [],
      marks: [],
      events: [],
      failures: [],
      suggestions: [],
      timeline: emptyTimeline(),
    };
    if (this.follow) this.show(this.live, true);
    this.emit(STORE.live);
    this.#refreshStatusQuietly(); // the limits now (a live run's headline) and whether runs are saved
  }

  #refreshStatusQuietly() {
    this.fetchJson("/memprobe/live")
      .then((live) => {
        this.status = live.status;
        this.emit(STORE.status);
      })
      .catch(() => {});
  }

  #liveRun(runId) {
    return this.live && this.live.id === runId ? this.live : null;
  }

  onNode(node) {
    const run = this.#liveRun(node.run_id);
    if (!run) return;
    const i = run.nodes.findIndex((n) => n.seq === node.seq);
    if (i >= 0) run.nodes[i] = node;
    else run.nodes.push(node);
    if (this.doc === run) this.emit(STORE.overlays, run);
  }

  onSamples(batch) {
    const run = this.#liveRun(batch.run_id);
    if (!run) return;
    appendSamples(run.timeline, batch);
    if (this.doc === run) this.emit(STORE.samples, batch);
  }

  onMark(mark) {
    const run = this.#liveRun(mark.run_id);
    if (!run) return;
    run.marks.push(mark);
    if (this.doc === run) this.emit(STORE.overlays, run);
  }

  onFallback(event) {
    const run = this.#liveRun(event.run_id);
    if (!run) return;
    run.events.push(event);
    if (this.doc === run) this.emit(STORE.overlays, run);
  }

  /** A line of ComfyUI's model manager: an event of the run, like a fallback. */
  onModel(event) {
    this.onFallback(event);
  }

  /** The server forecast a prompt this browser queued and says it won't fit (it was queued anyway). */
  onForecast(detail) {
    this.emit(STORE.queuedForecast, detail);
  }

  onRunEnd(data) {
    const run = this.#liveRun(data.id) ?? {
      ...data,
      nodes: [],
      marks: [],
      events: [],
      failures: [],
      timeline: emptyTimeline(),
    };
    Object.assign(run, data);
    const shown = this.doc === run || this.doc?.id === run.id;
    if (this.live?.id === data.id) this.live = null;
    if (shown) this.show(run, false);
    this.emit(STORE.live);
    this.emit(STORE.runEnd, { run, shown });
    this.refreshRuns().catch(() => {});
    this.#refreshStatusQuietly();
  }
}
