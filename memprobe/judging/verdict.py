"""The one judgement of a run (or of a log, or of a forecast): which memory bounds it, its peak
against the limit the OS enforces, the failure and its kind, the node and stage, and the one change
to try. Everything that shows a judgement renders this: the panel's headline, toasts and badges,
the report, ``memprobe explain`` and the Prometheus counters.

>>> from memprobe.judging.facts import RunFacts
>>> v = judge(RunFacts.from_run({"status": "error", "nodes": [], "failure": {"kind": "cgroup-limit",
...     "abrupt": True, "message": "killed"}}), [])
>>> v["tone"], v["kind"], v["title"]
('failed', 'cgroup-limit', 'Container memory limit reached')
"""

from __future__ import annotations

from ..documents import NodeDoc, VerdictDoc, VerdictNode
from ..format import fmt_bytes, fmt_pct
from ..vocabulary import FAILED_RUN_STATUSES, KINDS, NEAR_LIMIT, OPEN_STATUSES, metric_label
from .facts import RunFacts
from .rules import Suggestion

__all__ = ["judge", "node_name", "first_line"]


def node_name(node: NodeDoc | None) -> str | None:
    """A node's name for a sentence: its title, or its class when the title is long or missing."""
    if not node:
        return None
    title = node.get("title")
    return (
        (title if title and len(title) <= 32 else None)
        or node.get("class_type")
        or title
        or f"node {node.get('node_id')}"
    )


