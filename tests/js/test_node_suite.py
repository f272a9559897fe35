"""Runs the JavaScript unit tests (``node --test tests/js``) against the pure modules of ``js/``,
with the real workflow templates, and fails with node's report when any JS test fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import comfyui_workflow_templates
import pytest

HERE = Path(__file__).parent


def test_javascript_units_pass():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node (Node.js 20+) is needed for the JavaScript tests")
    env = {**os.environ, "MEMPROBE_TEMPLATES_DIR": str(Path(comfyui_workflow_templates.__file__).parent / "templates")}
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    proc = subprocess.run([node, "--test", *files], capture_output=True, text=True, env=env, timeout=300)
    summary = [line for line in proc.stdout.splitlines() if line.startswith(("# pass", "# fail", "# tests"))]
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    counts = {line.split()[1]: int(line.split()[2]) for line in summary}
    assert counts["fail"] == 0 and counts["pass"] >= 90, summary
