"""Two real ComfyUI instances with Memory Probe, scraped by a real Prometheus (Debian's package,
started here on 127.0.0.1 with a temporary configuration and data folder). Through Prometheus'
HTTP API: every series exists for each instance, and a failing run moves the failure counter of
its instance by exactly one, with the kind and stage Memory Probe recorded for it. The exposition
passes `promtool check metrics`; the README's configuration and alert rules load; every query of
the Grafana dashboard is valid PromQL over the real data."""

from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from comfy_server import REPO, ComfyServer, load_workflow
from prometheus_server import PrometheusServer, find_prometheus

from memprobe.recording.runstats import STAGE_LABELS
from memprobe.vocabulary import VERDICT_KINDS

SERIES_PER_INSTANCE = len(VERDICT_KINDS) * len(STAGE_LABELS)  # every kind x stage, from zero

REQUIRED = os.environ.get("MEMPROBE_REQUIRE_PROMETHEUS") == "1"
SMALL = {"5.width": 256, "5.height": 256}
FAILURES = 'memprobe_run_failures_total{job="comfyui"}'


def readme_block(marker: str) -> str:
    """The fenced block after ``<!-- prometheus: marker -->`` in the README."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"<!-- prometheus: {re.escape(marker)} -->\n```yaml\n(.*?)```", text, re.S)
    assert match, f"README.md has no '{marker}' block"
    return match.group(1)


@pytest.fixture(scope="module")
def tools() -> tuple[str, str]:
    found = find_prometheus()
    if isinstance(found, str):
        if REQUIRED:
            pytest.fail(found)
        pytest.skip(found)
    return found


@pytest.fixture(scope="module")
def fleet(make_server, tools, tmp_path_factory) -> Iterator[tuple[PrometheusServer, ComfyServer, ComfyServer]]:
    """Two ComfyUIs and a Prometheus scraping them every second; all stopped at the end."""
    a, b = make_server("comfy-a"), make_server("comfy-b")
    base = tmp_path_factory.mktemp("prometheus")
    (base / "memprobe-alerts.yml").write_text(readme_block("alert rules"), encoding="utf-8")
    config = f"""
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: [memprobe-alerts.yml]
scrape_configs:
  - job_name: comfyui
    metrics_path: /memprobe/metrics
    static_configs:
      - targets: ["127.0.0.1:{a.port}", "127.0.0.1:{b.port}"]
