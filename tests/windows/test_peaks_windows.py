"""Per-node peaks from the counters Windows keeps: ``GetProcessMemoryInfo``'s peak working set and
peak commit charge (since the process started, never restarted) through the tracker, with a node
whose 160 MiB spike sets a new process peak and is gone before any reading. Under Wine the calls
are Wine's (its peak working set follows Linux's ``VmHWM``); the tests check what the tracker
makes of the counters, not a machine's figures."""

from __future__ import annotations

import ctypes

from memprobe.recording.tracker import Tracker
from memprobe.sensing.sensors import Sensors, windows

MIB = 1024**2


def test_get_process_memory_info_gives_this_process_and_its_peaks():
    counters = windows.read_process_memory()
    assert counters.cb in (72, ctypes.sizeof(windows.ProcessMemoryCountersEx))  # Wine fills the basic struct
    fields = windows.process_fields(counters)
    assert fields["process_rss_bytes"] > 10 * MIB and fields["process_private_bytes"] > 0
    assert fields["process_peak_rss_bytes"] >= fields["process_rss_bytes"]
    assert fields["process_peak_private_bytes"] is None or fields["process_peak_private_bytes"] > 0


def test_a_snapshot_carries_the_peak_counters_and_nothing_restarts_them():
    sensors = Sensors(use_nvml=False)
    snap = sensors.snapshot(disks=False)
    counters = snap.peak_counters()
    assert counters["process_rss_bytes"] >= snap.system.process_rss_bytes
    assert sensors.reset_peaks() == frozenset()  # Windows' counters cannot be restarted
    assert snap.system.commit_bytes and snap.system.commit_limit_bytes  # GetPerformanceInfo


def test_a_node_that_sets_a_new_process_peak_has_it_exactly():
    tracker = Tracker(Sensors(use_nvml=False))
    tracker.begin_run("r")
    # GIVEN a node that allocates 160 MiB above anything this process held before, and frees it
    node = tracker.node_begin("r", "1", "Spike")
    block = b"\x01" * (160 * MIB)
    top = windows.process_fields(windows.read_process_memory())["process_rss_bytes"]
    del block
    tracker.node_end(node)
    run = tracker.end_run("r", "success")
    # THEN its RSS peak is the working-set peak Windows kept, marked exact, though no reading saw it
    assert top - node.before["process_rss_bytes"] > 150 * MIB
    assert node.after["process_rss_bytes"] < top - 150 * MIB
    assert abs(node.peaks["process_rss_bytes"] - top) <= 0.05 * 160 * MIB
    assert "process_rss_bytes" in node.exact_peaks and run.nodes == [node]
    # AND a later node that stays below that peak keeps its sampled peak
    tracker.begin_run("r2")
    small = tracker.node_begin("r2", "2", "Small")
    tracker.node_end(small)
    assert "process_rss_bytes" not in small.exact_peaks
    assert small.peaks["process_rss_bytes"] < top - 100 * MIB
