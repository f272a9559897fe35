"""One full snapshot (GPU, system, process, disks): p50/p99 over many calls."""

from __future__ import annotations

import time
from typing import Any

from memprobe.sensing.sensors import Sensors


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(calls: int = 20_000) -> dict[str, Any]:
    sensors = Sensors({"root": "/"})
    sensors.snapshot()  # warm: NVML init, file handles
    times = []
    for _ in range(calls):
        t0 = time.perf_counter_ns()
        sensors.snapshot()
        times.append((time.perf_counter_ns() - t0) / 1000)
    light = []
    for _ in range(calls):
        t0 = time.perf_counter_ns()
        sensors.sample()
        light.append((time.perf_counter_ns() - t0) / 1000)
    return {
        "snapshot_p50_us": round(percentile(times, 0.5), 1),
        "snapshot_p99_us": round(percentile(times, 0.99), 1),
        "sampler_reading_p50_us": round(percentile(light, 0.5), 1),
        "sampler_reading_p99_us": round(percentile(light, 0.99), 1),
        "calls": calls,
    }


if __name__ == "__main__":
    result = run()
    print(f"full snapshot   p50 {result['snapshot_p50_us']} us   p99 {result['snapshot_p99_us']} us")
    print(f"sampler reading p50 {result['sampler_reading_p50_us']} us   p99 {result['sampler_reading_p99_us']} us")
