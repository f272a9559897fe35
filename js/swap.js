// Planning the one-click fix: VAE Decode -> VAE Decode (Tiled) at the same place, same samples
// and vae inputs, every IMAGE link kept. Pure: it reads a graph (live or serialized) and returns
// what to do, or why it cannot be done; graphedit.js carries the plan out in LiteGraph.

import { inputLink, linksFrom, resolveExecutionId } from "./graphlocate.js";

export const TILED_CLASS = "VAEDecodeTiled";
export const TILED_WIDGETS = ["tile_size", "overlap", "temporal_size", "temporal_overlap"];

function inputIndex(node, name) {
  return (node.inputs || []).findIndex((i) => i.name === name);
}

function imageOutputIndex(node) {
  const outputs = node.outputs || [];
  const byName = outputs.findIndex((o) => o.name === "IMAGE");
  return byName >= 0 ? byName : outputs.findIndex((o) => o.type === "IMAGE");
}

/**
 * The swap for the node at executionId: {ok: true, executionId, nodeId, pos, size, inputs: {samples,
 * vae: {originId, originSlot}}, outputs: [{targetId, targetSlot}], signature} or {ok: false, reason}.
 */
export function planSwap(root, executionId, expectedType = "VAEDecode") {
  const found = resolveExecutionId(root, executionId);
  if (!found) return { ok: false, reason: `Node ${executionId} is no longer in this workflow.` };
  const { node, graph } = found;
  if (node.type !== expectedType) {
    return { ok: false, reason: `Node ${executionId} is now a ${node.type}, not a ${expectedType}.` };
  }
  const inputs = {};
  for (const name of ["samples", "vae"]) {
    const link = inputLink(graph, node, inputIndex(node, name));
    if (!link) return { ok: false, reason: `The VAE Decode's ${name} input is not connected.` };
    inputs[name] = { originId: link.origin_id, originSlot: link.origin_slot };
  }
  const imageIndex = imageOutputIndex(node);
  const outputs =
    imageIndex < 0
      ? []
      : linksFrom(graph, node.id, imageIndex).map((l) => ({ targetId: l.target_id, targetSlot: l.target_slot }));
  const plan = {
    ok: true,
    executionId: String(executionId),
    nodeId: node.id,
    pos: [...(node.pos || [0, 0])],
    size: node.size ? [...node.size] : null,
    inputs,
    outputs,
  };
  plan.signature = signature(plan);
  return plan;
}

/** What the plan depends on; a different signature at apply time means the graph changed. */
export function signature(plan) {
  const i = plan.inputs;
  const outs = plan.outputs
    .map((o) => `${o.targetId}.${o.targetSlot}`)
    .sort()
    .join(",");
  return `${plan.nodeId}|${i.samples.originId}.${i.samples.originSlot}|${i.vae.originId}.${i.vae.originSlot}|${outs}`;
}

/** Widget values for the tiled node from a suggestion's action (defaults of VAEDecodeTiled). */
export function tiledSettings(action = {}) {
  const defaults = { tile_size: 512, overlap: 64, temporal_size: 64, temporal_overlap: 8 };
  const settings = {};
  for (const name of TILED_WIDGETS) settings[name] = Number.isFinite(action[name]) ? action[name] : defaults[name];
  if (settings.tile_size < 4 * settings.overlap) settings.overlap = Math.floor(settings.tile_size / 4);
  return settings;
}
