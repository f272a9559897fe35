"""A /memprobe/metrics scrape: the time to produce the document, in both formats, for a busy
ComfyUI (two GPUs, every stage observed in 200 runs) and for a typical one (one GPU, the six
stages of a txt2img run)."""

from __future__ import annotations

import time
from typing import Any

from bench_snapshot import percentile

from memprobe.judging.stages import STAGES
from memprobe.output.prometheus import MachineFacts, MetricsExporter
from memprobe.recording.records import NodeRun, RunRecord
from memprobe.recording.runstats import RunStats
from memprobe.sensing.sensors import Sensors

GIB = 1024**3
OPENMETRICS = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"  # Prometheus' Accept


def exporter(stages: tuple[str, ...], gpus: int, runs: int = 200) -> MetricsExporter:
    stats = RunStats()
    for i in range(runs):
        run = RunRecord(id=f"r{i}", started_at=0.0, started_mono=0.0, status="success")
        for seq, stage in enumerate(stages):
            peaks = {f"gpu{g}_used_bytes": (i % 24 + g) * GIB for g in range(gpus)}
            peaks["process_rss_bytes"] = (i % 64) * GIB
            run.nodes.append(NodeRun(seq=seq, node_id=str(seq), class_type="X", stage=stage, status="ran", peaks=peaks))
        stats.run_started(run)
        stats.run_finished(run)
    sensors = Sensors()
    latest = (time.time(), sensors.sample())
    facts = MachineFacts.read(sensors)
    facts = MachineFacts(
        facts.platform,
        facts.overcommit_mode,
        facts.ram_total_bytes,
        facts.swap_total_bytes,
        tuple((g, "NVIDIA GeForce RTX 4090", 24 * GIB) for g in range(gpus)),
    )
    return MetricsExporter(
        stats,
        latest=lambda: latest,
        facts=lambda: facts,
        cpu=lambda: {
            "hook_cpu_s": 1.0,
            "sampler_cpu_s": 2.0,
            "ledger_cpu_s": 0.5,
            "process_cpu_s": time.process_time(),
        },
        state=lambda: {"tracing": True, "run_active": False},
    )


def timed(x: MetricsExporter, accept: str | None, calls: int) -> tuple[list[float], int]:
    times, lines = [], 0
    for _ in range(calls):
        t0 = time.perf_counter()
        body, _ = x.exposition(accept)
        times.append((time.perf_counter() - t0) * 1000)
        lines = body.count(b"\n")
    return times, lines


def run(calls: int = 500) -> dict[str, Any]:
    out: dict[str, Any] = {}
    cases = {"typical": (("load", "text-encode", "sampling", "vae-decode", "output", "other"), 1), "busy": (STAGES, 2)}
    for name, (stages, gpus) in cases.items():
        x = exporter(stages, gpus)
        for fmt, accept in (("text", None), ("openmetrics", OPENMETRICS)):
            times, lines = timed(x, accept, calls)
            out[f"metrics_{name}_{fmt}_ms_p50"] = round(percentile(times, 0.5), 2)
            out[f"metrics_{name}_{fmt}_ms_p99"] = round(percentile(times, 0.99), 2)
            out[f"metrics_{name}_lines"] = lines
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
