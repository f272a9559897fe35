"""Counts over the runs this process has seen, kept for ``GET /memprobe/metrics``: runs by
outcome, first failures by kind and stage, silent fallbacks, and each stage's peak per run as
histograms. It renders the verdict: a run is counted when it has been judged (off ComfyUI's worker
thread, :mod:`memprobe.judging.run_end`), by the verdict's failure kind and stage; it keeps no run
ids, node ids or prompt text.

Label values stay few by construction: outcomes, failure kinds, fallback kinds and stages are
closed lists (counted at zero from the start, so an alert sees the first increase); the optional
``workflow`` label is opt-in and capped at :data:`MAX_WORKFLOWS` distinct values.

>>> stats = RunStats()
>>> stats.counts()["runs"][("success", "")]
0
"""

from __future__ import annotations

import bisect
import hashlib
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..documents import RunDoc, VerdictDoc
from ..vocabulary import EXECUTED_STATUSES, FALLBACK_KINDS, RUN_OUTCOMES, STAGES, VERDICT_KINDS
from .listener import TrackerListener
from .records import RunEvent, RunRecord

__all__ = [
    "RunStats",
    "Histogram",
    "PEAK_BUCKETS_BYTES",
    "RUN_OUTCOMES",
    "FALLBACK_KINDS",
    "STAGE_LABELS",
    "MAX_WORKFLOWS",
    "workflow_label",
]

GIB = 1024**3
PEAK_BUCKETS_BYTES: tuple[int, ...] = tuple(
    int(g * GIB) for g in (0.25, 0.5, 1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 80, 96, 128, 192, 256)
)
"""Upper bounds of the stage-peak histograms: the sizes GPUs and machines come in."""

STAGE_LABELS = (*STAGES, "unknown")
"""Every stage, and ``unknown`` for a failure no node was running for."""

MAX_WORKFLOWS = 20
"""Distinct ``workflow`` label values per process; later ones are counted as ``other``."""

_LABEL_TEXT = re.compile(r"[^A-Za-z0-9_.:-]+")


@dataclass(slots=True)
class Histogram:
    """Observations counted into :data:`PEAK_BUCKETS_BYTES` (not cumulative; the last is +Inf)."""

    buckets: list[int] = field(default_factory=lambda: [0] * (len(PEAK_BUCKETS_BYTES) + 1))
    sum: float = 0.0
    count: int = 0

    def observe(self, value: float) -> None:
        self.buckets[bisect.bisect_left(PEAK_BUCKETS_BYTES, value)] += 1
        self.sum += value
        self.count += 1

    def cumulative(self) -> list[int]:
        out, total = [], 0
        for n in self.buckets:
            total += n
            out.append(total)
        return out


def workflow_label(run: RunRecord) -> str:
    """The name an API client gave the prompt (``extra_data["memprobe_workflow"]``, kept in the
    run's context as ``workflow_name``), else ``wf-`` and a hash of the workflow's node types:
    the same workflow with other prompts, seeds or sizes keeps its label, and no text of it leaks."""
    name = (run.context or {}).get("workflow_name")
    if isinstance(name, str) and (clean := _LABEL_TEXT.sub("_", name).strip("_")[:64]):
        return clean
    types = sorted(
        node["class_type"]
        for node in (run.prompt or {}).values()
        if isinstance(node, dict) and isinstance(node.get("class_type"), str)
    )
    if not types:
        return "unknown"
    return "wf-" + hashlib.sha256("\n".join(types).encode()).hexdigest()[:8]


