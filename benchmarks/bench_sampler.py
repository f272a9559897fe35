"""The sampler and the per-node peaks.

- CPU per tick of the sampler thread, with the main thread idle and with it running torch on both
  cores (what a CPU-only ComfyUI does), at the automatic rate and at 50 Hz (the old default); and
  where a tick's time goes: the reading, the tracker, and the rest (sleeping and waking up).
- Spikes a sampler cannot see: a node allocates 160 MiB, touches it and frees it at once; caught
  when the node's recorded RSS peak is within 5 % of the spike of the RSS the node read at its top.
  With the peak counters (Linux ``VmHWM`` restarted per node) and with the sampler alone.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from memprobe.recording.tracker import Tracker
from memprobe.sensing.sampler import CPU_HZ, Sampler
from memprobe.sensing.sensors import Sensors
from memprobe.sensing.snapshot import Snapshot

MIB = 1024**2


def thread_cpu_ns(native_id: int | None) -> int:
    """Nanoseconds one thread of this process has run (``/proc/self/task/<tid>/schedstat``, Linux)."""
    with open(f"/proc/self/task/{native_id}/schedstat") as f:
        return int(f.read().split()[0])


def rss_bytes() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))


class SamplerOnly(Sensors):
    """Sensors without peak counters: what the sampler alone records (Memory Probe before them)."""

    def snapshot(self, *, disks: bool = True, system_max_age_s: float = 0.0) -> Snapshot:
        snap = super().snapshot(disks=disks)
        return replace(
            snap,
            system=replace(
                snap.system, process_peak_rss_bytes=None, process_peak_private_bytes=None, commit_peak_bytes=None
            ),
            gpus=(),
        )

    def reset_peaks(self, *, rss: bool = True) -> frozenset[str]:
        return frozenset()


@contextmanager
def sampled_run(run_id: str, hz: float, settle_s: float, *, exact: bool = True) -> Iterator[tuple[Tracker, Sampler]]:
    """A run open on a tracker whose sampler reads at ``hz``, with the peak counters or (``exact``
    false) without; closed and stopped on exit."""
    sensors = Sensors() if exact else SamplerOnly()
    tracker = Tracker(sensors)
    sampler = Sampler(sensors, tracker, active_hz=hz)
    sampler.start()
    tracker.begin_run(run_id)
    time.sleep(settle_s)
    try:
        yield tracker, sampler
    finally:
        tracker.end_run(run_id, "success")
        sampler.stop()


class _Phases:
    """Thread CPU spent inside the sampler's reading and inside the tracker, per tick."""

    def __init__(self, tracker: Tracker) -> None:
        self.read_ns = self.track_ns = 0
        sensors = tracker.sensors
        real_sample, real_on_sample = sensors.sample, tracker.on_sample

        def sample() -> Any:
            start = time.thread_time_ns()
            try:
                return real_sample()
            finally:
                self.read_ns += time.thread_time_ns() - start

        def on_sample(mono: float, metrics: Any) -> None:
            start = time.thread_time_ns()
            real_on_sample(mono, metrics)
            self.track_ns += time.thread_time_ns() - start

        sensors.sample = sample  # type: ignore[method-assign]
        tracker.on_sample = on_sample  # type: ignore[method-assign]


