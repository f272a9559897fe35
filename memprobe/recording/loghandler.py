"""A ``logging.Handler`` on ComfyUI's root logger that reads two kinds of ComfyUI log lines as they
are written: its silent out-of-memory recoveries (WARNING; newer ComfyUI's INFO "... tiling directly." before the
one its estimate chose) and its model manager's loads and unloads (INFO: ``loaded partially …``,
``Unloaded partially …``; see ``memprobe.logs.modellog``)."""

from __future__ import annotations

import logging

from ..judging.failures import PLANNED_TILING, detect_fallback
from ..logs.modellog import ModelLogReader
from .tracker import Tracker

__all__ = ["ComfyLogHandler"]

_PLANNED_WITHIN_S = 5.0
"""How soon after newer ComfyUI's "... tiling directly." its retry's warning comes (the next statement of the same
``except`` block: milliseconds)."""


class ComfyLogHandler(logging.Handler):
    """Sees every INFO+ record of the process; a substring test per record, no formatting unless
    the message can be one of ours."""

    def __init__(self, tracker: Tracker) -> None:
        super().__init__(level=logging.INFO)
        self.tracker = tracker
        self.models = ModelLogReader()
        self.planned: tuple[str, int | None, float] | None = None
        """Newer ComfyUI's "... tiling directly." (INFO): its text, thread and time, until the warning it announces
        (logged right after it, in the same thread) or a new prompt."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            raw = record.msg if isinstance(record.msg, str) else str(record.msg)
            if record.levelno >= logging.WARNING:
                low = raw.lower()
                if "memory" in low or "oomed" in low:  # (the VAE's attention: "... OOMed: switched to slice attention")
                    message = record.getMessage()
                    kind = detect_fallback(message)
                    planned = self.planned
                    if kind is not None and planned is not None and planned[1] == record.thread:
                        self.planned = None  # (the next warning of its thread is the one it announced, or none is)
                        if kind.startswith("tiled-") and 0 <= record.created - planned[2] <= _PLANNED_WITHIN_S:
                            message = f"{planned[0]} {message}"  # its estimate chose tiles: no attempt failed
                    if kind is not None:
                        self.tracker.on_fallback(kind, message)
            elif PLANNED_TILING in raw:
                self.planned = (record.getMessage(), record.thread, record.created)
            elif "load" in raw:
                line = self.models.feed(record.getMessage())
                if line is not None:
                    self.tracker.on_model_log(line)
            elif raw == "got prompt":
                self.models.reset()
                self.planned = None
        except Exception:  # logging must never raise
            self.handleError(record)
