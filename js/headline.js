// The five-second answer, as the server judged it: a finished run's headline is its verdict
// (doc.verdict: which memory, how close to the limit the OS enforces, at which node and stage, the
// one change to try). A run still executing shows what is running and its memory now, in the
// server's words for that memory.

import { fmtBytes, fmtPct } from "./format.js";
import { memoryOf, nodeName, runPeak } from "./memory.js";
import { isOpen } from "./vocab.js";

/**
 * {tone, title, detail, share, node, suggestion}: `title` is one sentence a user reads first,
 * `detail` a second one (or null), `share` the peak against the enforced limit (0..1, or null).
 */
export function headline(doc, { live = false, fallback = null } = {}) {
  if (!doc)
    return {
      tone: "empty",
      title: "No run yet",
      detail: "Queue a workflow: its memory shows up here while it runs.",
      share: null,
      node: null,
      suggestion: null,
    };
  if (live) return running(doc, memoryOf(doc, fallback));
  const v = doc.verdict;
  if (!v) return { tone: "ok", title: "Judging this run…", detail: null, share: null, node: null, suggestion: null };
  return {
    tone: v.tone,
    title: v.title,
    detail: v.detail ?? null,
    share: v.share ?? null,
    node: v.node ?? null,
    suggestion: (doc.suggestions || [])[0] || null,
  };
}

/** The running node and the judged memory now, against its limit when the OS enforces it. */
function running(doc, memory) {
  const node = [...(doc.nodes || [])].reverse().find((n) => isOpen(n.status)) ?? null;
  const column = doc.timeline?.series?.[memory.metric] || [];
  const now = [...column].reverse().find((v) => v != null) ?? null;
  const peak = runPeak(doc, memory.metric);
  const limit = memory.enforced ? memory.limitBytes : null;
  const ofLimit = now != null && limit ? ` (${fmtPct(now, limit)} of ${memory.limitName})` : "";
  return {
    tone: "running",
    title: node ? `Running ${nodeName(node)} (${node.stage})` : "Running",
    detail:
      now != null
        ? `${memory.label} now ${fmtBytes(now)}${ofLimit}${peak ? `; peak so far ${fmtBytes(peak.value)}` : ""}`
        : null,
    share: peak && limit ? peak.value / limit : null,
    node,
    suggestion: null,
  };
}
