// Rows of the per-node table: one per node of a run, with its time and, per memory, its peak and
// what it added while it ran (peak − before: a decode that raises commit by 3.5 GiB and frees it
// before it ends added 3.5 GiB, not the few MiB "after − before" would say). Pure; panel.js draws them.

import { fmtBytes } from "./format.js";
import { metricLabel } from "./memory.js";

const COLUMN_ORDER = ["gpu0_used_bytes", "process_rss_bytes", "ram_used_bytes", "commit_bytes", "gpu0_reserved_bytes", "gpu0_offloaded_bytes"];

/** The memories this run has per-node readings for, `first` (the headline metric) first. */
export function memoryColumns(doc, first = null) {
  const seen = new Set();
  for (const n of doc?.nodes || []) for (const k of Object.keys(n.peaks || {})) seen.add(k);
  const keys = COLUMN_ORDER.filter((k) => seen.has(k));
  if (first && seen.has(first)) keys.splice(0, keys.length, first, ...keys.filter((k) => k !== first));
  return keys.map((key) => ({ key, label: metricLabel(key) }));
}

/** Extra lines under a node's name: the models it holds (name, device, dtype, size, offloaded). */
export function detailLines(node) {
  const lines = [];
  for (const m of Array.isArray(node?.models) ? node.models : []) {
    const parts = [m.name || m.class || "model"];
    if (m.device) parts.push(m.device);
    if (m.dtype) parts.push(m.dtype);
    const size = m.loaded_bytes ?? m.size_bytes;
    if (size != null) parts.push(fmtBytes(size));
    if (m.offloaded_bytes) parts.push(`${fmtBytes(m.offloaded_bytes)} offloaded`);
    lines.push(parts.join(" · "));
  }
  return lines;
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
      details: detailLines(n),
    };
    for (const c of columns) {
      const peak = n.status === "cached" ? null : (n.peaks?.[c.key] ?? null);
      const before = n.before?.[c.key];
      row[`${c.key}:peak`] = peak;
      row[`${c.key}:added`] = peak != null && before != null ? Math.max(0, peak - before) : null;
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
 * The nodes that deserve a badge: those that added at least `threshold` bytes of `metric` while
 * they ran (peak − before), heaviest peak first.
 */
export function heaviestNodes(doc, metric, { count = 3, threshold = 0 } = {}) {
  return (doc?.nodes || [])
    .filter((n) => n.status !== "cached" && n.peaks?.[metric] != null)
    .map((n) => ({ id: n.real_node_id || n.node_id, peak: n.peaks[metric], growth: n.peaks[metric] - (n.before?.[metric] ?? n.peaks[metric]), failed: n.status === "failed" }))
    .filter((n) => n.growth >= threshold || n.failed)
    .sort((a, b) => b.peak - a.peak)
    .slice(0, count);
}
