// The Memory sidebar tab: run picker, timeline, suggestions, per-node table, comparison.
// Built with plain DOM inside the element the frontend hands to the tab's render().

import { createChart } from "./chart.js";
import { openExplainDialog } from "./explain.js"; // "Explain a log" (js/explain.js)
import { STAGE_COLORS, STATUS_LABELS, fmtBytes, fmtPair, fmtSeconds, fmtTime } from "./format.js";
import { applyTiledSwap, applyWidgetValue, focusNode } from "./graphedit.js";
import { rootGraphOf } from "./graphlocate.js";
import { planSwap } from "./swap.js";
import { memoryColumns, sortRows, tableRows } from "./tabledata.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "style") el.style.cssText = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const METRIC_NAME = { gpu0_used_bytes: "VRAM", ram_used_bytes: "RAM in use (machine)" };
const EXACT_PEAK = "exact: from the peak counter the operating system (or torch) keeps";
const SAMPLED_PEAK = "sampled: the highest reading; a short spike between two readings can go higher";
const PEAK_NOTE = "≥ marks a sampled peak (the highest reading); the others are exact, from the OS's or torch's own peak counters. VRAM in use (NVML) has no such counter.";

export class MemoryPanel {
  /** `ctx`: {app, api, store, LiteGraph, toast(severity, summary, detail), onApplied(doc)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.root = null;
    this.chart = null;
    this.sort = { key: "seq", direction: "asc" };
    this.compareWith = "";
    this.comparison = null;
  }

  get store() {
    return this.ctx.store;
  }

  /** Build the tab's content in `el` (called each time the tab opens). */
  async mount(el) {
    el.replaceChildren();
    this.root = h("div", { class: "memprobe-panel", "data-testid": "memprobe-panel" });
    this.els = {
      status: h("span", { class: "mp-status" }),
      runs: h("select", { class: "mp-runs", "aria-label": "Run", onchange: (e) => this.onPickRun(e.target.value) }),
      summary: h("div", { class: "mp-summary" }),
      chart: h("div", { class: "mp-chart", "data-testid": "memprobe-chart" }),
      hover: h("div", { class: "mp-hover" }, "Hover the chart for values; drag to zoom, wheel to zoom, shift-drag to pan, double-click to reset."),
      legend: h("div", { class: "mp-legend" }),
      suggestions: h("div", { class: "mp-suggestions", "data-testid": "memprobe-suggestions" }),
      compare: h("div", { class: "mp-compare" }),
      table: h("table", { class: "mp-table", "data-testid": "memprobe-table" }),
    };
    const actions = h(
      "div",
      { class: "mp-actions" },
      h("button", { class: "mp-btn", onclick: () => this.freeMemory(), title: "Unload models and free cached memory (ComfyUI's /free)" }, "Free memory"),
      h("button", { class: "mp-btn", onclick: () => this.exportReport(), title: "A shareable report without prompts or paths" }, "Export report"),
      // "Explain a log" (js/explain.js): a failure from ComfyUI's own log, for runs Memory Probe did not trace
      h("button", { class: "mp-btn", "data-action": "explain-log", onclick: () => openExplainDialog(this.ctx), title: "Paste or drop ComfyUI's log: which memory ran out, where, and what to try" }, "Explain a log"),
      h("select", { class: "mp-compare-pick", "aria-label": "Compare with", onchange: (e) => this.onCompare(e.target.value) }),
    );
    this.els.comparePick = actions.lastChild;
    this.root.append(
      h("div", { class: "mp-head" }, this.els.status, this.els.runs),
      this.els.summary,
      this.els.chart,
      this.els.hover,
      this.els.legend,
      actions,
      h("h4", {}, "Suggestions"),
      this.els.suggestions,
      this.els.compare,
      h("h4", {}, "Nodes"),
      h("div", { class: "mp-scroll" }, this.els.table),
    );
    el.append(this.root);
    this.chart?.destroy();
    this.chart = await createChart(this.els.chart, {
      liveMemory: () => this.store.status?.memory,
      onHover: (info) => this.renderHover(info),
      onBandClick: (band) => this.focus(band.nodeId),
    });
    this.resizer?.disconnect();
    this.resizer = new ResizeObserver(() => this.chart?.resize());
    this.resizer.observe(this.els.chart);
    this.renderRuns();
    this.renderStatus();
    if (this.store.doc) this.showDoc(this.store.doc, this.store.doc === this.store.live);
    else this.renderEmpty();
  }

  get visible() {
    return !!this.root?.isConnected;
  }

  // ---------------------------------------------------------------- store events
  onStoreEvent(type, detail) {
    if (!this.visible) return;
    if (type === "runs") this.renderRuns();
    else if (type === "status" || type === "live") this.renderStatus();
    else if (type === "doc") this.showDoc(detail.doc, detail.live);
    else if (type === "samples") this.chart?.appendSamples(detail);
    else if (type === "overlays") {
      this.chart?.refreshOverlays(detail);
      this.renderTable(detail);
      this.renderSummary(detail);
    }
  }

