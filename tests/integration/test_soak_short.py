"""The soak, short (the long one is ``benchmarks/soak.py``): 50 short prompts from two clients while
two pollers read what a panel reads, in the real ComfyUI with Memory Probe and a retention of 25 runs.
Every run is recorded with its status, the ledger keeps the 25 newest, no thread or file descriptor is
left behind, no route answers 5xx, and the run list stays quick."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _soak_module():
    spec = importlib.util.spec_from_file_location("memprobe_soak", ROOT / "benchmarks" / "soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fifty_short_prompts_leave_nothing_behind(make_server):
    soak = _soak_module()
    server = make_server("soak")
    assert server.request("POST", "/memprobe/config", {"retention_runs": 25})[0] == 200
    result = soak.soak(server, runs=50, clients=2, pollers=2, warmup=8, seed=70_000, extension=True)
    assert result["runs"] == result["succeeded"] == 50 and result["error_count"] == 0, result["errors"]
    assert result["ledger_runs_total"] == 25 and result["recorded_with_status"] == 25
    assert result["threads_growth"] <= 0 and result["fds_growth"] <= 2, result
    assert result["list_ms_p95"] < 500 and result["run_ms_p50"] < 500, result
