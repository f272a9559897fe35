"""Facts read off a run document (the JSON the ledger stores): which memory the run computed
on, its peaks by stage and overall, how close they came to the limits the OS enforces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..documents import Metrics, NodeDoc, RunDoc
from ..vocabulary import EXECUTED_STATUSES
from .limits import MemoryLimit, system_limits, vram_limit

__all__ = [
    "compute_memory",
    "compute_limit",
    "system_limit",
    "memory_limits",
    "stage_summary",
    "run_peaks",
    "limit_of",
    "limit_from",
    "known_totals",
    "executed_nodes",
    "SUMMARY_METRICS",
]

SUMMARY_METRICS = (
    "gpu0_used_bytes",
    "gpu0_reserved_bytes",
    "gpu0_allocated_bytes",
    "gpu0_shared_bytes",
    "process_rss_bytes",
    "process_private_bytes",
    "ram_used_bytes",
    "commit_bytes",
    "cgroup_used_bytes",
)


def executed_nodes(doc: RunDoc) -> list[NodeDoc]:
    """Nodes that ran (or failed): the ones with memory attributed to them."""
    return [n for n in doc.get("nodes") or [] if n.get("status") in EXECUTED_STATUSES]


def run_peaks(doc: RunDoc) -> dict[str, int]:
    """The maximum of every metric over the run (nodes' peaks and the sampler's timeline)."""
    peaks: dict[str, int] = {}
    sources: list[Metrics] = [n.get("peaks") or {} for n in executed_nodes(doc)]
    sources += [doc.get("start_metrics") or {}, doc.get("end_metrics") or {}]
    for source in sources:
        for key, value in source.items():
            if value is not None and value > peaks.get(key, -1):
                peaks[key] = value
    timeline = doc.get("timeline")
    for key, column in (timeline["series"] if timeline else {}).items():
        values = [v for v in column if v is not None]
        if values and max(values) > peaks.get(key, -1):
            peaks[key] = max(values)
    return peaks


def known_totals(doc: RunDoc) -> Metrics:
    """The totals and limits a run's readings carry (``ram_total_bytes``, ``gpu0_total_bytes``,
    ``commit_limit_bytes`` ...), the latest reading of each."""
    known: Metrics = {}
    for source in (doc.get("start_metrics") or {}, doc.get("end_metrics") or {}):
        known.update({k: v for k, v in source.items() if v})
    for node in executed_nodes(doc):
        known.update(
            {k: v for k, v in (node.get("before") or {}).items() if v and k.endswith(("total_bytes", "limit_bytes"))}
        )
    return known


def limit_of(doc: RunDoc, metric: str) -> int | None:
    """The ceiling a metric runs into: the GPU's VRAM, the machine's RAM, the commit limit."""
    return limit_from(known_totals(doc), doc.get("context") or {}, metric)


def limit_from(known: Mapping[str, int], context: Mapping[str, Any], metric: str) -> int | None:
    """:func:`limit_of` from the totals a run's readings carry and its context."""
    if metric.startswith("gpu"):
        gpu = metric.split("_", 1)[0]
        total = known.get(f"{gpu}_total_bytes")
        if total is None:
            index = int(gpu[3:]) if gpu[3:].isdigit() else 0
            gpus = context.get("gpus") or []
            total = next((g.get("vram_total_bytes") for g in gpus if g.get("index") == index), None)
        return total
    if metric in ("commit_bytes",):
        return known.get("commit_limit_bytes") or context.get("commit_limit_bytes")
    if metric in ("ram_used_bytes", "process_rss_bytes", "process_private_bytes"):
        return known.get("ram_total_bytes") or context.get("ram_total_bytes")
    if metric == "cgroup_used_bytes":
        return known.get("cgroup_limit_bytes") or (context.get("cgroup") or {}).get("limit_bytes")
    return None


def memory_limits(doc: RunDoc) -> list[MemoryLimit]:
    """The limits of system memory for this run's machine, the enforced one first (see
    :mod:`memprobe.judging.limits`): from the run's OS, overcommit mode, RAM, swap and cgroup."""
    context = doc.get("context") or {}
    return system_limits(
        str(context.get("os") or ""),
        overcommit_mode=context.get("overcommit_mode"),
        ram_total=limit_of(doc, "ram_used_bytes"),
        swap_total=context.get("swap_total_bytes"),
        commit_limit=limit_of(doc, "commit_bytes"),
        cgroup_limit=limit_of(doc, "cgroup_used_bytes"),
    )


def system_limit(doc: RunDoc) -> MemoryLimit:
    """The limit the OS enforces on system memory for this run."""
    return memory_limits(doc)[0]


def compute_limit(doc: RunDoc) -> MemoryLimit:
    """The memory ComfyUI computes on and its limit: the first GPU's VRAM, or the enforced system
    limit when ComfyUI runs on the CPU (RAM, RAM + swap, the commit limit or a container's)."""
    context = doc.get("context") or {}
    if context.get("compute_device") != "cpu" and "gpu0_used_bytes" in run_peaks(doc):
        return vram_limit(0, limit_of(doc, "gpu0_used_bytes"))
    return system_limit(doc)


def compute_memory(doc: RunDoc) -> str:
    """The metric of :func:`compute_limit`."""
    return compute_limit(doc).metric


def stage_summary(doc: RunDoc) -> dict[str, dict[str, Any]]:
    """Per stage, in the order stages first ran: time spent, nodes, the peak of each metric, and
    which of those peaks are exact (``exact``: the node that set it had it from a peak counter;
    the others are sampled)."""
    out: dict[str, dict[str, Any]] = {}
    for node in executed_nodes(doc):
        stage = node.get("stage") or "other"
        entry = out.setdefault(stage, {"time_s": 0.0, "nodes": [], "peaks": {}, "exact": [], "failed": False})
        entry["time_s"] = round(entry["time_s"] + (node.get("duration_s") or 0.0), 4)
        entry["nodes"].append(node.get("node_id"))
        entry["failed"] = entry["failed"] or node.get("status") == "failed"
        exact = node.get("exact_peaks") or ()
        for key in SUMMARY_METRICS:
            value = (node.get("peaks") or {}).get(key)
            if value is None or value < entry["peaks"].get(key, -1):
                continue
            if value > entry["peaks"].get(key, -1) and key in entry["exact"]:
                entry["exact"].remove(key)
            entry["peaks"][key] = value
            if key in exact and key not in entry["exact"]:
                entry["exact"].append(key)
    return out
