"""What a traced run is made of. Each record turns into the plain JSON document that the ledger
stores, the routes serve, and advice/compare/report read (see ``docs/run-format.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from ..documents import EventDoc, FailureDoc, MarkDoc, ModelDoc, NodeDoc, NodeError, RunDoc, RunHeader, Timeline
from ..judging.residency import same_residency
from ..sensing.snapshot import Metrics
from .timeline import SampleBuffer

__all__ = ["NodeRun", "Failure", "Mark", "RunEvent", "RunRecord", "max_merge", "deltas"]


def max_merge(into: dict[str, int], values: Metrics) -> None:
    """``into[k] = max(into[k], values[k])`` for every metric in ``values``."""
    for key, value in values.items():
        old = into.get(key)
        if old is None or value > old:
            into[key] = value


def deltas(before: Metrics | None, after: Metrics | None) -> dict[str, int]:
    """``after - before`` for the metrics both have (totals and limits are left out)."""
    if not before or not after:
        return {}
    return {
        k: after[k] - before[k] for k in after.keys() & before.keys() if not k.endswith(("total_bytes", "limit_bytes"))
    }


@dataclass(slots=True)
class Failure:
    node_id: str | None
    class_type: str | None
    stage: str | None
    kind: str
    """``vram``, ``system-ram``, ``commit-limit``, ``cgroup-limit``, ``disk`` or ``other``."""
    exception_type: str | None
    message: str | None
    t_s: float | None
    snapshot: dict[str, Any] | None = None
    consequence: bool = False
    """A later error of the same run: a consequence of the first one, not its cause."""

    def to_dict(self) -> FailureDoc:
        return {
            "node_id": self.node_id,
            "class_type": self.class_type,
            "stage": self.stage,
            "kind": self.kind,
            "exception_type": self.exception_type,
            "message": self.message,
            "t_s": self.t_s,
            "snapshot": self.snapshot,
            "consequence": self.consequence,
        }


@dataclass(slots=True)
class NodeRun:
    """One execution of one node within a run."""

    seq: int
    node_id: str
    class_type: str
    stage: str
    status: str = "running"
    display_node_id: str | None = None
    real_node_id: str | None = None
    title: str | None = None
    start_s: float | None = None
    end_s: float | None = None
    before: Metrics | None = None
    after: Metrics | None = None
    peaks: dict[str, int] = field(default_factory=dict)
    exact_peaks: set[str] = field(default_factory=set)
    """The metrics whose peak came from a peak counter of the OS or torch, so it is exact; every
    other peak is the highest of the sampler's readings and the before/after readings, which a
    spike between two readings can exceed."""
    error: NodeError | None = None
    fallbacks: list[str] = field(default_factory=list)
    models_before: list[ModelDoc] | None = None
    """The models ComfyUI's model manager held when the node began (``None``: unknown)."""
    models: list[ModelDoc] | None = None
    """... and when it ended (see ``memprobe.judging.residency`` for the keys)."""
    model_changes: list[dict[str, Any]] = field(default_factory=list)
    """What the node did to them: loaded, partially loaded, offloaded, unloaded."""
    heap_free_before: int | None = None
    heap_free_after: int | None = None
    """What the C library's ``malloc`` held free for reuse when the node began and ended (Linux, glibc;
    read for the stages the forecast learns from): memory the process's RSS counts that is not in use."""
    counters_start: Metrics = field(default_factory=dict, repr=False)
    """The peak counters when the node began (the tracker's working state, not stored)."""
    counters_reset: frozenset[str] = field(default=frozenset(), repr=False)
    """The metrics whose peak counters were restarted when the node began (not stored)."""

    @property
    def duration_s(self) -> float | None:
        if self.start_s is None or self.end_s is None:
            return None
        return round(self.end_s - self.start_s, 4)

    def to_dict(self) -> NodeDoc:
        return {
            "seq": self.seq,
            "node_id": self.node_id,
            "display_node_id": self.display_node_id or self.node_id,
            "real_node_id": self.real_node_id or self.node_id,
            "class_type": self.class_type,
            "title": self.title,
            "stage": self.stage,
            "status": self.status,
            "start_s": self.start_s,
            "end_s": self.end_s,
            "duration_s": self.duration_s,
            "before": self.before,
            "after": self.after,
            "peaks": dict(self.peaks),
            "exact_peaks": sorted(self.exact_peaks),
            "deltas": deltas(self.before, self.after),
            "error": self.error,
            "fallbacks": list(self.fallbacks),
            "models": self.models_before if self.status in ("running", "pending") else self.models,
            "model_changes": list(self.model_changes),
            **(
                {"heap_free_bytes": {"before": self.heap_free_before, "after": self.heap_free_after}}
                if self.heap_free_before is not None
                else {}
            ),
            **(
                {}
                if self.status in ("running", "pending")
                or self.models_before is self.models
                or same_residency(self.models_before, self.models)
                else {"models_before": self.models_before}
            ),
        }


