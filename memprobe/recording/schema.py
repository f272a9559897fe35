"""The run ledger's SQLite schema: its tables version by version, the statements that migrate a file
from each version to the next (keys are only ever added), and the queries that list runs, and the format of its rows (JSON text, sample chunks as zlib-compressed JSON)."""

from __future__ import annotations

import json
import zlib
from typing import Any, cast

from ..documents import Timeline

__all__ = [
    "SCHEMA_VERSION",
    "SCHEMA_V1",
    "SCHEMA_V2",
    "MIGRATIONS",
    "TABLES_BY_RUN",
    "LIST_ALL",
    "LIST_ONE_SERVER",
    "SERVERS",
    "dumps",
    "chunk_timeline",
]

SCHEMA_VERSION = 2

SCHEMA_V1 = """
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

SCHEMA_V2 = """
ALTER TABLE runs ADD COLUMN server TEXT;
CREATE INDEX runs_by_server ON runs (server, started_at DESC);
CREATE TABLE forecasts (run_id TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE observations (
    run_id          TEXT NOT NULL,
    started_at      REAL NOT NULL,
    family          TEXT NOT NULL,
    stage           TEXT NOT NULL,
    device          TEXT NOT NULL,
    estimate_bytes  INTEGER,
    working_bytes   INTEGER NOT NULL
);
CREATE INDEX observations_by_key ON observations (device, family, stage, started_at DESC);
"""
"""Schema 2: which ComfyUI server a run ran in (servers of one install share the ledger), each run's
forecast, and what its nodes taught the forecast (``memprobe.forecast.learn``)."""

_LIST = "SELECT header, (SELECT COUNT(*) FROM nodes WHERE run_id = runs.id) FROM runs "
LIST_ALL = ("SELECT COUNT(*) FROM runs", _LIST + "ORDER BY started_at DESC LIMIT ? OFFSET ?")
LIST_ONE_SERVER = (
    "SELECT COUNT(*) FROM runs WHERE server = ? OR server IS NULL",
    _LIST + "WHERE server = ? OR server IS NULL ORDER BY started_at DESC LIMIT ? OFFSET ?",
)
"""One server's runs, and those recorded before runs said which server they ran in."""
SERVERS = "SELECT DISTINCT server FROM runs WHERE server IS NOT NULL LIMIT 50"

# version N -> the statements that take a ledger from N to N + 1
MIGRATIONS: dict[int, str] = {0: SCHEMA_V1, 1: SCHEMA_V2}

TABLES_BY_RUN = ("nodes", "samples", "marks", "events", "failures", "forecasts", "observations")


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), default=str)


def chunk_timeline(blob: bytes) -> Timeline:
    """A stored sample chunk: zlib-compressed JSON (memory readings compress about 5:1)."""
    return cast(Timeline, json.loads(zlib.decompress(blob)))
