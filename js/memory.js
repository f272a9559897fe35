// The five-second answer: which memory a run is judged by, how close it came to the limit the OS
// enforces, at which node and stage, and the one change to try. Pure functions over the run
// document (GET /memprobe/runs/{id}, the live run built from memprobe.* events).

import { fmtBytes, fmtPct } from "./format.js";

export const NEAR_LIMIT = 0.9;
const EXECUTED = new Set(["ran", "failed", "running", "pending", "interrupted"]);
const MEMORY_FAILURES = new Set(["vram", "system-ram", "commit-limit"]);

const GPU_LABELS = {
  used_bytes: "VRAM",
  reserved_bytes: "torch reserved",
  allocated_bytes: "torch allocated",
  shared_bytes: "shared GPU memory",
  offloaded_bytes: "offloaded",
};
const LABELS = {
  ram_used_bytes: "RAM in use",
  process_rss_bytes: "ComfyUI RAM",
  process_private_bytes: "ComfyUI private memory",
  commit_bytes: "commit",
  swap_used_bytes: "swap in use",
  cgroup_used_bytes: "container memory",
  model_offloaded_bytes: "model weights offloaded to RAM",
};

/** A person's name for a metric key ("gpu0_used_bytes" -> "VRAM", "gpu1_used_bytes" -> "GPU1 VRAM"). */
export function metricLabel(key) {
  const m = /^gpu(\d+)_(.+)$/.exec(key || "");
  if (m)
    return `${m[1] === "0" ? "" : `GPU${m[1]} `}${GPU_LABELS[m[2]] || m[2].replace(/_bytes$/, "").replace(/_/g, " ")}`;
  return (
    LABELS[key] ||
    String(key || "memory")
      .replace(/_bytes$/, "")
      .replace(/_/g, " ")
  );
}

function defaultLimitName(metric) {
  if (metric.startsWith("gpu")) return "VRAM";
  if (metric === "commit_bytes") return "commit limit";
  if (metric === "cgroup_used_bytes") return "container limit (cgroup)";
  return "RAM";
}

function known(doc, key) {
  for (const source of [doc?.start_metrics, doc?.end_metrics, ...(doc?.nodes || []).map((n) => n.before)]) {
    if (source?.[key]) return source[key];
  }
  return doc?.context?.[key] ?? null;
}

/** The metric this run is judged by when the server did not say: the first GPU's use, or RAM in
 * use when ComfyUI computes on the CPU (the server's own rule, memprobe/runfacts.py). */
function guessMetric(doc) {
  if (doc?.context?.compute_device === "cpu") return "ram_used_bytes";
  const seen =
    (doc?.nodes || []).some((n) => n.peaks?.gpu0_used_bytes != null) || doc?.timeline?.series?.gpu0_used_bytes;
  return seen ? "gpu0_used_bytes" : "ram_used_bytes";
}

/**
 * {metric, label, limitBytes, limitName, enforced} for a run. The server's `memory` object
 * ({metric, limit_bytes, limit_name, limit_enforced}) wins; `fallback` (the live status's
 * `memory`) is used for a live run that has none yet; older servers send no limit_name /
 * limit_enforced, then: VRAM and RAM are enforced, commit only on Windows.
 */
export function memoryOf(doc, fallback = null) {
  const memory = doc?.memory || fallback || {};
  const metric = memory.metric || guessMetric(doc);
  let limitBytes = memory.limit_bytes ?? null;
  if (limitBytes == null) {
    if (metric.startsWith("gpu")) limitBytes = known(doc, `${metric.split("_")[0]}_total_bytes`);
    else if (metric === "commit_bytes") limitBytes = known(doc, "commit_limit_bytes");
    else limitBytes = known(doc, "ram_total_bytes");
  }
  let enforced = memory.limit_enforced;
  if (enforced === undefined || enforced === null) {
    const commit =
      typeof memory.commit_limit_enforced === "boolean"
        ? memory.commit_limit_enforced
        : /^windows/i.test(String(doc?.context?.os || ""));
    enforced = metric === "commit_bytes" ? commit : true;
  }
  // what counts against the limit at the run's peak when it is more than the metric (RAM + swap)
  const system = memory.system;
  const countedPeak = system && system.metric === metric ? (system.peak_bytes ?? system.used_bytes ?? null) : null;
  return {
    metric,
    label: metricLabel(metric),
    limitBytes: limitBytes || null,
    limitName: memory.limit_name || defaultLimitName(metric),
    enforced: !!enforced,
    countedPeak,
    system: system || null,
  };
}

