// The memory a run is judged by, as the server said it (the run's `memory` object, or the live
// status's for a run still executing): its metric, label and the limit the OS enforces on it; and
// the run's highest reading of it, for the chart's peak marker. No judgement here: the server's
// verdict (memprobe/judging/verdict.py) says what the run means.

import { isExecuted } from "./vocab.js";

/**
 * {metric, label, limitBytes, limitName, enforced, countedPeak, system} of a run, from the server's
 * `memory` object ({metric, label, limit_bytes, limit_name, limit_enforced, system}); `fallback`
 * (the live status's `memory`) serves a live run that has none yet.
 */
export function memoryOf(doc, fallback = null) {
  const memory = doc?.memory || fallback || {};
  const system = memory.system || null;
  // what counts against the limit at the run's peak when it is more than the metric (RAM + swap)
  const countedPeak =
    system && system.metric === memory.metric ? (system.peak_bytes ?? system.used_bytes ?? null) : null;
  return {
    metric: memory.metric || null,
    label: memory.label || "memory",
    limitBytes: memory.limit_bytes || null,
    limitName: memory.limit_name || null,
    enforced: !!memory.limit_enforced,
    countedPeak,
    system,
  };
}

export function executedNodes(doc) {
  return (doc?.nodes || []).filter((n) => isExecuted(n.status));
}

function nodeAt(doc, t) {
  let found = null;
  for (const n of executedNodes(doc)) {
    if (n.start_s == null || t < n.start_s) continue;
    const end = n.end_s ?? Infinity;
    if (t <= end && (!found || n.start_s >= found.start_s)) found = n;
  }
  return found;
}

/** {value, t, node} of the metric's highest reading in the run (timeline or nodes' own peaks). */
export function runPeak(doc, metric) {
  if (!metric) return null;
  const t = doc?.timeline?.t || [];
  const column = doc?.timeline?.series?.[metric] || [];
  let sample = null;
  for (let i = 0; i < column.length; i++)
    if (column[i] != null && (!sample || column[i] > sample.value)) sample = { value: column[i], t: t[i] };
  let best = null;
  for (const n of executedNodes(doc)) {
    const v = n.peaks?.[metric];
    if (v != null && (!best || v > best.value)) best = { value: v, node: n };
  }
  if (sample && (!best || sample.value >= best.value))
    return { value: sample.value, t: sample.t, node: nodeAt(doc, sample.t) ?? best?.node ?? null };
  if (!best) return null;
  const n = best.node;
  let at = n.start_s != null && n.end_s != null ? (n.start_s + n.end_s) / 2 : (n.start_s ?? null);
  let top = -Infinity;
  for (let i = 0; i < column.length; i++)
    if (t[i] >= n.start_s && t[i] <= (n.end_s ?? Infinity) && column[i] > top) [top, at] = [column[i], t[i]];
  return { value: best.value, t: at, node: n };
}

/** A node's name for a sentence: its title, or its class when the title is long or missing. */
export function nodeName(node) {
  if (!node) return null;
  const title = node.title && node.title.length <= 32 ? node.title : null;
  return title || node.class_type || node.title || `node ${node.node_id}`;
}
