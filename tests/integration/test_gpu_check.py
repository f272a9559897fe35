"""The GPU check's dry run (``benchmarks/gpu_check.py --dry-run``) on the CPU ComfyUI CI builds: every
step but the GPU ones runs — the environment, the ComfyUI, a server with Memory Probe, readings of a
run, exact per-node peaks of a known spike, each server's log read back by explain — the report is written, and it
exits 0. It keeps the
script ready for the day a GPU is lent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_gpu_checks_dry_run_goes_through_every_step_but_the_gpu_ones(comfy_install, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "gpu_check.py"),
            "--dry-run",
            "--out",
            str(out),
            "--work",
            str(tmp_path / "w"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = json.loads((out / "gpu_check.json").read_text(encoding="utf-8"))
    steps = report["steps"]
    assert report["dry_run"] is True
    assert {k: v["status"] for k, v in steps.items()} == {
        "environment": "ok",
        "comfyui": "ok",
        "readings": "ok",
        "exact_peaks": "ok",
        "decode_oom": "skipped (dry run)",
        "lowvram": "skipped (dry run)",
        "oom_texts": "skipped (dry run)",
        "logs": "ok",
    }
    assert steps["readings"]["run_status"] == "success" and steps["exact_peaks"]["caught"] == 5
    # each server's log comes back, read by explain: the prompts it ran, each completed
    assert sorted(p.name for p in out.glob("comfyui_*.log")) == ["comfyui_exact_peaks.log", "comfyui_readings.log"]
    read = steps["logs"]["read"]
    assert (read["readings"]["prompts_completed"], read["exact_peaks"]["prompts_completed"]) == (1, 5)
