"""The run ledger: every traced run in one SQLite file (WAL), written by one background thread.

The executing thread never waits on disk: the tracker's news goes into a queue, and one writer
thread turns it into rows. The writer commits at each node's end, at each run's end and about
every second, so a process killed mid-run loses at most the last second; the next start finds
such a run still ``running`` and marks it ``ended_abruptly`` with the node that was executing.

Readers (the HTTP routes, the CLI) open their own connections; WAL lets them read while the
writer writes.

When the file cannot be written (its disk is full, its folder read-only) tracing goes on: the runs
that could not be saved are kept in memory (:class:`~memprobe.recording.unsaved.KeptRuns`) and served from
there, :meth:`Ledger.state` says why nothing is being saved (with the free space of that volume),
and the writer tries again every few seconds, saving the kept runs as soon as it can.
"""

from __future__ import annotations

import errno
import json
import os
import queue
import shutil
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._log import logger, warn_once
from ..documents import HEADER_KEYS, EventDoc, MarkDoc, NodeDoc, RunDoc, Timeline
from ..format import MIB, fmt_bytes
from .ledger_reads import LedgerError, LedgerReads, read_timeline, server_of
from .listener import TrackerListener
from .records import Mark, NodeRun, RunEvent, RunRecord
from .recovery import recover
from .schema import MIGRATIONS, SCHEMA_VERSION, TABLES_BY_RUN, dumps
from .timeline import downsample
from .unsaved import KeptRuns

__all__ = ["Ledger", "LedgerError", "SCHEMA_VERSION", "server_of"]

_BEGIN = "BEGIN IMMEDIATE"
"""Writes take the write lock up front, waiting (``busy_timeout``) while another server of the same
install holds it: a transaction that read first and only then wrote would be refused outright
("database is locked") had the other committed in between, since WAL cannot move its snapshot on."""


class _Job:
    """One queued write: ``op(conn, *args)``, for ``run`` (whose record is kept if it is lost)."""

    __slots__ = ("op", "args", "commit", "run", "done")

    def __init__(
        self,
        op: Callable[..., None] | None,
        args: tuple[Any, ...],
        commit: bool,
        run: RunRecord | None = None,
        done: threading.Event | None = None,
    ) -> None:
        self.op, self.args, self.commit, self.run, self.done = op, args, commit, run, done


