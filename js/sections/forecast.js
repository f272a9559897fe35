// "Before you run": the forecast of the open workflow on this machine (POST /memprobe/forecast with
// the graph the frontend would queue), redrawn as the graph changes (debounced) and after each run
// (a run teaches the next forecast); its one change with its button. Below it, for the run on
// screen, what was forecast beside what was measured, stage by stage.

import { button, fill, h } from "../dom.js";
import { fmtBytes } from "../format.js";
import { STORE } from "../store.js";
import { forecastTone } from "../vocab.js";
import { GRAPH, Section } from "./section.js";

const DEBOUNCE_MS = 600;

/** The line for a forecast document: its verdict and where its peak is, against which limit. */
export function forecastLine(doc) {
  if (!doc?.peak) return { tone: "empty", text: "Nothing to forecast in this workflow yet." };
  const p = doc.peak;
  const where = `${p.class_type} (node ${p.node_id}, ${p.stage})`;
  const figure = `${fmtBytes(p.bytes)} of ${fmtBytes(p.limit_bytes)} ${p.limit_name}`;
  const worst = (doc.stages || []).find((s) => s.verdict === doc.verdict && s.verdict !== "fits");
  const text =
    doc.verdict === "fits"
      ? `Fits: peak ${figure} at ${where}.`
      : doc.verdict === "unknown"
        ? `Not known: ${doc.unknown_because}. What is counted: peak ${figure} at ${where}.`
        : `${doc.verdict === "tight" ? "Tight" : "Won't fit"} at ${worst ? worst.stage : p.stage}: peak ${figure} at ${where}.`;
  const offloaded = Math.max(0, ...(doc.stages || []).map((s) => s.offloaded_bytes || 0));
  return {
    tone: forecastTone(doc.verdict),
    text,
    note: offloaded ? `${fmtBytes(offloaded)} of model weights stay in RAM (slower).` : null,
    learned: (doc.learned || []).length
      ? `Learned on this machine (${doc.family}: ${[...new Set(doc.learned.map((l) => l.stage))].join(", ")}).`
      : "ComfyUI's own estimates: the first traced run teaches this machine's.",
  };
}

export class ForecastSection extends Section {
  get on() {
    return [GRAPH, STORE.doc, STORE.live];
  }

  mount() {
    this.result = null;
    this.error = null;
    this.timer = null;
    this.seq = 0;
    this.line = h("div", { class: "mp-fc-line", "data-testid": "memprobe-forecast-line", "aria-live": "polite" });
    this.change = h("div", { class: "mp-fc-change" });
    this.table = h("div", { class: "mp-fc-compare", "data-testid": "memprobe-forecast-compare" });
    this.el = h(
      "section",
      { class: "mp-forecast", "data-testid": "memprobe-forecast" },
      h("div", { class: "mp-section-title" }, "Before you run"),
      this.line,
      this.change,
      this.table,
    );
    this.schedule();
    return this.el;
  }

  render(view) {
    this.drawComparison(view.doc);
    if (!view.live) this.schedule();
  }

  /** Forecast the open graph again once it has been still for a moment. */
  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), DEBOUNCE_MS);
  }

  async refresh() {
    const seq = ++this.seq;
    let prompt = null;
    try {
      prompt = (await this.ctx.app.graphToPrompt())?.output ?? null;
    } catch {
      prompt = null;
    }
    if (seq !== this.seq) return;
    if (!prompt || !Object.keys(prompt).length) {
      this.result = null;
      this.error = null;
      return this.draw();
    }
    try {
      const doc = await this.ctx.fetchJson("/memprobe/forecast", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ prompt }),
      });
      if (seq !== this.seq) return;
      this.result = doc;
      this.error = null;
    } catch (e) {
      if (seq !== this.seq) return;
      this.error = e.message;
    }
    this.draw();
  }

  draw() {
    if (!this.el?.isConnected) return;
    if (this.error) {
      this.el.dataset.verdict = "";
      return fill(this.line, h("span", { class: "mp-muted" }, `The forecast is unavailable: ${this.error}`));
    }
    const line = forecastLine(this.result);
    this.el.dataset.verdict = this.result?.verdict ?? "";
    this.line.className = `mp-fc-line mp-tone-${line.tone}`;
    fill(
      this.line,
      h("span", { class: "mp-fc-text" }, line.text),
      line.note ? h("span", { class: "mp-fc-note" }, ` ${line.note}`) : null,
      line.learned ? h("div", { class: "mp-fc-learned mp-muted" }, line.learned) : null,
    );
    const first = this.result?.verdict !== "fits" ? this.result?.suggestions?.[0] : null;
    fill(
      this.change,
      first
        ? h(
            "div",
            { class: "mp-fc-try" },
            h("span", {}, h("span", { "aria-hidden": "true" }, "→ "), first.title),
            first.action
              ? button("Apply", {
                  primary: true,
                  title: first.try,
                  "data-action": "forecast-apply",
                  onclick: () => this.panel.actions.applyToOpen(first),
                })
              : null,
          )
        : null,
    );
  }

  /** The run on screen: forecast beside measurement, per stage (what the run's document kept). */
  drawComparison(doc) {
    const rows = (doc?.forecast?.stages || []).filter((r) => r.measured_bytes != null);
    if (!rows.length) return fill(this.table);
    fill(
      this.table,
      h("div", { class: "mp-fc-compare-title mp-muted" }, `This run: forecast vs measured (${doc.forecast.metric})`),
      h(
        "table",
        { class: "mp-table mp-fc-table" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", {}, "stage"), h("th", {}, "forecast"), h("th", {}, "measured"), h("th", {}, "error")),
        ),
        h(
          "tbody",
          {},
          ...rows.map((r) =>
            h(
              "tr",
              { "data-stage": r.stage },
              h("td", {}, r.stage),
              h("td", {}, fmtBytes(r.forecast_bytes)),
              h("td", {}, fmtBytes(r.measured_bytes)),
              h("td", {}, r.error_pct == null ? "" : `${r.error_pct > 0 ? "+" : ""}${r.error_pct}%`),
            ),
          ),
        ),
      ),
    );
  }
}
