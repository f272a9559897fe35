"""The pieces the runtime wires together inside ComfyUI, wired the same way for a benchmark."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memprobe.recording.ledger import Ledger
from memprobe.recording.tracker import Tracker
from memprobe.sensing.sensors import Sensors


@contextmanager
def traced_stack(folder: str) -> Iterator[tuple[Sensors, Tracker, Ledger]]:
    """Sensors, a tracker, and a ledger in ``folder`` whose writer records every run; the
    ledger is flushed and stopped on exit."""
    sensors = Sensors({"tmp": folder})
    tracker = Tracker(sensors)
    ledger = Ledger(Path(folder) / "ledger.sqlite3")
    ledger.open()
    ledger.start()
    tracker.subscribe(ledger.listener)
    try:
        yield sensors, tracker, ledger
    finally:
        ledger.flush()
        ledger.stop()