def first_line(text: str | None, limit: int = 140) -> str:
    line = next((line.strip() for line in str(text or "").splitlines() if line.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _peak(f: RunFacts) -> tuple[int | None, float | None, NodeDoc | None]:
    """The compute metric's highest reading in the run, when, and the node running then."""
    metric = f.metric
    best_node, best = None, None
    for node in f.nodes:
        value = (node.get("peaks") or {}).get(metric)
        if value is not None and (best is None or value > best):
            best, best_node = value, node
    timeline = f.timeline or {}
    times, column = timeline.get("t") or [], (timeline.get("series") or {}).get(metric) or []
    sample, at = None, None
    for t, value in zip(times, column, strict=False):
        if value is not None and (sample is None or value > sample):
            sample, at = value, t
    if sample is not None and (best is None or sample >= best):
        return sample, at, _node_at(f, at) or best_node
    if best is None or best_node is None:
        return None, None, None
    start, end = best_node.get("start_s"), best_node.get("end_s")
    return best, (start + end) / 2 if start is not None and end is not None else start, best_node


def _node_at(f: RunFacts, t: float | None) -> NodeDoc | None:
    found = None
    for node in f.nodes:
        start = node.get("start_s")
        if t is None or start is None or t < start:
            continue
        end = node.get("end_s")
        if (end is None or t <= end) and (found is None or start >= (found.get("start_s") or 0)):
            found = node
    return found


def _where(node: NodeDoc | None, stage: str | None) -> str:
    name = node_name(node)
    if name and stage:
        return f" at {name} ({stage})"
    return f" at {name}" if name else f" during {stage}" if stage else ""


def judge(f: RunFacts, suggestions: list[Suggestion], *, live: bool = False) -> VerdictDoc:
    """The verdict of ``f`` given its ranked ``suggestions`` (:func:`memprobe.judging.advice.advise`)."""
    limit = f.compute
    peak, peak_t, peak_node = _peak(f)
    counted = limit.used(f.peaks) if peak is not None else None  # what counted against the limit (RAM + swap)
    counted = counted if counted is not None and peak is not None and counted > peak else peak
    share = counted / limit.limit_bytes if counted is not None and limit.enforced and limit.limit_bytes else None
    label = metric_label(limit.metric)
    failure = f.failure
    kind = KINDS[failure.verdict_kind] if failure is not None and failure.verdict_kind in KINDS else None
    failed_node = (f.failing_node() or _failure_node(f)) if failure is not None else None
    change = suggestions[0] if suggestions else None
    verdict: VerdictDoc = {
        "failed": f.status in FAILED_RUN_STATUSES or (failure is not None and f.source != "run"),
        "kind": kind.id if kind is not None else None,
        "memory_ran_out": bool(kind and kind.ran_short),
        "metric": limit.metric,
        "metric_label": label,
        "limit_bytes": limit.limit_bytes,
        "limit_name": limit.name,
        "limit_enforced": limit.enforced,
        "peak_bytes": peak,
        "counted_bytes": counted,
        "peak_t_s": peak_t,
        "share": share,
        "near_limit": share is not None and share >= NEAR_LIMIT,
        "change": {
            "id": change.id,
            "title": change.title,
            "severity": change.severity,
            "tier": change.tier,
            "action": change.action,
        }
        if change is not None
        else None,
        "severity": change.severity if change is not None else None,
        "nodes": _nodes(f, failed_node),
    }
    stage = failure.stage if failure is not None else None
    node = failed_node if failure is not None else peak_node
    tone, title, detail = _words(f, verdict, node, stage, label, peak, live)
    verdict["tone"], verdict["title"], verdict["detail"] = tone, title, detail
    verdict["node"] = _node_doc(node)
    verdict["stage"] = (node.get("stage") if node else None) or stage
    return verdict


def _words(
    f: RunFacts, v: VerdictDoc, node: NodeDoc | None, stage: str | None, label: str, peak: int | None, live: bool
) -> tuple[str, str, str | None]:
    """The headline: a tone, one sentence a user reads first, and a second one (or ``None``)."""
    failure = f.failure
    stage = (node.get("stage") if node else None) or stage
    where = _where(node, stage)
    counted = v.get("counted_bytes")
    of_limit = (
        f" ({fmt_pct(counted, v['limit_bytes'])} of {v['limit_name']})"
        if counted is not None and v["limit_enforced"] and v["limit_bytes"]
        else ""
    )
    if live or f.status == "running":
        running = next((n for n in reversed(f.nodes) if n.get("status") in OPEN_STATUSES), None)
        title = f"Running {node_name(running)} ({running.get('stage')})" if running else "Running"
        return "running", title, (f"{label}: peak so far {fmt_bytes(peak)}{of_limit}" if peak is not None else None)
    kind = KINDS.get(v["kind"] or "")
    if failure is not None and kind is not None:
        if failure.abrupt and kind.ran_short:
            return (
                "failed",
                f"{kind.headline}{where}",
                f"{failure.who} was ended {failure.when}: {first_line(failure.evidence or failure.message)}",
            )
        if failure.abrupt and failure.cut:  # nothing says it ended: the paste may only have been cut
            return (
                "ended",
                f"The log stops {failure.when}{where}",
                "No error and no sign of an end: ComfyUI stopped there, or the log was cut when it was copied.",
            )
        if failure.abrupt:
            return (
                "ended",
                f"{failure.who} ended {failure.when}{where}",
                "No sign that memory ran out; the process stopped without an error.",
            )
        if kind.ran_short:
            return "failed", f"{kind.headline}{where}", first_line(failure.message) or None
        name = node_name(node)
        if not failure.message and not failure.exception_type:  # a traceback cut before its error's line
            cut = "is not in the log" if f.source == "log" else "was not recorded"
            return (
                "other-failure",
                f"{name} failed; its error {cut}" if name else f"A node failed; its error {cut}",
                "Whether memory ran out cannot be told without the error's own line.",
            )
        reason = ": ".join(p for p in (failure.exception_type, first_line(failure.message)) if p)
        return "other-failure", f"Not a memory error: {name} failed" if name else "Not a memory error", reason or None
    if f.status == "error":
        return "other-failure", "Not a memory error: a node failed", None
    if peak is None:
        return (
            "interrupted" if f.status == "interrupted" else "ok",
            "Interrupted" if f.status == "interrupted" else "No memory readings in this run",
            None,
        )
    lead = "Interrupted · peak" if f.status == "interrupted" else "Peak"
    tone = "interrupted" if f.status == "interrupted" else "near" if v["near_limit"] else "ok"
    detail: str | None = (
        f"The {v['limit_name']} is not enforced on this machine, so it is not a ceiling."
        if not v["limit_enforced"] and v["limit_bytes"]
        else None
    )
    return tone, f"{lead}: {label} {fmt_bytes(peak)}{of_limit}{where}", detail


def _failure_node(f: RunFacts) -> NodeDoc | None:
    failure = f.failure
    if failure is None or not (failure.node_id or failure.class_type):
        return None
    return {
        "node_id": failure.node_id or "",
        "class_type": failure.class_type or "",
        "stage": failure.stage or "",
        "title": None,
    }


def _node_doc(node: NodeDoc | None) -> dict[str, object] | None:
    if node is None:
        return None
    return {
        "node_id": node.get("node_id"),
        "class_type": node.get("class_type"),
        "title": node.get("title"),
        "stage": node.get("stage"),
        "name": node_name(node),
    }


def _nodes(f: RunFacts, failing: NodeDoc | None) -> list[VerdictNode]:
    """Each executed node with its peak of the judged memory and its tone for a badge: ``failed``,
    ``near`` (within 10 % of the enforced limit) or ``neutral``."""
    limit = f.compute
    out: list[VerdictNode] = []
    for node in f.nodes:
        peak = (node.get("peaks") or {}).get(limit.metric)
        counted = limit.used(node.get("peaks") or {})
        near = (
            counted is not None
            and limit.enforced
            and bool(limit.limit_bytes)
            and counted >= NEAR_LIMIT * (limit.limit_bytes or 0)
        )
        failed = node.get("status") == "failed" or (
            failing is not None and failing.get("node_id") == node.get("node_id")
        )
        out.append(
            {
                "node_id": str(node.get("node_id")),
                "peak_bytes": peak,
                "tone": "failed" if failed else "near" if near else "neutral",
            }
        )
    return out
