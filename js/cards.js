// A suggestion as a card: a severity label, the two-line "Try", the reasons folded, and its
// action area (Apply, "Applied — Undo", or why not and what to do instead). The actions
// themselves live in actions.js; this module only draws them.

import { severityColors } from "./colors.js";
import { button, h } from "./dom.js";
import { workflowName } from "./identity.js";
import { planSwap } from "./swap.js";
import { severityLabel } from "./vocab.js";

/** "Open <the run's workflow>" (its tab, or a new tab with the graph the run executed), or null. */
export function openWorkflowButton(doc, actions, own = actions.ownWorkflow(doc)) {
  const open = () => actions.openRunWorkflow(doc);
  if (own) {
    return button(`Open “${workflowName(own)}”`, {
      primary: true,
      icon: "pi-folder-open",
      onclick: open,
      "data-action": "open-workflow",
    });
  }
  if (!doc.prompt) return null;
  return button("Open this run's graph", {
    primary: true,
    icon: "pi-folder-open",
    title: "A new tab with the graph this run executed",
    onclick: open,
    "data-action": "open-workflow",
  });
}

export function suggestionCard(s, doc, actions) {
  const severity = { ...severityColors(s.severity), label: severityLabel(s.severity) };
  return h(
    "article",
    { class: `mp-card mp-${s.severity}`, "data-suggestion": s.id, "aria-label": `${severity.label}: ${s.title}` },
    h(
      "div",
      { class: "mp-card-title" },
      h("span", { class: "mp-sev", style: `background:${severity.bg};color:${severity.fg}` }, severity.label),
      h("span", {}, s.title),
    ),
    h("div", { class: "mp-try" }, h("b", {}, "Try: "), s.try),
    h(
      "details",
      { class: "mp-why" },
      h("summary", {}, "Why, and details"),
      h("p", {}, h("b", {}, "Why: "), s.why),
      h("p", {}, h("b", {}, "Try: "), s.try),
    ),
    actionArea(s, doc, actions),
  );
}

/** The button says what it changes: the headline's short form, the card's "Apply: …". */
function applyLabel(action, compact) {
  if (action.type === "swap_vae_decode") return compact ? "Use VAE Decode (Tiled)" : "Apply: use VAE Decode (Tiled)";
  return compact ? `Set ${action.widget} to ${action.value}` : `Apply: ${action.widget} = ${action.value}`;
}

/** The action area of a suggestion: Apply, "Applied — Undo", or why not and what to do.
 * `compact`: the headline's, a short button and nothing when it cannot apply (the banner says why). */
export function actionArea(s, doc, actions, { compact = false } = {}) {
  const action = s.action;
  if (!action) return null;
  const wrap = (...children) => h("div", { class: "mp-card-actions" }, ...children);
  if (action.type === "free_memory") {
    return wrap(
      button("Free memory now", { primary: true, onclick: () => actions.freeMemory(), "data-action": "free" }),
    );
  }
  if (action.type !== "swap_vae_decode" && action.type !== "set_widget") return null;
  if (actions.appliedState(doc, s)) {
    return wrap(
      h("span", { class: "mp-applied", role: "status" }, "✓ Applied"),
      button("Undo", { icon: "pi-undo", onclick: () => actions.undo(), "data-action": "undo" }),
    );
  }
  const kind = action.type === "swap_vae_decode" ? "swap" : "widget";
  const check = actions.check(doc, s);
  if (check.ok) {
    if (kind === "swap") {
      const plan = planSwap(check.target.open.root, action.node_id);
      if (!plan.ok) return wrap(h("span", { class: "mp-note" }, plan.reason));
    }
    // a change the run needs is the primary action; a note (headroom only, nothing ran short) is not
    const needed = s.tier !== "note";
    return wrap(
      button(applyLabel(action, compact), {
        primary: needed,
        onclick: () => actions.apply(doc, s),
        "data-action": kind,
      }),
    );
  }
  if (compact) return null;
  const own = actions.ownWorkflow(doc);
  const why = check.otherWorkflow
    ? `This run came from ${own ? `“${workflowName(own)}”` : "another workflow"}; open it to apply this.`
    : check.reason;
  const here = check.here
    ? button(`Apply to “${check.target.open.name || "the open workflow"}” instead`, {
        title: "It has the same node with the same links",
        onclick: () => actions.apply(doc, s, { here: true }),
        "data-action": `${kind}-here`,
      })
    : null;
  return wrap(h("span", { class: "mp-note" }, why), openWorkflowButton(doc, actions, own), here);
}
