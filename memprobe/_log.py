"""Logging helpers: one logger for the package and warnings that are said once per cause."""

from __future__ import annotations

import logging
import threading

__all__ = ["logger", "warn_once", "reset_warnings"]

logger = logging.getLogger("memprobe")

_said: set[str] = set()
_lock = threading.Lock()


def warn_once(cause: str, message: str, *args: object, exc_info: bool = False) -> None:
    """Log ``message`` as a warning the first time ``cause`` is seen, and never again."""
    with _lock:
        if cause in _said:
            return
        _said.add(cause)
    logger.warning(message, *args, exc_info=exc_info)


def reset_warnings() -> None:
    """Forget which causes were reported (for tests)."""
    with _lock:
        _said.clear()
