"""The run counters behind /memprobe/metrics, fed by the real tracker replaying recorded ComfyUI
traces: outcomes, first failures by kind and stage, fallbacks, stage peaks, the opt-in workflow
label and its bound."""

from __future__ import annotations

import pytest
from helpers import FakeClock, ScriptedSensors, load_json, read_trace, replay_trace

from memprobe.judging.run_end import RunEndJudge
from memprobe.judging.run_view import enrich
from memprobe.recording.runstats import MAX_WORKFLOWS, PEAK_BUCKETS_BYTES, STAGE_LABELS, RunStats, workflow_label
from memprobe.recording.tracker import Tracker
from memprobe.sensing.snapshot import GpuMemory
from memprobe.vocabulary import VERDICT_KINDS

GIB = 1024**3
TXT2IMG = load_json("comfyui-0.3.64/api-workflows/txt2img.json")
ERROR_RUNTIME = load_json("comfyui-0.3.64/api-workflows/error_runtime.json")
torch_oom = type("OutOfMemoryError", (RuntimeError,), {"__module__": "torch"})
# Comfy-Org/ComfyUI#2431, as ComfyUI reported it (tests/fixtures/error_texts.json)
ALLOCATION = next(
    c["message"] for c in load_json("error_texts.json")["cases"] if c["source"] == "Comfy-Org/ComfyUI#2431"
)
TILED_RETRY = "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding."


def system(t: float) -> dict:
    rss = 3 * GIB if 1.5 < t <= 17.39 else 2 * GIB  # the process grows while the recorded KSampler runs
    return {
        "ram_total_bytes": 32 * GIB,
        "ram_available_bytes": 20 * GIB,
        "commit_bytes": 14 * GIB,
        "commit_limit_bytes": 40 * GIB,
        "process_rss_bytes": rss,
    }


def gpus(t: float):
    used = int(11.5 * GIB) if 1.5 < t <= 17.39 else 5 * GIB
    return (
        GpuMemory(
            index=0,
            backend="cuda",
            name="NVIDIA GeForce RTX 3060",
            device_used_bytes=used,
            device_total_bytes=12 * GIB,
            torch_reserved_bytes=used // 2,
        ),
    )


@pytest.fixture
def setup():
    clock = FakeClock()
    tracker = Tracker(ScriptedSensors(clock, system, gpus), clock=clock)
    flags = {"workflow": False}
    stats = RunStats(lambda: flags["workflow"])
    tracker.subscribe(stats)
    judge = RunEndJudge()  # the counters render each run's verdict, judged off the worker thread
    judge.subscribe(stats)
    tracker.subscribe(judge)
    stats.flush = judge.flush
    return tracker, clock, stats, flags


def test_every_outcome_kind_stage_and_fallback_is_counted_from_zero():
    counts = RunStats().counts()
    assert counts["runs"] == {(o, ""): 0 for o in ("success", "error", "interrupted", "ended_abruptly")}
    assert len(counts["failures"]) == len(VERDICT_KINDS) * len(STAGE_LABELS) and set(counts["failures"].values()) == {0}
    assert {k[0] for k in counts["fallbacks"]} == {
        "tiled-vae-decode",
        "tiled-vae-encode",
        "attention-fallback",
        "vram-spill",
    }
    assert counts["gpu_peaks"] == {} and counts["ram_peaks"] == {}


def test_a_recorded_success_and_a_vram_failure_are_counted_once_each(setup):
    tracker, clock, stats, _ = setup
    replay_trace(tracker, clock, read_trace("txt2img"), TXT2IMG)
    run = replay_trace(tracker, clock, read_trace("error_runtime"), ERROR_RUNTIME, fail_with=torch_oom(ALLOCATION))
    assert stats.flush()
    counts = stats.counts()
    assert counts["runs"][("success", "")] == 1 and counts["runs"][("error", "")] == 1
    changed = {k: n for k, n in counts["failures"].items() if n}
    assert changed == {("vram", run.failure.stage, ""): 1}
    assert run.failure.node_id == "11"


