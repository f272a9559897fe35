"""What the ledger's tests share: a tracker on a scripted clock whose news goes to a ledger, and a traced
run through it."""

from __future__ import annotations

from collections.abc import Callable

from helpers import FakeClock, ScriptedSensors

from memprobe.recording.ledger import Ledger
from memprobe.recording.tracker import Tracker

GIB = 1024**3


def profile(t: float) -> dict:
    return {
        "ram_total_bytes": 16 * GIB,
        "ram_available_bytes": 10 * GIB,
        "commit_bytes": 8 * GIB,
        "commit_limit_bytes": 20 * GIB,
        "process_rss_bytes": 3 * GIB,
    }


def traced_run(
    tracker: Tracker,
    clock: FakeClock,
    run_id: str,
    *,
    samples: int = 20,
    fail: bool = False,
    rss: Callable[[int], int] | None = None,
) -> None:
    """One KSampler run of ``samples`` readings; ``rss(i)``: the i-th reading (default: 3 GiB with one 4 GiB spike)."""
    tracker.begin_run(run_id, prompt={"3": {"class_type": "KSampler", "inputs": {"seed": 1}}})
    node = tracker.node_begin(run_id, "3", "KSampler")
    for i in range(samples):
        clock.t += 0.02
        tracker.on_sample(clock.t, {"process_rss_bytes": rss(i) if rss else (3 + (i == samples // 2)) * GIB})
    clock.t += 0.5
    if fail:
        tracker.node_failed(node, MemoryError())
        tracker.end_run(
            run_id, "error", error={"node_id": "3", "exception_type": "MemoryError", "exception_message": ""}
        )
    else:
        tracker.node_end(node)
        tracker.end_run(run_id, "success", cached=["4"])


def make_tracker(ledger: Ledger):
    clock = FakeClock(100.0)
    tracker = Tracker(ScriptedSensors(clock, profile), clock=clock)
    tracker.subscribe(ledger.listener)
    return tracker, clock