  showDoc(doc, live) {
    if (!this.visible) return;
    this.chart?.setDoc(doc, { live });
    this.renderSummary(doc);
    this.renderLegend();
    this.renderSuggestions(doc);
    this.renderTable(doc);
    this.renderRuns();
    this.comparison = null;
    this.els.compare.replaceChildren();
  }

  // ---------------------------------------------------------------- rendering
  renderEmpty() {
    this.els.summary.replaceChildren(h("p", { class: "mp-muted" }, "No run yet: queue a workflow and its memory shows up here."));
  }

  renderStatus() {
    const status = this.store.status;
    const tracing = status?.tracing;
    let text = "Idle";
    if (this.store.live) text = `● Running ${this.store.live.id.slice(0, 8)}`;
    if (tracing && !tracing.available) text += " · tracing unavailable";
    else if (tracing && !tracing.enabled) text += " · tracing off";
    const ledger = status?.ledger;
    const unsaved = ledger && ledger.available && ledger.saving === false;
    if (unsaved) text += " · runs are not being saved";
    this.els.status.textContent = text;
    this.els.status.classList.toggle("mp-live", !!this.store.live);
    this.els.status.classList.toggle("mp-warn", !!unsaved);
    this.els.status.title = unsaved ? `Runs are kept in memory only: ${ledger.reason || "the ledger cannot write"}` : tracing?.reason || "";
  }

  renderRuns() {
    const current = this.store.doc?.id;
    const options = this.store.runs.map((r) =>
      h("option", { value: r.id, selected: r.id === current }, `${fmtTime(r.started_at)} · ${r.status}${r.failure ? ` (${r.failure.kind})` : ""} · ${r.id.slice(0, 8)}`),
    );
    if (this.store.live && !this.store.runs.some((r) => r.id === this.store.live.id)) {
      options.unshift(h("option", { value: this.store.live.id, selected: current === this.store.live.id }, `● running · ${this.store.live.id.slice(0, 8)}`));
    }
    this.els.runs.replaceChildren(h("option", { value: "" }, options.length ? "— pick a run —" : "— no runs yet —"), ...options);
    this.els.comparePick.replaceChildren(
      h("option", { value: "" }, "Compare with…"),
      ...this.store.runs.filter((r) => r.id !== current).map((r) => h("option", { value: r.id, selected: r.id === this.compareWith }, `${fmtTime(r.started_at)} · ${r.status} · ${r.id.slice(0, 8)}`)),
    );
  }

  renderSummary(doc) {
    const memory = doc.memory || {};
    const metric = memory.metric || "ram_used_bytes";
    let peak = null;
    for (const n of doc.nodes || []) peak = Math.max(peak ?? 0, n.peaks?.[metric] ?? 0) || peak;
    const failure = doc.failure;
    this.els.summary.replaceChildren(
      ...[h("div", {}, h("b", {}, doc.status || "running"), ` · ${fmtSeconds(doc.duration_s)} · ${(doc.nodes || []).length} nodes · peak ${METRIC_NAME[metric] || metric} ${fmtPair(peak, memory.limit_bytes)}`),
      failure ? h("div", { class: "mp-failure" }, `First failure: ${failure.kind} at node ${failure.node_id} (${failure.class_type}, ${failure.stage}) — ${(failure.message || "").split("\n")[0].slice(0, 160)}`) : null,
      doc.overhead ? h("div", { class: "mp-muted" }, `Memory Probe's own CPU time: ${doc.overhead.share_of_process_cpu_pct ?? "?"}% of ComfyUI's`) : null,
      ].filter(Boolean),
    );
  }

  renderLegend() {
    const specs = this.chart?.state.specs || [];
    const stages = [...new Set((this.chart?.state.bands || []).map((b) => b.stage))];
    const toggle = (index, el) => {
      const plot = this.chart?.plot;
      if (!plot) return;
      const show = !plot.series[index + 1].show;
      plot.setSeries(index + 1, { show });
      el.classList.toggle("mp-off", !show);
    };
    this.els.legend.replaceChildren(
      ...specs.map((s, i) => {
        const key = h("span", { class: "mp-key mp-toggle", title: "Click to show or hide" }, h("i", { style: `background:${s.color}` }), s.label);
        key.addEventListener("click", () => toggle(i, key));
        return key;
      }),
      ...stages.map((s) => h("span", { class: "mp-key" }, h("i", { class: "mp-band", style: `background:${STAGE_COLORS[s] || "#666"}` }), s)),
    );
  }

