"""The ledger at scale: 1,000 runs of 50 nodes and 2,000 samples each; list runs; load one run's
timeline downsampled to 2,000 points; the file size."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from memprobe.recording.ledger import Ledger

GIB = 1024**3
METRICS = (
    "process_rss_bytes",
    "process_private_bytes",
    "ram_used_bytes",
    "commit_bytes",
    "commit_limit_bytes",
    "swap_used_bytes",
    "gpu0_used_bytes",
    "gpu0_reserved_bytes",
    "gpu0_allocated_bytes",
)


def _walk(rng: random.Random, n: int) -> list[int]:
    """A memory reading over time: a level that drifts in page-sized steps, like real RSS/VRAM."""
    value, out = rng.uniform(1, 8) * GIB, []
    for _ in range(n):
        value = max(0.1 * GIB, value + rng.gauss(0, 4 * 1024**2))
        out.append(int(value) // 4096 * 4096)
    return out


def synthetic_run(i: int, rng: random.Random, nodes: int = 50, samples: int = 2000) -> dict[str, Any]:
    t = [round(k * 0.02, 4) for k in range(samples)]
    series = {m: _walk(rng, len(t)) for m in METRICS}
    node_docs = []
    for n in range(nodes):
        metrics = {m: int(rng.uniform(1, 8) * GIB) for m in METRICS}
        node_docs.append(
            {
                "seq": n + 1,
                "node_id": str(n),
                "display_node_id": str(n),
                "real_node_id": str(n),
                "class_type": "KSampler",
                "title": "KSampler",
                "stage": "sampling",
                "status": "ran",
                "start_s": n * 0.8,
                "end_s": n * 0.8 + 0.7,
                "duration_s": 0.7,
                "before": metrics,
                "after": metrics,
                "peaks": metrics,
                "deltas": {},
                "error": None,
                "fallbacks": [],
            }
        )
    return {
        "id": f"run-{i:05d}",
        "status": "success",
        "started_at": 1.8e9 + i * 60,
        "ended_at": 1.8e9 + i * 60 + 40,
        "duration_s": 40.0,
        "context": {"comfyui_version": "0.3.64"},
        "prompt": {},
        "nodes": node_docs,
        "marks": [],
        "events": [],
        "failures": [],
        "timeline": {"t": t, "series": series},
    }


def run(runs: int = 1000) -> dict[str, Any]:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Ledger(Path(tmp) / "ledger.sqlite3", max_runs=runs, max_bytes=64 * GIB)
        ledger.open()
        ledger.start()
        t0 = time.perf_counter()
        for i in range(runs):
            ledger.import_run(synthetic_run(i, rng))
            if i % 50 == 49:
                ledger.flush(120)
        ledger.flush(300)
        write_s = time.perf_counter() - t0
        lists, loads = [], []
        for k in range(20):
            t = time.perf_counter()
            listing = ledger.list_runs(limit=50, offset=(k * 37) % max(1, runs - 50))
            lists.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            doc = ledger.get_run(listing["runs"][0]["id"], max_points=2000)
            loads.append((time.perf_counter() - t) * 1000)
        assert listing["total"] == runs and len(doc["timeline"]["t"]) == 2000 and len(doc["nodes"]) == 50
        window = []
        for _ in range(20):
            t = time.perf_counter()
            ledger.samples(doc["id"], start=10, end=20, max_points=500)
            window.append((time.perf_counter() - t) * 1000)
        size = ledger.size_bytes()
        ledger.stop()
    return {
        "ledger_runs": runs,
        "ledger_write_s": round(write_s, 1),
        "ledger_list_ms_median": round(statistics.median(lists), 2),
        "ledger_load_run_ms_median": round(statistics.median(loads), 2),
        "ledger_window_ms_median": round(statistics.median(window), 2),
        "ledger_size_mib": round(size / 1024**2, 1),
    }


def run_many(runs: int = 10_000) -> dict[str, Any]:
    """A busy day: ``runs`` short runs (7 nodes, 20 samples) of two servers sharing the ledger; the
    panel's list (the newest 100, this server's or all) must stay quick."""
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Ledger(Path(tmp) / "ledger.sqlite3", max_runs=runs, max_bytes=64 * GIB)
        ledger.open()
        ledger.start()
        for i in range(runs):
            doc = synthetic_run(i, rng, nodes=7, samples=20)
            doc["context"]["server"] = {"id": f"host:{8188 + i % 2}"}
            ledger.import_run(doc)
            if i % 500 == 499:
                ledger.flush(120)
        ledger.flush(300)
        timings: dict[str, list[float]] = {"all": [], "this": []}
        for k in range(20):
            for which, server in (("all", None), ("this", "host:8188")):
                t = time.perf_counter()
                listing = ledger.list_runs(limit=100, offset=0 if k % 2 else (k * 97) % (runs - 100), server=server)
                timings[which].append((time.perf_counter() - t) * 1000)
        assert ledger.list_runs(limit=1)["total"] == runs and len(listing["runs"]) == 100
        size = ledger.size_bytes()
        ledger.stop()
    return {
        "ledger_many_runs": runs,
        "ledger_many_list_ms_median": round(statistics.median(timings["all"]), 2),
        "ledger_many_list_this_server_ms_median": round(statistics.median(timings["this"]), 2),
        "ledger_many_size_mib": round(size / 1024**2, 1),
    }


if __name__ == "__main__":
    for key, value in {**run(), **run_many()}.items():
        print(f"{key:36} {value}")