@dataclass(slots=True)
class Mark:
    """A Memory Probe node's reading, labelled by the user."""

    seq: int
    label: str
    node_id: str | None
    t_s: float | None
    metrics: Metrics
    summary: str
    models: list[ModelDoc] | None = None

    def to_dict(self) -> MarkDoc:
        return {
            "seq": self.seq,
            "label": self.label,
            "node_id": self.node_id,
            "t_s": self.t_s,
            "metrics": self.metrics,
            "summary": self.summary,
            "models": self.models,
        }


@dataclass(slots=True)
class RunEvent:
    """Something worth a marker on the timeline: an OOM fallback, a VRAM spill, a line of
    ComfyUI's model manager (``model-*`` kinds, with the parsed figures in ``data``)."""

    t_s: float
    kind: str
    node_id: str | None
    message: str
    data: dict[str, Any] | None = None

    def to_dict(self) -> EventDoc:
        doc: EventDoc = {"t_s": self.t_s, "kind": self.kind, "node_id": self.node_id, "message": self.message}
        if self.data is not None:
            doc["data"] = self.data
        return doc


@dataclass(slots=True)
class RunRecord:
    id: str
    started_at: float
    """wall clock (``time.time()``)."""
    started_mono: float
    context: dict[str, Any] = field(default_factory=dict)
    prompt: dict[str, Any] | None = None
    status: str = "running"
    ended_at: float | None = None
    nodes: list[NodeRun] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    events: list[RunEvent] = field(default_factory=list)
    samples: SampleBuffer = field(default_factory=SampleBuffer)
    start_metrics: Metrics | None = None
    end_metrics: Metrics | None = None
    error: dict[str, Any] | None = None
    """ComfyUI's own ``execution_error`` data (node, type, message), when the run failed."""
    overhead: dict[str, float] | None = None
    charged: dict[str, float] = field(default_factory=dict)
    """CPU Memory Probe spent for this run outside its window (the forecast when it was queued), added
    to ``overhead`` when the run ends."""
    """CPU seconds Memory Probe itself used during the run, and its share of the process's."""
    workflow: dict[str, Any] | None = None
    """Where the run came from: ``{"id": the frontend's workflow id or None, "graph": a signature
    of the prompt's graph}`` (``workflow.workflow_identity``); ``None`` when unknown."""
    models_start: list[ModelDoc] | None = None
    models_end: list[ModelDoc] | None = None
    """The models ComfyUI's model manager held when the run began and ended."""

    @property
    def failure(self) -> Failure | None:
        return self.failures[0] if self.failures else None

    def header(self) -> RunHeader:
        """The run without its nodes, samples and prompt: what lists and events carry."""
        duration = round(self.ended_at - self.started_at, 4) if self.ended_at is not None else None
        return {
            "id": self.id,
            "status": self.status,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "duration_s": duration,
            "context": self.context,
            "start_metrics": self.start_metrics,
            "end_metrics": self.end_metrics,
            "error": self.error,
            "failure": self.failure.to_dict() if self.failure else None,
            "overhead": self.overhead,
            "workflow": self.workflow,
            "models_start": self.models_start,
            "models_end": self.models_end,
        }

    def to_dict(self, *, timeline: Timeline | None = None) -> RunDoc:
        doc = cast(RunDoc, self.header())  # a run document is its header and the rest
        doc["prompt"] = self.prompt
        doc["nodes"] = [n.to_dict() for n in self.nodes]
        doc["marks"] = [m.to_dict() for m in self.marks]
        doc["failures"] = [f.to_dict() for f in self.failures]
        doc["events"] = [e.to_dict() for e in self.events]
        doc["timeline"] = timeline if timeline is not None else self.samples.to_timeline()
        return doc
