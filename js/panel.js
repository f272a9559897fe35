// The Memory sidebar tab: the run on screen (following the newest by default, pinned when the
// user picks an older one), laid out as sections (js/sections/, one interface each): the status
// and run picker, whose workflow it is, the verdict, the suggestions, the top nodes, the actions,
// a comparison and the footer. The wide timeline lives in the bottom panel (timeline.js).
//
// Everything that changes or moves the graph (Apply, row focus) goes through actions.js, which
// acts only on the run's own workflow.

import { GraphActions } from "./actions.js";
import { h, throttle } from "./dom.js";
import { ActionsSection } from "./sections/actions.js";
import { BannerSection } from "./sections/banner.js";
import { CompareSection } from "./sections/compare.js";
import { FooterSection } from "./sections/footer.js";
import { ForecastSection } from "./sections/forecast.js";
import { MiniTimelineSection } from "./sections/minitimeline.js";
import { NodesSection } from "./sections/nodes.js";
import { GRAPH } from "./sections/section.js";
import { StatusSection } from "./sections/status.js";
import { SuggestionsSection } from "./sections/suggestions.js";
import { VerdictSection } from "./sections/verdict.js";
import { STORE } from "./store.js";

export { h } from "./dom.js";
export { addPanelAction } from "./sections/actions.js";

/** The sections, top to bottom. */
const SECTIONS = [
  StatusSection,
  BannerSection,
  ForecastSection,
  VerdictSection,
  MiniTimelineSection,
  SuggestionsSection,
  NodesSection,
  ActionsSection,
  CompareSection,
  FooterSection,
];
const LIVE = new Set([STORE.samples, STORE.overlays]); // many a second while a run executes: throttled

export class MemoryPanel {
  /** `ctx`: {app, api, store, fetchJson, toast(severity, summary, detail), LiteGraph,
   * openTimeline(), fallback() -> the live status's memory or null} */
  constructor(ctx) {
    this.ctx = ctx;
    this.root = null;
    this.compareWith = "";
    this.actions = new GraphActions(ctx, () => this.onGraphChanged());
    this.sections = SECTIONS.map((Kind) => new Kind(this));
    this.compare = this.sections.find((s) => s instanceof CompareSection);
    this.refreshLive = throttle(() => this.render(STORE.samples), 400);
  }

  get store() {
    return this.ctx.store;
  }

  get app() {
    return this.ctx.app;
  }

  get visible() {
    return !!this.root?.isConnected;
  }

  /** What every section draws from: the run on screen and whether it is executing now. */
  view() {
    const doc = this.store.doc;
    return { doc, live: this.store.isLive(doc), store: this.store, panel: this };
  }

  /** Build the tab's content in `el` (called each time the tab opens). */
  mount(el) {
    el.replaceChildren();
    this.root = h(
      "div",
      { class: "memprobe-panel", "data-testid": "memprobe-panel" },
      ...this.sections.flatMap((s) => [s.mount()].flat()),
    );
    el.append(this.root);
    this.render();
  }

  /** Draw the sections that redraw on `event` (all of them without one). */
  render(event = null) {
    if (!this.root) return;
    const view = this.view();
    for (const section of this.sections) if (event === null || section.on.includes(event)) section.render(view);
  }

  onStoreEvent(type) {
    if (!this.visible) return;
    if (LIVE.has(type)) this.refreshLive();
    else this.render(type);
  }

  /** The graph changed (another workflow opened, an edit, an undo): redo what depends on it. */
  onGraphChanged() {
    if (this.visible) this.render(GRAPH);
  }

  target(doc) {
    return this.actions.target(doc);
  }

  // ---------------------------------------------------------------- actions
  async onPickRun(runId) {
    try {
      await this.store.select(runId);
    } catch (e) {
      this.ctx.toast("error", "Memory Probe", `Could not load run ${runId}: ${e.message}`);
    }
  }

  async followLive() {
    try {
      await this.store.followLive();
    } catch (e) {
      this.ctx.toast("error", "Memory Probe", `Could not load the newest run: ${e.message}`);
    }
  }

  async onCompare(otherId) {
    this.compareWith = otherId;
    if (!otherId || !this.store.doc) return this.compare.render(this.view());
    try {
      this.compare.show(
        await this.ctx.fetchJson(
          `/memprobe/compare?a=${encodeURIComponent(this.store.doc.id)}&b=${encodeURIComponent(otherId)}`,
        ),
      );
    } catch (e) {
      this.ctx.toast("error", "Memory Probe", `Comparison failed: ${e.message}`);
    }
  }

  /** Select a node of the run on the canvas, if the run's workflow is the open one. */
  focus(executionId) {
    return this.actions.focus(this.store.doc, executionId);
  }

  /** Apply suggestion `s` of the run on screen (see GraphActions.apply). */
  apply(s, options) {
    return this.actions.apply(this.store.doc, s, options);
  }

  /** The Nodes table (for the browser tests and curious users). */
  get nodes() {
    return this.sections.find((s) => s instanceof NodesSection).table;
  }
}