export function executedNodes(doc) {
  return (doc?.nodes || []).filter((n) => EXECUTED.has(n.status));
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

function firstLine(text, max = 140) {
  const line =
    String(text || "")
      .split("\n")
      .find((l) => l.trim()) || "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const FAILURE_NAMES = {
  vram: "Out of GPU memory (VRAM)",
  "system-ram": "Out of system RAM",
  "commit-limit": "Commit limit reached (RAM + pagefile)",
  disk: "Disk full",
};

/**
 * The headline of a run: {tone: "empty"|"running"|"ok"|"near"|"failed"|"other-failure"|"ended",
 * title, detail, metric, peak, limit, pct, node, suggestion}. `title` is one sentence a user
 * reads first; `detail` a second one (or null).
 */
export function headline(doc, { live = false, fallback = null } = {}) {
  if (!doc)
    return {
      tone: "empty",
      title: "No run yet",
      detail: "Queue a workflow: its memory shows up here while it runs.",
      suggestion: null,
    };
  const memory = memoryOf(doc, fallback);
  const peak = runPeak(doc, memory.metric);
  const suggestion = (doc.suggestions || [])[0] || null;
  const base = { metric: memory, peak, suggestion, node: peak?.node ?? null };
  const counted =
    peak && memory.countedPeak != null && memory.countedPeak > peak.value ? memory.countedPeak : peak?.value;
  const pct = peak && memory.enforced && memory.limitBytes ? counted / memory.limitBytes : null;
  const ofLimit = pct != null ? ` (${fmtPct(counted, memory.limitBytes)} of ${memory.limitName})` : "";
  const where = (n) => (n ? ` at ${nodeName(n)} (${n.stage})` : "");

  if (live) {
    const running = [...executedNodes(doc)].reverse().find((n) => n.status === "running" || n.status === "pending");
    const column = doc.timeline?.series?.[memory.metric] || [];
    const now = [...column].reverse().find((v) => v != null) ?? null;
    const nowPct =
      now != null && memory.enforced && memory.limitBytes
        ? ` (${fmtPct(now, memory.limitBytes)} of ${memory.limitName})`
        : "";
    return {
      ...base,
      tone: "running",
      pct,
      title: running ? `Running ${nodeName(running)} (${running.stage})` : "Running",
      detail:
        now != null
          ? `${memory.label} now ${fmtBytes(now)}${nowPct}${peak ? `; peak so far ${fmtBytes(peak.value)}` : ""}`
          : null,
    };
  }

  const failure = doc.failure;
  const failedNode = failure
    ? (executedNodes(doc).find((n) => String(n.node_id) === String(failure.node_id)) ?? {
        node_id: failure.node_id,
        class_type: failure.class_type,
        stage: failure.stage,
        title: null,
      })
    : null;
  if (doc.status === "ended_abruptly") {
    const memoryCause = failure && MEMORY_FAILURES.has(failure.kind);
    return {
      ...base,
      tone: memoryCause ? "failed" : "ended",
      pct,
      node: failedNode ?? base.node,
      title: `ComfyUI ended mid-run${where(failedNode)}`,
      detail: memoryCause
        ? `${FAILURE_NAMES[failure.kind]}: ${firstLine(failure.message)}`
        : "No sign that memory ran out; the process stopped without an error.",
    };
  }
  if (failure && (MEMORY_FAILURES.has(failure.kind) || failure.kind === "disk")) {
    return {
      ...base,
      tone: "failed",
      pct,
      node: failedNode,
      title: `${FAILURE_NAMES[failure.kind]}${where(failedNode)}`,
      detail: firstLine(failure.message) || null,
    };
  }
  if (failure || doc.status === "error") {
    const name = nodeName(failedNode) || doc.error?.node_type || "A node";
    const type = failure?.exception_type || doc.error?.exception_type;
    const message = firstLine(failure?.message || doc.error?.exception_message);
    return {
      ...base,
      tone: "other-failure",
      pct,
      node: failedNode,
      title: `Not a memory error: ${name} failed`,
      detail: [type, message].filter(Boolean).join(": ") || null,
    };
  }
  if (!peak)
    return {
      ...base,
      tone: "ok",
      pct,
      title: doc.status === "interrupted" ? "Interrupted" : "No memory readings in this run",
      detail: null,
    };
  const tone = pct != null && pct >= NEAR_LIMIT ? "near" : "ok";
  const lead = doc.status === "interrupted" ? "Interrupted · peak" : "Peak";
  return {
    ...base,
    tone,
    pct,
    title: `${lead}: ${memory.label} ${fmtBytes(peak.value)}${ofLimit}${where(peak.node)}`,
    detail:
      !memory.enforced && memory.limitBytes
        ? `The ${memory.limitName} is not enforced on this machine, so it is not a ceiling.`
        : null,
  };
}
