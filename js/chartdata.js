// Shapes a run's timeline for the chart: which series, their data arrays, node bands and
// markers. Pure functions over the JSON the server sends (GET /memprobe/runs/{id}, memprobe.* events).

import { STAGE_COLORS } from "./format.js";

const GPU_SERIES = [
  { suffix: "used_bytes", label: "VRAM used", color: "#e06666", width: 2 },
  { suffix: "reserved_bytes", label: "torch reserved", color: "#f6b26b", width: 1 },
  { suffix: "allocated_bytes", label: "torch allocated", color: "#ffd966", width: 1 },
  { suffix: "shared_bytes", label: "shared GPU memory", color: "#c27ba0", width: 1 },
];

const SYSTEM_SERIES = [
  { key: "process_rss_bytes", label: "ComfyUI RAM", color: "#6fa8dc", width: 2 },
  { key: "ram_used_bytes", label: "RAM used (all)", color: "#76a5af", width: 1 },
  { key: "commit_bytes", label: "commit", color: "#93c47d", width: 2 },
  { key: "commit_limit_bytes", label: "commit limit", color: "#93c47d", width: 1, dash: [6, 4] },
  { key: "cgroup_used_bytes", label: "container memory", color: "#8e7cc3", width: 2 },
  { key: "model_offloaded_bytes", label: "model weights offloaded to RAM", color: "#b4a7d6", width: 1, dash: [2, 2] },
];

/** GPU indices present in a timeline ("gpu0_used_bytes" -> 0). */
export function gpuIndices(series) {
  const found = new Set();
  for (const key of Object.keys(series || {})) {
    const m = /^gpu(\d+)_/.exec(key);
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b);
}

/** The series specs for what this timeline holds, with a dashed ceiling per GPU when known. */
export function seriesSpecs(timeline, limits = {}) {
  const series = timeline?.series || {};
  const specs = [];
  for (const i of gpuIndices(series)) {
    for (const g of GPU_SERIES) {
      const key = `gpu${i}_${g.suffix}`;
      if (key in series) specs.push({ key, label: `GPU${i} ${g.label}`, color: g.color, width: g.width });
    }
    const total = limits[`gpu${i}_total_bytes`];
    if (total) specs.push({ key: `gpu${i}_total_bytes`, label: `GPU${i} VRAM total`, color: "#e06666", width: 1, dash: [2, 4], constant: total });
  }
  const commitEnforced = limits.commit_limit_enforced !== false;
  for (const s of SYSTEM_SERIES) {
    if (!(s.key in series)) continue;
    if (s.key === "commit_limit_bytes" && !commitEnforced) continue; // Linux overcommit 0/1: not a limit
    specs.push(s.key === "commit_bytes" && !commitEnforced ? { ...s, label: "commit (no limit enforced)", width: 1 } : { ...s });
  }
  const system = limits.system;
  if (system?.limit_enforced && system.limit_bytes && system.metric !== "commit_bytes") {
    specs.push({ key: "system_limit", label: `${system.limit_name} (the limit this OS enforces)`, color: "#76a5af", width: 1, dash: [6, 4], constant: system.limit_bytes });
  }
  return specs;
}

/** uPlot's data: [t, col1, col2, ...] in the order of the specs. */
export function chartData(timeline, specs) {
  const t = timeline?.t || [];
  const series = timeline?.series || {};
  return [t, ...specs.map((s) => (s.constant !== undefined ? t.map(() => s.constant) : series[s.key] || t.map(() => null)))];
}

/** Append a live batch ({t, series}) to a timeline in place, aligning columns. */
export function appendSamples(timeline, batch) {
  if (!batch?.t?.length) return timeline;
  const before = timeline.t.length;
  timeline.t.push(...batch.t);
  for (const [key, column] of Object.entries(batch.series || {})) {
    if (!timeline.series[key]) timeline.series[key] = new Array(before).fill(null);
    timeline.series[key].push(...column);
  }
  for (const column of Object.values(timeline.series)) {
    while (column.length < timeline.t.length) column.push(null);
  }
  return timeline;
}

/** Bands for the nodes that ran: [{start, end, stage, color, nodeId, label, status}]. */
export function nodeBands(nodes, now = null) {
  const bands = [];
  for (const n of nodes || []) {
    if (n.start_s === null || n.start_s === undefined) continue;
    const end = n.end_s ?? now ?? n.start_s;
    bands.push({
      start: n.start_s,
      end,
      stage: n.stage,
      color: STAGE_COLORS[n.stage] || STAGE_COLORS.other,
      nodeId: n.node_id,
      label: n.title || n.class_type,
      status: n.status,
    });
  }
  return bands;
}

/** The band under time t (the innermost, i.e. the latest-started, when several overlap). */
export function bandAt(bands, t) {
  let found = null;
  for (const b of bands) if (b.start <= t && t <= b.end && (!found || b.start >= found.start)) found = b;
  return found;
}

/** Markers: probe readings, the first failure, silent fallbacks and spills. */
export function markers(doc) {
  const out = [];
  for (const m of doc?.marks || []) if (m.t_s != null) out.push({ t: m.t_s, kind: "probe", label: m.label, color: "#ffd966" });
  for (const e of doc?.events || []) {
    // of ComfyUI's model log lines only the partial loads and unloads are worth a marker
    if (e.kind.startsWith("model-") && !e.kind.startsWith("model-partially")) continue;
    out.push({ t: e.t_s, kind: e.kind, label: e.kind, color: e.kind.startsWith("model-") ? "#b4a7d6" : "#c27ba0" });
  }
  const f = doc?.failure;
  if (f && f.t_s != null) out.push({ t: f.t_s, kind: "failure", label: `${f.kind} failure`, color: "#ff0000" });
  return out.sort((a, b) => a.t - b.t);
}

/** Limits worth drawing from whatever the run document (or the live status) knows: VRAM totals,
 * the system memory limit the OS enforces (`memory.system`), and whether the commit limit is one. */
export function limitsOf(doc, memory = doc?.memory) {
  const limits = {};
  for (const source of [doc?.start_metrics, doc?.end_metrics, ...(doc?.nodes || []).map((n) => n.before)]) {
    for (const [k, v] of Object.entries(source || {})) if (k.endsWith("_total_bytes") && v) limits[k] = v;
  }
  if (memory?.system) limits.system = memory.system;
  if (typeof memory?.commit_limit_enforced === "boolean") limits.commit_limit_enforced = memory.commit_limit_enforced;
  return limits;
}

/** Index of the sample nearest to time x (t sorted ascending). */
export function nearestIndex(t, x) {
  let lo = 0;
  let hi = t.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(t[lo - 1] - x) < Math.abs(t[lo] - x)) return lo - 1;
  return lo;
}
