"""The test harness's ComfyUI server (tests/comfy_server.py): a server that never answers during start-up is
stopped, not left running for the rest of the session (the GPU check's dry run, under load, once left one)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from comfy_server import ComfyInstall, ComfyServer


def test_a_server_that_never_answers_is_stopped_when_its_start_times_out(tmp_path: Path):
    root = tmp_path / "comfy"
    root.mkdir()
    (root / "main.py").write_text("import time\ntime.sleep(600)\n", encoding="utf-8")  # starts, never listens
    server = ComfyServer(ComfyInstall(root, Path(sys.executable)), tmp_path / "base", extensions=[])
    with pytest.raises(TimeoutError):
        server.start(timeout_s=1.5)
    assert server.process is not None and server.process.poll() is not None  # ended, not orphaned
