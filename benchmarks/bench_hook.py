"""Tracing cost per node: a trivial node executed through the real hook (tracker, sensors,
ledger writer and event listener attached) vs the same function unwrapped."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from typing import Any

from stack import traced_stack

from memprobe.recording.hook import wrap
from memprobe.recording.listener import TrackerListener
from memprobe.recording.records import NodeRun


class _EventsLike(TrackerListener):
    """What the websocket broadcaster does on the executing thread: build the payload and hand it
    over (aiohttp serialises it later, on the event loop)."""

    def __init__(self) -> None:
        self.sent = 0

    def node_started(self, run, node, doc):
        self.sent += len({"run_id": run.id, **doc})

    def node_finished(self, run, node, doc):
        self.sent += len({"run_id": run.id, **doc})


async def _trivial_node(prompt_id: str, unique_id: str, obj: Any, input_data_all: dict, **kwargs: Any) -> tuple:
    return [("out",)], {}, False, False


def run(nodes: int = 5000) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp, traced_stack(tmp) as (_sensors, tracker, _ledger):
        tracker.subscribe(_EventsLike())

        def before(args: tuple, kwargs: dict) -> NodeRun | None:
            return tracker.node_begin(args[0], args[1], "KSampler", None)

        wrapped = wrap(
            _trivial_node,
            before,
            lambda node, result: tracker.node_end(node),
            lambda node, exc: tracker.node_failed(node, exc),
        )

        async def measure(fn: Any) -> list[float]:
            times = []
            for i in range(nodes):
                t0 = time.perf_counter_ns()
                await fn("bench", str(i), None, {})
                times.append((time.perf_counter_ns() - t0) / 1000)
            return times

        async def main() -> tuple[list[float], list[float]]:
            bare, traced = [], []
            tracker.begin_run("bench")
            for _ in range(5):  # interleave blocks so drift hits both alike
                bare += await measure(_trivial_node)
                traced += await measure(wrapped)
            tracker.end_run("bench", "success")
            return bare, traced

        bare, traced = asyncio.run(main())
    bare_p50, traced_p50 = statistics.median(bare), statistics.median(traced)
    traced.sort()
    return {
        "unwrapped_p50_us": round(bare_p50, 2),
        "traced_p50_us": round(traced_p50, 2),
        "overhead_p50_us": round(traced_p50 - bare_p50, 1),
        "traced_p99_us": round(traced[int(0.99 * len(traced))], 1),
        "nodes": 5 * nodes,
    }


if __name__ == "__main__":
    r = run()
    print(
        f"per node: unwrapped {r['unwrapped_p50_us']} us, traced {r['traced_p50_us']} us "
        f"-> overhead p50 {r['overhead_p50_us']} us (traced p99 {r['traced_p99_us']} us)"
    )
