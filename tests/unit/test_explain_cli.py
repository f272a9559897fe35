"""`memprobe explain FILE|-`: text by default, `--json` with the documented keys, `--report` for the
shareable Markdown; exit code 0 whenever it ran, 2 when the file cannot be read."""

from __future__ import annotations

import io
import json
import sys

import pytest
from helpers import FIXTURES

from memprobe.cli import main

LOG = FIXTURES / "logs" / "rocm_apu_ksampler_docker.log"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["explain", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_json_and_report(capsys):
    code, text, _ = run(capsys, str(LOG))
    assert code == 0 and "First failure: GPU memory (VRAM) ran out [vram] — KSampler, stage sampling" in text
    code, out, _ = run(capsys, str(LOG), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["failure"]["node"]["class_type"] == "KSampler"
    assert doc["suggestions"][0]["id"] == "smaller-sampling" and doc["machine"]["os"] == "Linux"
    code, report, _ = run(capsys, str(LOG), "--report")
    assert code == 0 and report.startswith("# Memory Probe: explanation of a ComfyUI log") and "/root/" not in report


def test_standard_input_and_a_log_without_any_failure(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Starting server\nTo see the GUI go to: x\n")))
    code, out, _ = run(capsys, "-", "--json")
    assert code == 0 and json.loads(out)["failure"] is None


def test_an_unreadable_file_is_exit_code_2(capsys, tmp_path):
    code, out, err = run(capsys, str(tmp_path / "missing.log"))
    assert code == 2 and out == "" and "cannot read" in err


def test_json_and_report_are_exclusive(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["explain", str(LOG), "--json", "--report"])
    assert exc.value.code == 2