  renderHover(info) {
    if (!info) return;
    const band = info.band;
    this.els.hover.replaceChildren(
      h(
        "div",
        {},
        h("b", {}, `${info.t.toFixed(2)} s`),
        band ? ` · ${band.label} (node ${band.nodeId}, ${band.stage})` : null,
      ),
      h("div", { class: "mp-values" }, ...info.values.filter((v) => v.value != null).map((v) => h("span", {}, h("i", { style: `background:${v.color}` }), `${v.label} ${fmtBytes(v.value)}`))),
    );
  }

  renderSuggestions(doc) {
    const list = doc.suggestions || [];
    if (!list.length) {
      this.els.suggestions.replaceChildren(h("p", { class: "mp-muted" }, doc === this.store.live ? "Suggestions come when the run ends." : "Nothing in this run points to a memory limit."));
      return;
    }
    this.els.suggestions.replaceChildren(...list.map((s) => this.card(s)));
  }

  card(s) {
    const button = this.actionButton(s);
    return h(
      "div",
      { class: `mp-card mp-${s.severity}`, "data-suggestion": s.id },
      h("div", { class: "mp-card-title" }, s.title),
      h("div", { class: "mp-why" }, h("b", {}, "Why: "), s.why),
      h("div", { class: "mp-try" }, h("b", {}, "Try: "), s.try),
      button,
    );
  }

  actionButton(s) {
    const action = s.action;
    if (!action) return null;
    if (action.type === "swap_vae_decode") {
      const plan = planSwap(rootGraphOf(this.ctx.app), action.node_id);
      if (!plan.ok) return h("div", { class: "mp-note" }, plan.reason);
      return h("button", { class: "mp-btn mp-apply", "data-action": "swap", onclick: () => this.applySwap(action, plan) }, "Apply: use VAE Decode (Tiled)");
    }
    if (action.type === "set_widget") {
      return h("button", { class: "mp-btn mp-apply", "data-action": "widget", onclick: () => this.applyWidget(action) }, `Apply: ${action.widget} = ${action.value}`);
    }
    if (action.type === "free_memory") {
      return h("button", { class: "mp-btn mp-apply", "data-action": "free", onclick: () => this.freeMemory() }, "Free memory now");
    }
    return null;
  }

  renderTable(doc) {
    const columns = memoryColumns(doc);
    const head = [["title", "Node"], ["stage", "Stage"], ["time", "Time"], ...columns.map((c) => [`${c.key}:peak`, `${c.label} peak (Δ)`])];
    const rows = sortRows(tableRows(doc), this.sort.key, this.sort.direction);
    const arrow = (key) => (this.sort.key === key ? (this.sort.direction === "asc" ? " ▲" : " ▼") : "");
    this.els.table.replaceChildren(
      h("caption", { class: "mp-sub mp-peak-note" }, PEAK_NOTE),
      h("thead", {}, h("tr", {}, ...head.map(([key, label]) => h("th", { onclick: () => this.sortBy(key), "data-key": key }, label + arrow(key))))),
      h(
        "tbody",
        {},
        ...rows.map((r) =>
          h(
            "tr",
            { class: `mp-row mp-${r.status}`, "data-node": r.id, onclick: () => this.focus(r.id), title: r.fallbacks.length ? `fallbacks: ${r.fallbacks.join(", ")}` : `node ${r.id}` },
            h("td", { title: r.models.title || null }, h("div", {}, r.title, r.fallbacks.length ? " ⚠" : ""), r.title !== r.type ? h("div", { class: "mp-sub" }, r.type) : null, r.models.changed ? h("div", { class: `mp-sub mp-models${r.models.partial ? " mp-partial" : ""}` }, r.models.text) : null),
            h("td", {}, h("span", { class: "mp-chip", style: `background:${STAGE_COLORS[r.stage] || "#666"}` }, r.stage)),
            h("td", {}, r.status === "ran" ? fmtSeconds(r.time) : STATUS_LABELS[r.status] || r.status),
            ...columns.map((c) => {
              const peak = r[`${c.key}:peak`];
              const sampled = peak != null && !r[`${c.key}:exact`];
              return h(
                "td",
                { title: peak == null ? "" : sampled ? SAMPLED_PEAK : EXACT_PEAK },
                (sampled ? "≥ " : "") + fmtBytes(peak),
                r[`${c.key}:delta`] != null ? h("div", { class: "mp-sub" }, fmtBytes(r[`${c.key}:delta`], { signed: true })) : null,
              );
            }),
          ),
        ),
      ),
    );
  }

  sortBy(key) {
    this.sort = { key, direction: this.sort.key === key && this.sort.direction === "desc" ? "asc" : "desc" };
    if (this.store.doc) this.renderTable(this.store.doc);
  }