def tick_cost(seconds: float, hz: float, load: bool) -> dict[str, float]:
    """The sampler thread's CPU per tick over ``seconds``, the main thread idle or running torch."""
    torch = None
    if load:
        import torch

        torch.set_num_threads(os.cpu_count() or 2)
    with sampled_run("tick-bench", hz, 0.5) as (tracker, sampler):
        phases = _Phases(tracker)
        node = tracker.node_begin("tick-bench", "3", "KSampler")
        cpu0, ticks0, wall0, process0 = (
            thread_cpu_ns(sampler.native_id),
            sampler.ticks,
            time.monotonic(),
            time.process_time(),
        )
        if torch is not None:
            x, weights = torch.randn(1, 64, 96, 96), [torch.randn(64, 64, 3, 3) for _ in range(8)]
            while time.monotonic() - wall0 < seconds:
                for w in weights:
                    x = torch.nn.functional.conv2d(x, w, padding=1).tanh()
        else:
            time.sleep(seconds)
        cpu1, ticks1, wall1, process1 = (
            thread_cpu_ns(sampler.native_id),
            sampler.ticks,
            time.monotonic(),
            time.process_time(),
        )
        tracker.node_end(node)
    ticks = max(1, ticks1 - ticks0)
    per_tick = (cpu1 - cpu0) / ticks / 1e3
    return {
        "us_per_tick": round(per_tick, 1),
        "read_us": round(phases.read_ns / ticks / 1e3, 1),
        "tracker_us": round(phases.track_ns / ticks / 1e3, 1),
        "hz_achieved": round(ticks / (wall1 - wall0), 1),
        "share_of_one_core_pct": round(100 * (cpu1 - cpu0) / 1e9 / (wall1 - wall0), 3),
        "share_of_process_cpu_pct": round(100 * (cpu1 - cpu0) / 1e9 / max(1e-9, process1 - process0), 3),
    }


def hot_tick_us(n: int = 2000) -> float:
    """A tick's work (reading + tracker) repeated back to back: caches warm, no sleep between —
    what "a reading costs" means in a tight loop, against which the per-tick figures compare."""
    with sampled_run("hot-bench", 0.2, 0.1) as (tracker, sampler):
        node = tracker.node_begin("hot-bench", "3", "KSampler")
        start = time.thread_time_ns()
        for _ in range(n):
            sampler.sample_once(True)
        elapsed = time.thread_time_ns() - start
        tracker.node_end(node)
    return round(elapsed / n / 1e3, 1)


def spike_capture(tries: int = 50, size: int = 160 * MIB, *, exact: bool, hz: float = CPU_HZ) -> dict[str, Any]:
    """Each try is a node that allocates a ``size`` tensor (torch fills it without holding the GIL,
    as in a real node), frees it at once and ends; caught when its recorded RSS peak is within 5 %
    of ``size`` of the RSS it read at its top."""
    import torch

    caught, rng = 0, random.Random(1)
    with sampled_run("spike-bench", hz, 0.3, exact=exact) as (tracker, _sampler):
        for i in range(tries):
            time.sleep(rng.uniform(0.0, 1.0 / hz))  # a random phase against the sampler's ticks
            node = tracker.node_begin("spike-bench", str(i), "VAEDecode")
            block = torch.ones(size // 4, dtype=torch.float32)
            top = rss_bytes()
            del block
            tracker.node_end(node)
            if abs(node.peaks.get("process_rss_bytes", 0) - top) <= 0.05 * size:
                caught += 1
    return {"tries": tries, "caught": caught, "caught_pct": round(100 * caught / tries, 1)}


def run(seconds: float = 30.0, tries: int = 50) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, hz, load in (("auto_idle", CPU_HZ, False), ("auto_load", CPU_HZ, True), ("50hz_load", 50.0, True)):
        for key, value in tick_cost(seconds, hz, load).items():
            out[f"sampler_{name}_{key}"] = value
    out["sampler_hot_tick_us"] = hot_tick_us()
    exact = spike_capture(tries, exact=True)
    sampled = spike_capture(tries, exact=False)
    sampled_50 = spike_capture(tries, exact=False, hz=50.0)
    out.update(
        spike_mib=160,
        spike_tries=tries,
        spike_exact_caught_pct=exact["caught_pct"],
        spike_sampled_caught_pct=sampled["caught_pct"],
        spike_sampled_50hz_caught_pct=sampled_50["caught_pct"],
        sampler_auto_hz=CPU_HZ,
    )
    return out


if __name__ == "__main__":
    import sys

    result = run(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0)
    for key, value in result.items():
        print(f"{key:48} {value}")
