"""The run ledger when its file cannot be used: damaged or truncated (moved aside), a read-only folder, a
full volume: runs are kept in memory, served, and saved when the file can be written again."""

from __future__ import annotations

import random
import sqlite3
import time

import pytest
from helpers import FakeClock
from ledger_kit import GIB, make_tracker, traced_run

from memprobe.recording.ledger import Ledger
from memprobe.recording.tracker import Tracker


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
    rng = random.Random(run_id)  # readings zlib cannot shrink
    traced_run(tracker, clock, run_id, samples=samples, fail=fail, rss=lambda _: rng.randrange(GIB, 4 * GIB))


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
