// Everything that changes or moves the live LiteGraph graph, in one place: the tiled-decode swap
// (one undo step), a widget change, focusing a node (inside subgraphs too) and node badges.

import { badgeColors } from "./colors.js";
import { resolveExecutionId, rootGraphOf, SUBGRAPH_INPUT_ID, SUBGRAPH_OUTPUT_ID } from "./graphlocate.js";
import { planSwap, TILED_CLASS, tiledSettings } from "./swap.js";

/** Run `edit` as a single undo step (Ctrl+Z undoes all of it). */
function asOneChange(app, edit) {
  const canvas = app.canvas;
  canvas?.emitBeforeChange?.();
  try {
    return edit();
  } finally {
    canvas?.emitAfterChange?.();
    canvas?.setDirty?.(true, true);
  }
}

/** The thing a link starts from: a node, or the subgraph's input slot (id -10). */
function originOf(graph, origin) {
  if (Number(origin.originId) === SUBGRAPH_INPUT_ID) {
    const slot = (graph.inputNode?.slots ?? graph.inputs)?.[origin.originSlot];
    return slot ? { connect: (target, index) => slot.connect(target.inputs[index], target) } : null;
  }
  const node = graph.getNodeById(origin.originId);
  return node ? { connect: (target, index) => node.connect(origin.originSlot, target, index) } : null;
}

/** The thing a link ends at: a node's input, or the subgraph's output slot (id -20). */
function targetOf(graph, output) {
  if (Number(output.targetId) === SUBGRAPH_OUTPUT_ID) {
    const slot = (graph.outputNode?.slots ?? graph.outputs)?.[output.targetSlot];
    return slot ? { connect: (source, index) => slot.connect(source.outputs[index], source) } : null;
  }
  const node = graph.getNodeById(output.targetId);
  return node ? { connect: (source, index) => source.connect(index, node, output.targetSlot) } : null;
}

/**
 * Replace the VAE Decode at executionId with a VAE Decode (Tiled). `expected` is the plan the
 * button was drawn from: if the graph no longer matches it, nothing is changed.
 * Returns {ok, node} or {ok: false, reason}.
 */
export function applyTiledSwap(app, LiteGraph, executionId, action, expected = null) {
  const root = rootGraphOf(app);
  const plan = planSwap(root, executionId);
  if (!plan.ok) return plan;
  if (expected && expected.signature !== plan.signature) {
    return { ok: false, reason: "The workflow changed since this run: re-run it to get a fresh suggestion." };
  }
  const { graph, node: old } = resolveExecutionId(root, executionId);
  // Resolve every endpoint before changing anything: the edit either happens whole or not at all.
  const origins = { samples: originOf(graph, plan.inputs.samples), vae: originOf(graph, plan.inputs.vae) };
  const targets = plan.outputs.map((o) => targetOf(graph, o));
  if (!origins.samples || !origins.vae || targets.some((t) => !t)) {
    return { ok: false, reason: "A node connected to this VAE Decode is missing; nothing was changed." };
  }
  const tiled = LiteGraph.createNode(TILED_CLASS);
  if (!tiled) return { ok: false, reason: "This ComfyUI has no VAE Decode (Tiled) node." };
  try {
    return asOneChange(app, () => {
      tiled.pos = [...plan.pos];
      graph.add(tiled);
      for (const name of ["samples", "vae"]) origins[name].connect(tiled, tiled.findInputSlot(name));
      const settings = tiledSettings(action);
      for (const widget of tiled.widgets || []) {
        if (widget.name in settings) widget.value = settings[widget.name];
      }
      const imageIndex = Math.max(0, tiled.findOutputSlot("IMAGE"));
      for (const target of targets) target.connect(tiled, imageIndex);
      graph.remove(old);
      return { ok: true, node: tiled, settings };
    });
  } catch (error) {
    return { ok: false, reason: `The swap failed (${error.message}); press Ctrl+Z if the graph looks changed.` };
  }
}

/** Set one widget of a node (e.g. a smaller tile_size) as one undo step. */
export function applyWidgetValue(app, executionId, widgetName, value) {
  const found = resolveExecutionId(rootGraphOf(app), executionId);
  const widget = found?.node?.widgets?.find((w) => w.name === widgetName);
  if (!widget) return { ok: false, reason: `Node ${executionId} has no ${widgetName} any more.` };
  return asOneChange(app, () => {
    widget.value = value;
    widget.callback?.(value);
    return { ok: true, node: found.node };
  });
}

/** Select a node and centre the canvas on it, opening the subgraph it lives in first. */
export function focusNode(app, executionId) {
  const found = resolveExecutionId(rootGraphOf(app), executionId);
  if (!found) return false;
  const canvas = app.canvas;
  if (canvas.graph !== found.graph) {
    if (found.graph === rootGraphOf(app)) canvas.setGraph?.(found.graph);
    else if (typeof canvas.openSubgraph === "function") canvas.openSubgraph(found.graph);
    else canvas.setGraph?.(found.graph);
  }
  canvas.selectNode?.(found.node);
  canvas.centerOnNode?.(found.node);
  canvas.setDirty?.(true, true);
  return true;
}

const ours = new WeakMap(); // node -> the badge Memory Probe put on it
const badgedNodes = []; // WeakRefs to the nodes that carry one

/** Replace Memory Probe's badges: [{id, text, tone: "neutral"|"near"|"failed"}] on the nodes
 * they name; not saved in the workflow. */
export function setBadges(app, LGraphBadge, badges) {
  const root = rootGraphOf(app);
  for (const entry of badgedNodes) {
    const node = entry.deref();
    if (node && ours.has(node)) node.badges = (node.badges || []).filter((b) => b !== ours.get(node));
  }
  badgedNodes.length = 0;
  if (!LGraphBadge) return 0;
  let placed = 0;
  for (const { id, text, tone = "neutral" } of badges) {
    const node = resolveExecutionId(root, id)?.node;
    if (!node) continue;
    const colors = badgeColors(tone);
    const badge = new LGraphBadge({ text, fgColor: colors.fg, bgColor: colors.bg });
    node.badges = [...(node.badges || []), badge];
    ours.set(node, badge);
    badgedNodes.push(new WeakRef(node));
    placed++;
  }
  app.canvas?.setDirty?.(true, true);
  return placed;
}
