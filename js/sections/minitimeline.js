// The run on screen as a compact memory timeline in the sidebar itself: the memory that bounds the
// run against the limit the OS enforces on it, its stages as bands, what the forecast said as a faint
// line per stage. A click (or Enter) opens the wide timeline in the bottom panel.

import { stageColor } from "../colors.js";
import { fill, h } from "../dom.js";
import { fmtBytes } from "../format.js";
import { executedNodes, memoryOf } from "../memory.js";
import { STORE } from "../store.js";
import { Section } from "./section.js";

const W = 300;
const H = 64;
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}

/** The points of the bounding metric, at most one per pixel column (its highest reading there). */
export function columns(t, values, t1, width = W) {
  const out = new Map();
  for (let i = 0; i < t.length; i++) {
    const v = values[i];
    if (v == null) continue;
    const x = Math.round((t[i] / (t1 || 1)) * width);
    if (!out.has(x) || v > out.get(x)) out.set(x, v);
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]);
}

/** What the forecast said of each stage, on the metric the chart draws ({stage: bytes}). */
export function forecastByStage(doc, metric) {
  const fc = doc?.forecast;
  if (!fc?.stages) return {};
  const same = fc.metric === metric;
  return Object.fromEntries(
    fc.stages
      .map((s) => [s.stage, same ? s.forecast_bytes : s.system_bytes])
      .filter(([, v]) => typeof v === "number" && v > 0),
  );
}

export class MiniTimelineSection extends Section {
  get on() {
    return [STORE.doc, STORE.samples, STORE.overlays];
  }

  mount() {
    const open = () => this.ctx.openTimeline?.();
    this.el = h("div", {
      class: "mp-mini",
      "data-testid": "memprobe-mini-timeline",
      role: "button",
      tabindex: "0",
      title: "The run's memory against its limit; click for the wide timeline",
      onclick: open,
      onkeydown: (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          open();
        }
      },
    });
    return this.el;
  }

  render({ doc }) {
    const memory = doc ? memoryOf(doc, this.ctx.fallback?.()) : null;
    const t = doc?.timeline?.t || [];
    const values = memory?.metric ? doc.timeline?.series?.[memory.metric] || [] : [];
    if (!doc || !memory?.metric || !t.length) {
      this.el.hidden = true;
      return fill(this.el);
    }
    this.el.hidden = false;
    const nodes = executedNodes(doc).filter((n) => n.start_s != null);
    const t1 = Math.max(t[t.length - 1] || 0, ...nodes.map((n) => n.end_s ?? 0)) || 1;
    const forecast = forecastByStage(doc, memory.metric);
    const top =
      Math.max(memory.limitBytes || 0, ...values.filter((v) => v != null), ...Object.values(forecast)) * 1.05 || 1;
    const y = (v) => (H - (v / top) * H).toFixed(1);
    const x = (s) => ((s / t1) * W).toFixed(1);
    const bands = nodes.map((n) =>
      svg("rect", {
        x: x(n.start_s),
        y: 0,
        width: Math.max(0.5, ((n.end_s ?? t1) - n.start_s) * (W / t1)).toFixed(1),
        height: H,
        fill: stageColor(n.stage),
        "fill-opacity": 0.18,
        "data-stage": n.stage,
      }),
    );
    const guesses = nodes
      .filter((n) => forecast[n.stage] != null)
      .map((n) =>
        svg("line", {
          class: "mp-mini-forecast",
          x1: x(n.start_s),
          x2: x(n.end_s ?? t1),
          y1: y(forecast[n.stage]),
          y2: y(forecast[n.stage]),
          "data-stage": n.stage,
        }),
      );
    const points = columns(t, values, t1)
      .map(([px, v]) => `${px},${y(v)}`)
      .join(" ");
    const limit = memory.limitBytes
      ? svg("line", { class: "mp-mini-limit", x1: 0, x2: W, y1: y(memory.limitBytes), y2: y(memory.limitBytes) })
      : null;
    const peak = Math.max(...values.filter((v) => v != null));
    fill(
      this.el,
      svg(
        "svg",
        { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", "aria-hidden": "true" },
        ...bands,
        limit,
        ...guesses,
        svg("polyline", { class: "mp-mini-line", points }),
      ),
      h(
        "div",
        { class: "mp-mini-legend mp-muted" },
        `${memory.label}: peak ${fmtBytes(peak)}${memory.limitBytes ? ` of ${fmtBytes(memory.limitBytes)} ${memory.limitName}` : ""}`,
        Object.keys(forecast).length ? " · dashed: the forecast" : "",
      ),
    );
  }
}
