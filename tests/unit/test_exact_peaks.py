"""Exact and sampled peaks in recorded runs (real ComfyUI 0.3.64 with this Memory Probe, see
tests/fixtures/runs/SOURCES.md): what each node records, what the stage summary and the report
make of it."""

from __future__ import annotations

from helpers import load_json

from memprobe.judging.runfacts import stage_summary
from memprobe.output.markdown import report_md as render_report_md
from memprobe.output.report import build_report

MIB = 1024**2


def _window_max(doc: dict, node: dict, metric: str) -> int:
    t, column = doc["timeline"]["t"], doc["timeline"]["series"][metric]
    return max(v for x, v in zip(t, column, strict=True) if v is not None and node["start_s"] <= x <= node["end_s"])


def test_the_checkpoint_loaders_rss_peak_came_and_went_between_two_readings():
    doc = load_json("runs/txt2img_exact_peaks.json")
    nodes = {n["node_id"]: n for n in doc["nodes"]}
    loader = nodes["4"]
    # GIVEN the loader's RSS peak from the kernel's counter, and the 10 Hz sampler's readings
    assert loader["exact_peaks"] == ["process_rss_bytes"]
    # THEN the counter saw 300 MiB more than any reading did
    assert loader["peaks"]["process_rss_bytes"] - _window_max(doc, loader, "process_rss_bytes") > 300 * MIB
    # AND every node that ran has an exact RSS peak; machine RAM and commit, which Linux keeps no
    # peak of, are sampled everywhere
    assert all("process_rss_bytes" in n["exact_peaks"] for n in doc["nodes"])
    assert not any({"ram_used_bytes", "commit_bytes"} & set(n["exact_peaks"]) for n in doc["nodes"])


def test_a_160_mib_spike_freed_at_once_is_recorded_within_a_few_pages():
    doc = load_json("runs/spike_160mib.json")
    (node,) = doc["nodes"]
    truth = doc["_truth"]  # what the node itself read at the top of its spike
    assert 160 * MIB <= truth["rss_top"][0] - truth["rss_before"][0] < 161 * MIB  # plus malloc's header page
    # the kernel's RSS counters are per CPU and summed lazily: the two figures differ by a few pages
    assert abs(node["peaks"]["process_rss_bytes"] - truth["rss_top"][0]) < MIB
    assert node["exact_peaks"] == ["process_rss_bytes"]
    assert node["after"]["process_rss_bytes"] < truth["rss_top"][0] - 150 * MIB


def test_a_stage_peak_is_exact_when_the_node_that_set_it_had_it_exact():
    stages = stage_summary(load_json("runs/txt2img_exact_peaks.json"))
    assert stages["load"]["exact"] == ["process_rss_bytes"] and stages["vae-decode"]["exact"] == ["process_rss_bytes"]
    # a run recorded before peak counters: everything sampled
    assert all(s["exact"] == [] for s in stage_summary(load_json("runs/txt2img.json")).values())


def test_the_report_marks_sampled_peaks():
    exact = render_report_md(build_report(load_json("runs/txt2img_exact_peaks.json")))
    older = render_report_md(build_report(load_json("runs/txt2img.json")))
    loader_row = next(line for line in exact.splitlines() if line.startswith("| load |"))
    # RAM in use and commit are sampled (≥); ComfyUI's RSS is exact
    assert loader_row.count("≥") == 2 and "| 1.7 GiB |" in loader_row
    assert next(line for line in older.splitlines() if line.startswith("| load |")).count("≥") == 3
    assert "≥: a sampled peak" in exact
    built = build_report(load_json("runs/txt2img_exact_peaks.json"))
    assert built["memory"]["by_stage"]["sampling"]["exact_peaks"] == ["process_rss_bytes"]
