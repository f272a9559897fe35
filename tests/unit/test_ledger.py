"""The run ledger: a real SQLite file, written by its thread, read while written, and
recovered after the process that wrote it was killed."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from helpers import FakeClock, ScriptedSensors

from memprobe.recording.ledger import SCHEMA_VERSION, Ledger, LedgerError
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


@pytest.fixture
def ledger(tmp_path):
    ledger = Ledger(tmp_path / "memprobe" / "ledger.sqlite3")
    ledger.open()
    ledger.start()
    yield ledger
    ledger.stop()


def traced_run(tracker: Tracker, clock: FakeClock, run_id: str, *, samples: int = 20, fail: bool = False) -> None:
    tracker.begin_run(run_id, prompt={"3": {"class_type": "KSampler", "inputs": {"seed": 1}}})
    node = tracker.node_begin(run_id, "3", "KSampler")
    for i in range(samples):
        clock.t += 0.02
        tracker.on_sample(clock.t, {"process_rss_bytes": (3 + (i == samples // 2)) * GIB})
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


def test_runs_round_trip_through_the_ledger(ledger):
    tracker, clock = make_tracker(ledger)
    traced_run(tracker, clock, "run-a")
    clock.t += 10
    traced_run(tracker, clock, "run-b", fail=True)
    assert ledger.flush()

    listing = ledger.list_runs()
    assert listing["total"] == 2 and [r["id"] for r in listing["runs"]] == ["run-b", "run-a"]
    assert listing["runs"][0]["status"] == "error" and listing["runs"][0]["failure"]["kind"] == "system-ram"
    assert listing["runs"][1]["node_count"] == 2

    doc = ledger.get_run("run-a")
    assert doc["status"] == "success" and doc["prompt"]["3"]["class_type"] == "KSampler"
    assert [(n["node_id"], n["status"]) for n in doc["nodes"]] == [("3", "ran"), ("4", "cached")]
    assert doc["nodes"][0]["peaks"]["process_rss_bytes"] == 4 * GIB
    assert doc["sample_count"] == 20 and max(doc["timeline"]["series"]["process_rss_bytes"]) == 4 * GIB
    assert ledger.list_runs(limit=1, offset=1)["runs"][0]["id"] == "run-a"

    window = ledger.samples("run-a", start=0.1, end=0.2, max_points=100)
    assert window["t"] and all(0.1 <= t <= 0.2 for t in window["t"])
    assert ledger.get_run("nope") is None and ledger.samples("nope") is None

    assert ledger.delete_run("run-a") and not ledger.delete_run("run-a")
    assert ledger.list_runs()["total"] == 1


def test_retention_keeps_the_newest_runs(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite3", max_runs=3)
    ledger.open()
    ledger.start()
    tracker, clock = make_tracker(ledger)
    for i in range(5):
        clock.t += 5
        traced_run(tracker, clock, f"run-{i}", samples=5)
    ledger.flush()
    assert [r["id"] for r in ledger.list_runs()["runs"]] == ["run-4", "run-3", "run-2"]
    with ledger.reader() as conn:
        assert conn.execute("SELECT COUNT(*) FROM nodes WHERE run_id = 'run-0'").fetchone()[0] == 0
    ledger.stop()


def test_a_size_cap_drops_the_oldest_runs(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite3", max_bytes=200 * 1024)
    ledger.open()
    ledger.start()
    tracker, clock = make_tracker(ledger)
    for i in range(8):
        clock.t += 50
        traced_run(tracker, clock, f"run-{i}", samples=1500)
    ledger.flush()
    runs = [r["id"] for r in ledger.list_runs()["runs"]]
    assert runs[0] == "run-7" and len(runs) < 8
    ledger.stop()


def test_long_runs_are_downsampled_keeping_their_peak(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite3", max_samples_per_run=100)
    ledger.open()
    ledger.start()
    tracker, clock = make_tracker(ledger)
    traced_run(tracker, clock, "long", samples=1000)
    ledger.flush()
    doc = ledger.get_run("long", max_points=None)
    assert doc["sample_count"] == 100
    assert max(doc["timeline"]["series"]["process_rss_bytes"]) == 4 * GIB
    ledger.stop()


def test_readers_read_while_the_writer_writes(ledger):
    tracker, clock = make_tracker(ledger)
    errors: list[BaseException] = []
    stop = threading.Event()

    def read_loop():
        while not stop.is_set():
            try:
                for run in ledger.list_runs(limit=5)["runs"]:
                    ledger.get_run(run["id"])
            except BaseException as exc:
                errors.append(exc)

    readers = [threading.Thread(target=read_loop) for _ in range(3)]
    for r in readers:
        r.start()
    for i in range(30):
        clock.t += 2
        traced_run(tracker, clock, f"run-{i}", samples=50)
    ledger.flush()
    stop.set()
    for r in readers:
        r.join()
    assert errors == []
    assert ledger.list_runs()["total"] == 30


def test_a_write_that_fails_does_not_stop_the_writer(ledger, caplog):
    def broken(conn):
        conn.execute("INSERT INTO no_such_table VALUES (1)")

    ledger.submit(broken, commit=True)
    tracker, clock = make_tracker(ledger)
    traced_run(tracker, clock, "after-fault")
    ledger.flush()
    assert ledger.get_run("after-fault")["status"] == "success"


def test_a_ledger_from_a_newer_release_is_refused_untouched(tmp_path):
    path = tmp_path / "l.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(LedgerError, match="newer Memory Probe"):
        Ledger(path).open()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_a_new_ledger_is_created_at_the_current_schema_in_wal_mode(tmp_path):
    path = tmp_path / "deep" / "dir" / "l.sqlite3"
    Ledger(path).open()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"runs", "nodes", "samples", "marks", "events", "failures"} <= tables


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


def test_the_own_running_run_is_not_mistaken_for_a_dead_one(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite3")
    ledger.open()
    ledger.start()
    tracker, clock = make_tracker(ledger)
    tracker.begin_run("live")
    ledger.flush()
    assert Ledger(ledger.path).open(pid=os.getpid()) == []
    assert ledger.get_run("live")["status"] == "running"
    ledger.stop()


def test_a_commit_happens_within_about_a_second_without_any_node_ending(ledger):
    tracker, clock = make_tracker(ledger)
    tracker.begin_run("slow")
    tracker.node_begin("slow", "3", "KSampler")
    for _ in range(10):
        clock.t += 0.3
        tracker.on_sample(clock.t, {"process_rss_bytes": GIB})
    deadline = time.monotonic() + 3
    seen = 0
    while time.monotonic() < deadline and not seen:
        with ledger.reader() as conn:  # another connection sees only committed rows
            seen = conn.execute("SELECT COUNT(*) FROM samples WHERE run_id = 'slow'").fetchone()[0]
        time.sleep(0.1)
    assert seen


def test_a_run_of_another_live_comfyui_sharing_the_ledger_is_left_alone(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite3")
    ledger.open()
    ledger.start()
    tracker, clock = make_tracker(ledger)
    tracker.begin_run("theirs")
    ledger.flush()
    with sqlite3.connect(ledger.path) as conn:  # GIVEN the run belongs to another process that is alive
        conn.execute("UPDATE runs SET pid = ? WHERE id = 'theirs'", (os.getppid(),))
    assert Ledger(ledger.path).open(pid=os.getpid()) == []
    ledger.stop()


def test_an_exported_run_imports_back_unchanged(ledger):
    from helpers import load_json

    doc = load_json("runs/decode_oom_cpu.json")
    doc["workflow"] = {"id": "2f0b7c1e-5d1a-4a59-9d2b-6a3c1f0e8b11", "graph": "a83315d98fd32119"}
    ledger.import_run(doc)
    ledger.flush()
    back = ledger.get_run(doc["id"], max_points=None)
    assert back["nodes"] == doc["nodes"] and back["failure"] == doc["failure"] and back["prompt"] == doc["prompt"]
    assert back["timeline"] == doc["timeline"] and back["status"] == "error"
    assert back["workflow"] == doc["workflow"]


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_or_truncated_ledger_is_moved_aside_and_a_new_one_started(tmp_path, caplog, damage):
    path = tmp_path / "ledger.sqlite3"
    if damage == "garbage":
        content = b"this is not an SQLite database, it is a text file someone saved here" * 100
    else:  # a real ledger cut short (a copy interrupted, a disk that filled mid-write)
        good = Ledger(tmp_path / "good.sqlite3")
        good.open()
        good.start()
        tracker, clock = make_tracker(good)
        traced_run(tracker, clock, "kept")
        good.flush()
        good.stop()
        content = (tmp_path / "good.sqlite3").read_bytes()[:6000]
    path.write_bytes(content)
    ledger = Ledger(path)
    ledger.open()  # never raises at ComfyUI's start
    ledger.start()
    moved = list(tmp_path.glob("ledger.sqlite3.damaged-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == content  # kept, untouched, for whoever looks
    assert "was damaged" in caplog.text and moved[0].name in caplog.text
    tracker, clock = make_tracker(ledger)
    traced_run(tracker, clock, "after")
    ledger.flush()
    assert ledger.get_run("after")["status"] == "success"
    ledger.stop()


def test_a_read_only_folder_keeps_runs_in_memory_and_says_so(tmp_path, monkeypatch):
    # SQLite's own answer on a read-only folder (a chmod that root's tests cannot make stick, so it is
    # given here the way SQLite gives it): "attempt to write a readonly database"
    real_connect = sqlite3.connect

    def read_only(path, *args, **kwargs):
        conn = real_connect(path, *args, **kwargs)
        if "mode=ro" not in str(path):
            conn.execute("PRAGMA query_only = ON")  # every write now fails as on a read-only volume
        return conn

    monkeypatch.setattr(sqlite3, "connect", read_only)
    ledger = Ledger(tmp_path / "ro" / "ledger.sqlite3")
    ledger.open()
    ledger.start()
    tracker, clock = make_tracker(ledger)
    traced_run(tracker, clock, "in-memory")
    ledger.flush()
    state = ledger.state()
    assert state["saving"] is False and state["reason"]
    assert ledger.get_run("in-memory")["status"] == "success"
    assert [r["id"] for r in ledger.list_runs()["runs"]] == ["in-memory"]
    ledger.stop()


# ---------------------------------------------------------------- a ledger that cannot write
def _cap_pages(ledger: Ledger, pages: int | None) -> None:
    """SQLite's own size cap on the writer's connection: past it every write fails with
    SQLITE_FULL ("database or disk is full"), exactly as on a full volume; lifting it is space
    returning. (The integration tier fills a real tmpfs, see tests/integration/test_full_disk.py.)"""

    def cap(conn):
        count = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {count if pages is None else pages}")

    ledger.submit(cap, commit=True)
    ledger.flush()


def test_runs_that_cannot_be_saved_are_kept_served_and_saved_when_space_returns(ledger):
    tracker, clock = make_tracker(ledger)
    traced_run(tracker, clock, "saved-before")
    ledger.flush()
    assert ledger.state()["saving"] is True

    # GIVEN the file cannot grow any more
    _cap_pages(ledger, None)
    # WHEN two runs with incompressible readings are traced
    _noisy_run(tracker, clock, "lost-1", samples=3000)
    _noisy_run(tracker, clock, "lost-2", samples=3000, fail=True)
    ledger.flush()

    # THEN the state says why nothing is saved, with the volume's free space
    state = ledger.state()
    assert state["saving"] is False and state["unsaved_runs"] == 2
    assert state["reason"].startswith("runs are not being saved:") and "database or disk is full" in state["reason"]
    assert "free of" in state["reason"] and state["volume"]["free_bytes"] > 0
    # AND the runs are listed (newest first, marked unsaved) and served whole from memory
    listed = ledger.list_runs()
    assert [(r["id"], r.get("saved", True)) for r in listed["runs"]] == [
        ("lost-2", False),
        ("lost-1", False),
        ("saved-before", True),
    ]
    assert listed["total"] == 3 and [r["id"] for r in ledger.list_runs(limit=1, offset=1)["runs"]] == ["lost-1"]
    doc = ledger.get_run("lost-2")
    assert doc["status"] == "error" and doc["failure"]["kind"] == "system-ram" and doc["nodes"][0]["node_id"] == "3"
    assert doc["saved"] is False and len(doc["timeline"]["t"]) == 2000
    assert len(ledger.get_run("lost-1", max_points=50)["timeline"]["t"]) == 50
    assert len(ledger.samples("lost-1", start=0, end=1e9, max_points=10)["t"]) == 10

    # WHEN space returns, THEN the writer saves the kept runs
    ledger.RETRY_S = 0.05
    _cap_pages(ledger, 1_000_000)
    _wait_until_saving(ledger)
    with ledger.reader() as conn:
        stored = {r[0]: r[1] for r in conn.execute("SELECT id, status FROM runs")}
    assert stored == {"saved-before": "success", "lost-1": "success", "lost-2": "error"}
    saved = ledger.get_run("lost-1", max_points=None)
    assert "saved" not in saved and saved["sample_count"] == 2000  # kept with its peaks, 2,000 points


def _noisy_run(tracker: Tracker, clock: FakeClock, run_id: str, *, samples: int, fail: bool = False) -> None:
    rng = random.Random(run_id)
    tracker.begin_run(run_id, prompt={"3": {"class_type": "KSampler", "inputs": {"seed": 1}}})
    node = tracker.node_begin(run_id, "3", "KSampler")
    for _ in range(samples):
        clock.t += 0.02
        tracker.on_sample(clock.t, {"process_rss_bytes": rng.randrange(GIB, 4 * GIB)})
    if fail:
        tracker.node_failed(node, MemoryError())
        tracker.end_run(
            run_id, "error", error={"node_id": "3", "exception_type": "MemoryError", "exception_message": ""}
        )
    else:
        tracker.node_end(node)
        tracker.end_run(run_id, "success")


def test_a_folder_that_cannot_hold_the_file_keeps_runs_in_memory(tmp_path):
    # GIVEN the ledger's folder is a file (as unusable as a full or read-only volume)
    blocker = tmp_path / "user"
    blocker.write_text("not a folder")
    ledger = Ledger(blocker / "memprobe" / "ledger.sqlite3")
    ledger.RETRY_S = 0.05
    assert ledger.open() == []
    ledger.start()
    try:
        tracker, clock = make_tracker(ledger)
        traced_run(tracker, clock, "r1")
        ledger.flush()
        state = ledger.state()
        assert state["saving"] is False and "cannot be written" in state["reason"] and state["unsaved_runs"] == 1
        assert [r["id"] for r in ledger.list_runs()["runs"]] == ["r1"]
        assert "cannot be read now" in ledger.list_runs()["error"]
        # WHEN the folder becomes usable, THEN the ledger opens the file and saves the run
        blocker.unlink()
        _wait_until_saving(ledger)
        assert ledger.list_runs()["runs"][0]["id"] == "r1" and "saved" not in ledger.list_runs()["runs"][0]
    finally:
        ledger.stop()


def _wait_until_saving(ledger: Ledger) -> None:
    deadline = time.monotonic() + 5
    while not ledger.state()["saving"] and time.monotonic() < deadline:
        ledger.submit(lambda conn: None)  # wake the writer
        time.sleep(0.05)
    state = ledger.state()
    assert (state["saving"], state["reason"], state["unsaved_runs"]) == (True, None, 0)


# ---------------------------------------------------------------- what ended a run that vanished
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


def test_a_schema_1_ledger_is_migrated_with_its_runs_kept(tmp_path):
    # GIVEN a ledger written by the previous release (schema 1) with a run in it
    from memprobe.recording.schema import SCHEMA_V1

    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_V1)
    conn.execute(
        "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            "old-run",
            1.0,
            2.0,
            "success",
            1,
            json.dumps({"id": "old-run", "status": "success", "started_at": 1.0}),
            "{}",
        ),
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    # WHEN this release opens it, THEN it is at the current schema, the run is intact and the forecast's
    # tables are there to use
    ledger = Ledger(path)
    ledger.open(pid=1)
    ledger.start()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    assert ledger.get_run("old-run")["status"] == "success"
    rows = [{"family": "sd15", "stage": "sampling", "device": "cpu", "estimate_bytes": 100, "working_bytes": 17}]
    ledger.save_forecast("old-run", 1.0, {"verdict": "fits"}, rows)
    ledger.flush()
    assert ledger.get_run("old-run")["forecast"] == {"verdict": "fits"} == ledger.forecast_of("old-run")
    assert (
        ledger.observations("cpu") == [{**rows[0], "started_at": 1.0}] and ledger.observations("cpu", before=1.0) == []
    )
    assert ledger.observations("gpu") == []
    # AND forgetting the run forgets what it taught
    ledger.delete_run("old-run")
    ledger.flush()
    assert ledger.observations("cpu") == [] and ledger.forecast_of("old-run") is None
    ledger.stop()


def test_writes_that_arrive_together_share_one_commit(tmp_path, monkeypatch):
    # GIVEN a run of 7 nodes whose writes reach the writer thread together (a short prompt: each node's
    # end and the next one's start come at once)
    ledger = Ledger(tmp_path / "l.sqlite3")
    ledger.open()
    commits = []
    real_commit = Ledger._commit

    def counting(self, conn):
        done = real_commit(self, conn)
        commits.append(done)
        return done

    monkeypatch.setattr(Ledger, "_commit", counting)
    tracker, clock = make_tracker(ledger)
    tracker.begin_run("short", prompt={})
    for i in range(7):
        node = tracker.node_begin("short", str(i), "KSampler")
        clock.t += 0.01
        tracker.node_end(node)
    tracker.end_run("short", "success")
    ledger.start()  # the writer finds them all queued
    ledger.flush()
    # THEN they are committed once, not once per node (the start of each node is still committed
    # before the next is written, when the writer keeps up: see the killed-process test)
    assert commits.count(True) == 1 and ledger.get_run("short")["status"] == "success"
    assert len(ledger.get_run("short")["nodes"]) == 7
    ledger.stop()


def test_two_ledgers_on_one_file_wait_for_each_other_instead_of_losing_writes(tmp_path):
    """Two ComfyUIs of one install share the file. A write that reads first (a run's charge, a
    forecast) must not be refused because the other server committed between its read and its
    write (SQLite's stale snapshot in WAL mode): the writer takes the write lock up front and waits."""
    path = tmp_path / "ledger.sqlite3"
    a, b = Ledger(path), Ledger(path)
    for each in (a, b):
        each.open()
        each.start()
    tracker_b, clock_b = make_tracker(b)
    read = threading.Event()

    def read_then_write(conn: sqlite3.Connection) -> None:
        conn.execute("SELECT COUNT(*) FROM runs").fetchone()  # a snapshot of the file...
        read.set()
        time.sleep(0.5)  # ...while the other server commits a run...
        conn.execute("UPDATE runs SET status = status")  # ...then a write on that snapshot

    a.submit(read_then_write, commit=True)
    assert read.wait(5)
    traced_run(tracker_b, clock_b, "b-run")
    assert b.flush() and a.flush()
    assert a.error is None and b.error is None, (a.error, b.error)
    assert a.get_run("b-run")["status"] == "success"
    for each in (a, b):
        each.stop()
