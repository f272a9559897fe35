"""Fixtures the unit tests share."""

from __future__ import annotations

import pytest

from memprobe.recording.ledger import Ledger


@pytest.fixture
def ledger(tmp_path):
    ledger = Ledger(tmp_path / "memprobe" / "ledger.sqlite3")
    ledger.open()
    ledger.start()
    yield ledger
    ledger.stop()
