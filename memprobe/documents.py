"""The documents Memory Probe passes around, typed: a run (``docs/run-format.md``), its nodes, a
snapshot, a suggestion, a verdict and an explanation.

They are ``TypedDict``\\s, not dataclasses, on purpose: every one of them is JSON at some
boundary — the ledger stores it, the routes and events send it, the CLI reads it from a file — and
old documents lack keys that new ones add ("keys are only ever added"). A ``TypedDict`` types the
plain dict that ``json.loads`` returns, with no conversion at any boundary and no cost; the type
checker still knows every key and its type. Where code holds working state (the live run, a node
while it executes) it uses the dataclasses of :mod:`memprobe.recording.records`, whose
``to_dict()`` returns these.

Every document is ``total=False``: a reader treats a missing key like ``None``.
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypedDict

__all__ = [
    "Metrics",
    "Timeline",
    "ModelDoc",
    "NodeDoc",
    "FailureDoc",
    "MarkDoc",
    "EventDoc",
    "RunHeader",
    "RunDoc",
    "MemoryDoc",
    "SuggestionDoc",
    "VerdictDoc",
    "VerdictNode",
    "ExplainDoc",
    "Prompt",
    "MachineDoc",
]

Metrics: TypeAlias = dict[str, int]
"""Metric name -> bytes (``gpu0_used_bytes``, ``ram_used_bytes`` ...; see :mod:`memprobe.vocabulary`)."""
Prompt: TypeAlias = dict[str, Any]
"""An API-format prompt: node id -> {class_type, inputs, _meta}."""
MachineDoc: TypeAlias = dict[str, Any]
"""The doctor's machine document (``memprobe doctor --json``)."""


class Timeline(TypedDict):
    t: list[float]
    series: dict[str, list[int | None]]


ModelDoc = TypedDict(
    "ModelDoc",
    {
        "key": str,
        "name": str | None,
        "class": str | None,
        "kind": str | None,
        "device": str | None,
        "offload_device": str | None,
        "size_bytes": int | None,
        "loaded_bytes": int | None,
        "offloaded_bytes": int | None,
        "dtype": str | None,
        "dynamic": bool | None,
        "pinned_bytes": int | None,
        "file": str | None,
        "loaded_by": dict[str, Any] | None,
    },
    total=False,
)
"""A model ComfyUI's model manager holds (:mod:`memprobe.judging.residency`)."""


class NodeError(TypedDict, total=False):
    exception_type: str
    message: str
    kind: str


class NodeDoc(TypedDict, total=False):
    seq: int
    node_id: str
    display_node_id: str
    real_node_id: str
    class_type: str
    title: str | None
    stage: str
    status: str
    start_s: float | None
    end_s: float | None
    duration_s: float | None
    before: Metrics | None
    after: Metrics | None
    peaks: Metrics
    exact_peaks: list[str]
    deltas: Metrics
    error: NodeError | None
    fallbacks: list[str]
    models: list[ModelDoc] | None
    models_before: list[ModelDoc] | None
    model_changes: list[dict[str, Any]]
    heap_free_bytes: dict[str, int | None]


class FailureDoc(TypedDict, total=False):
    node_id: str | None
    class_type: str | None
    stage: str | None
    kind: str
    exception_type: str | None
    message: str | None
    t_s: float | None
    snapshot: dict[str, Any] | None
    consequence: bool
    abrupt: bool
    evidence: str


class MarkDoc(TypedDict, total=False):
    seq: int
    label: str
    node_id: str | None
    t_s: float | None
    metrics: Metrics
    summary: str
    models: list[ModelDoc] | None


class EventDoc(TypedDict, total=False):
    t_s: float
    kind: str
    node_id: str | None
    message: str
    data: dict[str, Any]


class MemoryDoc(TypedDict, total=False):
    """The memory a run is judged by and the limits that bound it (``run_view.memory_summary``)."""

    metric: str
    label: str
    limit_bytes: int | None
    limit_name: str
    limit_enforced: bool
    system: dict[str, Any]
    commit_limit_enforced: bool


class SuggestionDoc(TypedDict, total=False):
    """One change to try (:mod:`memprobe.judging.advice`)."""

    id: str
    rule: str
    tier: str
    severity: str
    title: str
    why: str
    try_: str
    action: dict[str, Any] | None
    saves_bytes: int | None
    covers: bool | None


class VerdictNode(TypedDict):
    node_id: str
    peak_bytes: int | None
    tone: str


class VerdictDoc(TypedDict, total=False):
    """The one judgement of a run, a log or a forecast (:mod:`memprobe.judging.verdict`)."""

    tone: str
    title: str
    detail: str | None
    failed: bool
    kind: str | None
    memory_ran_out: bool
    metric: str
    metric_label: str
    limit_bytes: int | None
    limit_name: str
    limit_enforced: bool
    peak_bytes: int | None
    counted_bytes: int | None
    peak_t_s: float | None
    share: float | None
    near_limit: bool
    node: dict[str, Any] | None
    stage: str | None
    change: dict[str, Any] | None
    severity: str | None
    nodes: list[VerdictNode]


class RunHeader(TypedDict, total=False):
    id: str
    status: str
    started_at: float
    ended_at: float | None
    duration_s: float | None
    context: dict[str, Any]
    start_metrics: Metrics | None
    end_metrics: Metrics | None
    error: dict[str, Any] | None
    failure: FailureDoc | None
    overhead: dict[str, float] | None
    workflow: dict[str, Any] | None
    models_start: list[ModelDoc] | None
    models_end: list[ModelDoc] | None
    abrupt: dict[str, Any]
    node_count: int
    saved: bool


HEADER_KEYS: tuple[str, ...] = tuple(k for k in RunHeader.__annotations__ if k not in ("node_count", "saved"))
"""What a run's header holds, as stored and sent (the list's ``node_count`` and ``saved`` are added when listed)."""


class RunDoc(RunHeader, total=False):
    """A whole run (``GET /memprobe/runs/{id}``), and what :func:`run_view.enrich` adds."""

    prompt: Prompt | None
    nodes: list[NodeDoc]
    marks: list[MarkDoc]
    failures: list[FailureDoc]
    events: list[EventDoc]
    timeline: Timeline
    sample_count: int
    suggestions: list[dict[str, Any]]
    stages: dict[str, dict[str, Any]]
    parameters: dict[str, Any]
    memory: MemoryDoc
    verdict: VerdictDoc
    forecast: dict[str, Any]


class ExplainDoc(TypedDict, total=False):
    """What ``memprobe explain`` says of a log (the README lists the keys)."""

    memprobe_version: str
    failure: dict[str, Any] | None
    consequences: list[dict[str, Any]]
    machine: dict[str, Any]
    versions: dict[str, str]
    launch_args: list[str]
    models: list[dict[str, Any]]
    fallbacks: list[dict[str, Any]]
    prompts: dict[str, int]
    suggestions: list[dict[str, Any]]
    verdict: VerdictDoc
    unknown: list[str]
    log: dict[str, int]
