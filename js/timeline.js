// The "Memory timeline" tab of ComfyUI's bottom panel (next to Logs): the whole run on a wide
// chart, its legend (each series can be hidden, by mouse or keyboard), the limits and the stages.

import { createChart } from "./chart.js";
import { stageColor } from "./colors.js";
import { fill, h, throttle } from "./dom.js";
import { fmtTime } from "./format.js";
import { headline } from "./headline.js";
import { STORE } from "./store.js";

export class TimelineView {
  /** `ctx`: {store, onBandClick(band), fallback() -> the live status's memory or null} */
  constructor(ctx) {
    this.ctx = ctx;
    this.root = null;
    this.chart = null;
    this.resizer = null;
    this.renderHeadThrottled = throttle(() => this.renderHead(), 500);
  }

  get store() {
    return this.ctx.store;
  }

  get visible() {
    return !!this.root?.isConnected;
  }

  async mount(el) {
    el.replaceChildren();
    el.style.height = "100%"; // the frontend's slot for a custom tab is only as tall as its content
    this.els = {
      title: h("span", { class: "mp-tl-title" }),
      summary: h("span", { class: "mp-tl-summary" }),
      chart: h("div", { class: "mp-tl-chart", "data-testid": "memprobe-timeline-chart" }),
      empty: h(
        "div",
        { class: "mp-tl-empty", hidden: !!this.store.doc }, // said at once, not after the chart's library loads
        "No run to show yet: queue a workflow and its memory is drawn here as it runs.",
      ),
      legend: h("div", { class: "mp-legend", role: "group", "aria-label": "Series" }),
    };
    this.root = h(
      "div",
      { class: "memprobe-panel memprobe-timeline", "data-testid": "memprobe-timeline" },
      h(
        "div",
        { class: "mp-tl-head" },
        this.els.title,
        this.els.summary,
        h(
          "span",
          { class: "mp-tl-hint" },
          "Drag to zoom · wheel zooms · shift-drag pans · double-click resets · click a band to select its node",
        ),
      ),
      h(
        "div",
        { class: "mp-tl-body" },
        h("div", { class: "mp-tl-plot" }, this.els.chart, this.els.empty),
        this.els.legend,
      ),
    );
    el.append(this.root);
    this.chart?.destroy();
    this.chart = await createChart(this.els.chart, {
      size: () => ({ width: this.els.chart.clientWidth, height: this.els.chart.clientHeight }),
      onBandClick: (band) => this.ctx.onBandClick(band),
      onChange: () => this.renderLegend(),
      fallback: () => this.ctx.fallback(),
    });
    this.resizer?.disconnect();
    this.resizer = new ResizeObserver(() => this.chart?.resize());
    this.resizer.observe(this.els.chart);
    this.show(this.store.doc, this.store.isLive(this.store.doc));
  }

  destroy() {
    this.resizer?.disconnect();
    this.chart?.destroy();
    this.chart = null;
    this.root = null;
  }

  onStoreEvent(type, detail) {
    if (!this.visible) return;
    if (type === STORE.doc) this.show(detail.doc, detail.live);
    else if (type === STORE.samples) {
      this.chart?.appendSamples(detail);
      this.renderHeadThrottled();
    } else if (type === STORE.overlays) {
      this.chart?.refreshOverlays(detail);
      this.renderHeadThrottled();
    }
  }

  show(doc, live) {
    if (!this.root || !this.chart) return;
    this.els.empty.hidden = !!doc;
    this.els.chart.classList.toggle("mp-dim", !doc);
    this.chart.setDoc(doc, { live });
    this.renderHead();
  }

  renderHead() {
    const doc = this.store.doc;
    if (!this.root) return;
    if (!doc) {
      this.els.title.textContent = "Memory timeline";
      this.els.summary.textContent = "";
      return;
    }
    const live = this.store.isLive(doc);
    this.els.title.textContent = live
      ? `● Running · ${doc.id.slice(0, 8)}`
      : `${fmtTime(doc.started_at)} · ${doc.status} · ${doc.id.slice(0, 8)}`;
    const head = headline(doc, { live, fallback: this.ctx.fallback() });
    this.els.summary.textContent = head.title;
    this.els.summary.className = `mp-tl-summary mp-tone-${head.tone}`;
  }

  renderLegend() {
    const chart = this.chart;
    if (!chart) return;
    const stages = [...new Set(chart.state.bands.map((b) => b.stage))];
    const kinds = [...new Map(chart.state.markers.map((m) => [m.kind, m])).values()];
    fill(
      this.els.legend,
      ...chart.specs.map((s) => {
        const key = h(
          "button",
          {
            type: "button",
            class: `mp-key mp-toggle${chart.isShown(s.key) ? "" : " mp-off"}`,
            "aria-pressed": String(chart.isShown(s.key)),
            "data-series": s.key,
            title: "Show or hide this series",
          },
          h("i", { class: "mp-swatch", style: `background:${s.color}` }),
          s.label,
        );
        key.addEventListener("click", () => {
          const shown = chart.toggle(s.key);
          key.classList.toggle("mp-off", !shown);
          key.setAttribute("aria-pressed", String(shown));
        });
        return key;
      }),
      ...chart.limits.map((l) =>
        h(
          "span",
          { class: "mp-key", "data-limit": l.key },
          h("i", { class: "mp-swatch mp-dashed", style: `border-color:${l.color}` }),
          `${l.label} limit`,
        ),
      ),
      chart.state.peak ? h("span", { class: "mp-key" }, h("i", { class: "mp-swatch mp-dot" }), "peak") : null,
      ...kinds.map((m) =>
        h(
          "span",
          { class: "mp-key" },
          h("i", { class: "mp-swatch mp-vline", style: `background:${m.color}` }),
          m.kind === "probe" ? "probe reading" : m.label,
        ),
      ),
      ...stages.map((s) =>
        h("span", { class: "mp-key" }, h("i", { class: "mp-swatch mp-band", style: `background:${stageColor(s)}` }), s),
      ),
    );
  }
}
