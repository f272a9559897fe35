"""The words Memory Probe judges with, held once: failure kinds, run and node statuses, stages,
metrics and their labels, severities, tiers, headline tones, thresholds and event names.

Python code imports them from here; the browser receives :func:`vocabulary_document` once per page
load (``GET /memprobe/vocabulary``) and keeps no copy of its own (a test reads ``js/`` for one).

>>> KINDS["cgroup-limit"].memory, KINDS["disk"].memory, KINDS["disk"].ran_short
(True, False, True)
>>> metric_label("gpu1_used_bytes"), metric_label("process_rss_bytes")
('GPU1 VRAM', 'ComfyUI RAM')
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

__all__ = [
    "AT_LIMIT",
    "EVENTS",
    "EXECUTED_STATUSES",
    "FailureKind",
    "FAILURE_KINDS",
    "KINDS",
    "MEMORY_KINDS",
    "Metric",
    "NEAR_LIMIT",
    "NODE_STATUSES",
    "OPEN_STATUSES",
    "RUN_STATUSES",
    "SEVERITIES",
    "STAGES",
    "TIERS",
    "TONES",
    "FALLBACK_KINDS",
    "RUN_OUTCOMES",
    "VERDICT_KINDS",
    "SYSTEM_KINDS",
    "FINDING_SEVERITIES",
    "SEVERITY_MARKS",
    "NODE_TONES",
    "FORECAST_VERDICTS",
    "TABLE_METRICS",
    "FAILED_RUN_STATUSES",
    "GPU_METRICS",
    "SYSTEM_METRICS",
    "kind_of",
    "metric_label",
    "vocabulary_document",
    "Severity",
    "Tier",
    "Tone",
]

# ---------------------------------------------------------------------------- thresholds
NEAR_LIMIT: Final = 0.9
"""A peak within 10 % of the limit that bounds it is pressure evidence."""
AT_LIMIT: Final = 0.95
"""An allocation failure with its memory within 5 % of the limit failed *at* that limit."""


# ---------------------------------------------------------------------------- failure kinds
@dataclass(frozen=True, slots=True)
class FailureKind:
    """What ran short. ``resource`` is ``vram``, ``system`` (RAM, commit, a container's limit),
    ``disk`` or ``""`` (nothing ran short: another error, or an end nobody explained)."""

    id: str
    resource: str
    headline: str
    """The headline's words when a run failed of it: *Out of GPU memory (VRAM)*."""
    ran_out: str
    """In a sentence: *GPU memory (VRAM) ran out*."""

    @property
    def memory(self) -> bool:
        """A memory ran out (VRAM or system memory)."""
        return self.resource in ("vram", "system")

    @property
    def ran_short(self) -> bool:
        """A memory or the disk ran out: the headline says which."""
        return self.resource != ""


_KINDS = (
    FailureKind("vram", "vram", "Out of GPU memory (VRAM)", "GPU memory (VRAM) ran out"),
    FailureKind("system-ram", "system", "Out of system RAM", "system RAM ran out"),
    FailureKind(
        "commit-limit",
        "system",
        "Commit limit reached (RAM + pagefile)",
        "system memory (RAM + pagefile, the commit limit) ran out",
    ),
    FailureKind(
        "cgroup-limit", "system", "Container memory limit reached", "the container's memory limit (cgroup) was reached"
    ),
    FailureKind("disk", "disk", "Disk full", "the disk was full"),
    FailureKind("other", "", "Not a memory error", "not a memory failure"),
    FailureKind("abrupt", "", "ComfyUI stopped without an error", "ComfyUI stopped without an error"),
)
KINDS: Final[dict[str, FailureKind]] = {k.id: k for k in _KINDS}
FAILURE_KINDS: Final = tuple(k.id for k in _KINDS if k.id != "abrupt")
"""What a recorded failure can be (``abrupt`` is a verdict's word for an unexplained end)."""
VERDICT_KINDS: Final = tuple(k.id for k in _KINDS)
"""What a verdict can say ran out: a failure kind, or ``abrupt``."""
MEMORY_KINDS: Final = tuple(k.id for k in _KINDS if k.memory)
SYSTEM_KINDS: Final = tuple(k.id for k in _KINDS if k.resource == "system")


def kind_of(kind_id: str | None) -> FailureKind:
    """The kind named ``kind_id`` (``other`` for an unknown or missing one)."""
    return KINDS.get(kind_id or "other", KINDS["other"])


# ---------------------------------------------------------------------------- statuses
RunStatus = Literal["running", "success", "error", "interrupted", "ended_abruptly"]
RUN_STATUSES: Final[dict[str, str]] = {
    "running": "running",
    "success": "ok",
    "error": "failed",
    "interrupted": "interrupted",
    "ended_abruptly": "ended abruptly",
}
"""Each run status and its label."""
RUN_OUTCOMES: Final = ("success", "error", "interrupted", "ended_abruptly")
FAILED_RUN_STATUSES: Final = ("error", "ended_abruptly")

NodeStatus = Literal["running", "pending", "ran", "cached", "failed", "interrupted"]
NODE_STATUSES: Final[dict[str, str]] = {
    "running": "running",
    "pending": "waiting",
    "ran": "ran",
    "cached": "cached",
    "failed": "failed",
    "interrupted": "interrupted",
}
"""Each node status and its label."""
EXECUTED_STATUSES: Final = frozenset({"ran", "failed", "running", "pending", "interrupted"})
"""Nodes that ran (or are running): the ones memory is attributed to. Cached nodes did not run."""
OPEN_STATUSES: Final = frozenset({"running", "pending"})

# ---------------------------------------------------------------------------- stages
STAGES: Final[dict[str, str]] = {
    "load": "loading a model",
    "text-encode": "text encoding",
    "sampling": "sampling",
    "vae-decode": "VAE decode",
    "vae-encode": "VAE encode",
    "upscale": "upscaling",
    "video": "video",
    "image": "image processing",
    "probe": "Memory Probe",
    "output": "output",
    "custom": "a custom node",
    "other": "other",
}
"""Each stage of a workflow, in the order they usually run, and its words."""


# ---------------------------------------------------------------------------- metrics
@dataclass(frozen=True, slots=True)
class Metric:
    """A series of the timeline: its key (``gpu{N}_`` + ``suffix`` for a GPU's), its label and
    how the chart draws it (a colour of the panel's palette, a line width, a dash)."""

    key: str
    label: str
    color: str | None = None
    width: float = 2.0
    dash: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


GPU_METRICS: Final = (
    Metric("used_bytes", "VRAM", "vram", 2),
    Metric("reserved_bytes", "torch reserved", "reserved", 1.5),
    Metric("allocated_bytes", "torch allocated", "allocated", 1.5),
    Metric("shared_bytes", "shared GPU memory", "shared", 1.5),
    Metric("offloaded_bytes", "offloaded"),
    Metric("total_bytes", "VRAM total"),
)
"""The per-GPU metrics (``gpu0_used_bytes`` ...), charted in this order where they have a colour."""
SYSTEM_METRICS: Final = (
    Metric("process_rss_bytes", "ComfyUI RAM", "process", 2),
    Metric("ram_used_bytes", "RAM in use", "ram", 2),
    Metric("commit_bytes", "commit", "commit", 2),
    Metric("cgroup_used_bytes", "container memory", "container", 2),
    Metric("model_offloaded_bytes", "model weights offloaded to RAM", "offloaded", 1.5, (3, 3)),
    Metric("process_private_bytes", "ComfyUI private memory"),
    Metric("swap_used_bytes", "swap in use"),
    Metric("ram_total_bytes", "RAM total"),
    Metric("commit_limit_bytes", "commit limit"),
    Metric("cgroup_limit_bytes", "container limit"),
)
_SYSTEM_LABELS = {m.key: m.label for m in SYSTEM_METRICS}
_GPU_LABELS = {m.key: m.label for m in GPU_METRICS}


def metric_label(key: str) -> str:
    """A person's name for a metric key (``gpu0_used_bytes`` -> ``VRAM``)."""
    if key.startswith("gpu") and "_" in key:
        index, _, suffix = key[3:].partition("_")
        if index.isdigit():
            label = _GPU_LABELS.get(suffix) or suffix.removesuffix("_bytes").replace("_", " ")
            return label if index == "0" else f"GPU{index} {label}"
    return _SYSTEM_LABELS.get(key) or key.removesuffix("_bytes").replace("_", " ")


# ---------------------------------------------------------------------------- judgement words
Severity = Literal["critical", "warning", "info"]
SEVERITIES: Final[dict[str, str]] = {"critical": "Critical", "warning": "Warning", "info": "Note"}
"""``critical``: explains a failure; ``warning``: a limit came close; ``info``: no pressure."""
FINDING_SEVERITIES: Final[dict[str, str]] = {**SEVERITIES, "ok": "OK"}
"""The doctor's findings: a severity, or ``ok`` (checked and fine)."""
SEVERITY_MARKS: Final[dict[str, str]] = {"critical": "!!", "warning": "! ", "info": "i ", "ok": "ok"}
"""How a terminal marks each severity."""

Tier = Literal["failure", "pressure", "note"]
TIERS: Final[dict[str, str]] = {
    "failure": "explains a failure (or a fallback ComfyUI took, a VRAM spill)",
    "pressure": "a peak came within 10 % of the limit the OS enforces",
    "note": "no pressure evidence: a hint, or the headroom",
}
"""How a suggestion ranks, strongest first: its evidence decides, then the bytes it would save."""

Tone = Literal["running", "ok", "near", "failed", "other-failure", "ended", "interrupted", "empty"]
TONES: Final[dict[str, str]] = {
    "running": "a run is executing",
    "ok": "nothing ran short",
    "near": "a peak came within 10 % of the limit",
    "failed": "a memory or the disk ran out",
    "other-failure": "failed, not of memory",
    "ended": "ComfyUI stopped without an error",
    "interrupted": "interrupted",
    "empty": "no run yet",
}

NODE_TONES: Final[dict[str, str]] = {
    "neutral": "a heavy node, nothing near a limit",
    "near": "within 10 % of the enforced limit",
    "failed": "the node that failed",
}
"""How a verdict marks each node (the canvas badges)."""

FORECAST_VERDICTS: Final[dict[str, tuple[str, str]]] = {
    "fits": ("ok", "fits with room to spare"),
    "unknown": (
        "empty",
        "a model it loads is not on this machine, or a node uses memory the forecast cannot size: not all of it is "
        "counted, so it cannot be said to fit",
    ),
    "tight": ("near", "within 10 % of the limit, or part of a model stays in RAM"),
    "won't fit": ("failed", "more than the limit: it would fail (or ComfyUI would fall back)"),
}
"""A forecast's verdict of a stage (``memprobe.forecast``): its headline tone and what it means."""

TABLE_METRICS: Final = (
    "gpu0_used_bytes",
    "process_rss_bytes",
    "ram_used_bytes",
    "commit_bytes",
    "gpu0_reserved_bytes",
    "gpu0_offloaded_bytes",
)
"""The memories the panel's node table offers, in this order (where a run has them)."""

FALLBACK_KINDS: Final = ("tiled-vae-decode", "tiled-vae-encode", "attention-fallback", "vram-spill")
"""Silent out-of-memory recoveries ComfyUI takes, and the driver's spill into shared memory."""

EVENTS: Final = (
    "memprobe.run_start",
    "memprobe.node",
    "memprobe.samples",
    "memprobe.mark",
    "memprobe.fallback",
    "memprobe.model",
    "memprobe.run_end",
    "memprobe.forecast",
)
"""The websocket events the server sends (``web/events.py``, ``web/forecast.py``)."""


def vocabulary_document() -> dict[str, Any]:
    """Everything above, as the browser receives it (``GET /memprobe/vocabulary``)."""
    return {
        "failure_kinds": [
            {
                "id": k.id,
                "resource": k.resource,
                "memory": k.memory,
                "ran_short": k.ran_short,
                "headline": k.headline,
                "ran_out": k.ran_out,
            }
            for k in _KINDS
        ],
        "run_statuses": [
            {"id": s, "label": label, "failed": s in FAILED_RUN_STATUSES} for s, label in RUN_STATUSES.items()
        ],
        "node_statuses": [
            {"id": s, "label": label, "executed": s in EXECUTED_STATUSES, "open": s in OPEN_STATUSES}
            for s, label in NODE_STATUSES.items()
        ],
        "stages": [{"id": s, "label": label} for s, label in STAGES.items()],
        "gpu_metrics": [m.to_dict() for m in GPU_METRICS],
        "system_metrics": [m.to_dict() for m in SYSTEM_METRICS],
        "severities": [{"id": s, "label": label} for s, label in SEVERITIES.items()],
        "tiers": [{"id": t, "words": words} for t, words in TIERS.items()],
        "tones": [{"id": t, "words": words} for t, words in TONES.items()],
        "node_tones": [{"id": t, "words": words} for t, words in NODE_TONES.items()],
        "forecast_verdicts": [
            {"id": v, "tone": tone, "words": words} for v, (tone, words) in FORECAST_VERDICTS.items()
        ],
        "table_metrics": list(TABLE_METRICS),
        "fallback_kinds": list(FALLBACK_KINDS),
        "thresholds": {"near_limit": NEAR_LIMIT, "at_limit": AT_LIMIT},
        "events": list(EVENTS),
    }
