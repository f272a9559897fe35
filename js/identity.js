// Which workflow a run belongs to, and whether the workflow open on the canvas is it. Apply,
// badges and row focus act only where this says so: a node id alone never decides (ComfyUI's
// default graph and most workflows have a node 8).
//
// A run carries `workflow: {id, graph}` (the frontend's workflow id from the prompt's
// extra_data, and a signature of the prompt's graph). The open workflow's id is its graph's
// `id`. Without an id on either side (runs queued by API clients, graphs built from an API
// prompt), the open graph must hold every node of the run's prompt with the same class and the
// same links.

import { inputLink, resolveExecutionId, rootGraphOf } from "./graphlocate.js";

export const NO_ID = "00000000-0000-0000-0000-000000000000";

/** A workflow id, or null for none / LiteGraph's placeholder for a graph without identity. */
export function realId(id) {
  return typeof id === "string" && id && id !== NO_ID ? id : null;
}

function isLink(value) {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    (typeof value[0] === "string" || typeof value[0] === "number") &&
    Number.isInteger(value[1])
  );
}

/** A workflow's display name ("txt2img" for "workflows/txt2img.json"). */
export function workflowName(workflow) {
  const name = workflow?.filename ?? workflow?.path?.split("/").pop();
  return name ? String(name).replace(/\.json$/i, "") : null;
}

/**
 * The workflow open on the canvas: {id, name, workflow, root}. `remembered` maps a frontend
 * workflow object to the run workflow id it was rebuilt from (see rememberRebuilt).
 */
export function openWorkflow(app, remembered = null) {
  const root = rootGraphOf(app);
  const active = app?.extensionManager?.workflow?.activeWorkflow ?? null;
  const id = realId(root?.id) ?? (active && remembered?.get(active)) ?? null;
  return { id, name: workflowName(active), workflow: active, root };
}

/** "same", "other" or "unknown" (no id on one side: decide by the graph). */
export function identityState(doc, open) {
  const runId = realId(doc?.workflow?.id);
  if (!runId || !open?.id) return "unknown";
  return runId === open.id ? "same" : "other";
}

function parentPrefix(executionId) {
  const id = String(executionId);
  const cut = id.lastIndexOf(":");
  return cut < 0 ? "" : id.slice(0, cut + 1);
}

/**
 * Does the open graph hold the run's node `executionId` as it ran: the same class, and every
 * input the prompt wired still wired to the same node's same output? {ok} or {ok: false, reason}.
 * Links through nodes the prompt does not contain (reroutes, primitives, subgraph inputs) cannot
 * be compared and are accepted.
 */
export function nodeMatchesPrompt(root, prompt, executionId) {
  const id = String(executionId);
  const entry = prompt?.[id];
  if (!entry) return { ok: false, reason: `Node ${id} is not part of this run's graph.` };
  const found = resolveExecutionId(root, id);
  if (!found) return { ok: false, reason: `The open workflow has no node ${id}.` };
  const { node, graph } = found;
  const label = `${entry._meta?.title || entry.class_type} (node ${id})`;
  if (node.type !== entry.class_type)
    return {
      ok: false,
      reason: `Node ${id} of the open workflow is a ${node.type}; in this run it was a ${entry.class_type}.`,
    };
  const prefix = parentPrefix(id);
  for (const [name, value] of Object.entries(entry.inputs || {})) {
    if (!isLink(value)) continue;
    const index = (node.inputs || []).findIndex((i) => i.name === name);
    const link = index >= 0 ? inputLink(graph, node, index) : null;
    if (!link) return { ok: false, reason: `${label}: its ${name} input is no longer connected.` };
    if (Number(link.origin_id) < 0) continue; // from the subgraph's inputs: the source lies outside
    const origin = graph.getNodeById?.(link.origin_id);
    if (!origin || origin.isVirtualNode) continue; // a reroute or primitive the prompt resolved through
    const originId = prefix + String(link.origin_id);
    if (origin.subgraph) {
      if (String(value[0]).startsWith(`${originId}:`)) continue; // fed from inside a subgraph node
      return { ok: false, reason: `${label}: its ${name} input comes from another node now.` };
    }
    if (originId !== String(value[0]) || Number(link.origin_slot) !== value[1]) {
      return { ok: false, reason: `${label}: its ${name} input comes from another node now.` };
    }
  }
  return { ok: true };
}

/** Every node of the run's prompt is in the open graph, as it ran. {ok, checked} or {ok: false, reason}. */
export function graphMatchesPrompt(root, prompt) {
  const ids = Object.keys(prompt || {}).filter(
    (k) => prompt[k] && typeof prompt[k] === "object" && prompt[k].class_type,
  );
  if (!root) return { ok: false, reason: "No workflow is open." };
  if (!ids.length) return { ok: false, reason: "This run has no graph to compare with." };
  for (const id of ids) {
    const match = nodeMatchesPrompt(root, prompt, id);
    if (!match.ok) return match;
  }
  return { ok: true, checked: ids.length };
}

/**
 * Where the run stands against the open workflow: {state, open, graph} with `graph` the whole-graph
 * comparison (made only when no id decides).
 */
export function runTarget(doc, app, remembered = null) {
  const open = openWorkflow(app, remembered);
  const state = identityState(doc, open);
  const graph = state === "unknown" ? graphMatchesPrompt(open.root, doc?.prompt) : null;
  return { state, open, graph };
}

/**
 * May the panel act on node `executionId` of the run (apply a change, badge it, select it)?
 * {ok} or {ok: false, reason, otherWorkflow}.
 */
export function canActOn(target, doc, executionId) {
  if (!target?.open?.root) return { ok: false, reason: "No workflow is open." };
  if (target.state === "other")
    return { ok: false, otherWorkflow: true, reason: "This run came from another workflow." };
  if (target.state === "unknown" && !target.graph?.ok)
    return { ok: false, reason: target.graph?.reason || "The open workflow is not this run's graph." };
  if (doc?.prompt) return nodeMatchesPrompt(target.open.root, doc.prompt, executionId);
  return resolveExecutionId(target.open.root, executionId)
    ? { ok: true }
    : { ok: false, reason: `The open workflow has no node ${executionId}.` };
}

/** The frontend's workflow object whose graph has this id (an open tab first), or null. */
export function findWorkflow(app, id) {
  const wanted = realId(id);
  const store = app?.extensionManager?.workflow;
  if (!wanted || !store) return null;
  const candidates = [...(store.openWorkflows ?? []), ...(store.workflows ?? [])];
  return (
    candidates.find((wf) => realId(wf?.activeState?.id) === wanted || realId(wf?.initialState?.id) === wanted) ?? null
  );
}
