// The action row: free memory, export the report, explain a log, buttons other modules add
// (addPanelAction), and the run to compare with.

import { button, fill, h } from "../dom.js";
import { openExplainDialog } from "../explain.js"; // "Explain a log" (js/explain.js)
import { STORE } from "../store.js";
import { Section } from "./section.js";
import { runLabel } from "./status.js";

const extraActions = [];
const mounted = new Set();

/**
 * Add a button to the panel's action row (e.g. another module's "Explain a log"):
 * {id, label, title, icon, onClick(panel)}. Returns a function that removes it.
 */
export function addPanelAction(spec) {
  extraActions.push(spec);
  for (const section of mounted) section.render(section.panel.view());
  return () => {
    const i = extraActions.indexOf(spec);
    if (i >= 0) extraActions.splice(i, 1);
    for (const section of mounted) section.render(section.panel.view());
  };
}

export class ActionsSection extends Section {
  get on() {
    return [STORE.runs, STORE.doc];
  }

  mount() {
    mounted.add(this);
    this.pick = h("select", {
      class: "mp-select mp-compare-pick",
      "aria-label": "Compare with another run",
      onchange: (e) => this.panel.onCompare(e.target.value),
    });
    this.el = h("div", { class: "mp-actions", "data-slot": "actions" });
    return [h("h4", {}, "Actions"), this.el];
  }

  render({ doc, store }) {
    const actions = this.panel.actions;
    const current = doc?.id;
    fill(
      this.pick,
      h("option", { value: "" }, "Compare with…"),
      ...store.runs
        .filter((r) => r.id !== current)
        .map((r) => h("option", { value: r.id, selected: r.id === this.panel.compareWith }, runLabel(r))),
    );
    this.pick.disabled = !current || store.runs.length < 2;
    fill(
      this.el,
      button("Free memory", {
        title: "Unload models and free cached memory (ComfyUI's /free)",
        onclick: () => actions.freeMemory(),
        "data-action": "free",
      }),
      button("Export report", {
        title: "A shareable report without prompts or paths",
        onclick: () => actions.exportReport(store.doc),
        disabled: !doc?.id,
        "data-action": "export",
      }),
      button("Explain a log", {
        title: "Paste or drop ComfyUI's log: which memory ran out, where, and what to try",
        onclick: () => openExplainDialog(this.ctx),
        "data-action": "explain-log",
      }),
      ...extraActions.map((a) =>
        button(a.label, { icon: a.icon, title: a.title, onclick: () => a.onClick?.(this.panel), "data-action": a.id }),
      ),
      this.pick,
    );
  }
}
