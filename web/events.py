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

from collections.abc import Callable
from typing import Any

from ..memprobe.records import Mark, NodeRun, RunEvent, RunRecord
from ..memprobe.tracker import TrackerListener

__all__ = ["EventBroadcaster", "EVENTS"]

EVENTS = ("memprobe.run_start", "memprobe.node", "memprobe.samples", "memprobe.mark", "memprobe.fallback",
          "memprobe.model", "memprobe.run_end")

Send = Callable[[str, dict[str, Any]], None]


class EventBroadcaster(TrackerListener):
    """Forwards the tracker's news to ``send(event, data)`` (``PromptServer.send_sync`` with no
    client id broadcasts; it is thread-safe)."""

    def __init__(self, send: Send, run_end_extras: Callable[[RunRecord], dict[str, Any]] | None = None) -> None:
        self.send = send
        self.run_end_extras = run_end_extras

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
        if self.run_end_extras is not None:
            data.update(self.run_end_extras(run))
        self.send("memprobe.run_end", data)
