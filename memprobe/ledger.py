"""The run ledger: every traced run in one SQLite file (WAL), written by one background thread.

The executing thread never waits on disk: the tracker's news goes into a queue, and one writer
thread turns it into rows. The writer commits at each node's end, at each run's end and about
every second, so a process killed mid-run loses at most the last second; the next start finds
such a run still ``running`` and marks it ``ended_abruptly`` with the node that was executing.

Readers (the HTTP routes, the CLI) open their own connections; WAL lets them read while the
writer writes.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ._log import logger, warn_once
from .listener import TrackerListener
from .records import Mark, NodeRun, RunEvent, RunRecord
from .timeline import downsample, merge_timelines, window

__all__ = ["Ledger", "LedgerError", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_SCHEMA_V1 = """
CREATE TABLE runs (
    id          TEXT PRIMARY KEY,
    started_at  REAL NOT NULL,
    ended_at    REAL,
    status      TEXT NOT NULL,
    pid         INTEGER,
    header      TEXT NOT NULL,
    prompt      TEXT
);
CREATE INDEX runs_by_start ON runs (started_at DESC);
CREATE TABLE nodes (
    run_id      TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    node_id     TEXT NOT NULL,
    class_type  TEXT NOT NULL,
    stage       TEXT NOT NULL,
    status      TEXT NOT NULL,
    doc         TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE samples (
    run_id      TEXT NOT NULL,
    t0          REAL NOT NULL,
    t1          REAL NOT NULL,
    n           INTEGER NOT NULL,
    doc         BLOB NOT NULL            -- zlib-compressed JSON {"t": [...], "series": {...}}
);
CREATE INDEX samples_by_run ON samples (run_id, t0);
CREATE TABLE marks (run_id TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (run_id, seq));
CREATE TABLE events (run_id TEXT NOT NULL, t_s REAL NOT NULL, kind TEXT NOT NULL, doc TEXT NOT NULL);
CREATE INDEX events_by_run ON events (run_id);
CREATE TABLE failures (
    run_id      TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    node_id     TEXT,
    doc         TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
"""

# version N -> the statements that take a ledger from N to N + 1
MIGRATIONS: dict[int, str] = {0: _SCHEMA_V1}

_TABLES_BY_RUN = ("nodes", "samples", "marks", "events", "failures")


class LedgerError(RuntimeError):
    """The ledger cannot be used (e.g. a newer release wrote it); tracing goes on without it."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), default=str)


def _chunk(blob: bytes) -> dict[str, Any]:
    """A stored sample chunk: zlib-compressed JSON (memory readings compress about 5:1)."""
    return json.loads(zlib.decompress(blob))


class Ledger:
    COMMIT_EVERY_S = 1.0

    def __init__(self, path: str | os.PathLike[str], *, max_runs: int = 200, max_bytes: int = 512 * 1024**2,
                 max_samples_per_run: int = 20_000) -> None:
        self.path = Path(path)
        self.max_runs = max_runs
        self.max_bytes = max_bytes
        self.max_samples_per_run = max_samples_per_run
        self._queue: queue.SimpleQueue[tuple[Callable[..., None], tuple[Any, ...], bool] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._write: sqlite3.Connection | None = None
        self.listener = _LedgerListener(self)
        self.cpu_s = 0.0
        """CPU time the writer thread has used."""

    # ------------------------------------------------------------------ opening
    def _connect(self, *, readonly: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None if readonly else "DEFERRED",
                               check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 10000")
        if readonly:
            conn.execute("PRAGMA query_only = 1")
        return conn

    def open(self, *, pid: int | None = None) -> list[str]:
        """Create or migrate the file, then mark runs left ``running`` by a dead process as
        ``ended_abruptly``. Returns their ids."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return self._open(pid)
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{self.path} cannot be used ({exc}); it was left as it is — move it away to start "
                              "a new ledger") from exc

    def _open(self, pid: int | None) -> list[str]:
        conn = self._connect()
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LedgerError(f"{self.path} was written by a newer Memory Probe (schema {version}, "
                                  f"this release reads {SCHEMA_VERSION}); update Memory Probe or move the file")
            if version == 0:
                conn.execute("PRAGMA auto_vacuum = INCREMENTAL")  # only takes effect on an empty file
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            while version < SCHEMA_VERSION:
                with conn:
                    conn.executescript(MIGRATIONS[version])
                    version += 1
                    conn.execute(f"PRAGMA user_version = {version}")
            return self._recover(conn, pid if pid is not None else os.getpid())
        finally:
            conn.close()

    def _recover(self, conn: sqlite3.Connection, pid: int) -> list[str]:
        rows = [(run_id, header) for run_id, header, owner in
                conn.execute("SELECT id, header, pid FROM runs WHERE status = 'running'")
                if owner is None or (owner != pid and not _pid_alive(owner))]  # another live ComfyUI may share it
        for run_id, header_text in rows:
            header = json.loads(header_text)
            node_row = conn.execute(
                "SELECT doc FROM nodes WHERE run_id = ? AND status IN ('running', 'pending') ORDER BY seq DESC LIMIT 1",
                (run_id,)).fetchone()
            node = json.loads(node_row[0]) if node_row else None
            last = conn.execute("SELECT doc, t1 FROM samples WHERE run_id = ? ORDER BY t0 DESC LIMIT 1",
                                (run_id,)).fetchone()
            last_metrics: dict[str, int] = {}
            ended_s = None
            if last:
                chunk = _chunk(last[0])
                ended_s = last[1]
                last_metrics = {k: v[-1] for k, v in chunk["series"].items() if v and v[-1] is not None}
            failure = _abrupt_failure(node, last_metrics, ended_s)
            header.update(status="ended_abruptly", failure=failure, end_metrics=last_metrics or None,
                          abrupt={"node": node, "last_metrics": last_metrics, "last_sample_s": ended_s})
            ended_at = header["started_at"] + ended_s if ended_s is not None else None
            header["ended_at"] = ended_at
            with conn:
                conn.execute("UPDATE runs SET status = 'ended_abruptly', ended_at = ?, header = ? WHERE id = ?",
                             (ended_at, _dumps(header), run_id))
                if node is not None:
                    node["status"] = "failed"
                    conn.execute("UPDATE nodes SET status = 'failed', doc = ? WHERE run_id = ? AND seq = ?",
                                 (_dumps(node), run_id, node["seq"]))
                conn.execute("INSERT OR REPLACE INTO failures VALUES (?, 0, ?, ?, ?)",
                             (run_id, failure["kind"], failure["node_id"], _dumps(failure)))
            logger.warning("Memory Probe: run %s ended abruptly (ComfyUI stopped during node %s)", run_id,
                           node.get("node_id") if node else "?")
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ the writer thread
    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._writer, name="memprobe-ledger", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join(timeout)
        self._thread = None

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued so far is committed (tests, shutdown)."""
        if self._thread is None:
            return True
        done = threading.Event()
        self.submit(lambda conn: done.set(), commit=True)
        return done.wait(timeout)

    def submit(self, op: Callable[..., None], *args: Any, commit: bool = False) -> None:
        """Queue ``op(conn, *args)`` for the writer thread; never blocks."""
        self._queue.put((op, args, commit))

    def _writer(self) -> None:
        conn = self._connect()
        self._write = conn
        dirty_since: float | None = None
        while True:
            timeout = None if dirty_since is None else max(0.0, dirty_since + self.COMMIT_EVERY_S - time.monotonic())
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                item = ("commit",)  # type: ignore[assignment]
            if item is None:
                break
            commit_now = True
            if item != ("commit",):
                op, args, commit_now = item
                try:
                    if not conn.in_transaction:
                        conn.execute("BEGIN")
                    op(conn, *args)
                except Exception:  # a bad write must not stop the writer
                    warn_once("ledger-write", "Memory Probe: a ledger write failed (%s)", getattr(op, "__name__", op),
                              exc_info=True)
                dirty_since = dirty_since or time.monotonic()
            if commit_now or (dirty_since is not None and time.monotonic() - dirty_since >= self.COMMIT_EVERY_S):
                self._commit(conn)
                dirty_since = None
            self.cpu_s = time.thread_time()
        self._commit(conn)
        conn.close()

    @staticmethod
    def _commit(conn: sqlite3.Connection) -> None:
        try:
            if conn.in_transaction:
                conn.commit()
        except sqlite3.Error:
            warn_once("ledger-commit", "Memory Probe: ledger commit failed", exc_info=True)

    # ------------------------------------------------------------------ writes (writer thread)
    def _insert_run(self, conn: sqlite3.Connection, header: dict[str, Any], prompt: Any, pid: int) -> None:
        conn.execute("INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (header["id"], header["started_at"], header["ended_at"], header["status"], pid,
                      _dumps(header), _dumps(prompt) if prompt is not None else None))

    def _put_node(self, conn: sqlite3.Connection, run_id: str, doc: dict[str, Any]) -> None:
        conn.execute("INSERT OR REPLACE INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (run_id, doc["seq"], doc["node_id"], doc["class_type"], doc["stage"], doc["status"], _dumps(doc)))

    def _put_samples(self, conn: sqlite3.Connection, run_id: str, chunk: dict[str, Any]) -> None:
        t = chunk["t"]
        conn.execute("INSERT INTO samples VALUES (?, ?, ?, ?, ?)",
                     (run_id, t[0], t[-1], len(t), zlib.compress(_dumps(chunk).encode(), 6)))

    def _put_mark(self, conn: sqlite3.Connection, run_id: str, doc: dict[str, Any]) -> None:
        conn.execute("INSERT OR REPLACE INTO marks VALUES (?, ?, ?)", (run_id, doc["seq"], _dumps(doc)))

    def _put_event(self, conn: sqlite3.Connection, run_id: str, doc: dict[str, Any]) -> None:
        conn.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (run_id, doc["t_s"], doc["kind"], _dumps(doc)))

    def _finish_run(self, conn: sqlite3.Connection, header: dict[str, Any], failures: list[dict[str, Any]]) -> None:
        conn.execute("UPDATE runs SET status = ?, ended_at = ?, header = ? WHERE id = ?",
                     (header["status"], header["ended_at"], _dumps(header), header["id"]))
        conn.execute("DELETE FROM failures WHERE run_id = ?", (header["id"],))
        conn.executemany("INSERT INTO failures VALUES (?, ?, ?, ?, ?)",
                         [(header["id"], i, f["kind"], f["node_id"], _dumps(f)) for i, f in enumerate(failures)])
        self._compact(conn, header["id"])
        self._retain(conn)

    def _compact(self, conn: sqlite3.Connection, run_id: str) -> None:
        """Downsample a long run's samples (peak-preserving) so one run cannot fill the ledger."""
        total = conn.execute("SELECT COALESCE(SUM(n), 0) FROM samples WHERE run_id = ?", (run_id,)).fetchone()[0]
        if total <= self.max_samples_per_run:
            return
        timeline = self._timeline(conn, run_id)
        reduced = downsample(timeline, self.max_samples_per_run)
        conn.execute("DELETE FROM samples WHERE run_id = ?", (run_id,))
        step = 1000
        for i in range(0, len(reduced["t"]), step):
            self._put_samples(conn, run_id, {"t": reduced["t"][i:i + step],
                                             "series": {k: v[i:i + step] for k, v in reduced["series"].items()}})

    def _retain(self, conn: sqlite3.Connection) -> None:
        """Keep the newest ``max_runs`` runs and the file under ``max_bytes``."""
        stale = conn.execute("SELECT id FROM runs ORDER BY started_at DESC LIMIT -1 OFFSET ?",
                             (self.max_runs,)).fetchall()
        for (run_id,) in stale:
            self._delete(conn, run_id)
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        while True:
            pages, free = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count"))
            if (pages - free) * page_size <= self.max_bytes:
                break
            oldest = conn.execute("SELECT id FROM runs ORDER BY started_at ASC LIMIT 1 OFFSET 0").fetchone()
            count = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            if oldest is None or count <= 1:
                break
            self._delete(conn, oldest[0])
        conn.execute("PRAGMA incremental_vacuum")

    @staticmethod
    def _delete(conn: sqlite3.Connection, run_id: str) -> int:
        for table in _TABLES_BY_RUN:
            conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (run_id,))  # noqa: S608 - fixed table names
        return conn.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount

    def import_run(self, doc: dict[str, Any], *, chunk: int = 1000) -> None:
        """Store a whole run document (an exported or recorded run) through the writer thread."""
        self.submit(self._import_run, doc, chunk, commit=True)

    def _import_run(self, conn: sqlite3.Connection, doc: dict[str, Any], chunk: int) -> None:
        header_keys = ("id", "status", "started_at", "ended_at", "duration_s", "context", "start_metrics",
                       "end_metrics", "error", "failure", "overhead", "abrupt")
        header = {k: doc.get(k) for k in header_keys if k in doc}
        self._delete(conn, header["id"])
        self._insert_run(conn, header, doc.get("prompt"), 0)
        for node in doc.get("nodes") or []:
            self._put_node(conn, header["id"], node)
        for mark in doc.get("marks") or []:
            self._put_mark(conn, header["id"], mark)
        for event in doc.get("events") or []:
            self._put_event(conn, header["id"], event)
        failures = doc.get("failures") or ([doc["failure"]] if doc.get("failure") else [])
        conn.executemany("INSERT INTO failures VALUES (?, ?, ?, ?, ?)",
                         [(header["id"], i, f["kind"], f.get("node_id"), _dumps(f)) for i, f in enumerate(failures)])
        timeline = doc.get("timeline") or {"t": [], "series": {}}
        for i in range(0, len(timeline["t"]), chunk):
            self._put_samples(conn, header["id"], {"t": timeline["t"][i:i + chunk],
                                                   "series": {k: v[i:i + chunk] for k, v in timeline["series"].items()}})

    # ------------------------------------------------------------------ reads (any thread)
    @contextmanager
    def reader(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect(readonly=True)
        try:
            yield conn
        finally:
            conn.close()

    def list_runs(self, *, limit: int = 50, offset: int = 0) -> dict[str, Any]:
        """Newest first: each run's header, with its node count and its first failure."""
        with self.reader() as conn:
            total = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            rows = conn.execute(
                "SELECT header, (SELECT COUNT(*) FROM nodes WHERE run_id = runs.id) FROM runs "
                "ORDER BY started_at DESC LIMIT ? OFFSET ?", (limit, offset)).fetchall()
        runs = []
        for header_text, node_count in rows:
            header = json.loads(header_text)
            header["node_count"] = node_count
            runs.append(header)
        return {"runs": runs, "total": total, "limit": limit, "offset": offset}

    def get_run(self, run_id: str, *, max_points: int | None = 2000) -> dict[str, Any] | None:
        """The whole run document (see ``docs/run-format.md``); ``None`` for an unknown id."""
        with self.reader() as conn:
            row = conn.execute("SELECT header, prompt FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            doc = json.loads(row[0])
            doc["prompt"] = json.loads(row[1]) if row[1] else None
            doc["nodes"] = [json.loads(r[0]) for r in
                            conn.execute("SELECT doc FROM nodes WHERE run_id = ? ORDER BY seq", (run_id,))]
            doc["marks"] = [json.loads(r[0]) for r in
                            conn.execute("SELECT doc FROM marks WHERE run_id = ? ORDER BY seq", (run_id,))]
            doc["events"] = [json.loads(r[0]) for r in
                             conn.execute("SELECT doc FROM events WHERE run_id = ? ORDER BY t_s", (run_id,))]
            doc["failures"] = [json.loads(r[0]) for r in
                               conn.execute("SELECT doc FROM failures WHERE run_id = ? ORDER BY seq", (run_id,))]
            timeline = self._timeline(conn, run_id)
        doc["timeline"] = downsample(timeline, max_points) if max_points else timeline
        doc["sample_count"] = len(timeline["t"])
        return doc

    def samples(self, run_id: str, *, start: float | None = None, end: float | None = None,
                max_points: int = 2000) -> dict[str, Any] | None:
        """A time window of a run's samples, downsampled to at most ``max_points`` rows."""
        with self.reader() as conn:
            if conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is None:
                return None
            timeline = self._timeline(conn, run_id, start, end)
        return downsample(window(timeline, start, end), max_points)

    def _timeline(self, conn: sqlite3.Connection, run_id: str, start: float | None = None,
                  end: float | None = None) -> dict[str, Any]:
        rows = conn.execute(
            "SELECT doc FROM samples WHERE run_id = ? AND t1 >= ? AND t0 <= ? ORDER BY t0",
            (run_id, start if start is not None else float("-inf"), end if end is not None else float("inf")))
        return merge_timelines(_chunk(r[0]) for r in rows)

    def delete_run(self, run_id: str) -> bool:
        conn = self._connect()
        try:
            with conn:
                return self._delete(conn, run_id) > 0
        finally:
            conn.close()

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())


def _pid_alive(pid: int) -> bool:
    try:
        import psutil

        return bool(psutil.pid_exists(pid))
    except Exception:  # no psutil: treat the run as dead (the old behaviour)
        return False


def _abrupt_failure(node: dict[str, Any] | None, last: dict[str, int], t_s: float | None) -> dict[str, Any]:
    """What is known of a run whose process vanished: the running node, and whether the last
    readings show system memory at its end (the OS kills a process when RAM + pagefile run out)."""
    kind, evidence = "other", "no memory reading near a limit"
    commit, limit = last.get("commit_bytes"), last.get("commit_limit_bytes")
    ram_used, ram_total = last.get("ram_used_bytes"), last.get("ram_total_bytes")
    if commit is not None and limit and commit >= 0.9 * limit:
        kind, evidence = "commit-limit", f"commit was at {100 * commit / limit:.0f}% of the limit"
    elif ram_used is not None and ram_total and ram_used >= 0.95 * ram_total:
        kind, evidence = "system-ram", f"RAM was {100 * ram_used / ram_total:.0f}% used"
    return {
        "node_id": node.get("node_id") if node else None,
        "class_type": node.get("class_type") if node else None,
        "stage": node.get("stage") if node else None,
        "kind": kind,
        "exception_type": None,
        "message": f"ComfyUI ended during this run without reporting an error (killed by the OS, "
                   f"crashed or closed); last readings: {evidence}",
        "t_s": t_s, "snapshot": None, "consequence": False, "abrupt": True,
    }


class _LedgerListener(TrackerListener):
    """Turns the tracker's news into queued writes. Runs on the executing thread: it only copies."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def run_started(self, run: RunRecord) -> None:
        self.ledger.submit(self.ledger._insert_run, run.header(), run.prompt, os.getpid(), commit=True)

    def node_started(self, run: RunRecord, node: NodeRun, doc: dict[str, Any]) -> None:
        # committed at once: if the OS kills ComfyUI inside this node, the next start must know which
        self.ledger.submit(self.ledger._put_node, run.id, doc, commit=True)

    def node_finished(self, run: RunRecord, node: NodeRun, doc: dict[str, Any]) -> None:
        self.ledger.submit(self.ledger._put_node, run.id, doc, commit=True)

    def samples_added(self, run: RunRecord, timeline: dict[str, Any]) -> None:
        if timeline["t"]:
            self.ledger.submit(self.ledger._put_samples, run.id, timeline)

    def mark_added(self, run: RunRecord | None, mark: Mark) -> None:
        if run is not None:
            self.ledger.submit(self.ledger._put_mark, run.id, mark.to_dict())

    def event_added(self, run: RunRecord, event: RunEvent) -> None:
        self.ledger.submit(self.ledger._put_event, run.id, event.to_dict())

    def run_finished(self, run: RunRecord) -> None:
        for node in run.nodes:  # final state of every node (cached ones, and ones closed at the end)
            if node.status != "ran":
                self.ledger.submit(self.ledger._put_node, run.id, node.to_dict())
        self.ledger.submit(self.ledger._finish_run, run.header(), [f.to_dict() for f in run.failures], commit=True)