def test_stage_peaks_are_one_observation_per_stage_and_run(setup):
    tracker, clock, stats, _ = setup
    replay_trace(tracker, clock, read_trace("txt2img"), TXT2IMG)
    assert stats.flush()
    counts = stats.counts()
    stages = {stage for stage, _ in counts["ram_peaks"]}
    assert {"load", "text-encode", "sampling", "vae-decode", "output"} <= stages
    buckets, total, count = counts["gpu_peaks"][("sampling", "0", "")]
    assert count == 1 and total == int(11.5 * GIB)
    le_12g = PEAK_BUCKETS_BYTES.index(12 * GIB)
    assert buckets[le_12g - 1] == 0 and buckets[le_12g] == 1 and buckets[-1] == 1  # 11.5 GiB lands in le=12 GiB
    _, ram_total, _ = counts["ram_peaks"][("sampling", "")]
    assert ram_total == 3 * GIB


def test_a_fallback_logged_during_decode_counts_at_that_stage(setup):
    tracker, clock, stats, _ = setup
    original = tracker.node_begin

    def node_begin(*args, **kwargs):
        node = original(*args, **kwargs)
        if node is not None and node.class_type == "VAEDecode":
            tracker.on_fallback("tiled-vae-decode", TILED_RETRY)
        return node

    tracker.node_begin = node_begin
    replay_trace(tracker, clock, read_trace("txt2img"), TXT2IMG)
    assert {k: n for k, n in stats.counts()["fallbacks"].items() if n} == {("tiled-vae-decode", "vae-decode", ""): 1}


def test_runs_a_dead_comfyui_left_behind_count_as_ended_abruptly():
    stats = RunStats()
    killed = load_json("runs/killed_mid_sampling.json")
    verdict = enrich(killed)["verdict"]
    stats.add_abrupt([verdict, None])
    counts = stats.counts()
    assert counts["runs"][("ended_abruptly", "")] == 2
    failure = killed["failure"]
    # an end nobody explained is "abrupt" in the verdict (its record says "other", without evidence)
    assert (failure["kind"], failure["abrupt"], verdict["kind"], verdict["stage"]) == (
        "other",
        True,
        "abrupt",
        "sampling",
    )
    assert counts["failures"][("abrupt", "sampling", "")] == 1


def test_the_workflow_label_is_opt_in_named_by_the_api_client_or_hashed_and_bounded(setup):
    tracker, clock, stats, flags = setup
    replay_trace(tracker, clock, read_trace("txt2img"), TXT2IMG)  # off: no label
    flags["workflow"] = True
    run = replay_trace(tracker, clock, read_trace("txt2img"), {**TXT2IMG})
    hashed = workflow_label(run)
    assert hashed.startswith("wf-") and len(hashed) == 11
    assert "watercolor" not in hashed  # no prompt text
    same_shape = {k: {**v, "inputs": {**v["inputs"], "seed": 1}} if k == "3" else v for k, v in TXT2IMG.items()}
    assert workflow_label(replay_trace(tracker, clock, read_trace("txt2img"), same_shape)) == hashed
    assert stats.flush()
    assert stats.counts()["runs"][("success", "")] == 1
    assert stats.counts()["runs"][("success", hashed)] == 2

    tracker.begin_run("named", prompt=TXT2IMG, context={"workflow_name": "portrait SDXL/v2"})
    tracker.end_run("named", "success")
    assert stats.flush()
    assert stats.counts()["runs"][("success", "portrait_SDXL_v2")] == 1

    for i in range(MAX_WORKFLOWS + 5):
        tracker.begin_run(f"r{i}", prompt=TXT2IMG, context={"workflow_name": f"job-{i}"})
        tracker.end_run(f"r{i}", "success")
    assert stats.flush()
    labels = {w for (_, w) in stats.counts()["runs"] if w}
    assert len(labels) == MAX_WORKFLOWS + 1 and "other" in labels
    assert stats.counts()["runs"][("success", "other")] == 7  # 2 of the 20 were taken before
