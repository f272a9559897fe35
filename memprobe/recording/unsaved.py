"""Runs the ledger could not save (a full disk, a read-only folder), kept in memory until it can.

The newest :attr:`KeptRuns.max_runs` runs are kept, each with its timeline reduced to
:attr:`KeptRuns.max_points` peak-preserving points, so a night of runs on a full disk costs a few
megabytes at most. They are served like saved runs (marked ``"saved": false``) and written to the
ledger as soon as it can write again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, cast

from ..documents import HEADER_KEYS, RunDoc, Timeline
from .records import RunRecord
from .timeline import downsample, window

__all__ = ["KeptRuns"]


class KeptRuns:
    """A bounded, thread-safe store of run documents, oldest dropped first."""

    def __init__(self, max_runs: int = 20, max_points: int = 2000) -> None:
        self.max_runs = max_runs
        self.max_points = max_points
        self.dropped = 0
        """Runs dropped from memory because more than ``max_runs`` waited (never saved)."""
        self._runs: OrderedDict[str, RunDoc] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, run: RunRecord | RunDoc) -> None:
        """Keep a finished run (its record, or an imported document) until it is saved."""
        if isinstance(run, RunRecord):
            doc = run.to_dict(timeline=downsample(run.samples.to_timeline(), self.max_points))
        else:
            doc = cast(RunDoc, dict(run))
            doc["timeline"] = downsample(doc.get("timeline") or {"t": [], "series": {}}, self.max_points)
        failure = doc.get("failure")
        doc.setdefault("failures", [failure] if failure else [])
        with self._lock:
            self._runs.pop(doc["id"], None)
            self._runs[doc["id"]] = doc
            while len(self._runs) > self.max_runs:
                self._runs.popitem(last=False)
                self.dropped += 1

    def __len__(self) -> int:
        return len(self._runs)

    def __contains__(self, run_id: object) -> bool:
        return run_id in self._runs

    def documents(self) -> list[RunDoc]:
        """Oldest first (the order to save them in)."""
        with self._lock:
            return list(self._runs.values())

    def discard(self, run_id: str) -> bool:
        with self._lock:
            return self._runs.pop(run_id, None) is not None

    def headers(self) -> list[dict[str, Any]]:
        """What a run list shows of each: the header, its node count and ``saved: false``."""
        return [
            {
                **{k: doc.get(k) for k in HEADER_KEYS if k in doc},
                "node_count": len(doc.get("nodes") or []),
                "saved": False,
            }
            for doc in self.documents()
        ]

    def get(self, run_id: str, max_points: int | None = 2000) -> RunDoc | None:
        with self._lock:
            doc = self._runs.get(run_id)
        if doc is None:
            return None
        timeline: Timeline = doc.get("timeline") or {"t": [], "series": {}}
        served = cast(RunDoc, dict(doc))
        served["saved"] = False
        served["sample_count"] = len(timeline["t"])
        served["timeline"] = downsample(timeline, max_points) if max_points else timeline
        return served

    def samples(self, run_id: str, start: float | None, end: float | None, max_points: int) -> Timeline | None:
        doc = self.get(run_id, None)
        if doc is None:
            return None
        return downsample(window(doc["timeline"], start, end), max_points)
