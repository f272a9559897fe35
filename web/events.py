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
``memprobe.run_end``          the run's header with its outcome and first failure
============================  =================================================================

The model documents are described in ``memprobe/residency.py`` (and the README).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..memprobe.recording.listener import TrackerListener
from ..memprobe.recording.records import Mark, NodeRun, RunEvent, RunRecord

__all__ = ["EventBroadcaster", "EVENTS"]

EVENTS = ("memprobe.run_start", "memprobe.node", "memprobe.samples", "memprobe.mark", "memprobe.fallback",
          "memprobe.model", "memprobe.run_end")

Send = Callable[[str, dict[str, Any]], None]


logger = logging.getLogger("memprobe")


class EventBroadcaster(TrackerListener):
    """Forwards the tracker's news to ``send(event, data)`` (``PromptServer.send_sync`` with no
    client id broadcasts; it is thread-safe).

    The news arrives on ComfyUI's worker thread, so everything here only copies and queues. What
    ``memprobe.run_end`` carries besides the header (``run_end_extras``: suggestions, stage summary,
    which read the machine's set-up) is computed on a thread of its own, after the run's last
    ``memprobe.node`` event was queued, so the next prompt never waits for it."""

    def __init__(self, send: Send, run_end_extras: Callable[[RunRecord], dict[str, Any]] | None = None) -> None:
        self.send = send
        self.run_end_extras = run_end_extras
        self._extras_worker: ThreadPoolExecutor | None = None

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
        data = run.header()
        if self.run_end_extras is None:
            self.send("memprobe.run_end", data)
            return
        if self._extras_worker is None:
            self._extras_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memprobe-run-end")
        self._extras_worker.submit(self._send_run_end, run, data)

    def _send_run_end(self, run: RunRecord, data: dict[str, Any]) -> None:
        assert self.run_end_extras is not None
        try:
            data.update(self.run_end_extras(run))
        except Exception:  # the header alone still tells the panel the run ended
            logger.warning("Memory Probe: could not judge run %s for the panel", run.id, exc_info=True)
        self.send("memprobe.run_end", data)