class RunStats(TrackerListener):
    """The counters. ``workflow_label_on()`` is read as each run starts (a setting)."""

    def __init__(self, workflow_label_on: Callable[[], bool] = lambda: False) -> None:
        self.workflow_label_on = workflow_label_on
        self._lock = threading.Lock()
        self._runs: Counter[tuple[str, str]] = Counter({(o, ""): 0 for o in RUN_OUTCOMES})
        self._failures: Counter[tuple[str, str, str]] = Counter(
            {(k, s, ""): 0 for k in VERDICT_KINDS for s in STAGE_LABELS}
        )
        self._fallbacks: Counter[tuple[str, str, str]] = Counter(
            {(k, s, ""): 0 for k in FALLBACK_KINDS for s in STAGE_LABELS}
        )
        self._gpu_peaks: dict[tuple[str, str, str], Histogram] = {}
        """(stage, gpu index, workflow) -> the stage's peak device memory per run."""
        self._ram_peaks: dict[tuple[str, str], Histogram] = {}
        """(stage, workflow) -> the stage's peak resident memory of the process per run."""
        self._workflows: set[str] = set()
        self._labels: dict[int, str] = {}
        """Each run's workflow label (by the record's identity: ids repeat when a prompt is queued
        again), from its start until it is judged."""

    # ------------------------------------------------------------------ listener
    def run_started(self, run: RunRecord) -> None:
        label = self._bounded(workflow_label(run)) if self.workflow_label_on() else ""
        with self._lock:
            self._labels[id(run)] = label
            while len(self._labels) > 64:  # runs never judged (a judge that is not running) are forgotten
                del self._labels[next(iter(self._labels))]

    def event_added(self, run: RunRecord, event: RunEvent) -> None:
        stage = _stage_of(run, event.node_id)
        with self._lock:
            self._fallbacks[(event.kind, stage, self._workflow(run))] += 1

    def run_judged(self, run: RunRecord, doc: RunDoc) -> None:
        """Count a run once it is judged (``memprobe.judging.run_end``): its outcome, the verdict's
        failure kind and stage, and each stage's peaks."""
        workflow = self._workflow(run)
        peaks = _stage_peaks(run.nodes)
        verdict = doc.get("verdict") or {}
        with self._lock:
            self._runs[(run.status, workflow)] += 1
            if run.failure is not None:
                self._failures[(verdict.get("kind") or "other", verdict.get("stage") or "unknown", workflow)] += 1
            for (stage, metric), value in peaks.items():
                if metric == "process_rss_bytes":
                    self._ram_peaks.setdefault((stage, workflow), Histogram()).observe(value)
                else:
                    gpu = metric.removeprefix("gpu").removesuffix("_used_bytes")
                    self._gpu_peaks.setdefault((stage, gpu, workflow), Histogram()).observe(value)
        with self._lock:
            self._labels.pop(id(run), None)

    def add_abrupt(self, verdicts: Iterable[VerdictDoc | None]) -> None:
        """Runs the ledger found cut short by a dead ComfyUI (at start-up), with their verdicts."""
        with self._lock:
            for verdict in verdicts:
                self._runs[("ended_abruptly", "")] += 1
                if verdict:
                    self._failures[(verdict.get("kind") or "other", verdict.get("stage") or "unknown", "")] += 1

    # ------------------------------------------------------------------ reading
    def counts(self) -> dict[str, Any]:
        """A consistent copy: ``runs``, ``failures``, ``fallbacks`` (label tuples -> count) and
        ``gpu_peaks``, ``ram_peaks`` (label tuples -> (cumulative buckets, sum, count))."""
        with self._lock:
            return {
                "runs": dict(self._runs),
                "failures": dict(self._failures),
                "fallbacks": dict(self._fallbacks),
                "gpu_peaks": {k: (h.cumulative(), h.sum, h.count) for k, h in self._gpu_peaks.items()},
                "ram_peaks": {k: (h.cumulative(), h.sum, h.count) for k, h in self._ram_peaks.items()},
            }

    # ------------------------------------------------------------------ helpers
    def _workflow(self, run: RunRecord) -> str:
        return self._labels.get(id(run), "")

    def _bounded(self, label: str) -> str:
        with self._lock:
            if label in self._workflows or len(self._workflows) < MAX_WORKFLOWS:
                self._workflows.add(label)
                return label
        return "other"


def _stage_of(run: RunRecord, node_id: str | None) -> str:
    node = next((n for n in reversed(run.nodes) if n.node_id == node_id), None) if node_id else None
    return node.stage if node is not None else "unknown"


def _stage_peaks(nodes: Iterable[Any]) -> dict[tuple[str, str], int]:
    """(stage, metric) -> the highest peak of the nodes that executed in that stage, for the
    process's resident memory and each GPU's device memory in use."""
    out: dict[tuple[str, str], int] = {}
    for node in nodes:
        if node.status not in EXECUTED_STATUSES:
            continue
        for metric, value in node.peaks.items():
            if metric == "process_rss_bytes" or (metric.startswith("gpu") and metric.endswith("_used_bytes")):
                key = (node.stage, metric)
                if value is not None and value > out.get(key, -1):
                    out[key] = value
    return out
