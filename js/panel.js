// The Memory sidebar tab: the run on screen (following the newest by default, pinned when the
// user picks an older one), its headline (which memory peaked, how close to the limit the OS
// enforces, at which node, the one change to try), the suggestions as cards, the top nodes (in
// nodetable.js) and a comparison. The wide timeline lives in the bottom panel (timeline.js).
//
// Everything that changes or moves the graph (Apply, row focus) goes through actions.js, which
// acts only on the run's own workflow; the suggestion cards are drawn by cards.js.

import { GraphActions } from "./actions.js";
import { actionArea, openWorkflowButton, suggestionCard } from "./cards.js";
import { button, fill, h, throttle } from "./dom.js";
import { openExplainDialog } from "./explain.js"; // "Explain a log" (js/explain.js)
import { fmtBytes, fmtSeconds, fmtShortTime, fmtValue } from "./format.js";
import { workflowName } from "./identity.js";
import { headline, memoryOf, metricLabel } from "./memory.js";
import { NodeTable } from "./nodetable.js";

export { h } from "./dom.js";

const panels = new Set();

/** A run in a picker: "04:19:07 PM · ok · 974c19" (with the failure's kind when asked). */
function runLabel(r, { failure = false } = {}) {
  const status = r.status === "success" ? "ok" : r.status;
  const kind = failure && r.failure ? ` (${r.failure.kind})` : "";
  return `${fmtShortTime(r.started_at)} · ${status}${kind} · ${r.id.slice(0, 6)}`;
}

/** “name”, or `otherwise` when there is no name. */
const quoted = (name, otherwise) => (name ? `“${name}”` : otherwise);
const extraActions = [];

/**
 * Add a button to the panel's action row (e.g. another module's "Explain a log"):
 * {id, label, title, icon, onClick(panel)}. Returns a function that removes it.
 */
export function addPanelAction(spec) {
  extraActions.push(spec);
  for (const panel of panels) panel.renderActions();
  return () => {
    const i = extraActions.indexOf(spec);
    if (i >= 0) extraActions.splice(i, 1);
    for (const panel of panels) panel.renderActions();
  };
}

