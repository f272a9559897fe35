"""One daemon thread that handles queued items in order, started on first use: what the run-end judge
and the queued-prompt check share. ``put`` never blocks the caller (ComfyUI's worker thread, or its
request handler); ``flush`` waits for what was queued so far (tests, shutdown); ``cpu_s`` is the CPU
the thread has used."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Worker"]

T = TypeVar("T")


class Worker(Generic[T]):
    def __init__(self, name: str, handle: Callable[[T], None]) -> None:
        self.name = name
        self.handle = handle
        self.cpu_s = 0.0
        self._queue: queue.SimpleQueue[T | threading.Event] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, item: T) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=self.name, daemon=True)
                self._thread.start()
        self._queue.put(item)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every item queued so far was handled."""
        if self._thread is None:
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if isinstance(item, threading.Event):
                item.set()
                continue
            self.handle(item)  # the handler keeps its own faults to itself
            self.cpu_s = time.thread_time()
