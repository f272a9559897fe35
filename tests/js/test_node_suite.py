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
    _serve_forecasts(served / "forecasts")
    env = {
        **os.environ,
        "MEMPROBE_TEMPLATES_DIR": str(Path(comfyui_workflow_templates.__file__).parent / "templates"),
        "MEMPROBE_VOCABULARY": str(vocabulary),
        "MEMPROBE_SERVED": str(served),
    }
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    proc = subprocess.run([node, "--test", *files], capture_output=True, text=True, env=env, timeout=300)
    summary = [line for line in proc.stdout.splitlines() if line.startswith(("# pass", "# fail", "# tests"))]
    failed = [block for block in proc.stdout.split("# Subtest:") if "\nnot ok " in block]
    assert proc.returncode == 0, "".join(failed)[-6000:] + proc.stderr[-2000:]
    counts = {line.split()[1]: int(line.split()[2]) for line in summary}
    assert counts["fail"] == 0 and counts["pass"] >= 90, summary


def _serve_forecasts(folder: Path) -> None:
    """Forecasts as ``POST /memprobe/forecast`` answers them, and a run with its kept forecast, from
    the real CPU ComfyUI's recorded runs and the header-only models (tests/fixtures/models)."""
    from memprobe.forecast.models import read_model
    from memprobe.forecast.service import ForecastService, run_summary

    runs = json.loads((FIXTURES / "runs" / "forecast_sizes_cpu.json").read_text(encoding="utf-8"))
    first = runs["512"]

    def lookup(ref):
        path = FIXTURES / "models" / ref.file
        return read_model(path) if path.exists() else None

    service = ForecastService(lookup, context=lambda: first["context"], readings=lambda: first["start_metrics"])
    folder.mkdir(parents=True, exist_ok=True)
    big = json.loads(json.dumps(first["prompt"]))
    big["5"]["inputs"].update(width=1920, height=1920)
    absent = json.loads(json.dumps(first["prompt"]))
    loader = next(n for n in absent.values() if n["class_type"] == "CheckpointLoaderSimple")
    loader["inputs"]["ckpt_name"] = "not_downloaded.safetensors"  # a workflow whose model is not on this machine
    for name, prompt in (("fits", first["prompt"]), ("wont_fit", big), ("unknown", absent)):
        (folder / f"{name}.json").write_text(json.dumps(service.now(prompt)), encoding="utf-8")
    run = enrich(json.loads((FIXTURES / "runs" / "txt2img.json").read_text(encoding="utf-8")))
    run["forecast"] = run_summary(service.now(run["prompt"]), run)
    (folder / "run_with_forecast.json").write_text(json.dumps(run), encoding="utf-8")
