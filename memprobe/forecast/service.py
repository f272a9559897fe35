"""The forecast inside a running ComfyUI: for a graph before it is queued (``POST /memprobe/forecast``,
the panel's "Before you run" line, the check when a prompt is queued), and beside each run once it
ended — where the run's measurement teaches the next forecast.

Everything ComfyUI-specific comes in as callables (the glue gives them: where a model file is, how
big an input image is, the live readings and the models loaded now), so this runs and is tested
anywhere.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from .._log import warn_once
from ..documents import RunDoc
from . import predict
from .forecast import ModelLookup, device_class, forecast
from .learn import compare, corrections_from, observations, summarize
from .machine import machine_from

__all__ = ["ForecastService", "BadGraph", "check_graph", "run_summary"]

logger = logging.getLogger("memprobe")

MAX_NODES = 5000
MAX_LESSONS = 2000
"""What runs taught, kept in memory per device class (the ledger keeps them all)."""


class BadGraph(ValueError):
    """A graph the forecast cannot read: the message says why."""


def check_graph(prompt: Any) -> dict[str, Any]:
    """The API graph, or :class:`BadGraph`: an object of nodes, each with a ``class_type``."""
    if not isinstance(prompt, dict) or not prompt:
        raise BadGraph("prompt must be a non-empty object: the API-format graph {node_id: {class_type, inputs}}")
    if len(prompt) > MAX_NODES:
        raise BadGraph(f"prompt has {len(prompt)} nodes; at most {MAX_NODES}")
    nodes = {k: v for k, v in prompt.items() if isinstance(v, dict) and isinstance(v.get("class_type"), str)}
    if not nodes:
        raise BadGraph("prompt has no node with a class_type: send the API format (the frontend's graphToPrompt)")
    return prompt


def run_summary(fc: Mapping[str, Any], run: RunDoc) -> dict[str, Any]:
    """What a run document carries of its forecast: the verdict, the peak, and per stage the forecast
    beside the measurement (``forecast_bytes``, ``measured_bytes``, ``error_pct``)."""
    comparison = compare(run, fc)
    stages = {s["stage"]: s for s in fc.get("stages") or []}
    for row in comparison:
        row["verdict"] = stages[row["stage"]]["verdict"]
        row["system_bytes"] = stages[row["stage"]]["system_bytes"]  # what the stage adds to system memory's use
    return {
        "verdict": fc.get("verdict"),
        "metric": fc.get("metric"),
        "family": fc.get("family"),
        "peak": fc.get("peak"),
        "stages": comparison,
        "largest_error_pct": summarize(comparison),
        "learned": fc.get("learned") or [],
        "unknown": fc.get("unknown") or [],
    }


class ForecastService:
    def __init__(
        self,
        lookup: ModelLookup,
        *,
        context: Callable[[], Mapping[str, Any]],
        readings: Callable[[], Mapping[str, Any] | None],
        models: Callable[[], list[dict[str, Any]] | None] = lambda: None,
        image_size: Callable[[str], tuple[int, int] | None] | None = None,
        taught: Callable[[str, float | None], list[dict[str, Any]]] = lambda device, before: [],
        keep: Callable[[str, float, dict[str, Any], list[dict[str, Any]]], None] | None = None,
    ) -> None:
        self.lookup = lookup
        self.context = context
        self.readings = readings
        self.models = models
        self.image_size = image_size
        self.taught = taught
        """``taught(device, before)``: the observations runs left, newest first (the ledger's)."""
        self.keep = keep
        """``keep(run_id, started_at, summary, observations)``: store a run's forecast (the ledger's)."""
        self._lessons: dict[str, list[tuple[float, dict[str, Any]]]] = {}
        """Per device class, what runs taught, newest first: read from ``taught`` once, then kept here
        as runs end (every forecast asks for it; the ledger is read once)."""
        self._lock = threading.Lock()

    def _corrections(self, device: str, before: float | None) -> dict[tuple[str, str, str], Any]:
        with self._lock:
            lessons = self._lessons.get(device)
            if lessons is None:
                rows = self.taught(device, None)
                lessons = self._lessons[device] = [(float(row.get("started_at") or 0.0), row) for row in rows]
            rows = [row for t, row in lessons if before is None or t < before]
        return corrections_from(rows)

    def _learn(self, device: str, started_at: float, rows: list[dict[str, Any]]) -> None:
        with self._lock:
            lessons = self._lessons.setdefault(device, [])
            lessons[:0] = [(started_at, row) for row in rows]
            del lessons[MAX_LESSONS:]

    def now(self, prompt: Any, what_if: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The forecast of ``prompt`` on this machine as it is now (or on a what-if machine)."""
        graph = check_graph(prompt)
        context = self.context()
        machine = machine_from(context, self.readings() or {}, self.models() or [], what_if=what_if)
        learned = self._corrections(device_class(machine), None)
        return predict(graph, machine, self.lookup, context=context, corrections=learned, image_size=self.image_size)

    # ------------------------------------------------------------------ beside each run (the judge's thread)
    def for_run(self, run: RunDoc) -> dict[str, Any] | None:
        """The forecast a run would have had when it started: its start readings, the models loaded
        then, and what the runs before it taught."""
        prompt = run.get("prompt")
        if not isinstance(prompt, dict) or not prompt:
            return None
        context = run.get("context") or {}
        machine = machine_from(context, run.get("start_metrics") or {}, run.get("models_start") or [])
        learned = self._corrections(device_class(machine), run.get("started_at"))
        return forecast(prompt, machine, self.lookup, corrections=learned, image_size=self.image_size)

    def run_judged(self, run: Any, doc: RunDoc) -> None:
        """A run ended (and was judged): keep its forecast beside its measurement and what it taught."""
        if self.keep is None or doc.get("status") in (None, "running"):
            return
        try:
            fc = self.for_run(doc)
            if fc is None:
                return
            context = doc.get("context") or {}
            device = "gpu" if machine_from(context, doc.get("start_metrics") or {}).on_gpu else "cpu"
            rows = observations(doc, fc, device) if doc.get("status") == "success" else []
            summary = run_summary(fc, doc)
            doc["forecast"] = summary
            started_at = float(doc.get("started_at") or 0.0)
            self._learn(device, started_at, rows)
            self.keep(str(doc.get("id")), started_at, summary, rows)
        except Exception:  # the run stays judged and saved; only its forecast is missing
            warn_once("forecast-run", "Memory Probe: could not forecast run %s", doc.get("id"), exc_info=True)
