"""A background thread that reads memory fast while a run executes and slowly when idle.

It only takes the cheap readings (no disks), hands each row to the tracker (which keeps the
per-node maxima), survives any sensor failure and stops cleanly.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from ._log import warn_once
from .listener import TrackerListener
from .records import RunRecord
from .sensors import Sensors
from .snapshot import Metrics
from .tracker import Tracker

__all__ = ["Sampler"]


class Sampler(TrackerListener):
    def __init__(self, sensors: Sensors, tracker: Tracker, *, active_hz: float = 50.0, idle_hz: float = 1.0,
                 idle_history: int = 300) -> None:
        self.sensors = sensors
        self.tracker = tracker
        self.active_hz = active_hz
        self.idle_hz = idle_hz
        self.idle = deque[tuple[float, Metrics]](maxlen=idle_history)
        """The latest idle readings (wall time, metrics): what the panel shows between runs."""
        self.latest: tuple[float, Metrics] | None = None
        """The newest reading (wall time, metrics), idle or not: what ``/memprobe/metrics`` serves."""
        self.ticks = 0
        self.cpu_s = 0.0
        """CPU time the sampler thread has used (its own clock, read from inside the thread)."""
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        tracker.subscribe(self)

    def run_started(self, run: RunRecord) -> None:
        self.wake()  # switch to the fast rate at once, not at the next idle tick

    def set_rate(self, active_hz: float) -> None:
        self.active_hz = active_hz
        self._wake.set()

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="memprobe-sampler", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def native_id(self) -> int | None:
        """The OS thread id (to read the sampler's own CPU time)."""
        return self._thread.native_id if self._thread is not None else None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        self._wake.set()

    def _loop(self) -> None:
        next_at = time.monotonic()
        while not self._stop.is_set():
            active = self.tracker.active
            period = 1.0 / (self.active_hz if active else self.idle_hz)
            self.sample_once(active)
            self.cpu_s = time.thread_time()
            next_at += period
            delay = next_at - time.monotonic()
            if delay < 0:  # fell behind (a stalled machine): do not try to catch up in a burst
                next_at = time.monotonic()
                delay = 0.0
            if self._wake.wait(delay):
                self._wake.clear()
                next_at = time.monotonic()

    def sample_once(self, active: bool | None = None) -> None:
        try:
            mono = time.monotonic()
            metrics = self.sensors.sample()
            self.ticks += 1
            self.latest = reading = (time.time(), metrics)
            if active if active is not None else self.tracker.active:
                self.tracker.on_sample(mono, metrics)
            else:
                self.idle.append(reading)
        except Exception as exc:  # the sampler survives anything
            warn_once("sampler", "Memory Probe: a sampler reading failed (%s); sampling continues", exc)

    def status(self) -> dict[str, Any]:
        return {"running": self.running, "active_hz": self.active_hz, "idle_hz": self.idle_hz, "ticks": self.ticks,
                "cpu_s": round(self.cpu_s, 4)}
