"""Runs a killed ComfyUI left behind in the ledger: found when the ledger opens, closed as ended abruptly
with what the file still knows of them."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .._log import logger
from ..judging.abrupt import abrupt_failure
from .ledger_reads import read_timeline
from .schema import chunk_timeline, dumps
from .timeline import window

__all__ = ["recover"]


def recover(conn: sqlite3.Connection, pid: int, kills_now: dict[str, Any] | None) -> list[str]:
    """Mark the runs a dead process left ``running`` as ``ended_abruptly``: the node that was executing,
    its peaks from the samples committed after its start, the last readings, what the OS says killed it
    (``kills_now``). Runs of another live process sharing the file are left alone. Their ids."""
    rows = [
        (run_id, header)
        for run_id, header, owner in conn.execute("SELECT id, header, pid FROM runs WHERE status = 'running'")
        if owner is None or (owner != pid and not _pid_alive(owner))
    ]  # another live ComfyUI may share it
    for run_id, header_text in rows:
        header = json.loads(header_text)
        node_row = conn.execute(
            "SELECT doc FROM nodes WHERE run_id = ? AND status IN ('running', 'pending') ORDER BY seq DESC LIMIT 1",
            (run_id,),
        ).fetchone()
        node = json.loads(node_row[0]) if node_row else None
        last = conn.execute(
            "SELECT doc, t1 FROM samples WHERE run_id = ? ORDER BY t0 DESC LIMIT 1", (run_id,)
        ).fetchone()
        last_metrics: dict[str, int] = {}
        ended_s = None
        if last:
            chunk = chunk_timeline(last[0])
            ended_s = last[1]
            last_metrics = {k: v[-1] for k, v in chunk["series"].items() if v and v[-1] is not None}
        failure = abrupt_failure(node, last_metrics, ended_s, header, kills_now)
        header.update(
            status="ended_abruptly",
            failure=failure,
            end_metrics=last_metrics or None,
            abrupt={"node": node, "last_metrics": last_metrics, "last_sample_s": ended_s},
        )
        ended_at = header["started_at"] + ended_s if ended_s is not None else None
        header["ended_at"] = ended_at
        with conn:
            conn.execute(
                "UPDATE runs SET status = 'ended_abruptly', ended_at = ?, header = ? WHERE id = ?",
                (ended_at, dumps(header), run_id),
            )
            if node is not None:
                node["status"] = "failed"
                node["end_s"] = ended_s
                _peaks_from_samples(conn, run_id, node)
                conn.execute(
                    "UPDATE nodes SET status = 'failed', doc = ? WHERE run_id = ? AND seq = ?",
                    (dumps(node), run_id, node["seq"]),
                )
            conn.execute(
                "INSERT OR REPLACE INTO failures VALUES (?, 0, ?, ?, ?)",
                (run_id, failure["kind"], failure["node_id"], dumps(failure)),
            )
        logger.warning(
            "Memory Probe: run %s ended abruptly (ComfyUI stopped during node %s)",
            run_id,
            node.get("node_id") if node else "?",
        )
    return [r[0] for r in rows]


def _peaks_from_samples(conn: sqlite3.Connection, run_id: str, node: dict[str, Any]) -> None:
    """A node that never ended stored only its readings at its start: its peaks are what the
    sampler recorded from then on (up to the last committed second)."""
    if node.get("start_s") is None:
        return
    timeline = window(read_timeline(conn, run_id, node["start_s"]), node["start_s"], None)
    peaks = node.setdefault("peaks", {})
    for key, column in timeline["series"].items():
        values = [v for v in column if v is not None]
        if values and max(values) > peaks.get(key, -1):
            peaks[key] = max(values)


def _pid_alive(pid: int) -> bool:
    try:
        import psutil

        return bool(psutil.pid_exists(pid))
    except Exception:  # no psutil: treat the run as dead (the old behaviour)
        return False
