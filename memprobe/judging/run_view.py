"""What the panel shows next to a run's raw figures: the suggestions, the stage summary, the
workflow's settings and the limits its memory runs into. One module, so routes, events and
exports agree."""

from __future__ import annotations

from typing import Any

from .advice import suggest
from .limits import MemoryLimit
from .runfacts import compute_limit, memory_limits, run_peaks, stage_summary
from .workflow import workflow_parameters

__all__ = ["enrich", "memory_summary", "live_limits"]


def enrich(doc: dict[str, Any], machine: dict[str, Any] | None = None) -> dict[str, Any]:
    """``doc`` with ``suggestions``, ``stages``, ``parameters`` and ``memory`` (see
    :func:`memory_summary`)."""
    doc["suggestions"] = [s.to_dict() for s in suggest(doc, machine)]
    doc["stages"] = stage_summary(doc)
    doc["parameters"] = workflow_parameters(doc.get("prompt"))
    doc["memory"] = memory_summary(doc)
    return doc


def memory_summary(doc: dict[str, Any]) -> dict[str, Any]:
    """The memory ComfyUI computed on and the limits that bound it, for the panel's labels:

    ``metric``, ``limit_bytes``, ``limit_name``, ``limit_enforced``: the compute memory (VRAM, or
    on the CPU the enforced system limit) and its limit; ``system``: the same four keys for the
    limit the OS enforces on system memory, with ``peak_bytes`` (what counted against it at its
    peak); ``commit_limit_enforced``: whether the ``commit_limit_bytes`` series is a limit at all
    (Windows, Linux overcommit mode 2) or only informative (Linux modes 0/1)."""
    limits = memory_limits(doc)
    system = limits[0]
    return {**compute_limit(doc).to_dict(),
            "system": {**system.to_dict(), "peak_bytes": system.used(run_peaks(doc))},
            "commit_limit_enforced": _commit_enforced(limits)}


def live_limits(context: dict[str, Any], metrics: dict[str, int]) -> dict[str, Any]:
    """:func:`memory_summary` for the machine now (``/memprobe/live``): from ComfyUI's static
    context and the current readings, with ``used_bytes`` in place of the run's peak."""
    doc = {"context": context, "start_metrics": metrics, "nodes": []}
    summary = memory_summary(doc)
    system = summary["system"]
    system["used_bytes"] = system.pop("peak_bytes")
    return summary


def _commit_enforced(limits: list[MemoryLimit]) -> bool:
    return any(limit.metric == "commit_bytes" and limit.enforced for limit in limits)
