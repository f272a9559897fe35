"""Runs the JavaScript unit tests (``node --test tests/js``) against the pure modules of ``js/``,
with the real workflow templates, and fails with node's report when any JS test fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import comfyui_workflow_templates
import pytest
from helpers import FIXTURES

from memprobe.judging.run_view import enrich
from memprobe.vocabulary import vocabulary_document

HERE = Path(__file__).parent


def test_javascript_units_pass(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node (Node.js 20+) is needed for the JavaScript tests")
    vocabulary = tmp_path / "vocabulary.json"  # the server's words, as the browser receives them
    vocabulary.write_text(json.dumps(vocabulary_document()), encoding="utf-8")
    served = tmp_path / "served"  # the recorded runs as the routes serve them: judged by the server
    for path in (FIXTURES / "runs").glob("*.json"):
        (served / "runs").mkdir(parents=True, exist_ok=True)
        doc = enrich(json.loads(path.read_text(encoding="utf-8")))
        (served / "runs" / path.name).write_text(json.dumps(doc), encoding="utf-8")
    env = {
        **os.environ,
        "MEMPROBE_TEMPLATES_DIR": str(Path(comfyui_workflow_templates.__file__).parent / "templates"),
        "MEMPROBE_VOCABULARY": str(vocabulary),
        "MEMPROBE_SERVED": str(served),
    }
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    proc = subprocess.run([node, "--test", *files], capture_output=True, text=True, env=env, timeout=300)
    summary = [line for line in proc.stdout.splitlines() if line.startswith(("# pass", "# fail", "# tests"))]
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    counts = {line.split()[1]: int(line.split()[2]) for line in summary}
    assert counts["fail"] == 0 and counts["pass"] >= 90, summary
