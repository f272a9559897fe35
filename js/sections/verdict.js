// The headline: the run's verdict as the server judged it (which memory, how close to the limit
// the OS enforces, at which node and stage) with a meter, and the one change to try with its
// button; while a run executes, what is running and its memory now.

import { actionArea } from "../cards.js";
import { button, fill, h } from "../dom.js";
import { fmtSeconds } from "../format.js";
import { headline } from "../headline.js";
import { memoryOf } from "../memory.js";
import { STORE } from "../store.js";
import { runStatusLabel } from "../vocab.js";
import { GRAPH, Section } from "./section.js";

export class VerdictSection extends Section {
  get on() {
    return [STORE.doc, STORE.samples, STORE.overlays, GRAPH];
  }

  mount() {
    this.el = h("div", { class: "mp-headline", "data-testid": "memprobe-headline", "aria-live": "polite" });
    return this.el;
  }

  render({ doc, live }) {
    const fallback = this.ctx.fallback?.();
    const head = headline(doc, { live, fallback });
    const memory = doc ? memoryOf(doc, fallback) : null;
    const meter =
      head.share != null && memory?.limitBytes
        ? h(
            "div",
            {
              class: `mp-meter mp-tone-${head.tone}`,
              role: "meter",
              "aria-label": `${memory.label} peak against ${memory.limitName}`,
              "aria-valuemin": "0",
              "aria-valuemax": "100",
              "aria-valuenow": String(Math.round(head.share * 100)),
            },
            h("span", { style: `width:${Math.min(100, head.share * 100).toFixed(1)}%` }),
          )
        : null;
    const s = head.suggestion;
    this.el.className = `mp-headline mp-tone-${head.tone}`;
    fill(
      this.el,
      h("div", { class: "mp-hl-title" }, head.title),
      meter,
      head.detail ? h("div", { class: "mp-hl-detail" }, head.detail) : null,
      s && !live
        ? h(
            "div",
            { class: "mp-hl-try" },
            h("span", {}, h("span", { class: "mp-hl-arrow", "aria-hidden": "true" }, "→ "), s.title),
            actionArea(s, doc, this.panel.actions, { compact: true }),
          )
        : null,
      h(
        "div",
        { class: "mp-hl-meta" },
        h(
          "span",
          {},
          doc
            ? `${live ? "running" : runStatusLabel(doc.status)}${doc.duration_s != null ? ` · ${fmtSeconds(doc.duration_s)}` : ""} · ${(doc.nodes || []).length} nodes`
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
}
