"""What the panel shows next to a run's raw figures: the verdict, the suggestions, the stage
summary, the workflow's settings and the limits its memory runs into. One module, so routes,
events, exports and the report agree."""

from __future__ import annotations

from typing import Any

from ..documents import MachineDoc, MemoryDoc, Metrics, RunDoc, VerdictDoc
from ..vocabulary import metric_label
from .advice import advise
from .facts import RunFacts
from .limits import MemoryLimit
from .runfacts import compute_limit, memory_limits, run_peaks, stage_summary
from .verdict import judge

__all__ = ["enrich", "memory_summary", "live_limits", "live_verdict"]


def enrich(doc: RunDoc, machine: MachineDoc | None = None) -> RunDoc:
    """``doc`` with ``verdict``, ``suggestions``, ``stages``, ``parameters`` and ``memory`` (see
    :func:`memory_summary`)."""
    facts = RunFacts.from_run(doc, machine)
    suggestions = advise(facts)
    doc["suggestions"] = [s.to_dict() for s in suggestions]
    doc["verdict"] = judge(facts, suggestions)
    doc["stages"] = stage_summary(doc)
    doc["parameters"] = facts.params
    doc["memory"] = memory_summary(doc)
    return doc


def live_verdict(doc: RunDoc) -> VerdictDoc:
    """The verdict of the run executing now (no advice yet: it has not ended)."""
    return judge(RunFacts.from_run(doc), [], live=True)


def memory_summary(doc: RunDoc) -> MemoryDoc:
    """The memory ComfyUI computed on and the limits that bound it, for the panel's labels:

    ``metric``, ``label``, ``limit_bytes``, ``limit_name``, ``limit_enforced``: the compute memory
    (VRAM, or on the CPU the enforced system limit) and its limit; ``system``: the same keys for the
    limit the OS enforces on system memory, with ``peak_bytes`` (what counted against it at its
    peak); ``commit_limit_enforced``: whether the ``commit_limit_bytes`` series is a limit at all
    (Windows, Linux overcommit mode 2) or only informative (Linux modes 0/1)."""
    limits = memory_limits(doc)
    system = limits[0]
    compute = compute_limit(doc)
    return {
        "metric": compute.metric,
        "label": metric_label(compute.metric),
        "limit_name": compute.name,
        "limit_enforced": compute.enforced,
        "limit_bytes": compute.limit_bytes,
        "system": {**system.to_dict(), "label": metric_label(system.metric), "peak_bytes": system.used(run_peaks(doc))},
        "commit_limit_enforced": _commit_enforced(limits),
    }


def live_limits(context: dict[str, Any], metrics: Metrics) -> MemoryDoc:
    """:func:`memory_summary` for the machine now (``/memprobe/live``): from ComfyUI's static
    context and the current readings, with ``used_bytes`` in place of the run's peak."""
    doc: RunDoc = {"context": context, "start_metrics": metrics, "nodes": []}
    summary = memory_summary(doc)
    system = summary["system"]
    system["used_bytes"] = system.pop("peak_bytes")
    return summary


def _commit_enforced(limits: list[MemoryLimit]) -> bool:
    return any(limit.metric == "commit_bytes" and limit.enforced for limit in limits)
