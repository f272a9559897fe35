// Whose run this is, when the open workflow is not its own: Apply, badges and node selection act
// only on the run's own workflow, and the banner offers to open it.

import { openWorkflowButton } from "../cards.js";
import { fill, h } from "../dom.js";
import { workflowName } from "../identity.js";
import { STORE } from "../store.js";
import { GRAPH, Section } from "./section.js";

/** “name”, or `otherwise` when there is no name. */
export const quoted = (name, otherwise) => (name ? `“${name}”` : otherwise);

export class BannerSection extends Section {
  get on() {
    return [STORE.doc, GRAPH];
  }

  mount() {
    this.el = h("div", { class: "mp-banner", hidden: true, "data-testid": "memprobe-identity" });
    return this.el;
  }

  render({ doc }) {
    const { el } = this;
    const actions = this.panel.actions;
    const target = doc ? actions.target(doc) : null;
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
    const own = actions.ownWorkflow(doc);
    const text =
      target.state === "other"
        ? `This run came from ${quoted(workflowName(own), "another workflow")}, not from ` +
          `${quoted(target.open.name, "the open one")}. Apply, badges and node selection act only on its own workflow.`
        : `The open workflow is not this run's graph: ${target.graph?.reason || "it differs."} ` +
          "Apply, badges and node selection are off.";
    el.hidden = false;
    fill(el, h("div", {}, text), openWorkflowButton(doc, actions, own));
  }
}