"""
    prometheus = PrometheusServer(tools[0], base, config)
    try:
        prometheus.start()
        yield prometheus, a, b
    finally:
        prometheus.stop()
        a.stop()
        b.stop()


def instance(server: ComfyServer) -> str:
    return f"127.0.0.1:{server.port}"


def test_both_instances_are_scraped_and_every_series_exists_per_instance(fleet):
    prometheus, a, b = fleet
    both = {instance(a), instance(b)}
    prometheus.wait_for(
        lambda: set(prometheus.values('up{job="comfyui"} == 1', "instance")) == {(i,) for i in both},
        60,
        "both ComfyUIs to be up in Prometheus",
    )
    for name in (
        "memprobe_ram_used_bytes",
        "memprobe_ram_total_bytes",
        "memprobe_commit_bytes",
        "memprobe_commit_limit_bytes",
        "memprobe_swap_used_bytes",
        "memprobe_swap_total_bytes",
        "memprobe_process_resident_bytes",
        "memprobe_process_private_bytes",
        "memprobe_reading_timestamp_seconds",
        "memprobe_tracing_enabled",
        "memprobe_run_active",
        "memprobe_build_info",
        "memprobe_cpu_seconds_total",
        "memprobe_process_cpu_seconds_total",
    ):
        got = prometheus.wait_for(lambda n=name: prometheus.values(n, "instance"), 10, name)
        assert set(got) == {(i,) for i in both}, name
    rss = prometheus.values("memprobe_process_resident_bytes", "instance")
    assert all(v > 200 * 1024**2 for v in rss.values())  # a real ComfyUI with torch loaded
    # this machine (Linux, overcommit mode 0) is judged by RAM + swap, not by the commit limit
    limits = prometheus.values("memprobe_enforced_limit_bytes", "instance", "limit")
    mode = int(Path("/proc/sys/vm/overcommit_memory").read_text())
    assert {k[1] for k in limits} == {"commit" if mode == 2 else "ram+swap"} and len(limits) == 2
    info = prometheus.query("memprobe_build_info")
    assert {r["metric"]["comfyui_version"] for r in info} == {a.install.version}
    failures = prometheus.values(FAILURES, "instance", "kind", "stage")
    assert len(failures) == 2 * SERIES_PER_INSTANCE and set(failures.values()) == {0.0}  # every kind x stage, from zero
    assert set(prometheus.values('memprobe_runs_total{job="comfyui"}', "instance", "status")) == {
        (i, s) for i in both for s in ("success", "error", "interrupted", "ended_abruptly")
    }


def test_a_failing_run_moves_its_instances_failure_counter_by_exactly_one(fleet):
    prometheus, a, b = fleet
    prometheus.wait_for(
        lambda: len(prometheus.values(FAILURES, "instance", "kind", "stage")) == 2 * SERIES_PER_INSTANCE,
        60,
        "the failure counters of both instances",
    )
    errors = f'memprobe_runs_total{{instance="{instance(a)}",status="error"}}'
    peaks_b = f'memprobe_stage_peak_process_resident_bytes_count{{instance="{instance(b)}"}}'
    before = prometheus.values(FAILURES, "instance", "kind", "stage")
    errors_before = prometheus.values(errors)[()]
    peaks_b_before = prometheus.values(peaks_b, "stage")

    prompt_id, history = a.run(load_workflow("error_runtime"))
    assert history["status"]["status_str"] == "error"
    failure = a.memprobe_run(prompt_id)["failure"]
    assert (failure["node_id"], failure["class_type"], failure["kind"]) == ("11", "LatentBlend", "other")

    prometheus.wait_for(
        lambda: prometheus.values(errors).get(()) == errors_before + 1, 30, "Prometheus to scrape the error run"
    )
    after = prometheus.values(FAILURES, "instance", "kind", "stage")
    moved = {key: after[key] - before[key] for key in after if after[key] != before.get(key)}
    assert moved == {(instance(a), "other", failure["stage"]): 1.0}
    assert failure["stage"] == "other"  # LatentBlend (category "_for_testing") is in no named stage
    # the stage peaks of that run (the nodes that ran before the failure) reached Prometheus too, for A only
    peaks = prometheus.values(f'memprobe_stage_peak_process_resident_bytes_count{{instance="{instance(a)}"}}', "stage")
    assert {("load",), ("text-encode",), ("sampling",)} <= set(peaks)
    assert prometheus.values(peaks_b, "stage") == peaks_b_before


def test_a_successful_run_counts_on_its_own_instance_only(fleet):
    prometheus, a, b = fleet
    success = 'memprobe_runs_total{{instance="{}",status="success"}}'
    prometheus.wait_for(lambda: prometheus.values(success.format(instance(b))), 30, "the success counter of B")
    before_a = prometheus.values(success.format(instance(a)))[()]
    before_b = prometheus.values(success.format(instance(b)))[()]
    _, history = b.run(load_workflow("txt2img", **SMALL))
    assert history["status"]["status_str"] == "success"
    prometheus.wait_for(
        lambda: prometheus.values(success.format(instance(b))).get(()) == before_b + 1,
        30,
        "Prometheus to scrape the successful run",
    )
    assert prometheus.values(success.format(instance(a)))[()] == before_a
    decode = prometheus.values(f'memprobe_stage_peak_process_resident_bytes_sum{{instance="{instance(b)}"}}', "stage")
    assert decode[("vae-decode",)] > 200 * 1024**2


def scrape(server: ComfyServer) -> bytes:
    with urllib.request.urlopen(server.url + "/memprobe/metrics", timeout=10) as resp:
        assert resp.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return resp.read()


def test_promtool_accepts_the_real_exposition(fleet, tools):
    _, a, _ = fleet
    body = scrape(a)
    if b"memprobe_stage_peak_process_resident_bytes_bucket" not in body:  # run alone: make A run once
        a.run(load_workflow("error_runtime"))
        body = scrape(a)
    assert b"memprobe_stage_peak_process_resident_bytes_bucket" in body
    result = subprocess.run([tools[1], "check", "metrics"], input=body, capture_output=True, timeout=30)
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    with urllib.request.urlopen(a.url + "/api/memprobe/metrics", timeout=10) as resp:  # ComfyUI's /api mirror
        assert resp.status == 200


def test_the_readmes_configuration_and_alert_rules_are_valid_and_loaded(fleet, tools, tmp_path):
    prometheus, *_ = fleet
    (tmp_path / "prometheus.yml").write_text(readme_block("prometheus.yml"), encoding="utf-8")
    (tmp_path / "memprobe-alerts.yml").write_text(readme_block("alert rules"), encoding="utf-8")
    check = subprocess.run(
        [tools[1], "check", "config", "prometheus.yml"], cwd=tmp_path, capture_output=True, timeout=30
    )
    assert check.returncode == 0, check.stdout.decode() + check.stderr.decode()

    def evaluated():
        groups = prometheus.api("rules")["groups"]
        rules = [r for g in groups for r in g["rules"]]
        return rules if rules and all(r.get("lastEvaluation", "").startswith("20") for r in rules) else None

    rules = prometheus.wait_for(evaluated, 30, "the alert rules to be evaluated")
    assert {r["name"] for r in rules} >= {"ComfyUIMemoryNearItsLimit", "ComfyUIVRAMFailure", "ComfyUIEndedAbruptly"}
    assert all(r["health"] == "ok" for r in rules), rules


def test_every_dashboard_query_is_valid_promql_over_the_real_series(fleet):
    prometheus, a, b = fleet
    dashboard = json.loads((REPO / "docs" / "grafana" / "memprobe.json").read_text(encoding="utf-8"))
    panels = [p for p in dashboard["panels"] if p["type"] != "row"]
    grafana = {"$instance": ".*", "$stage": ".*", "$__rate_interval": "1m", "$__range": "10m"}
    answered = 0
    for panel in panels:
        for target in panel["targets"]:
            expr = target["expr"]
            for variable, value in grafana.items():
                expr = expr.replace(variable, value)
            result = prometheus.query(expr)  # raises on invalid PromQL
            answered += bool(result)
    assert answered >= len(panels) // 2  # the GPU panels are empty on this CPU machine
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            query = variable["query"]["query"]
            metric, label = re.fullmatch(r"label_values\((\w+), (\w+)\)", query).groups()
            values = prometheus.api("label/" + label + "/values", **{"match[]": metric})
            assert values, query
