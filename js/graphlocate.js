// Finding a node of the workflow from the id ComfyUI executed it under. Nodes inside subgraphs
// run as "<subgraph node id>:<inner id>" (nested: "10:4:8"). Works on the live LiteGraph graph
// (app.rootGraph ?? app.graph) and, through serializedGraph(), on a saved workflow's JSON.

export const SUBGRAPH_INPUT_ID = -10;
export const SUBGRAPH_OUTPUT_ID = -20;

/** The root graph of the running frontend (app.rootGraph in newer frontends, app.graph before);
 * null while the frontend has none yet. */
export function rootGraphOf(app) {
  if (!app || app.isGraphReady === false) return null;
  return app.rootGraphOrUndefined ?? app.rootGraph ?? app.graph ?? null;
}

/** {node, graph, path} for an execution id, or null when any step is missing. */
export function resolveExecutionId(root, executionId) {
  if (!root || executionId === null || executionId === undefined) return null;
  const parts = String(executionId).split(":");
  let graph = root;
  const path = [];
  for (let i = 0; i < parts.length; i++) {
    const node = graph?.getNodeById?.(parts[i]) ?? graph?.getNodeById?.(Number(parts[i]));
    if (!node) return null;
    if (i === parts.length - 1) return { node, graph, path };
    path.push(node);
    graph = node.subgraph;
    if (!graph) return null;
  }
  return null;
}

function linkRecord(link) {
  if (Array.isArray(link)) {
    const [id, origin_id, origin_slot, target_id, target_slot, type] = link;
    return { id, origin_id, origin_slot, target_id, target_slot, type };
  }
  return link;
}

/**
 * The link into input `index` of `node` ({origin_id, origin_slot, target_id, target_slot}) or
 * null. Live nodes answer through LGraphNode.getInputLink (reading `input.link` is deprecated
 * since frontend 1.5x); a workflow's JSON through its link table.
 */
export function inputLink(graph, node, index) {
  if (index == null || index < 0) return null;
  if (typeof node?.getInputLink === "function") {
    try {
      return node.getInputLink(index) ?? null;
    } catch {
      return null; // a node outside any graph
    }
  }
  return getLink(graph, node?.inputs?.[index]?.link);
}

/** Every link leaving output `slot` of node `nodeId` (read from the graph's link table, never
 * from the deprecated `output.links`). */
export function linksFrom(graph, nodeId, slot) {
  const links = graph?.links;
  const all =
    links instanceof Map || typeof links?.values === "function" ? [...links.values()] : Object.values(links || {});
  return all
    .map(linkRecord)
    .filter((l) => l && String(l.origin_id) === String(nodeId) && Number(l.origin_slot) === Number(slot));
}

/** A read-only graph over a workflow's JSON with the LiteGraph lookups the planners use. */
export function serializedGraph(workflow, definitions = workflow?.definitions?.subgraphs || []) {
  const nodes = new Map((workflow?.nodes || []).map((n) => [String(n.id), n]));
  const links = new Map((workflow?.links || []).map((l) => [String(linkRecord(l).id), linkRecord(l)]));
  const byId = new Map(definitions.map((d) => [d.id, d]));
  const subgraphs = new Map();
  return {
    serialized: true,
    getNodeById(id) {
      const raw = nodes.get(String(id));
      if (!raw) return null;
      const def = byId.get(raw.type);
      if (def && !subgraphs.has(raw.id)) subgraphs.set(raw.id, serializedGraph(def, definitions));
      return { ...raw, subgraph: def ? subgraphs.get(raw.id) : undefined };
    },
    getLink(id) {
      return links.get(String(id)) ?? null;
    },
    get links() {
      return links;
    },
    get nodes() {
      return [...nodes.keys()].map((id) => this.getNodeById(id));
    },
  };
}

/** Every node of a graph and its subgraphs, with its execution id. */
export function allNodes(root) {
  const out = [];
  const walk = (graph, prefix, depth) => {
    if (!graph || depth > 32) return;
    const list = graph.nodes ?? graph._nodes ?? [];
    for (const node of list) {
      const id = prefix ? `${prefix}:${node.id}` : String(node.id);
      out.push({ id, node, graph });
      if (node.subgraph) walk(node.subgraph, id, depth + 1);
    }
  };
  walk(root, "", 0);
  return out;
}

/** A graph's link by id: LGraph.getLink in new frontends, the links map/object before. */
export function getLink(graph, id) {
  if (id === null || id === undefined) return null;
  if (typeof graph.getLink === "function") return graph.getLink(id) ?? null;
  const links = graph.links;
  if (links instanceof Map) return links.get(id) ?? null;
  return links?.[id] ?? null;
}
