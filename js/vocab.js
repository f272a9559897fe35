// The words the server judges with (GET /memprobe/vocabulary, read once per page load): failure
// kinds, run and node statuses, stages, metrics and their labels, severities, tones, thresholds,
// event names. The panel keeps no copy of these lists; it asks this module, which asks the server's
// document (memprobe/vocabulary.py).

let vocab = null;
let index = {};

const byId = (list) => Object.fromEntries((list || []).map((entry, i) => [entry.id ?? entry.key, { ...entry, i }]));

/** Adopt the server's vocabulary document. */
export function setVocabulary(doc) {
  vocab = doc || null;
  index = {
    kinds: byId(doc?.failure_kinds),
    runStatuses: byId(doc?.run_statuses),
    nodeStatuses: byId(doc?.node_statuses),
    stages: byId(doc?.stages),
    severities: byId(doc?.severities),
    nodeTones: byId(doc?.node_tones),
    forecastVerdicts: byId(doc?.forecast_verdicts),
    gpu: Object.fromEntries((doc?.gpu_metrics || []).map((m) => [m.key, m])),
    system: Object.fromEntries((doc?.system_metrics || []).map((m) => [m.key, m])),
  };
  return vocab;
}

export const vocabulary = () => vocab;
export const hasVocabulary = () => vocab !== null;

/** A person's name for a metric key ("gpu0_used_bytes" -> "VRAM", "gpu1_used_bytes" -> "GPU1 VRAM"). */
export function metricLabel(key) {
  const m = /^gpu(\d+)_(.+)$/.exec(key || "");
  const plain = (k) =>
    String(k || "memory")
      .replace(/_bytes$/, "")
      .replace(/_/g, " ");
  if (m) return `${m[1] === "0" ? "" : `GPU${m[1]} `}${index.gpu?.[m[2]]?.label || plain(m[2])}`;
  return index.system?.[key]?.label || plain(key);
}

/** The chart's series for the metrics a timeline holds, in the server's order: [{key, label, color, width, dash}]. */
export function chartMetrics(series, gpus) {
  const out = [];
  for (const i of gpus)
    for (const m of vocab?.gpu_metrics || [])
      if (m.color && `gpu${i}_${m.key}` in series) out.push({ ...m, key: `gpu${i}_${m.key}` });
  for (const m of vocab?.system_metrics || []) if (m.color && m.key in series) out.push({ ...m });
  return out.map((m) => ({ ...m, label: metricLabel(m.key) }));
}

/** The memories the node table offers, in order. */
export const tableMetrics = () => vocab?.table_metrics || [];

export const nodeStatusLabel = (status) => index.nodeStatuses?.[status]?.label || status;
export const runStatusLabel = (status) => index.runStatuses?.[status]?.label || status;
/** A node that ran (or runs): memory is attributed to it. Cached nodes did not run. */
export const isExecuted = (status) => !!index.nodeStatuses?.[status]?.executed;
/** A node still running or waiting on async work. */
export const isOpen = (status) => !!index.nodeStatuses?.[status]?.open;
/** A run that failed (an error, or ComfyUI ended mid-run). */
export const runFailed = (status) => !!index.runStatuses?.[status]?.failed;

/** A stage's place in the server's list (its colour is the palette's entry at that place). */
export const stageIndex = (stage) => index.stages?.[stage]?.i ?? (vocab?.stages?.length ?? 1) - 1;
export const stages = () => (vocab?.stages || []).map((s) => s.id);
export const stageCount = () => vocab?.stages?.length ?? 0;

export const severityIndex = (id) => index.severities?.[id]?.i ?? (vocab?.severities?.length ?? 1) - 1;
export const severityLabel = (id) => index.severities?.[id]?.label || id;
export const severityCount = () => vocab?.severities?.length ?? 0;
export const nodeToneIndex = (id) => index.nodeTones?.[id]?.i ?? 0;
export const nodeToneCount = () => vocab?.node_tones?.length ?? 0;

/** The headline words of a failure kind ("Out of GPU memory (VRAM)"), and whether it ran short. */
export const kindHeadline = (kind) => index.kinds?.[kind]?.headline || kind;
export const kindRanShort = (kind) => !!index.kinds?.[kind]?.ran_short;

/** The headline tone of a forecast's verdict ("fits" -> "ok", "won't fit" -> "failed"). */
export const forecastTone = (verdict) => index.forecastVerdicts?.[verdict]?.tone ?? "empty";

/** The websocket events the server sends ("memprobe.run_start", ...). */
export const eventNames = () => vocab?.events || [];
