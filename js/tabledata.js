// Rows of the per-node table: one per node of a run, with its time and, per memory, how much it
// added (Δ = after − before), its peak, and whether that peak is exact (from a peak counter of the
// OS or torch: the node's `exact_peaks`) or sampled (the highest reading, which a short spike
// between two readings can exceed). Pure; panel.js draws them.

import { modelLine } from "./models.js";

const COLUMNS = [
  { key: "gpu0_used_bytes", label: "VRAM" },
  { key: "process_rss_bytes", label: "ComfyUI RAM" },
  { key: "commit_bytes", label: "Commit" },
];

/** The memory columns this run has data for. */
export function memoryColumns(doc) {
  const seen = new Set();
  for (const n of doc?.nodes || []) for (const k of Object.keys(n.peaks || {})) seen.add(k);
  return COLUMNS.filter((c) => seen.has(c.key));
}

export function tableRows(doc) {
  const columns = memoryColumns(doc);
  return (doc?.nodes || []).map((n) => {
    const row = {
      id: n.real_node_id || n.node_id,
      nodeId: n.node_id,
      title: n.title || n.class_type,
      type: n.class_type,
      stage: n.stage,
      status: n.status,
      time: n.duration_s ?? null,
      seq: n.seq,
      failed: n.status === "failed",
      fallbacks: n.fallbacks || [],
      models: modelLine(n),
    };
    for (const c of columns) {
      const before = n.before?.[c.key];
      const after = n.after?.[c.key];
      row[`${c.key}:delta`] = before != null && after != null ? after - before : null;
      row[`${c.key}:peak`] = n.status === "cached" ? null : (n.peaks?.[c.key] ?? null);
      row[`${c.key}:exact`] = (n.exact_peaks || []).includes(c.key);
    }
    return row;
  });
}

/** Sorted copy; nulls last whatever the direction. */
export function sortRows(rows, key, direction = "desc") {
  const sign = direction === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x == null && y == null) return a.seq - b.seq;
    if (x == null) return 1;
    if (y == null) return -1;
    if (typeof x === "string") return sign * x.localeCompare(y);
    return sign * (x - y) || a.seq - b.seq;
  });
}

/**
 * The nodes that deserve a badge: those that raised `metric` by at least `threshold` bytes while
 * they ran (peak − before), heaviest peak first.
 */
export function heaviestNodes(doc, metric, { count = 3, threshold = 0 } = {}) {
  return (doc?.nodes || [])
    .filter((n) => n.status !== "cached" && n.peaks?.[metric] != null)
    .map((n) => ({ id: n.real_node_id || n.node_id, peak: n.peaks[metric], growth: n.peaks[metric] - (n.before?.[metric] ?? n.peaks[metric]) }))
    .filter((n) => n.growth >= threshold)
    .sort((a, b) => b.peak - a.peak)
    .slice(0, count);
}
