// The run's suggestions as cards (cards.js), strongest first, as the server ranked them.

import { suggestionCard } from "../cards.js";
import { fill, h } from "../dom.js";
import { STORE } from "../store.js";
import { GRAPH, Section } from "./section.js";

export class SuggestionsSection extends Section {
  get on() {
    return [STORE.doc, GRAPH];
  }

  mount() {
    this.el = h("div", { class: "mp-suggestions", "data-testid": "memprobe-suggestions" });
    return [h("h4", {}, "Suggestions"), this.el];
  }

  render({ doc, live }) {
    const list = doc?.suggestions || [];
    if (!doc) return fill(this.el, h("p", { class: "mp-muted" }, "Suggestions appear when a run ends."));
    if (!list.length)
      return fill(
        this.el,
        h(
          "p",
          { class: "mp-muted" },
          live ? "Suggestions come when the run ends." : "Nothing in this run points to a memory limit.",
        ),
      );
    fill(this.el, ...list.map((s) => suggestionCard(s, doc, this.panel.actions)));
  }
}
