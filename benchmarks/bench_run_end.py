"""What a run's end costs ComfyUI's worker thread: ``Tracker.end_run`` with the ledger and the
websocket broadcaster attached (as in ComfyUI), after a run of 20 nodes.

    python benchmarks/bench_run_end.py [--runs 40]

The broadcaster's ``send`` only collects the events (ComfyUI's ``send_sync`` queues them on the
event loop), so the figure is Memory Probe's own work on that thread. The run's judgement (verdict,
suggestions, stage summary) is made off the worker thread, by the run-end judge.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def measure(runs: int) -> dict[str, float]:
    sys.path.insert(0, str(HERE.parent / "tests"))
    from helpers import load_pack  # the repository root is a package, as ComfyUI imports it

    load_pack()
    from memory_probe_pack.glue.runtime import Runtime
    from memory_probe_pack.web.events import EventBroadcaster

    done = threading.Event()

    def send(event: str, data: dict) -> None:
        if event == "memprobe.run_end":
            done.set()

    durations = []
    with tempfile.TemporaryDirectory() as folder:
        rt = Runtime(data_dir=Path(folder))  # wired as in ComfyUI: ledger, broadcaster, the run-end judge
        rt._open_ledger()
        tracker = rt.tracker
        tracker.subscribe(EventBroadcaster(send, judge=rt.judge))
        for i in range(runs):
            run_id = f"run-{i}"
            prompt = {str(n): {"class_type": "VAEDecode" if n == 19 else "KSampler", "inputs": {}} for n in range(20)}
            tracker.begin_run(run_id, prompt=prompt)
            for n in range(20):
                node = tracker.node_begin(run_id, str(n), prompt[str(n)]["class_type"], object)
                tracker.node_end(node)
            done.clear()
            if i % 10 == 0:
                rt._machine_cache = None  # every 10th run gathers the machine afresh (it is cached for 30 s)
            start, wall = time.thread_time_ns(), time.perf_counter_ns()
            tracker.end_run(run_id, "success")
            durations.append(((time.thread_time_ns() - start) / 1e3, (time.perf_counter_ns() - wall) / 1e3))
            assert done.wait(10), "no memprobe.run_end was sent"
        rt.shutdown()
    cpu = [d[0] for d in durations]
    wall = [d[1] for d in durations]
    return {
        "run_end_worker_cpu_us_median": round(statistics.median(cpu), 1),
        "run_end_worker_wall_us_median": round(statistics.median(wall), 1),
        "run_end_worker_wall_us_max": round(max(wall), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    print(json.dumps(measure(parser.parse_args().runs), indent=2))


if __name__ == "__main__":
    main()
