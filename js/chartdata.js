// Shapes a run's timeline for the chart: which series, their data arrays, the limits drawn as
// lines, node bands and markers. Pure functions over the JSON the server sends
// (GET /memprobe/runs/{id}, memprobe.* events).

import { PALETTES, stageColor } from "./colors.js";
import { memoryOf, runPeak } from "./memory.js";
import { chartMetrics, isExecuted, metricLabel } from "./vocab.js";

/** GPU indices present in a timeline ("gpu0_used_bytes" -> 0). */
export function gpuIndices(series) {
  const found = new Set();
  for (const key of Object.keys(series || {})) {
    const m = /^gpu(\d+)_/.exec(key);
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b);
}

/** The series specs for what this timeline holds, in the server's order of metrics:
 * [{key, label, color, width, dash}]. */
export function seriesSpecs(timeline, { palette = PALETTES.dark } = {}) {
  const series = timeline?.series || {};
  return chartMetrics(series, gpuIndices(series)).map((m) => ({
    key: m.key,
    label: m.label,
    color: palette.series[m.color],
    width: m.width,
    dash: m.dash ?? undefined,
  }));
}

/** uPlot's data: [t, col1, col2, ...] in the order of the specs. */
export function chartData(timeline, specs) {
  const t = timeline?.t || [];
  const series = timeline?.series || {};
  return [t, ...specs.map((s) => series[s.key] || t.map(() => null))];
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

function knownValue(doc, key) {
  for (const source of [doc?.start_metrics, doc?.end_metrics, ...(doc?.nodes || []).map((n) => n.before)])
    if (source?.[key]) return source[key];
  for (const column of [doc?.timeline?.series?.[key]]) if (column) for (const v of column) if (v) return v;
  return null;
}

/**
 * The ceilings worth a horizontal line: the limit of the run's memory (only when the OS enforces
 * it, labelled with its name) and each GPU's VRAM. [{key, label, value, color, headline}].
 */
export function limitLines(doc, specs, { fallback = null, palette = PALETTES.dark } = {}) {
  const memory = memoryOf(doc, fallback);
  const lines = [];
  const colorOf = (key) => specs.find((s) => s.key === key)?.color ?? palette.muted;
  if (memory.limitBytes && memory.enforced) {
    lines.push({
      key: memory.metric,
      label: memory.limitName,
      value: memory.limitBytes,
      color: colorOf(memory.metric),
      headline: true,
    });
  }
  // the limit the OS enforces on system memory, when the run is judged by another (VRAM)
  const system = memory.system;
  if (
    system?.limit_enforced &&
    system.limit_bytes &&
    system.metric !== memory.metric &&
    specs.some((s) => s.key === system.metric)
  ) {
    lines.push({
      key: system.metric,
      label: system.limit_name,
      value: system.limit_bytes,
      color: colorOf(system.metric),
      headline: false,
    });
  }
  for (const i of gpuIndices(doc?.timeline?.series)) {
    const key = `gpu${i}_used_bytes`;
    const total = knownValue(doc, `gpu${i}_total_bytes`);
    if (total && !lines.some((l) => l.key === key))
      lines.push({ key, label: metricLabel(key), value: total, color: colorOf(key), headline: false });
  }
  return lines;
}

/** Bands for the nodes that ran: [{start, end, stage, color, nodeId, label, status}]; a running
 * node's band reaches `now` (the newest sample), so it grows as the run goes on. */
export function nodeBands(nodes, now = null) {
  const bands = [];
  for (const n of nodes || []) {
    if (n.start_s === null || n.start_s === undefined || !isExecuted(n.status)) continue;
    const end = n.end_s ?? (now != null ? Math.max(now, n.start_s) : n.start_s);
    bands.push({
      start: n.start_s,
      end,
      stage: n.stage,
      color: stageColor(n.stage),
      nodeId: n.real_node_id || n.node_id,
      label: n.title || n.class_type,
      status: n.status,
      running: n.end_s == null,
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
  for (const m of doc?.marks || [])
    if (m.t_s != null) out.push({ t: m.t_s, kind: "probe", label: m.label, color: "#ffe066" });
  for (const e of doc?.events || []) {
    if (e.t_s == null) continue;
    // of ComfyUI's model log lines only the partial loads are worth a marker
    if (e.kind.startsWith("model-") && !e.kind.startsWith("model-partially")) continue;
    out.push({
      t: e.t_s,
      kind: e.kind,
      label: e.kind.replace(/[-_]/g, " "),
      color: e.kind.startsWith("model-") ? "#ced4da" : "#e599f7",
    });
  }
  const f = doc?.failure;
  if (f && f.t_s != null) out.push({ t: f.t_s, kind: "failure", label: `${f.kind} failure`, color: "#ff4d4f" });
  return out.sort((a, b) => a.t - b.t);
}

/** The peak of the run's memory to mark on the chart: {t, value, label} or null. */
export function peakMarker(doc, { fallback = null } = {}) {
  const memory = memoryOf(doc, fallback);
  const v = doc?.verdict;
  const peak =
    v?.peak_t_s != null && v.metric === memory.metric
      ? { t: v.peak_t_s, value: v.peak_bytes }
      : runPeak(doc, memory.metric);
  if (!peak || peak.t == null) return null;
  return { key: memory.metric, t: peak.t, value: peak.value, label: `peak ${memory.label}` };
}

/** A limit is drawn to scale when the data reaches this share of it; farther away it would
 * flatten the curves, and is named at the top of the chart instead. */
export const LIMIT_IN_RANGE = 0.4;

/** The highest value of the shown series (data[0] is time). */
export function dataMax(data) {
  let max = 0;
  for (let i = 1; i < data.length; i++) for (const v of data[i] || []) if (v != null && v > max) max = v;
  return max;
}

/** The y range: from zero to a little above the highest value and the limits within reach. */
export function yRange(data, limits) {
  const top = dataMax(data);
  let max = top;
  for (const l of limits) if (top >= LIMIT_IN_RANGE * l.value) max = Math.max(max, l.value);
  return [0, max > 0 ? max * 1.08 : 1];
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
