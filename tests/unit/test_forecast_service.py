"""The forecast inside a running ComfyUI (``memprobe.forecast.service``): a graph forecast now on the
live readings, and each ended run keeping its forecast beside its measurement and teaching the next
— here with the real CPU ComfyUI's recorded runs (tests/fixtures/runs/forecast_sizes_cpu.json)."""

from __future__ import annotations

import json

import pytest
from helpers import FIXTURES

from memprobe.forecast.service import BadGraph, ForecastService, check_graph

RUNS = json.loads((FIXTURES / "runs" / "forecast_sizes_cpu.json").read_text(encoding="utf-8"))


def lookup(ref):
    from memprobe.forecast.models import read_model

    path = FIXTURES / "models" / ref.file
    return read_model(path) if path.exists() else None


class MemoryLedger:
    """The two ledger calls the service makes, kept in memory."""

    def __init__(self) -> None:
        self.kept: dict[str, dict] = {}
        self.rows: list[tuple[float, dict]] = []

    def keep(self, run_id, started_at, summary, rows):
        self.kept[run_id] = summary
        self.rows += [(started_at, r) for r in rows]

    def taught(self, device, before):
        rows = sorted(self.rows, key=lambda x: -x[0])
        return [{**r, "started_at": t} for t, r in rows if r["device"] == device and (before is None or t < before)]


def service(ledger: MemoryLedger, run: dict) -> ForecastService:
    return ForecastService(
        lookup,
        context=lambda: run["context"],
        readings=lambda: run["start_metrics"],
        models=lambda: run["models_start"],
        taught=ledger.taught,
        keep=ledger.keep,
    )


def test_each_run_keeps_its_forecast_and_teaches_the_next():
    # GIVEN the first 512² run of a fresh ComfyUI, judged: it keeps its (untaught) forecast, and teaches
    ledger = MemoryLedger()
    first = {**RUNS["512"], "started_at": 1.0}
    service(ledger, first).run_judged(None, first)
    assert first["forecast"]["verdict"] == "fits" and ledger.kept[first["id"]] is first["forecast"]
    assert {r["stage"] for _, r in ledger.rows} >= {"sampling", "vae-decode"}
    # WHEN the 1024² run is forecast before it starts (on its own start readings)
    run = {**RUNS["1024"], "started_at": 2.0}
    svc = service(ledger, run)
    now = svc.now(run["prompt"])
    # THEN its stages are within 15 % of what it then measured, and the run keeps that comparison
    svc.run_judged(None, run)
    rows = {r["stage"]: r for r in run["forecast"]["stages"]}
    assert abs(rows["vae-decode"]["error_pct"]) <= 15 and abs(rows["sampling"]["error_pct"]) <= 15
    assert now["peak"]["stage"] == "vae-decode" and now["stages"][0].keys() >= {
        "stage",
        "node_ids",
        "metric",
        "peak_bytes",
        "system_bytes",
        "offloaded_bytes",
        "verdict",
    }
    assert run["forecast"]["largest_error_pct"] == max(
        (r["error_pct"] for r in run["forecast"]["stages"] if r["error_pct"] is not None), key=abs
    )


def test_a_run_never_learns_from_itself():
    # the forecast a run keeps uses only what runs before it taught
    ledger = MemoryLedger()
    run = {**RUNS["512"], "started_at": 5.0}
    service(ledger, run).run_judged(None, run)
    again = {**RUNS["512"], "started_at": 5.0}
    service(ledger, again).run_judged(None, again)
    assert again["forecast"]["stages"] == run["forecast"]["stages"]


def test_a_what_if_machine_and_bad_graphs():
    ledger = MemoryLedger()
    svc = service(ledger, RUNS["512"])
    doc = svc.now(RUNS["512"]["prompt"], {"device": "cuda", "vram_total_bytes": 8 * 1024**3})
    assert doc["metric"] == "gpu0_used_bytes" and doc["machine"]["measured"] is False
    for bad in (None, {}, [], {"1": {"inputs": {}}}, {str(i): {"class_type": "X"} for i in range(6000)}):
        with pytest.raises(BadGraph):
            check_graph(bad)


def test_a_model_file_that_cannot_be_read_costs_that_model_only():
    def broken(ref):
        raise OSError("disk gone")

    svc = ForecastService(broken, context=lambda: RUNS["512"]["context"], readings=lambda: RUNS["512"]["start_metrics"])
    doc = svc.now(RUNS["512"]["prompt"])
    assert doc["verdict"] and any("disk gone" in u for u in doc["unknown"])


def test_a_fault_in_the_forecast_costs_the_forecast_only(caplog, monkeypatch):
    import memprobe.forecast.service as service_mod

    monkeypatch.setattr(service_mod, "forecast", lambda *a, **k: 1 / 0)
    ledger = MemoryLedger()
    run = dict(RUNS["512"])
    service(ledger, run).run_judged(None, run)
    assert "forecast" not in run and ledger.kept == {} and "could not forecast" in caplog.text
