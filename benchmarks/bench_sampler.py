"""The sampler: its CPU cost at 50 Hz, and whether it catches a 40 ms, 500 MB allocation spike."""

from __future__ import annotations

import mmap
import os
import random
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from memprobe.sampler import Sampler
from memprobe.sensors import Sensors
from memprobe.tracker import Tracker

MIB = 1024**2


def thread_cpu_s(native_id: int | None) -> float:
    """CPU seconds (user + system) of one thread of this process, from /proc (Linux)."""
    if native_id is None:
        return float("nan")
    with open(f"/proc/self/task/{native_id}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def sampled_run(run_id: str, hz: float, settle_s: float) -> Iterator[tuple[Tracker, Sampler]]:
    """A run open on a tracker whose sampler reads at ``hz``; closed and stopped on exit."""
    sensors = Sensors()
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


def cpu_cost(seconds: float = 60.0, hz: float = 50.0) -> dict[str, Any]:
    """A run held open for ``seconds`` with the sampler at ``hz``; the sampler thread's CPU time."""
    with sampled_run("cpu-bench", hz, 0.5) as (_tracker, sampler):
        return _measure_cpu(sampler, seconds, hz)


def _measure_cpu(sampler: Sampler, seconds: float, hz: float) -> dict[str, Any]:
    tid = sampler.native_id
    cpu0, process0, wall0, ticks0 = thread_cpu_s(tid), time.process_time(), time.monotonic(), sampler.ticks
    time.sleep(seconds)
    cpu1, process1, wall1, ticks1 = thread_cpu_s(tid), time.process_time(), time.monotonic(), sampler.ticks
    wall = wall1 - wall0
    return {
        "sampler_hz_configured": hz,
        "sampler_hz_achieved": round((ticks1 - ticks0) / wall, 1),
        "sampler_cpu_share_of_one_core_pct": round(100 * (cpu1 - cpu0) / wall, 2),
        "process_cpu_share_of_one_core_pct": round(100 * (process1 - process0) / wall, 2),
        "seconds": round(wall, 1),
    }


def _allocate(size: int) -> mmap.mmap:
    """``size`` bytes of RAM, all resident at once (MAP_POPULATE), as fast as the kernel can."""
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_POPULATE", 0)
    block = mmap.mmap(-1, size, flags=flags)
    if not getattr(mmap, "MAP_POPULATE", 0):
        block.write(b"\x01" * size)
    return block


def spike_capture(tries: int = 100, size: int = 500 * MIB, hold_s: float = 0.040, hz: float = 50.0) -> dict[str, Any]:
    """Each try is a node that allocates ``size``, holds it ``hold_s`` and frees it; it is caught
    when the node's recorded RSS peak shows at least 90% of the spike above the level before it."""
    caught, rng = 0, random.Random(1)
    with sampled_run("spike-bench", hz, 0.3) as (tracker, _sampler):
        for i in range(tries):
            time.sleep(rng.uniform(0.0, 1.0 / hz))  # a random phase against the sampler's ticks
            node = tracker.node_begin("spike-bench", str(i), "VAEDecode")
            base = node.before["process_rss_bytes"]
            block = _allocate(size)
            time.sleep(hold_s)
            block.close()
            tracker.node_end(node)
            if node.peaks.get("process_rss_bytes", 0) - base >= 0.9 * size:
                caught += 1
    peak_rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"spike_tries": tries, "spike_caught": caught, "spike_caught_pct": round(100 * caught / tries, 1),
            "spike_mib": size // MIB, "spike_hold_ms": hold_s * 1000, "process_peak_rss_mib": round(peak_rss_mib)}


def run(seconds: float = 60.0) -> dict[str, Any]:
    return {**cpu_cost(seconds), **spike_capture()}


if __name__ == "__main__":
    import sys

    result = run(float(sys.argv[1]) if len(sys.argv) > 1 else 60.0)
    for key, value in result.items():
        print(f"{key:40} {value}")
