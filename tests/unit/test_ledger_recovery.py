"""The run ledger after the process that wrote it was killed: the next start closes its running run as
ended abruptly, with what ended it where the system's counters say."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from ledger_kit import GIB, make_tracker

from memprobe.recording.ledger import Ledger

CRASHING_WRITER = textwrap.dedent("""
    import os, signal, sys, time
    from memprobe.recording.ledger import Ledger
    from memprobe.sensing.sensors import Sensors
    from memprobe.recording.tracker import Tracker

    ledger = Ledger(sys.argv[1]); ledger.open(); ledger.start()
    tracker = Tracker(Sensors()); tracker.subscribe(ledger.listener)
    tracker.begin_run("killed-run", prompt={"3": {"class_type": "KSampler", "inputs": {}}})
    done = tracker.node_begin("killed-run", "4", "CheckpointLoaderSimple"); tracker.node_end(done)
    node = tracker.node_begin("killed-run", "3", "KSampler")
    for _ in range(60):                      # 1.2 s of sampling, past the 1 s commit interval
        tracker.on_sample(time.monotonic(), Sensors().snapshot(disks=False).metrics(totals=False))
        time.sleep(0.02)
    time.sleep(1.2)
    print("about to die", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)     # what the OOM killer does
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_process_leaves_a_run_that_the_next_start_marks_ended_abruptly(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    proc = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, str(path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert "about to die" in proc.stdout

    ledger = Ledger(path)
    assert ledger.open() == ["killed-run"]
    doc = ledger.get_run("killed-run")
    assert doc["status"] == "ended_abruptly"
    assert doc["failure"]["node_id"] == "3" and doc["failure"]["class_type"] == "KSampler"
    assert doc["failure"]["stage"] == "sampling" and doc["failure"]["abrupt"] is True
    assert doc["abrupt"]["last_metrics"]["process_rss_bytes"] > 0
    assert doc["sample_count"] >= 40  # what was committed before the kill survived
    assert [n["status"] for n in doc["nodes"]] == ["ran", "failed"]
    # the node that never ended gets the peaks its samples show, not only its readings at its start
    killed = doc["nodes"][-1]
    timeline = doc["timeline"]
    sampled = [
        v
        for t, v in zip(timeline["t"], timeline["series"]["process_rss_bytes"], strict=True)
        if v is not None and t >= killed["start_s"]
    ]
    assert killed["peaks"]["process_rss_bytes"] >= max(sampled) and killed["end_s"] == doc["abrupt"]["last_sample_s"]
    assert ledger.open() == []  # marked once, not again at the next start


def test_the_own_running_run_is_not_mistaken_for_a_dead_one(ledger):
    tracker, clock = make_tracker(ledger)
    tracker.begin_run("live")
    ledger.flush()
    assert Ledger(ledger.path).open(pid=os.getpid()) == []
    assert ledger.get_run("live")["status"] == "running"


def test_a_run_of_another_live_comfyui_sharing_the_ledger_is_left_alone(ledger):
    tracker, clock = make_tracker(ledger)
    tracker.begin_run("theirs")
    ledger.flush()
    with sqlite3.connect(ledger.path) as conn:  # GIVEN the run belongs to another process that is alive
        conn.execute("UPDATE runs SET pid = ? WHERE id = 'theirs'", (os.getppid(),))
    assert Ledger(ledger.path).open(pid=os.getpid()) == []


KILLS_AT_START = {"boot_id": "b1", "system": 3, "cgroup": 0, "cgroup_path": "/docker/abc"}


LINUX_24G = {"os": "Linux 6.18", "overcommit_mode": 0, "ram_total_bytes": 24 * GIB, "swap_total_bytes": 0}


def _vanished(context, last, kills_now):
    """The failure the next start records for a run whose process vanished."""
    from memprobe.judging.abrupt import abrupt_failure

    node = {"node_id": "8", "class_type": "VAEDecode", "stage": "vae-decode"}
    return abrupt_failure(node, last, 12.5, {"context": context}, kills_now)


def test_the_cgroup_oom_kill_counter_names_the_container_limit():
    context = {
        **LINUX_24G,
        "cgroup": {"version": 2, "path": "/docker/abc", "limit_bytes": 3 * GIB},
        "oom_kills": KILLS_AT_START,
    }
    # the last reading, a second before the kill, was far from the limit: only the counter can tell
    failure = _vanished(
        context, {"cgroup_used_bytes": 2 * GIB, "ram_used_bytes": 4 * GIB}, {**KILLS_AT_START, "system": 4, "cgroup": 1}
    )
    assert failure["kind"] == "cgroup-limit" and failure["abrupt"] is True and failure["node_id"] == "8"
    assert "oom_kill 0 -> 1" in failure["evidence"] and "3.0 GiB" in failure["evidence"]


def test_the_machines_oom_kill_counter_names_ram_and_swap():
    context = {**LINUX_24G, "oom_kills": {**KILLS_AT_START, "cgroup": None, "cgroup_path": None}}
    failure = _vanished(
        context, {"ram_used_bytes": 18 * GIB}, {**KILLS_AT_START, "system": 5, "cgroup": None, "cgroup_path": None}
    )
    assert failure["kind"] == "system-ram" and "/proc/vmstat oom_kill 3 -> 5" in failure["evidence"]


def test_counters_from_another_boot_prove_nothing_and_the_last_readings_decide():
    context = {**LINUX_24G, "oom_kills": KILLS_AT_START}
    calm = _vanished(context, {"ram_used_bytes": 6 * GIB}, {**KILLS_AT_START, "boot_id": "b2", "system": 9})
    assert calm["kind"] == "other" and "not near a memory limit" in calm["evidence"]
    full = _vanished(context, {"ram_used_bytes": int(23 * GIB)}, {})
    assert full["kind"] == "system-ram" and "RAM at 96% of its limit" in full["evidence"]


def test_linux_commit_above_its_limit_in_mode_0_is_not_a_commit_limit_kill():
    # GIVEN the last readings of a Linux run: Committed_AS 150 % of CommitLimit (mode 0), RAM at 40 %
    last = {"commit_bytes": 18 * GIB, "commit_limit_bytes": 12 * GIB, "ram_used_bytes": int(9.6 * GIB)}
    assert _vanished(LINUX_24G, last, {})["kind"] == "other"
    # with strict overcommit the same figures are the commit limit
    assert _vanished({**LINUX_24G, "overcommit_mode": 2}, last, {})["kind"] == "commit-limit"
    # and on Windows the commit limit is always the one
    windows = {"os": "Windows 11", "ram_total_bytes": 32 * GIB}
    assert _vanished(windows, {"commit_bytes": 39 * GIB, "commit_limit_bytes": 40 * GIB}, {})["kind"] == "commit-limit"
