// Rows of the per-node table: one per node of a run, with its time and, per memory, its peak, what
// it added while it ran (peak − before: a decode that raises commit by 3.5 GiB and frees it before
// it ends added 3.5 GiB, not the few MiB "after − before" would say), and whether that peak is
// exact (from a peak counter of the OS or torch: the node's `exact_peaks`) or sampled (the highest
// reading, which a short spike between two readings can exceed); and the node's model line
// (models.js). Pure; panel.js draws them.

import { modelLine } from "./models.js";
import { isExecuted, metricLabel, tableMetrics } from "./vocab.js";

/** The memories this run has per-node readings for, `first` (the headline metric) first. */
export function memoryColumns(doc, first = null) {
  const seen = new Set();
  for (const n of doc?.nodes || []) for (const k of Object.keys(n.peaks || {})) seen.add(k);
  const keys = tableMetrics().filter((k) => seen.has(k));
  if (first && seen.has(first)) keys.splice(0, keys.length, first, ...keys.filter((k) => k !== first));
  return keys.map((key) => ({ key, label: metricLabel(key) }));
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
      const peak = isExecuted(n.status) ? (n.peaks?.[c.key] ?? null) : null;
      const before = n.before?.[c.key];
      row[`${c.key}:peak`] = peak;
      row[`${c.key}:added`] = peak != null && before != null ? Math.max(0, peak - before) : null;
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
    if (typeof x === "string") return sign * x.localeCompare(y) || a.seq - b.seq;
    return sign * (x - y) || a.seq - b.seq;
  });
}

/**
 * The nodes that deserve a badge: those that added at least `threshold` bytes of the judged memory
 * while they ran (peak − before), heaviest peak first, each with the tone the verdict gave it
 * (neutral, near the enforced limit, failed) — the failed node always.
 */
export function heaviestNodes(doc, { count = 3, threshold = 0 } = {}) {
  const judged = doc?.verdict?.nodes || [];
  const metric = doc?.verdict?.metric;
  const byId = new Map((doc?.nodes || []).map((n) => [String(n.node_id), n]));
  return judged
    .filter((j) => j.peak_bytes != null)
    .map((j) => {
      const n = byId.get(String(j.node_id)) || {};
      return {
        id: n.real_node_id || j.node_id,
        peak: j.peak_bytes,
        growth: j.peak_bytes - (n.before?.[metric] ?? j.peak_bytes),
        tone: j.tone,
      };
    })
    .filter((n) => n.growth >= threshold || n.tone === "failed")
    .sort((a, b) => b.peak - a.peak)
    .slice(0, count);
}
