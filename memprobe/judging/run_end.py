"""Each run judged once, when it ends, off ComfyUI's worker thread: the verdict, the suggestions
and the stage summary of :func:`memprobe.judging.run_view.enrich`, handed to whoever renders them
(the ``memprobe.run_end`` event, the Prometheus counters).

The tracker tells :class:`RunEndJudge` that a run finished on the worker thread; the judge only
queues it there. Its own thread reads the machine's set-up, runs the rules and calls each
subscriber's ``run_judged(run, doc)``; the next prompt never waits for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from .._log import warn_once
from .._worker import Worker
from ..documents import MachineDoc, RunDoc
from ..recording.listener import TrackerListener
from ..recording.records import RunRecord
from .run_view import enrich

__all__ = ["RunEndJudge", "JudgedListener"]


class JudgedListener(Protocol):
    def run_judged(self, run: RunRecord, doc: RunDoc) -> None: ...


class RunEndJudge(TrackerListener):
    """Judges finished runs on one daemon thread of its own, in the order they finished."""

    def __init__(self, machine: Callable[[], MachineDoc | None] = lambda: None) -> None:
        self.machine = machine
        self.subscribers: list[JudgedListener] = []
        self._worker: Worker[RunRecord] = Worker("memprobe-judge", self._judge)
        self.charge: Callable[[str, dict[str, float]], None] | None = None
        """``charge(run_id, parts)``: add CPU spent for a run after it ended to its stored ``overhead``."""

    def subscribe(self, listener: JudgedListener) -> None:
        self.subscribers.append(listener)

    def run_finished(self, run: RunRecord) -> None:
        self._worker.put(run)

    def judge(self, run: RunRecord) -> RunDoc:
        """The judged document of ``run`` (its timeline left out: the verdict reads the nodes' peaks)."""
        return enrich(run.to_dict(timeline={"t": [], "series": {}}), self.machine())

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every run queued so far was judged (tests, shutdown)."""
        return self._worker.flush(timeout)

    @property
    def cpu_s(self) -> float:
        """CPU time the judge's thread has used."""
        return self._worker.cpu_s

    def _judge(self, run: RunRecord) -> None:
        started = time.thread_time()
        self._judge_and_tell(run)
        used = round(time.thread_time() - started, 4)
        if run.overhead is not None:  # the run's own figure counts the CPU its judgement took
            run.overhead["judge_cpu_s"] = used
        if self.charge is not None:
            try:
                self.charge(run.id, {"judge_cpu_s": used})
            except Exception:  # accounting is a nicety, never a fault
                warn_once("judge-charge", "Memory Probe: could not record the judgement's cost", exc_info=True)

    def _judge_and_tell(self, run: RunRecord) -> None:
        try:
            doc = self.judge(run)
        except Exception:  # the header alone still tells the panel the run ended
            warn_once("run-end-judge", "Memory Probe: could not judge run %s", run.id, exc_info=True)
            doc = run.header()  # type: ignore[assignment]
        for listener in self.subscribers:
            try:
                listener.run_judged(run, doc)
            except Exception:  # one subscriber's fault must not silence the others
                warn_once(
                    f"judged-{type(listener).__name__}",
                    "Memory Probe: %s.run_judged failed (ignored)",
                    type(listener).__name__,
                    exc_info=True,
                )
