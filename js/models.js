// Model residency in the panel: the model line of a node row ("SDXL: 3.2 GiB on GPU, 1.6 GiB
// offloaded to RAM"), the change a node made ("loaded SDXL partially"), and the timeline series of
// model weight offloaded to RAM. Pure functions over the node documents the server sends
// (`models`, `models_before`, `model_changes`; see memprobe/residency.py).

import { fmtBytes } from "./format.js";
import { isOpen } from "./vocab.js";

export const OFFLOADED_KEY = "model_offloaded_bytes";

/** "on GPU" (or "on GPU 1"), "in RAM" for the CPU, the raw name otherwise. */
export function where(device) {
  if (!device) return "";
  if (device === "cpu") return "in RAM";
  const m = /^(cuda|xpu|mps|npu|mlu)(?::(\d+))?$/.exec(device);
  if (m) return m[2] && m[2] !== "0" ? `on GPU ${m[2]}` : "on GPU";
  return `on ${device}`;
}

/** "SDXL: 3.2 GiB on GPU, 1.6 GiB offloaded to RAM". */
export function formatModel(m) {
  const name = m.class || m.name || "a model";
  if (m.loaded_bytes == null) return `${name}: ${fmtBytes(m.size_bytes)}`;
  let text = `${name}: ${fmtBytes(m.loaded_bytes)} ${where(m.device)}`.trimEnd();
  if (m.offloaded_bytes) text += `, ${fmtBytes(m.offloaded_bytes)} offloaded to RAM`;
  return text;
}

/** The longer form for a tooltip: file, precision, size. */
export function describeModel(m) {
  const details = [
    m.file,
    m.dtype,
    m.size_bytes != null ? `${fmtBytes(m.size_bytes)} in all` : null,
    m.dynamic ? "dynamic VRAM" : null,
  ];
  return `${formatModel(m)} (${details.filter(Boolean).join(", ")})`;
}

/** What one change did, in a few words. */
export function formatChange(c) {
  const name = c.class || c.name || "a model";
  switch (c.change) {
    case "loaded":
      return `loaded ${name} (${fmtBytes(c.loaded_bytes)} ${where(c.device)})`;
    case "partially-loaded":
      return `loaded ${name} partially: ${fmtBytes(c.loaded_bytes)} ${where(c.device)}, ${fmtBytes(c.offloaded_bytes)} offloaded to RAM`;
    case "offloaded":
      return `moved ${fmtBytes((c.loaded_bytes_before ?? 0) - (c.loaded_bytes ?? 0))} of ${name} to RAM`;
    case "unloaded":
      return `unloaded ${name}`;
    default:
      return `moved ${name} ${where(c.device)}`;
  }
}

/**
 * The model line of a node row: what the node changed (it triggered a load or unload), else
 * nothing. `title` lists every model held when it ended.
 */
export function modelLine(node) {
  const changes = node?.model_changes || [];
  const held = node?.models || [];
  return {
    text: changes.map(formatChange).join("; "),
    changed: changes.length > 0,
    partial: changes.some((c) => c.change === "partially-loaded" || c.change === "offloaded"),
    title: held.length ? `Models held: ${held.map(describeModel).join("; ")}` : "",
  };
}

function offloaded(models) {
  if (!models) return null;
  return models.reduce((sum, m) => sum + (m.offloaded_bytes || 0), 0);
}

/**
 * A step series of model weight offloaded to RAM, aligned to `timeline.t`: each node's start
 * reading (`models_before`, sent when it differs from `models`) holds until its end reading.
 * Null before the first reading, and for runs without readings.
 */
export function offloadedSeries(nodes, t) {
  const steps = [];
  for (const n of nodes || []) {
    if (n.start_s == null) continue;
    const before = offloaded(n.models_before ?? n.models); // models_before is sent only when it differs
    if (before != null) steps.push([n.start_s, before]);
    if (n.end_s != null && !isOpen(n.status)) {
      const after = offloaded(n.models);
      if (after != null) steps.push([n.end_s, after]);
    }
  }
  if (!steps.length) return null;
  steps.sort((a, b) => a[0] - b[0]);
  const out = new Array(t.length).fill(null);
  let j = -1;
  for (let i = 0; i < t.length; i++) {
    while (j + 1 < steps.length && steps[j + 1][0] <= t[i]) j++;
    out[i] = j >= 0 ? steps[j][1] : null;
  }
  return out;
}

/** The timeline with the offloaded series added (a shallow copy; the original is untouched). */
export function withOffloadedSeries(timeline, nodes) {
  const column = offloadedSeries(nodes, timeline?.t || []);
  if (!column?.some((v) => v)) return timeline;
  return { t: timeline.t, series: { ...timeline.series, [OFFLOADED_KEY]: column } };
}
