"""The run ledger: a real SQLite file, written by its thread, read while written, kept to its caps,
migrated, shared by two servers (recovery after a kill: test_ledger_recovery; a file that cannot be
written: test_ledger_storage)."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest
from ledger_kit import GIB, make_tracker, traced_run

from memprobe.recording.ledger import SCHEMA_VERSION, Ledger, LedgerError


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


# ---------------------------------------------------------------- a ledger that cannot write


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
