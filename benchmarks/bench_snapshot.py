"""One full snapshot (GPU, system, process, disks): p50/p99 over many calls. And the free heap's read
(glibc's ``mallinfo2``, at the start and end of the nodes the forecast learns from): it walks every free
chunk, so it is timed on this process as it is and after 200,000 small blocks were freed in a scatter."""

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
    heap = _heap_free_times(calls // 10)
    return {
        **heap,
        "snapshot_p50_us": round(percentile(times, 0.5), 1),
        "snapshot_p99_us": round(percentile(times, 0.99), 1),
        "sampler_reading_p50_us": round(percentile(light, 0.5), 1),
        "sampler_reading_p99_us": round(percentile(light, 0.99), 1),
        "calls": calls,
    }


def _heap_free_times(calls: int) -> dict[str, Any]:
    import ctypes

    sensors = Sensors({"root": "/"})
    if sensors.heap_free_bytes() is None:
        return {}
    out: dict[str, Any] = {}
    for label in ("as_is", "fragmented"):
        if label == "fragmented":
            blocks = [ctypes.create_string_buffer(600 + i % 3000) for i in range(400_000)]
            del blocks[::2]
        times = []
        for _ in range(calls):
            t0 = time.perf_counter_ns()
            sensors.heap_free_bytes()
            times.append((time.perf_counter_ns() - t0) / 1000)
        out[f"heap_free_{label}_p50_us"] = round(percentile(times, 0.5), 1)
    return out


if __name__ == "__main__":
    result = run()
    print(f"full snapshot   p50 {result['snapshot_p50_us']} us   p99 {result['snapshot_p99_us']} us")
    print(f"sampler reading p50 {result['sampler_reading_p50_us']} us   p99 {result['sampler_reading_p99_us']} us")
    if "heap_free_as_is_p50_us" in result:
        print(
            f"free heap read  p50 {result['heap_free_as_is_p50_us']} us, "
            f"after 200,000 scattered frees {result['heap_free_fragmented_p50_us']} us"
        )
