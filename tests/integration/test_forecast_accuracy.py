"""The forecast in the real ComfyUI 0.3.64 (CPU, the tiny SD1.5 checkpoint): one 512² run teaches it;
then, forecast before each is queued (``POST /memprobe/forecast``, on the live readings and the models
loaded then), unseen sizes and batches — 768² x 2, 1024², a 2x latent upscale before the decode — are
within ±15 % of the per-stage peaks the run then measures (sampling: ±20 %), and the peak stage is named
right. Each run's document carries its forecast beside the measurement.

Sampling's margin is wider. At 768² x 2 it measured 1.0 to 19.3 % short over nine runs: glibc's heap
kept 80 to 190 MB that the 512² sampling had freed (``mallinfo2``), which the forecast learned as held
rather than as work, by a different amount each time. The forecast now leaves the free heap out of the
levels it learns from and lets the work fill it first (``memprobe.forecast.learn``): over four runs since,
8.3 to 15.5 % over — the spread from the heap is gone (7 points, was 18); what is left is the one factor
a batch-1 512² run teaches, applied to a batch of 2 (1024² x 1: within 0.2 to 6.5 %)."""

from __future__ import annotations

import time

import pytest
from comfy_server import load_workflow

CASES = {
    "768x2": {"5.width": 768, "5.height": 768, "5.batch_size": 2},
    "1024": {"5.width": 1024, "5.height": 1024},
    "512-latent-upscale-x2": {},
}
TOLERANCE_PCT = 15
SAMPLING_TOLERANCE_PCT = 20


def graph(case: str, seed: int) -> dict:
    prompt = load_workflow("txt2img", **CASES.get(case, {}), **{"3.seed": seed})
    if case == "512-latent-upscale-x2":
        prompt["10"] = {
            "class_type": "LatentUpscaleBy",
            "inputs": {"samples": ["3", 0], "upscale_method": "nearest-exact", "scale_by": 2.0},
        }
        prompt["8"]["inputs"]["samples"] = ["10", 0]
    return prompt


def kept_forecast(server, prompt_id: str, timeout_s: float = 30) -> dict:
    """The run's document once the judge has kept its forecast beside it."""
    deadline = time.monotonic() + timeout_s
    while True:
        doc = server.memprobe_run(prompt_id)
        if doc.get("forecast") or time.monotonic() > deadline:
            return doc
        time.sleep(0.3)


@pytest.fixture(scope="module")
def calibrated(make_server):
    server = make_server("forecast")
    prompt_id, history = server.run(graph("512", 1000), timeout_s=600)
    assert history["status"]["status_str"] == "success"
    first = kept_forecast(server, prompt_id)
    assert first["forecast"]["stages"], "the first run keeps its (untaught) forecast"
    return server


@pytest.mark.parametrize("case", list(CASES))
def test_unseen_sizes_are_forecast_within_15_percent_after_one_512_run(calibrated, case):
    server = calibrated
    prompt = graph(case, 2000 + list(CASES).index(case))
    status, before = server.request("POST", "/memprobe/forecast", {"prompt": prompt})
    assert status == 200, before
    prompt_id, history = server.run(prompt, timeout_s=900)
    assert history["status"]["status_str"] == "success"
    run = kept_forecast(server, prompt_id)
    measured = {stage: entry["peaks"].get("process_rss_bytes") for stage, entry in run["stages"].items()}
    errors = {}
    for stage in before["stages"]:
        got = measured.get(stage["stage"])
        if got:
            errors[stage["stage"]] = round(100 * (stage["peak_bytes"] - got) / got, 1)
    assert {"sampling", "vae-decode"} <= set(errors), errors
    limit = {"sampling": SAMPLING_TOLERANCE_PCT}
    assert all(abs(e) <= limit.get(stage, TOLERANCE_PCT) for stage, e in errors.items()), errors
    peak_stage = max(measured, key=lambda s: measured[s] or 0)
    assert before["peak"]["stage"] == peak_stage == "vae-decode"
    assert before["learned"], "the forecast used what the 512² run taught"
    # AND the run's own document carries its forecast beside what it measured
    kept = {row["stage"]: row for row in run["forecast"]["stages"]}
    assert kept["vae-decode"]["measured_bytes"] == measured["vae-decode"]
    assert abs(kept["vae-decode"]["error_pct"]) <= TOLERANCE_PCT
    print(f"forecast {case}: {errors}")  # noqa: T201 - the figures the closing note reports