  renderComparison(result) {
    const cmp = result.comparison;
    const metric = METRIC_NAME[cmp.metric] || cmp.metric;
    this.els.compare.replaceChildren(
      h("h4", {}, `Compared with ${cmp.b.id.slice(0, 8)}`),
      cmp.changes.length
        ? h("table", { class: "mp-table" }, h("tr", {}, h("th", {}, "Changed"), h("th", {}, "This run"), h("th", {}, "Other")), ...cmp.changes.map((c) => h("tr", {}, h("td", {}, c.what), h("td", {}, String(c.a ?? "—")), h("td", {}, String(c.b ?? "—")))))
        : h("p", { class: "mp-muted" }, "Same settings in both runs."),
      cmp.changes.length > 1 ? h("p", { class: "mp-note" }, `${cmp.changes.length} things changed at once: their effects cannot be told apart.`) : null,
      h(
        "table",
        { class: "mp-table" },
        h("tr", {}, h("th", {}, "Stage"), h("th", {}, `Peak ${metric}`), h("th", {}, "Other"), h("th", {}, "Time"), h("th", {}, "Other")),
        ...cmp.stages.map((s) => h("tr", {}, h("td", {}, s.stage), h("td", {}, s.a ? fmtBytes(s.peak_a) : s.cached.a ? "cached" : "—"), h("td", {}, s.b ? fmtBytes(s.peak_b) : s.cached.b ? "cached" : "—"), h("td", {}, s.a ? fmtSeconds(s.a.time_s) : "—"), h("td", {}, s.b ? fmtSeconds(s.b.time_s) : "—"))),
      ),
      h("p", {}, `Outcome: ${cmp.outcome.a.status} → ${cmp.outcome.b.status}`),
    );
  }

  // ---------------------------------------------------------------- actions
  async onPickRun(runId) {
    if (!runId) return this.store.followLive();
    try {
      await this.store.select(runId);
    } catch (e) {
      this.ctx.toast("error", "Memory Probe", `Could not load run ${runId}: ${e.message}`);
    }
  }

  async onCompare(otherId) {
    this.compareWith = otherId;
    if (!otherId || !this.store.doc) return this.els.compare.replaceChildren();
    try {
      this.renderComparison(await this.ctx.fetchJson(`/memprobe/compare?a=${encodeURIComponent(this.store.doc.id)}&b=${encodeURIComponent(otherId)}`));
    } catch (e) {
      this.ctx.toast("error", "Memory Probe", `Comparison failed: ${e.message}`);
    }
  }

  focus(executionId) {
    if (!focusNode(this.ctx.app, executionId)) this.ctx.toast("warn", "Memory Probe", `Node ${executionId} is not in the open workflow.`);
  }

  applySwap(action, plan) {
    const result = applyTiledSwap(this.ctx.app, this.ctx.LiteGraph, action.node_id, action, plan);
    if (!result.ok) {
      this.ctx.toast("warn", "Memory Probe", result.reason);
    } else {
      const s = result.settings;
      this.ctx.toast("success", "VAE Decode (Tiled) in place", `Node ${action.node_id} now decodes in tiles (tile ${s.tile_size}, overlap ${s.overlap}). Ctrl+Z undoes it.`);
    }
    if (this.store.doc) this.renderSuggestions(this.store.doc);
    return result;
  }

  applyWidget(action) {
    const result = applyWidgetValue(this.ctx.app, action.node_id, action.widget, action.value);
    this.ctx.toast(result.ok ? "success" : "warn", "Memory Probe", result.ok ? `${action.widget} set to ${action.value} on node ${action.node_id}. Ctrl+Z undoes it.` : result.reason);
    return result;
  }

  async freeMemory() {
    try {
      await this.ctx.api.fetchApi("/free", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ unload_models: true, free_memory: true }) });
      this.ctx.toast("success", "Memory Probe", "ComfyUI is unloading its models and freeing cached memory.");
    } catch (e) {
      this.ctx.toast("error", "Memory Probe", `Free memory failed: ${e.message}`);
    }
  }

  async exportReport() {
    const doc = this.store.doc;
    if (!doc?.id) return this.ctx.toast("warn", "Memory Probe", "Pick a run first.");
    try {
      const response = await this.ctx.api.fetchApi(`/memprobe/runs/${encodeURIComponent(doc.id)}/report?format=md`);
      if (!response.ok) throw new Error((await response.json()).error || response.statusText);
      const blob = new Blob([await response.text()], { type: "text/markdown" });
      const a = h("a", { href: URL.createObjectURL(blob), download: `memprobe-report-${doc.id.slice(0, 8)}.md` });
      document.body.append(a);
      a.click();
      a.remove();
      this.ctx.toast("info", "Memory Probe", "Report saved: prompts, paths and ids are removed; check it before you share it.");
    } catch (e) {
      this.ctx.toast("error", "Memory Probe", `Export failed: ${e.message}`);
    }
  }
}
