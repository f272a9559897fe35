// What the server said: the list of runs, the run on screen, and the run executing now (built
// from memprobe.* websocket events). No DOM here; the panel listens to the store's events.

import { appendSamples } from "./chartdata.js";

const emptyTimeline = () => ({ t: [], series: {} });

export class MemProbeStore extends EventTarget {
  /** `fetchJson(path, init)` returns parsed JSON (api.fetchApi in the browser). */
  constructor(fetchJson) {
    super();
    this.fetchJson = fetchJson;
    this.runs = [];
    this.doc = null; // the run on screen
    this.live = null; // the run executing now, as far as the events told
    this.follow = true; // switch to a new run as soon as it starts
    this.status = null;
  }

  emit(type, detail = null) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  async refreshRuns() {
    const listing = await this.fetchJson("/memprobe/runs?limit=100");
    this.runs = listing.runs || [];
    this.emit("runs");
    return this.runs;
  }

  async refreshStatus() {
    const live = await this.fetchJson("/memprobe/live");
    this.status = live.status;
    if (live.run && !this.live) {
      this.live = live.run;
      if (this.follow) this.show(this.live, true);
    }
    this.emit("status");
    return live;
  }

  async select(runId) {
    this.follow = false;
    if (this.live && this.live.id === runId) return this.show(this.live, true);
    const doc = await this.fetchJson(`/memprobe/runs/${encodeURIComponent(runId)}?max_points=20000`);
    this.show(doc, false);
    return doc;
  }

  followLive() {
    this.follow = true;
    if (this.live) this.show(this.live, true);
  }

  show(doc, live) {
    this.doc = doc;
    this.emit("doc", { doc, live });
  }

  // ---------------------------------------------------------------- websocket events
  onRunStart(header) {
    this.live = { ...header, nodes: [], marks: [], events: [], failures: [], suggestions: [], timeline: emptyTimeline() };
    if (this.follow) this.show(this.live, true);
    this.emit("live");
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
    if (this.doc === run) this.emit("overlays", run);
  }

  onSamples(batch) {
    const run = this.#liveRun(batch.run_id);
    if (!run) return;
    appendSamples(run.timeline, batch);
    if (this.doc === run) this.emit("samples", batch);
  }

  onMark(mark) {
    const run = this.#liveRun(mark.run_id);
    if (!run) return;
    run.marks.push(mark);
    if (this.doc === run) this.emit("overlays", run);
  }

  onFallback(event) {
    const run = this.#liveRun(event.run_id);
    if (!run) return;
    run.events.push(event);
    if (this.doc === run) this.emit("overlays", run);
  }

  onRunEnd(data) {
    const run = this.#liveRun(data.id);
    if (run) Object.assign(run, data);
    this.live = null;
    if (run && this.doc === run) this.emit("doc", { doc: run, live: false });
    this.emit("live");
    this.emit("run-end", data);
    this.refreshRuns().catch(() => {});
  }
}
