// A comparison with another run (GET /memprobe/compare): what changed and what it did, per stage.

import { fill, h } from "../dom.js";
import { fmtBytes, fmtSeconds, fmtValue } from "../format.js";
import { STORE } from "../store.js";
import { metricLabel } from "../vocab.js";
import { Section } from "./section.js";

export class CompareSection extends Section {
  get on() {
    return [STORE.doc];
  }

  mount() {
    this.el = h("div", { class: "mp-compare" });
    return this.el;
  }

  /** A new run on screen: the comparison was of the old one. */
  render() {
    fill(this.el);
  }

  show(result) {
    const cmp = result.comparison;
    const metric = metricLabel(cmp.metric);
    const other = cmp.b.id.slice(0, 8);
    const cell = (v) => h("td", {}, fmtValue(v));
    const notRun = (side, s) => (s.cached[side] ? "cached" : "—");
    fill(
      this.el,
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
              h("td", {}, s.a ? fmtBytes(s.peak_a) : notRun("a", s)),
              h("td", {}, s.b ? fmtBytes(s.peak_b) : notRun("b", s)),
              h("td", {}, s.a ? fmtSeconds(s.a.time_s) : "—"),
              h("td", {}, s.b ? fmtSeconds(s.b.time_s) : "—"),
            ),
          ),
        ),
      ),
      h("p", {}, `Outcome: ${fmtValue(cmp.outcome.a.status)} here, ${fmtValue(cmp.outcome.b.status)} in ${other}.`),
    );
  }
}
