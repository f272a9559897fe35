"""A ``logging.Handler`` that spots ComfyUI's silent OOM recoveries in its log."""

from __future__ import annotations

import logging

from .failures import detect_fallback
from .tracker import Tracker

__all__ = ["FallbackLogHandler"]


class FallbackLogHandler(logging.Handler):
    """Sees every WARNING+ record of the process; only a substring test per record, no formatting
    unless the message mentions memory."""

    def __init__(self, tracker: Tracker) -> None:
        super().__init__(level=logging.WARNING)
        self.tracker = tracker

    def emit(self, record: logging.LogRecord) -> None:
        try:
            raw = record.msg if isinstance(record.msg, str) else str(record.msg)
            if "memory" not in raw.lower():
                return
            message = record.getMessage()
            kind = detect_fallback(message)
            if kind is not None:
                self.tracker.on_fallback(kind, message)
        except Exception:  # logging must never raise
            self.handleError(record)
