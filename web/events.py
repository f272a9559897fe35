"""Live ``memprobe.*`` websocket events, broadcast to every open browser.

ComfyUI sends its own per-node messages only to the client that queued the prompt (and none
for prompts posted without a client id), so the panel listens to these instead.

============================  =================================================================
``memprobe.run_start``        the run's header (id, start time, context)
``memprobe.node``             a node started (``status: running``) or ended, with its figures and
                              the models ComfyUI held: ``models`` (at its end; at its start while it
                              runs), ``models_before`` (only when different), ``model_changes``
``memprobe.samples``          new sampler rows ``{run_id, t, series}``, at most 4 a second
``memprobe.mark``             a Memory Probe node's reading (with ``models``)
``memprobe.fallback``         an OOM fallback or VRAM spill ``{run_id, t_s, kind, node_id, message}``
``memprobe.model``            a line of ComfyUI's model manager ``{run_id, t_s, kind, node_id,
                              message, data}``; ``kind`` is ``model-loaded``,
                              ``model-partially-loaded``, ``model-partially-unloaded``,
                              ``model-models-unloaded`` or ``model-dynamic-prepared``; ``data`` holds
                              the figures (``model_class``, ``loaded_bytes``, ``offloaded_bytes``, ...)
``memprobe.run_end``          the run's header with its outcome and first failure, and its judgement:
                              ``verdict``, ``suggestions``, ``stages``, ``parameters``, ``memory``,
                              ``prompt``, ``forecast`` (its forecast beside what it measured)
``memprobe.forecast``         sent to the client that queued a prompt whose forecast says it won't
                              fit (``web/forecast.py``): the stage, the figures, the one change
============================  =================================================================

The model documents are described in ``memprobe/residency.py`` (and the README).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..memprobe.documents import RunDoc
from ..memprobe.judging.run_end import RunEndJudge
from ..memprobe.recording.listener import TrackerListener
from ..memprobe.recording.records import Mark, NodeRun, RunEvent, RunRecord
from ..memprobe.vocabulary import EVENTS

__all__ = ["EventBroadcaster", "EVENTS", "RUN_END_KEYS"]

RUN_END_KEYS = ("verdict", "suggestions", "stages", "parameters", "memory", "prompt", "forecast")
"""What ``memprobe.run_end`` carries besides the run's header, once the run is judged."""


Send = Callable[[str, dict[str, Any]], None]


logger = logging.getLogger("memprobe")


class EventBroadcaster(TrackerListener):
    """Forwards the tracker's news to ``send(event, data)`` (``PromptServer.send_sync`` with no
    client id broadcasts; it is thread-safe).

    The news arrives on ComfyUI's worker thread, so everything here only copies and queues. With a
    ``judge`` (:class:`memprobe.judging.run_end.RunEndJudge`), ``memprobe.run_end`` waits for the
    run's judgement and carries it (verdict, suggestions, stage summary, the prompt); without one it
    carries the header alone."""

    def __init__(self, send: Send, judge: RunEndJudge | None = None) -> None:
        self.send = send
        self.judged = judge is not None
        if judge is not None:
            judge.subscribe(self)

    def run_started(self, run: RunRecord) -> None:
        self.send("memprobe.run_start", run.header())

    def node_started(self, run: RunRecord, node: NodeRun, doc: dict[str, Any]) -> None:
        self.send("memprobe.node", {"run_id": run.id, **doc})

    def node_finished(self, run: RunRecord, node: NodeRun, doc: dict[str, Any]) -> None:
        self.send("memprobe.node", {"run_id": run.id, **doc})

    def samples_added(self, run: RunRecord, timeline: dict[str, Any]) -> None:
        self.send("memprobe.samples", {"run_id": run.id, **timeline})

    def mark_added(self, run: RunRecord | None, mark: Mark) -> None:
        self.send("memprobe.mark", {"run_id": run.id if run else None, **mark.to_dict()})

    def event_added(self, run: RunRecord, event: RunEvent) -> None:
        name = "memprobe.model" if event.kind.startswith("model-") else "memprobe.fallback"
        self.send(name, {"run_id": run.id, **event.to_dict()})

    def run_finished(self, run: RunRecord) -> None:
        if not self.judged:
            self.send("memprobe.run_end", dict(run.header()))

    def run_judged(self, run: RunRecord, doc: RunDoc) -> None:
        data: dict[str, Any] = dict(run.header())
        data.update({k: doc.get(k) for k in RUN_END_KEYS})  # type: ignore[misc]
        self.send("memprobe.run_end", data)
