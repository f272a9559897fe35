"""The run ledger's reads, from any thread (the HTTP routes, the CLI): each opens its own read-only
connection, which WAL lets read while the writer thread writes; runs kept in memory because the file
could not be written are served from there too."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..documents import RunDoc, Timeline
from .schema import LIST_ALL, LIST_ONE_SERVER, SERVERS, chunk_timeline
from .timeline import downsample, merge_timelines, window
from .unsaved import KeptRuns

__all__ = ["LedgerReads", "LedgerError", "read_timeline", "server_of"]


class LedgerError(RuntimeError):
    """The ledger cannot be used (e.g. a newer release wrote it); tracing goes on without it."""


def read_timeline(
    conn: sqlite3.Connection, run_id: str, start: float | None = None, end: float | None = None
) -> Timeline:
    """A run's stored samples between ``start`` and ``end`` (seconds into the run), merged."""
    rows = conn.execute(
        "SELECT doc FROM samples WHERE run_id = ? AND t1 >= ? AND t0 <= ? ORDER BY t0",
        (run_id, start if start is not None else float("-inf"), end if end is not None else float("inf")),
    )
    return merge_timelines(chunk_timeline(r[0]) for r in rows)


def server_of(header: dict[str, Any] | Any) -> str | None:
    """Which ComfyUI server a run ran in (``context.server.id``: host and port), where it says."""
    server = ((header or {}).get("context") or {}).get("server") or {}
    value = server.get("id") if isinstance(server, dict) else None
    return str(value) if value else None


class LedgerReads:
    """The ledger's reads (:class:`~memprobe.recording.ledger.Ledger` is the writer)."""

    path: Path
    kept: KeptRuns

    if TYPE_CHECKING:

        def _connect(self, *, readonly: bool = False) -> sqlite3.Connection: ...

    @contextmanager
    def reader(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect(readonly=True)
        try:
            yield conn
        finally:
            conn.close()

    def list_runs(self, *, limit: int = 50, offset: int = 0, server: str | None = None) -> dict[str, Any]:
        """Newest first: each run's header, with its node count and its first failure (``server``:
        only the runs of that ComfyUI server, and those that do not say; ``None``: every server's),
        and ``servers``: every server that has runs here. Runs kept in memory (not saved) are listed
        too, marked ``"saved": false``; when the file cannot be read, only those, with ``error``
        saying why."""
        kept = [h for h in self.kept.headers() if server is None or server_of(h) in (server, None)]
        args: tuple[Any, ...] = (server,) if server is not None else ()
        count_sql, list_sql = LIST_ONE_SERVER if server is not None else LIST_ALL
        error = None
        try:
            with self.reader() as conn:
                total = conn.execute(count_sql, args).fetchone()[0]
                rows = conn.execute(
                    list_sql, (*args, *((limit + offset + len(kept), 0) if kept else (limit, offset)))
                ).fetchall()
                servers = [r[0] for r in conn.execute(SERVERS).fetchall()]
        except sqlite3.Error as exc:
            total, rows, servers, error = 0, [], [], f"the run ledger cannot be read now ({exc})"
        runs = []
        for header_text, node_count in rows:
            header = json.loads(header_text)
            header["node_count"] = node_count
            runs.append(header)
        if kept:
            ids = {h["id"] for h in kept}
            total += sum(1 for h in kept if h["id"] not in {r["id"] for r in runs})
            runs = sorted([r for r in runs if r["id"] not in ids] + kept, key=lambda r: -(r.get("started_at") or 0))
            runs = runs[offset : offset + limit]
        out = {"runs": runs, "total": total, "limit": limit, "offset": offset, "servers": servers}
        if error:
            out["error"] = error
        return out

    def get_run(self, run_id: str, *, max_points: int | None = 2000) -> RunDoc | None:
        """The whole run document (see ``docs/run-format.md``); ``None`` for an unknown id."""
        kept = self.kept.get(run_id, max_points)
        if kept is not None:
            return kept
        try:
            return self._get_run(run_id, max_points)
        except sqlite3.Error as exc:
            raise LedgerError(f"the run ledger cannot be read now ({exc})") from exc

    def _get_run(self, run_id: str, max_points: int | None) -> RunDoc | None:
        with self.reader() as conn:
            row = conn.execute("SELECT header, prompt FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            doc = cast(RunDoc, json.loads(row[0]))
            doc["prompt"] = json.loads(row[1]) if row[1] else None
            doc["nodes"] = [
                json.loads(r[0]) for r in conn.execute("SELECT doc FROM nodes WHERE run_id = ? ORDER BY seq", (run_id,))
            ]
            doc["marks"] = [
                json.loads(r[0]) for r in conn.execute("SELECT doc FROM marks WHERE run_id = ? ORDER BY seq", (run_id,))
            ]
            doc["events"] = [
                json.loads(r[0])
                for r in conn.execute("SELECT doc FROM events WHERE run_id = ? ORDER BY t_s", (run_id,))
            ]
            doc["failures"] = [
                json.loads(r[0])
                for r in conn.execute("SELECT doc FROM failures WHERE run_id = ? ORDER BY seq", (run_id,))
            ]
            forecast = conn.execute("SELECT doc FROM forecasts WHERE run_id = ?", (run_id,)).fetchone()
            if forecast is not None:
                doc["forecast"] = json.loads(forecast[0])
            timeline = read_timeline(conn, run_id)
        doc["timeline"] = downsample(timeline, max_points) if max_points else timeline
        doc["sample_count"] = len(timeline["t"])
        return doc

    def samples(
        self, run_id: str, *, start: float | None = None, end: float | None = None, max_points: int = 2000
    ) -> Timeline | None:
        """A time window of a run's samples, downsampled to at most ``max_points`` rows."""
        if run_id in self.kept:
            return self.kept.samples(run_id, start, end, max_points)
        try:
            with self.reader() as conn:
                if conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is None:
                    return None
                timeline = read_timeline(conn, run_id, start, end)
        except sqlite3.Error as exc:
            raise LedgerError(f"the run ledger cannot be read now ({exc})") from exc
        return downsample(window(timeline, start, end), max_points)

    def observations(self, device: str, *, before: float | None = None, limit: int = 2000) -> list[dict[str, Any]]:
        """What runs on this device class taught the forecast, newest first (``before``: only runs that
        started earlier). Empty when the ledger cannot be read."""
        query = (
            "SELECT family, stage, device, estimate_bytes, working_bytes, started_at FROM observations "
            "WHERE device = ? AND started_at < ? ORDER BY started_at DESC LIMIT ?"
        )
        args = (device, before if before is not None else float("inf"), limit)
        try:
            with self.reader() as conn:
                rows = conn.execute(query, args).fetchall()
        except sqlite3.Error:
            return []
        keys = ("family", "stage", "device", "estimate_bytes", "working_bytes", "started_at")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def forecast_of(self, run_id: str) -> dict[str, Any] | None:
        try:
            with self.reader() as conn:
                row = conn.execute("SELECT doc FROM forecasts WHERE run_id = ?", (run_id,)).fetchone()
        except sqlite3.Error:
            return None
        return cast(dict[str, Any], json.loads(row[0])) if row else None

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())