class Ledger(LedgerReads):
    """The writer: one thread that turns the tracker's news into rows (the reads: :class:`LedgerReads`)."""

    COMMIT_EVERY_S = 1.0
    RETRY_S = 5.0
    """While the file cannot be written, how often the writer tries again."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_runs: int = 200,
        max_bytes: int = 512 * 1024**2,
        max_samples_per_run: int = 20_000,
        keep_unsaved: int = 20,
    ) -> None:
        self.path = Path(path)
        self.max_runs = max_runs
        self.max_bytes = max_bytes
        self.max_samples_per_run = max_samples_per_run
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.listener = _LedgerListener(self)
        self.kept = KeptRuns(keep_unsaved)
        """Finished runs the file lacks, served from memory until they are saved."""
        self.error: str | None = None
        """Why runs are not being saved now (``None`` while saving works)."""
        self._opened = False
        self._pid: int | None = None
        self._kills_now: dict[str, Any] | None = None
        self._txn_runs: dict[str, RunRecord] = {}
        self._dirty: set[str] = set()
        self._retry_at = 0.0
        self.cpu_s = 0.0
        """CPU time the writer thread has used."""

    # ------------------------------------------------------------------ opening
    def _connect(self, *, readonly: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=10, isolation_level=None if readonly else "DEFERRED", check_same_thread=False
        )
        conn.execute("PRAGMA busy_timeout = 10000")
        if readonly:
            conn.execute("PRAGMA query_only = 1")
        return conn

    def open(self, *, pid: int | None = None, kills_now: dict[str, Any] | None = None) -> list[str]:
        """Create or migrate the file, then mark runs left ``running`` by a dead process as
        ``ended_abruptly``. Returns their ids. ``kills_now`` are the kernel's OOM-kill counters now
        (:meth:`memprobe.sensing.sensors.Sensors.oom_kills`): compared with those a dead run recorded at
        its start, they tell whether the OOM killer ended it.

        A file from a newer release raises :class:`LedgerError` (left as it is: that release reads
        it). A damaged or truncated file is moved aside (``ledger.sqlite3.damaged-<time>``, logged)
        and a new ledger started. A file that cannot be written now (a full disk, a read-only folder)
        raises nothing: the ledger keeps runs in memory, says why in :meth:`state`, and opens the
        file when it can."""
        self._pid, self._kills_now = pid, kills_now
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                ids = self._open(pid)
            except sqlite3.DatabaseError as exc:
                if isinstance(exc, sqlite3.OperationalError):
                    raise
                moved = self._move_aside(exc)
                ids = self._open(pid)
                logger.warning(
                    "Memory Probe: the run ledger %s was damaged (%s); it was moved to %s and a new one started",
                    self.path,
                    exc,
                    moved.name,
                )
        except LedgerError:
            raise
        except (sqlite3.OperationalError, OSError) as exc:
            self._storage_failed(exc)
            return []
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{self.path} cannot be used ({exc})") from exc
        self._opened = True
        return ids

    def _move_aside(self, exc: BaseException) -> Path:
        """A damaged file (and its journal) out of the way, kept for whoever wants to look into it."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        moved = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            source = self.path.with_name(self.path.name + suffix)
            if source.exists():
                os.replace(source, moved.with_name(moved.name + suffix))
        return moved

    def _open(self, pid: int | None) -> list[str]:
        conn = self._connect()
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LedgerError(
                    f"{self.path} was written by a newer Memory Probe (schema {version}, "
                    f"this release reads {SCHEMA_VERSION}); update Memory Probe or move the file"
                )
            if version == 0:
                conn.execute("PRAGMA auto_vacuum = INCREMENTAL")  # only takes effect on an empty file
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            while version < SCHEMA_VERSION:
                with conn:
                    conn.executescript(MIGRATIONS[version])
                    version += 1
                    conn.execute(f"PRAGMA user_version = {version}")
            return recover(conn, pid if pid is not None else os.getpid(), self._kills_now)
        finally:
            conn.close()

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
        """Wait until everything queued so far was written or given up (tests, shutdown)."""
        if self._thread is None:
            return True
        done = threading.Event()
        self._queue.put(_Job(None, (), True, done=done))
        return done.wait(timeout)

    def submit(self, op: Callable[..., None], *args: Any, commit: bool = False, run: RunRecord | None = None) -> None:
        """Queue ``op(conn, *args)`` for the writer thread; never blocks. ``run`` is the run the
        write belongs to: if the write is lost, the run is kept in memory when it ends."""
        self._queue.put(_Job(op, args, commit, run))

    def state(self) -> dict[str, Any]:
        """Whether runs are being saved, why not, and the free space of the ledger's volume."""
        volume = _volume(self.path.parent)
        return {
            "saving": self.error is None,
            "reason": self.error,
            "path": str(self.path),
            "unsaved_runs": len(self.kept),
            "dropped_runs": self.kept.dropped,
            "volume": volume,
        }

    def _writer(self) -> None:
        conn = self._connect() if self._opened else None
        dirty_since: float | None = None
        pending: list[_Job] = []  # written jobs that asked for a commit: one commit once the queue is drained
        while True:
            if dirty_since is not None:
                timeout: float | None = max(0.0, dirty_since + self.COMMIT_EVERY_S - time.monotonic())
            else:
                timeout = self.RETRY_S if (self.error is not None or len(self.kept)) else None
            try:
                job = self._queue.get(timeout=timeout)
            except queue.Empty:
                job = _Job(None, (), False)
            if job is None:
                break
            if job.op is not None:
                if job.run is not None:
                    self._txn_runs[job.run.id] = job.run
                if conn is None:  # the file is not open (yet): this write is lost, its run kept
                    self._dirty.update(self._txn_runs)
                    self._txn_runs.clear()
                    self._keep_finished(job)
                else:
                    self._write_one(conn, job)
                    dirty_since = dirty_since or time.monotonic()
            if job.commit:
                pending.append(job)
            now = time.monotonic()
            due = dirty_since is not None and now - dirty_since >= self.COMMIT_EVERY_S
            # a node's end and the next node's start arrive together: commit once the writer caught up
            caught_up = job.done is not None or self._queue.empty()
            if conn is not None and ((pending and caught_up) or due):
                committed = self._commit(conn)
                for each in pending or [job]:
                    if committed:
                        self._saved(each)
                    else:
                        self._keep_finished(each)  # a run whose end was in the lost transaction
                pending = []
                dirty_since = None
            elif conn is None:
                pending = []
            if (self.error is not None or len(self.kept)) and now >= self._retry_at and dirty_since is None:
                self._retry_at = now + self.RETRY_S  # at most every few seconds: try the file again
                conn = self._retry(conn)
            if job.done is not None:
                job.done.set()
            self.cpu_s = time.thread_time()
        if conn is not None:
            if self._commit(conn):
                self._saved(_Job(None, (), True))
            conn.close()

    def _write_one(self, conn: sqlite3.Connection, job: _Job) -> None:
        assert job.op is not None
        try:
            if not conn.in_transaction:
                conn.execute(_BEGIN)
            job.op(conn, *job.args)
        except (sqlite3.OperationalError, OSError) as exc:  # the file cannot be written: keep the runs
            self._lose_transaction(conn, exc)
            self._keep_finished(job)
        except Exception:  # a bad write must not stop the writer
            warn_once(
                "ledger-write",
                "Memory Probe: a ledger write failed (%s)",
                getattr(job.op, "__name__", job.op),
                exc_info=True,
            )

    def _commit(self, conn: sqlite3.Connection) -> bool:
        """Commit what is pending; ``True`` only when something was committed."""
        if not conn.in_transaction:
            return False
        try:
            conn.commit()
            return True
        except (sqlite3.Error, OSError) as exc:
            self._lose_transaction(conn, exc)
            return False

    def _lose_transaction(self, conn: sqlite3.Connection, exc: BaseException) -> None:
        """A write or commit failed: roll back; every run with a write in it is now incomplete."""
        try:
            if conn.in_transaction:
                conn.rollback()
        except sqlite3.Error:
            pass
        self._dirty.update(self._txn_runs)
        self._txn_runs.clear()
        self._storage_failed(exc)

    def _saved(self, job: _Job) -> None:
        """A commit went through: the file takes writes again. Runs that lost a write earlier are
        saved whole once they end; until then, and until the kept ones are saved, it is not
        "saving" yet."""
        self._txn_runs.clear()
        self._keep_finished(job)
        if len(self.kept):
            self._retry_at = 0.0  # there is room again: save the kept runs now
        elif self.error is not None and not self._dirty:
            self.error = None
            logger.warning("Memory Probe: runs are being saved again (%s)", self.path)

    def _keep_finished(self, job: _Job) -> None:
        """A run that ended with a lost write goes into memory, to be saved later."""
        if job.op == self._finish_run and job.run is not None and job.run.id in self._dirty:
            self._dirty.discard(job.run.id)
            self.kept.keep(job.run)

    def _retry(self, conn: sqlite3.Connection | None) -> sqlite3.Connection | None:
        """Open the file if it is not open, then save the kept runs, oldest first."""
        if conn is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._open(self._pid)
                conn = self._connect()
                self._opened = True
            except (sqlite3.Error, OSError, LedgerError) as exc:
                self._storage_failed(exc)
                return None
        for doc in self.kept.documents():
            try:
                conn.execute(_BEGIN)
                self._import_run(conn, doc, 1000)
                self._retain(conn)
                conn.commit()
            except (sqlite3.Error, OSError) as exc:
                self._lose_transaction(conn, exc)
                return conn
            self.kept.discard(doc["id"])
        if self.error is not None and not self._dirty:
            self.error = None
            logger.warning("Memory Probe: runs are being saved again (%s)", self.path)
        return conn

    def _storage_failed(self, exc: BaseException) -> None:
        reason = _why_not_saving(self.path, exc)
        if self.error is None:
            logger.warning("Memory Probe: %s", reason)
        self.error = reason
        self._retry_at = time.monotonic() + self.RETRY_S

    # ------------------------------------------------------------------ writes (writer thread)
    def _insert_run(self, conn: sqlite3.Connection, header: dict[str, Any], prompt: Any, pid: int) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO runs (id, started_at, ended_at, status, pid, header, prompt, server) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                header["id"],
                header["started_at"],
                header["ended_at"],
                header["status"],
                pid,
                dumps(header),
                dumps(prompt) if prompt is not None else None,
                server_of(header),
            ),
        )

    def _put_node(self, conn: sqlite3.Connection, run_id: str, doc: NodeDoc) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?)",
            (run_id, doc["seq"], doc["node_id"], doc["class_type"], doc["stage"], doc["status"], dumps(doc)),
        )

    def _put_samples(self, conn: sqlite3.Connection, run_id: str, chunk: dict[str, Any]) -> None:
        t = chunk["t"]
        conn.execute(
            "INSERT INTO samples VALUES (?, ?, ?, ?, ?)",
            (run_id, t[0], t[-1], len(t), zlib.compress(dumps(chunk).encode(), 6)),
        )

    def _put_mark(self, conn: sqlite3.Connection, run_id: str, doc: MarkDoc) -> None:
        conn.execute("INSERT OR REPLACE INTO marks VALUES (?, ?, ?)", (run_id, doc["seq"], dumps(doc)))

    def _put_event(self, conn: sqlite3.Connection, run_id: str, doc: EventDoc) -> None:
        conn.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (run_id, doc["t_s"], doc["kind"], dumps(doc)))

    def _finish_run(self, conn: sqlite3.Connection, header: dict[str, Any], failures: list[dict[str, Any]]) -> None:
        conn.execute(
            "UPDATE runs SET status = ?, ended_at = ?, header = ? WHERE id = ?",
            (header["status"], header["ended_at"], dumps(header), header["id"]),
        )
        conn.execute("DELETE FROM failures WHERE run_id = ?", (header["id"],))
        conn.executemany(
            "INSERT INTO failures VALUES (?, ?, ?, ?, ?)",
            [(header["id"], i, f["kind"], f["node_id"], dumps(f)) for i, f in enumerate(failures)],
        )
        self._compact(conn, header["id"])
        self._retain(conn)

    def _compact(self, conn: sqlite3.Connection, run_id: str) -> None:
        """Downsample a long run's samples (peak-preserving) so one run cannot fill the ledger."""
        total = conn.execute("SELECT COALESCE(SUM(n), 0) FROM samples WHERE run_id = ?", (run_id,)).fetchone()[0]
        if total <= self.max_samples_per_run:
            return
        timeline = read_timeline(conn, run_id)
        reduced = downsample(timeline, self.max_samples_per_run)
        conn.execute("DELETE FROM samples WHERE run_id = ?", (run_id,))
        step = 1000
        for i in range(0, len(reduced["t"]), step):
            self._put_samples(
                conn,
                run_id,
                {"t": reduced["t"][i : i + step], "series": {k: v[i : i + step] for k, v in reduced["series"].items()}},
            )

    def _retain(self, conn: sqlite3.Connection) -> None:
        """Keep the newest ``max_runs`` runs and the file under ``max_bytes``."""
        stale = conn.execute(
            "SELECT id FROM runs ORDER BY started_at DESC LIMIT -1 OFFSET ?", (self.max_runs,)
        ).fetchall()
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
        for table in TABLES_BY_RUN:
            conn.execute(f"DELETE FROM {table} WHERE run_id = ?", (run_id,))  # noqa: S608 - fixed table names
        return conn.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount

    def charge(self, run_id: str, parts: dict[str, float]) -> None:
        """Add CPU Memory Probe spent for a run after it ended (its judgement) to its ``overhead``."""
        self.submit(self._charge, run_id, dict(parts))

    def _charge(self, conn: sqlite3.Connection, run_id: str, parts: dict[str, float]) -> None:
        row = conn.execute("SELECT header FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return
        header = json.loads(row[0])
        if header.get("overhead") is None:
            return
        header["overhead"].update(parts)
        conn.execute("UPDATE runs SET header = ? WHERE id = ?", (dumps(header), run_id))

    # ------------------------------------------------------------------ the forecast's memory
    def save_forecast(self, run_id: str, started_at: float, doc: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        """Keep a run's forecast (beside its measurement) and what its nodes taught."""
        self.submit(self._save_forecast, run_id, started_at, doc, rows, commit=True)

    def _save_forecast(
        self, conn: sqlite3.Connection, run_id: str, started_at: float, doc: dict[str, Any], rows: list[dict[str, Any]]
    ) -> None:
        if conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is None:
            return  # forgotten (or never saved) meanwhile
        conn.execute("INSERT OR REPLACE INTO forecasts (run_id, doc) VALUES (?, ?)", (run_id, dumps(doc)))
        conn.execute("DELETE FROM observations WHERE run_id = ?", (run_id,))
        conn.executemany(
            "INSERT INTO observations VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (run_id, started_at, r["family"], r["stage"], r["device"], r["estimate_bytes"], r["working_bytes"])
                for r in rows
            ],
        )

    def import_run(self, doc: dict[str, Any], *, chunk: int = 1000) -> None:
        """Store a whole run document (an exported or recorded run) through the writer thread."""
        self.submit(self._import_run, doc, chunk, commit=True)

    def _import_run(self, conn: sqlite3.Connection, doc: RunDoc, chunk: int) -> None:
        header = {k: doc.get(k) for k in HEADER_KEYS if k in doc}
        run_id = str(header["id"])
        self._delete(conn, run_id)
        self._insert_run(conn, header, doc.get("prompt"), 0)
        for node in doc.get("nodes") or []:
            self._put_node(conn, run_id, node)
        for mark in doc.get("marks") or []:
            self._put_mark(conn, run_id, mark)
        for event in doc.get("events") or []:
            self._put_event(conn, run_id, event)
        first = doc.get("failure")
        failures = doc.get("failures") or ([first] if first else [])
        conn.executemany(
            "INSERT INTO failures VALUES (?, ?, ?, ?, ?)",
            [(run_id, i, f["kind"], f.get("node_id"), dumps(f)) for i, f in enumerate(failures)],
        )
        timeline = doc.get("timeline") or {"t": [], "series": {}}
        for i in range(0, len(timeline["t"]), chunk):
            self._put_samples(
                conn,
                run_id,
                {
                    "t": timeline["t"][i : i + chunk],
                    "series": {k: v[i : i + chunk] for k, v in timeline["series"].items()},
                },
            )

    def delete_run(self, run_id: str) -> bool:
        forgotten = self.kept.discard(run_id)
        try:
            conn = self._connect()
            try:
                with conn:
                    return self._delete(conn, run_id) > 0 or forgotten
            finally:
                conn.close()
        except sqlite3.Error as exc:
            if forgotten:
                return True
            raise LedgerError(f"the run ledger cannot be changed now ({exc})") from exc


def _volume(folder: Path) -> dict[str, Any]:
    """Free space of the volume holding ``folder`` (or its nearest existing parent)."""
    probe = folder
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    try:
        usage = shutil.disk_usage(probe)
        return {"path": str(probe), "free_bytes": usage.free, "total_bytes": usage.total}
    except OSError:
        return {"path": str(probe), "free_bytes": None, "total_bytes": None}


def _why_not_saving(path: Path, exc: BaseException) -> str:
    """The reason runs are not being saved, in words: a full volume names its free space."""
    volume = _volume(path.parent)
    free, total = volume["free_bytes"], volume["total_bytes"]
    text = str(exc) or type(exc).__name__
    if getattr(exc, "errno", None) == errno.ENOSPC or (free is not None and free < MIB):
        return (
            f"runs are not being saved: the volume of {path.parent} is full ({fmt_bytes(free)} free of "
            f"{fmt_bytes(total)}; {text}). They are kept in memory and saved when space returns."
        )
    return (
        f"runs are not being saved: {path} cannot be written ({text}; {fmt_bytes(free)} free of "
        f"{fmt_bytes(total)} on its volume). They are kept in memory and saved when it can be written again."
    )


class _LedgerListener(TrackerListener):
    """Turns the tracker's news into queued writes. Runs on the executing thread: it only copies."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def run_started(self, run: RunRecord) -> None:
        self.ledger.submit(self.ledger._insert_run, run.header(), run.prompt, os.getpid(), commit=True, run=run)

    def node_started(self, run: RunRecord, node: NodeRun, doc: NodeDoc) -> None:
        # committed at once: if the OS kills ComfyUI inside this node, the next start must know which
        self.ledger.submit(self.ledger._put_node, run.id, doc, commit=True, run=run)

    def node_finished(self, run: RunRecord, node: NodeRun, doc: NodeDoc) -> None:
        # committed with the next node's start (or within a second): a kill after it loses its figures only
        self.ledger.submit(self.ledger._put_node, run.id, doc, run=run)

    def samples_added(self, run: RunRecord, timeline: Timeline) -> None:
        if timeline["t"]:
            self.ledger.submit(self.ledger._put_samples, run.id, timeline, run=run)

    def mark_added(self, run: RunRecord | None, mark: Mark) -> None:
        if run is not None:
            self.ledger.submit(self.ledger._put_mark, run.id, mark.to_dict(), run=run)

    def event_added(self, run: RunRecord, event: RunEvent) -> None:
        self.ledger.submit(self.ledger._put_event, run.id, event.to_dict(), run=run)

    def run_finished(self, run: RunRecord) -> None:
        for node in run.nodes:  # final state of every node (cached ones, and ones closed at the end)
            if node.status != "ran":
                self.ledger.submit(self.ledger._put_node, run.id, node.to_dict(), run=run)
        self.ledger.submit(
            self.ledger._finish_run, run.header(), [f.to_dict() for f in run.failures], commit=True, run=run
        )
