"""A background thread that reads memory while a run executes (for the timeline) and slowly when idle.

Per-node peaks do not depend on it where the OS or torch keeps a peak counter (the tracker reads
those at node boundaries); the sampler draws the shape of the run and gives the peaks no counter
keeps: machine RAM, swap, Linux commit, device memory from NVML. It only takes the cheap readings
(no disks), hands each row to the tracker, survives any sensor failure and stops cleanly.

A tick is its reading and little else: the thread sleeps on a plain lock (no ``threading.Event``
machinery), and its CPU time is read from outside the thread when asked (``cpu_s``) instead of on
every tick. But a reading taken once every 100 ms runs cold — the wake-up, then ``/proc`` and the
interpreter with cold caches — and costs several times what the same reading costs in a tight
loop (``benchmarks/bench_sampler.py`` measures both), so the rate decides the cost: see
:func:`auto_rate`.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from typing import Any

from .._log import warn_once
from ..recording.listener import TrackerListener
from ..recording.records import RunRecord
from ..recording.tracker import Tracker
from .sensors import Sensors
from .snapshot import Metrics

__all__ = ["Sampler", "auto_rate"]

CPU_HZ = 10.0
GPU_HZ = 20.0


def auto_rate(compute_device: str | None) -> float:
    """The rate while a run executes, chosen by what the samples are for and where ComfyUI computes.

    The samples draw the timeline; per-node peaks come from peak counters where the OS or torch
    keeps one. 10 Hz (a point every 100 ms) draws a run of seconds to hours; on a CPU-only
    ComfyUI torch keeps every core busy and each wake-up preempts one of its threads, so no
    more. With a GPU the cores are mostly free and device memory in use (NVML) has no peak
    counter, so 20 Hz.
    """
    return CPU_HZ if compute_device == "cpu" else GPU_HZ


class Sampler(TrackerListener):
    def __init__(
        self,
        sensors: Sensors,
        tracker: Tracker,
        *,
        active_hz: float | None = None,
        idle_hz: float = 1.0,
        idle_history: int = 300,
    ) -> None:
        self.sensors = sensors
        self.tracker = tracker
        self.requested_hz = active_hz
        """The rate asked for while a run executes; ``None``: automatic (:func:`auto_rate`)."""
        self.idle_hz = idle_hz
        self.idle = deque[tuple[float, Metrics]](maxlen=idle_history)
        """The latest idle readings (wall time, metrics): what the panel shows between runs."""
        self.latest: tuple[float, Metrics] | None = None
        """The newest reading (wall time, metrics), idle or not: what ``/memprobe/metrics`` serves."""
        self.ticks = 0
        self._cpu_s = 0.0
        self._cpu_clock: int | None = None
        self._stopping = False
        self._wake = threading.Lock()
        """Held while the thread sleeps on it; :meth:`wake` releases it to wake the thread early."""
        self._wake.acquire()
        self._thread: threading.Thread | None = None
        tracker.subscribe(self)

    @property
    def active_hz(self) -> float:
        """The rate in use while a run executes."""
        return self.requested_hz if self.requested_hz else auto_rate(self.tracker.compute_device)

    @property
    def cpu_s(self) -> float:
        """CPU time the sampler thread has used (its own clock, read from outside it where the OS
        allows, else as of its latest tick)."""
        clock = self._cpu_clock
        if clock is not None:
            try:
                self._cpu_s = time.clock_gettime(clock)
            except OSError:  # the thread has just ended
                pass
        return self._cpu_s

    def run_started(self, run: RunRecord) -> None:
        self.wake()  # switch to the fast rate at once, not at the next idle tick

    def set_rate(self, active_hz: float | None) -> None:
        """``None`` (or 0): choose the rate automatically."""
        self.requested_hz = active_hz or None
        self.wake()

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping = False
        self._wake.acquire(blocking=False)
        self._thread = threading.Thread(target=self._loop, name="memprobe-sampler", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stopping = True
        self.wake()
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
        try:
            self._wake.release()
        except RuntimeError:  # already awake
            pass

    def _loop(self) -> None:
        own_clock = sys.platform != "win32" and hasattr(time, "pthread_getcpuclockid")
        if own_clock:
            self._cpu_clock = time.pthread_getcpuclockid(threading.get_ident())
        tracker, clock, wake = self.tracker, time.monotonic, self._wake
        next_at = clock()
        try:
            while not self._stopping:
                active = tracker.current is not None
                self.sample_once(active)
                if not own_clock:
                    self._cpu_s = time.thread_time()
                next_at += 1.0 / (self.active_hz if active else self.idle_hz)
                delay = next_at - clock()
                if delay < 0:  # fell behind (a stalled machine): do not try to catch up in a burst
                    next_at, delay = clock(), 0.0
                if wake.acquire(timeout=delay):  # woken early: a run started, the rate changed, stop
                    next_at = clock()
        finally:
            self._cpu_s = time.thread_time()
            self._cpu_clock = None

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
        return {
            "running": self.running,
            "active_hz": self.active_hz,
            "rate": "fixed" if self.requested_hz else "auto",
            "idle_hz": self.idle_hz,
            "ticks": self.ticks,
            "cpu_s": round(self.cpu_s, 4),
        }