export class MemoryPanel {
  /** `ctx`: {app, api, store, fetchJson, toast(severity, summary, detail), LiteGraph,
   * openTimeline(), fallback() -> the live status's memory or null} */
  constructor(ctx) {
    this.ctx = ctx;
    this.root = null;
    this.nodes = new NodeTable({ fallback: () => this.ctx.fallback?.(), onFocus: (id) => this.focus(id) });
    this.compareWith = "";
    this.actions = new GraphActions(ctx, () => this.onGraphChanged());
    this.refreshLive = throttle(() => this.renderLive(), 400);
    panels.add(this);
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

  /** Build the tab's content in `el` (called each time the tab opens). */
  mount(el) {
    el.replaceChildren();
    this.els = {
      status: h("span", { class: "mp-status", role: "status" }),
      follow: button("Follow live", {
        icon: "pi-play",
        title: "Show each new run as it starts",
        onclick: () => this.followLive(),
        "data-action": "follow",
      }),
      runs: h("select", {
        class: "mp-select mp-runs",
        "aria-label": "Run",
        onchange: (e) => this.onPickRun(e.target.value),
      }),
      news: h("div", { class: "mp-news", hidden: true }),
      banner: h("div", { class: "mp-banner", hidden: true, "data-testid": "memprobe-identity" }),
      headline: h("div", { class: "mp-headline", "data-testid": "memprobe-headline", "aria-live": "polite" }),
      actions: h("div", { class: "mp-actions", "data-slot": "actions" }),
      comparePick: h("select", {
        class: "mp-select mp-compare-pick",
        "aria-label": "Compare with another run",
        onchange: (e) => this.onCompare(e.target.value),
      }),
      compare: h("div", { class: "mp-compare" }),
      suggestions: h("div", { class: "mp-suggestions", "data-testid": "memprobe-suggestions" }),
      footer: h("div", { class: "mp-footer" }),
    };
    this.root = h(
      "div",
      { class: "memprobe-panel", "data-testid": "memprobe-panel" },
      h("div", { class: "mp-head" }, this.els.status, this.els.follow),
      this.els.runs,
      this.els.news,
      this.els.banner,
      this.els.headline,
      h("h4", {}, "Suggestions"),
      this.els.suggestions,
      ...this.nodes.mount(),
      h("h4", {}, "Actions"),
      this.els.actions,
      this.els.compare,
      this.els.footer,
    );
    el.append(this.root);
    this.render();
  }

  // ---------------------------------------------------------------- events
  onStoreEvent(type) {
    if (!this.visible) return;
    if (type === "runs" || type === "status") this.renderHead();
    else if (type === "live") this.renderHead();
    else if (type === "doc") {
      this.comparison = null;
      fill(this.els.compare);
      this.render();
    } else if (type === "samples" || type === "overlays") this.refreshLive();
  }

  /** The graph changed (another workflow opened, an edit, an undo): redo what depends on it. */
  onGraphChanged() {
    if (!this.visible) return;
    const doc = this.store.doc;
    this.renderBanner(doc);
    this.renderHeadline(doc);
    this.renderSuggestions(doc);
  }

  target(doc) {
    return this.actions.target(doc);
  }

  // ---------------------------------------------------------------- rendering
  render() {
    const doc = this.store.doc;
    this.renderHead();
    this.renderBanner(doc);
    this.renderHeadline(doc);
    this.renderActions();
    this.renderSuggestions(doc);
    this.renderTable(doc);
    this.renderFooter(doc);
  }

  renderLive() {
    if (!this.visible) return;
    const doc = this.store.doc;
    this.renderHeadline(doc);
    this.renderTable(doc);
  }

  renderHead() {
    if (!this.root) return;
    const { store } = this;
    const tracing = store.status?.tracing;
    const onScreenLive = store.isLive(store.doc);
    let text = onScreenLive ? "● Running" : store.pinned ? "Pinned to an older run" : store.doc ? "Latest run" : "Idle";
    if (tracing && !tracing.available) text += " · tracing unavailable";
    else if (tracing && !tracing.enabled) text += " · tracing off";
    const ledger = store.status?.ledger;
    const unsaved = ledger?.available && ledger.saving === false;
    if (unsaved) text += " · runs are not being saved";
    this.els.status.textContent = text;
    this.els.status.className = `mp-status${onScreenLive ? " mp-live" : ""}${store.pinned ? " mp-pinned" : ""}${unsaved ? " mp-warn" : ""}`;
    this.els.status.title = unsaved
      ? `Runs are kept in memory only: ${ledger.reason || "the ledger cannot write"}`
      : tracing?.reason || "";
    this.els.follow.hidden = !store.pinned;

    const current = store.doc?.id;
    const options = store.runs.map((r) =>
      h("option", { value: r.id, selected: r.id === current }, runLabel(r, { failure: true })),
    );
    if (store.live && !store.runs.some((r) => r.id === store.live.id)) {
      options.unshift(
        h(
          "option",
          { value: store.live.id, selected: current === store.live.id },
          `● running now · ${store.live.id.slice(0, 8)}`,
        ),
      );
    }
    fill(
      this.els.runs,
      h("option", { value: "", selected: !current }, options.length ? "Newest run (follow live)" : "No runs yet"),
      ...options,
    );
    this.els.runs.disabled = !options.length;

    const news = store.pinned && store.live && !onScreenLive;
    this.els.news.hidden = !news;
    if (news)
      fill(
        this.els.news,
        "● A new run is executing. ",
        button("Show it", { onclick: () => this.followLive(), "data-action": "show-live" }),
      );

    fill(
      this.els.comparePick,
      h("option", { value: "" }, "Compare with…"),
      ...store.runs
        .filter((r) => r.id !== current)
        .map((r) => h("option", { value: r.id, selected: r.id === this.compareWith }, runLabel(r))),
    );
    this.els.comparePick.disabled = !current || store.runs.length < 2;
  }

  /** Which workflow this run belongs to, when it is not the open one. */
  renderBanner(doc) {
    const el = this.els.banner;
    const target = doc ? this.target(doc) : null;
    if (
      !doc ||
      !target ||
      target.state === "same" ||
      (target.state === "unknown" && target.graph?.ok) ||
      !target.open.root
    ) {
      el.hidden = true;
      el.replaceChildren();
      return;
    }
    const own = this.actions.ownWorkflow(doc);
    const text =
      target.state === "other"
        ? `This run came from ${quoted(workflowName(own), "another workflow")}, not from ` +
          `${quoted(target.open.name, "the open one")}. Apply, badges and node selection act only on its own workflow.`
        : `The open workflow is not this run's graph: ${target.graph?.reason || "it differs."} ` +
          "Apply, badges and node selection are off.";
    el.hidden = false;
    fill(el, h("div", {}, text), openWorkflowButton(doc, this.actions, own));
  }

  renderHeadline(doc) {
    if (!this.root) return;
    const live = this.store.isLive(doc);
    const head = headline(doc, { live, fallback: this.ctx.fallback?.() });
    const memory = doc ? memoryOf(doc, this.ctx.fallback?.()) : null;
    const meter =
      head.pct != null && memory?.limitBytes
        ? h(
            "div",
            {
              class: `mp-meter mp-tone-${head.tone}`,
              role: "meter",
              "aria-label": `${memory.label} peak against ${memory.limitName}`,
              "aria-valuemin": "0",
              "aria-valuemax": "100",
              "aria-valuenow": String(Math.round(head.pct * 100)),
            },
            h("span", { style: `width:${Math.min(100, head.pct * 100).toFixed(1)}%` }),
          )
        : null;
    const s = head.suggestion;
    this.els.headline.className = `mp-headline mp-tone-${head.tone}`;
    fill(
      this.els.headline,
      h("div", { class: "mp-hl-title" }, head.title),
      meter,
      head.detail ? h("div", { class: "mp-hl-detail" }, head.detail) : null,
      s && !live
        ? h(
            "div",
            { class: "mp-hl-try" },
            h("span", {}, h("span", { class: "mp-hl-arrow", "aria-hidden": "true" }, "→ "), s.title),
            actionArea(s, doc, this.actions, { compact: true }),
          )
        : null,
      h(
        "div",
        { class: "mp-hl-meta" },
        h(
          "span",
          {},
          doc
            ? `${doc.status || "running"}${doc.duration_s != null ? ` · ${fmtSeconds(doc.duration_s)}` : ""} · ${(doc.nodes || []).length} nodes`
            : "",
        ),
        button("Timeline", {
          icon: "pi-chart-line",
          title: "The whole run on a wide chart in the bottom panel",
          onclick: () => this.ctx.openTimeline?.(),
          "data-action": "timeline",
        }),
      ),
    );
  }

  renderActions() {
    if (!this.root) return;
    const doc = this.store.doc;
    fill(
      this.els.actions,
      button("Free memory", {
        title: "Unload models and free cached memory (ComfyUI's /free)",
        onclick: () => this.actions.freeMemory(),
        "data-action": "free",
      }),
      button("Export report", {
        title: "A shareable report without prompts or paths",
        onclick: () => this.actions.exportReport(this.store.doc),
        disabled: !doc?.id,
        "data-action": "export",
      }),
      // "Explain a log" (js/explain.js): a failure from ComfyUI's own log, for runs Memory Probe did not trace
      button("Explain a log", {
        title: "Paste or drop ComfyUI's log: which memory ran out, where, and what to try",
        onclick: () => openExplainDialog(this.ctx),
        "data-action": "explain-log",
      }),
      ...extraActions.map((a) =>
        button(a.label, { icon: a.icon, title: a.title, onclick: () => a.onClick?.(this), "data-action": a.id }),
      ),
      this.els.comparePick,
    );
  }

  renderSuggestions(doc) {
    if (!this.root) return;
    const list = doc?.suggestions || [];
    if (!doc) return fill(this.els.suggestions, h("p", { class: "mp-muted" }, "Suggestions appear when a run ends."));
    if (!list.length) {
      fill(
        this.els.suggestions,
        h(
          "p",
          { class: "mp-muted" },
          this.store.isLive(doc)
            ? "Suggestions come when the run ends."
            : "Nothing in this run points to a memory limit.",
        ),
      );
      return;
    }
    fill(this.els.suggestions, ...list.map((s) => suggestionCard(s, doc, this.actions)));
  }

  renderTable(doc) {
    if (this.root) this.nodes.render(doc);
  }

  renderFooter(doc) {
    const o = doc?.overhead;
    fill(
      this.els.footer,
      o?.share_of_process_cpu_pct != null
        ? h("span", {}, `Memory Probe's own CPU time: ${o.share_of_process_cpu_pct}% of ComfyUI's`)
        : "",
    );
  }

  renderComparison(result) {
    const cmp = result.comparison;
    const metric = metricLabel(cmp.metric);
    const other = cmp.b.id.slice(0, 8);
    const cell = (v) => h("td", {}, fmtValue(v));
    fill(
      this.els.compare,
      h("h4", {}, `Compared with ${other}`),
      cmp.changes.length
        ? h(
            "table",
            { class: "mp-table mp-cmp" },
            h("thead", {}, h("tr", {}, h("th", {}, "Changed"), h("th", {}, "This run"), h("th", {}, other))),
            h("tbody", {}, ...cmp.changes.map((c) => h("tr", {}, h("td", {}, c.what), cell(c.a), cell(c.b)))),
          )
        : h("p", { class: "mp-muted" }, "Same settings in both runs."),
      cmp.changes.length > 1
        ? h(
            "p",
            { class: "mp-note" },
            `${cmp.changes.length} things changed at once: their effects cannot be told apart.`,
          )
        : null,
      h(
        "table",
        { class: "mp-table mp-cmp" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "Stage"),
            h("th", {}, `${metric} peak`),
            h("th", {}, other),
            h("th", {}, "Time"),
            h("th", {}, other),
          ),
        ),
        h(
          "tbody",
          {},
          ...cmp.stages.map((s) =>
            h(
              "tr",
              {},
              h("td", {}, s.stage),
              h("td", {}, s.a ? fmtBytes(s.peak_a) : s.cached.a ? "cached" : "—"),
              h("td", {}, s.b ? fmtBytes(s.peak_b) : s.cached.b ? "cached" : "—"),
              h("td", {}, s.a ? fmtSeconds(s.a.time_s) : "—"),
              h("td", {}, s.b ? fmtSeconds(s.b.time_s) : "—"),
            ),
          ),
        ),
      ),
      h("p", {}, `Outcome: ${fmtValue(cmp.outcome.a.status)} here, ${fmtValue(cmp.outcome.b.status)} in ${other}.`),
    );
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
    if (!otherId || !this.store.doc) return fill(this.els.compare);
    try {
      this.renderComparison(
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
}
