"""The tracker assembles runs from what the hooks, sampler, probes and log report."""

from __future__ import annotations

import pytest
from helpers import FakeClock, ScriptedSensors, load_json, read_trace, replay_trace

from memprobe._log import reset_warnings
from memprobe.listener import TrackerListener
from memprobe.records import RunRecord
from memprobe.snapshot import GpuMemory
from memprobe.tracker import Tracker

GIB = 1024**3
PROMPT = load_json("comfyui-0.3.64/api-workflows/txt2img.json")


def ram_profile(t: float) -> dict:
    """RAM fills while sampling (t 1..10) and peaks at decode (t 12)."""
    used = 2 * GIB + (3 * GIB if 1 <= t <= 10 else 0) + (4 * GIB if 11.5 <= t <= 12.5 else 0)
    return {"ram_total_bytes": 32 * GIB, "ram_available_bytes": 32 * GIB - used, "commit_bytes": used + GIB,
            "commit_limit_bytes": 40 * GIB, "process_rss_bytes": used // 2}


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def tracker(clock):
    return Tracker(ScriptedSensors(clock, ram_profile), clock=clock)


class Collector(TrackerListener):
    def __init__(self):
        self.calls = []

    def run_started(self, run):
        self.calls.append("run_started")

    def node_finished(self, run, node, doc):
        self.calls.append(f"node:{node.node_id}:{node.status}")

    def samples_added(self, run, timeline):
        self.calls.append(f"samples:{len(timeline['t'])}")

    def run_finished(self, run):
        self.calls.append(f"run_finished:{run.status}")


def test_a_run_of_nodes_with_sampler_peaks(tracker, clock):
    collector = Collector()
    tracker.subscribe(collector)
    tracker.begin_run("r1", prompt=PROMPT, context={"comfyui_version": "0.3.64"})
    sampler = tracker.node_begin("r1", "3", "KSampler")
    for t in (2.0, 5.0, 9.0):
        clock.t = t
        tracker.on_sample(t, {"ram_used_bytes": ram_profile(t)["ram_total_bytes"] - ram_profile(t)["ram_available_bytes"]})
    clock.t = 11.0
    tracker.node_end(sampler)
    decode = tracker.node_begin("r1", "8", "VAEDecode")
    clock.t = 12.0
    tracker.on_sample(12.0, {"ram_used_bytes": 6 * GIB})
    clock.t = 13.0
    tracker.node_end(decode)
    run = tracker.end_run("r1", "success", cached=["4", "6", "7", "5"])

    assert run.status == "success" and tracker.current is None and tracker.last is run
    assert [(n.node_id, n.stage, n.status) for n in run.nodes] == [
        ("3", "sampling", "ran"), ("8", "vae-decode", "ran"),
        ("4", "load", "cached"), ("6", "text-encode", "cached"), ("7", "text-encode", "cached"), ("5", "other", "cached")]
    assert run.nodes[0].title == "KSampler" and run.nodes[2].title == "Load Checkpoint"
    assert run.nodes[0].peaks["ram_used_bytes"] == 5 * GIB       # seen only by the sampler
    assert run.nodes[1].peaks["ram_used_bytes"] == 6 * GIB
    assert run.nodes[0].duration_s == 11.0
    assert run.nodes[2].before is None and run.nodes[2].peaks == {}  # cached: no memory attributed
    assert len(run.samples) == 4
    assert collector.calls[0] == "run_started" and collector.calls[-1] == "run_finished:success"
    assert sum(c.startswith("samples:") and c != "samples:0" for c in collector.calls) >= 1


def test_the_first_failure_is_the_cause_and_later_ones_consequences(tracker, clock):
    tracker.begin_run("r2", prompt=PROMPT)
    node = tracker.node_begin("r2", "8", "VAEDecode")
    clock.t = 1
    tracker.node_failed(node, MemoryError())
    other = tracker.node_begin("r2", "9", "SaveImage")
    tracker.node_failed(other, OSError(28, "No space left on device"))
    run = tracker.end_run("r2", "error", error={"node_id": "8", "exception_type": "MemoryError", "exception_message": ""})
    first, second = run.failures
    assert (first.node_id, first.stage, first.kind, first.consequence) == ("8", "vae-decode", "system-ram", False)
    assert (second.kind, second.consequence) == ("disk", True)
    assert first.snapshot["system"]["ram_total_bytes"] == 32 * GIB
    assert run.nodes[0].error == {"exception_type": "MemoryError", "message": "", "kind": "system-ram"}


def test_an_error_the_hook_never_saw_is_taken_from_comfyuis_report(tracker):
    tracker.begin_run("r3", prompt=PROMPT)
    run = tracker.end_run("r3", "error", error={"node_id": "3", "node_type": "KSampler",
                                               "exception_type": "torch.OutOfMemoryError",
                                               "exception_message": "Allocation on device "})
    assert (run.failure.node_id, run.failure.class_type, run.failure.kind) == ("3", "KSampler", "vram")


def test_an_interrupt_is_not_a_failure(tracker):
    class InterruptProcessingException(Exception):
        pass

    tracker.begin_run("r4")
    node = tracker.node_begin("r4", "3", "KSampler")
    tracker.node_failed(node, InterruptProcessingException())
    run = tracker.end_run("r4", "interrupted")
    assert run.nodes[0].status == "interrupted" and run.failures == [] and run.status == "interrupted"


def test_nodes_without_a_run_hook_open_a_run_implicitly(tracker):
    node = tracker.node_begin("orphan", "1", "KSampler")
    assert tracker.current.id == "orphan" and node.seq == 1


def test_a_new_run_closes_a_run_whose_end_was_never_reported(tracker):
    tracker.begin_run("a")
    tracker.begin_run("b")
    assert tracker.last.id == "a" and tracker.last.status == "interrupted" and tracker.current.id == "b"
    assert tracker.begin_run("b") is tracker.current  # same id again: the same run


def test_async_pending_node_stays_open_until_its_work_ends(tracker, clock):
    tracker.begin_run("r5")
    node = tracker.node_begin("r5", "12", "AsyncNode")
    tracker.node_end(node, pending=True)
    assert node.status == "pending"
    clock.t = 4
    tracker.on_sample(4, {"process_rss_bytes": 9 * GIB})
    tracker.node_end(node)
    assert node.status == "ran" and node.peaks["process_rss_bytes"] == 9 * GIB and node.end_s == 4


def test_fallback_log_lines_mark_the_running_node(tracker):
    tracker.begin_run("r6")
    decode = tracker.node_begin("r6", "8", "VAEDecode")
    tracker.on_fallback("tiled-vae-decode", "Warning: Ran out of memory when regular VAE decoding, retrying ...")
    tracker.node_end(decode)
    run = tracker.end_run("r6", "success")
    assert decode.fallbacks == ["tiled-vae-decode"]
    assert [(e.kind, e.node_id) for e in run.events] == [("tiled-vae-decode", "8")]


def test_a_vram_spill_into_shared_memory_is_detected(clock):
    def gpus(t):
        shared = 3 * GIB if t >= 2 else 0
        return (GpuMemory(index=0, backend="cuda", device_used_bytes=int(7.9 * GIB), device_total_bytes=8 * GIB,
                          shared_used_bytes=shared),)

    tracker = Tracker(ScriptedSensors(clock, ram_profile, gpus), clock=clock)
    tracker.begin_run("r7")
    node = tracker.node_begin("r7", "8", "VAEDecode")
    clock.t = 3
    tracker.node_end(node)
    run = tracker.end_run("r7", "success")
    assert node.fallbacks == ["vram-spill"]
    assert run.events[0].kind == "vram-spill" and "3072 MiB" in run.events[0].message


def test_probe_marks_belong_to_the_running_run(tracker, clock):
    tracker.begin_run("r8")
    clock.t = 2.5
    mark = tracker.add_mark("after load", "20")
    run = tracker.end_run("r8", "success")
    assert run.marks == [mark] and mark.t_s == 2.5 and "RAM" in mark.summary and mark.node_id == "20"


def test_failing_sensors_never_raise_into_the_workflow(clock, caplog):
    reset_warnings()
    tracker = Tracker(ScriptedSensors(clock, fail=True), clock=clock)
    assert tracker.begin_run("r9") is None
    assert tracker.node_begin("r9", "1", "KSampler") is None
    tracker.node_end(None)
    tracker.node_failed(None, MemoryError())
    assert tracker.add_mark("x") is None
    assert any("internal error in begin_run" in r.message for r in caplog.records)


def test_a_failing_listener_does_not_silence_the_others(tracker):
    class Broken(TrackerListener):
        def run_started(self, run):
            raise RuntimeError("listener bug")

    good = Collector()
    tracker.subscribe(Broken())
    tracker.subscribe(good)
    tracker.begin_run("r10")
    assert good.calls == ["run_started"]


@pytest.mark.parametrize(("trace", "workflow"), [("txt2img", "txt2img"), ("txt2img_tiled", "txt2img_tiled")])
def test_replay_of_recorded_successful_runs(tracker, clock, trace, workflow):
    prompt = load_json(f"comfyui-0.3.64/api-workflows/{workflow}.json")
    run: RunRecord = replay_trace(tracker, clock, read_trace(trace), prompt)
    history = load_json(f"comfyui-0.3.64/history/{trace}.json")
    assert run.status == "success" and history["status"]["status_str"] == "success"
    executed = [e["data"]["node"] for e in read_trace(trace) if e["type"] == "executing" and e["data"]["node"]]
    assert [n.node_id for n in run.nodes] == executed and len(executed) == 7
    assert {n.node_id: n.stage for n in run.nodes}["8"] == "vae-decode"
    sampling = next(n for n in run.nodes if n.stage == "sampling")
    assert sampling.duration_s > 5  # the recorded KSampler took seconds on this CPU


def test_replay_of_the_recorded_error_names_the_failing_node(tracker, clock):
    prompt = load_json("comfyui-0.3.64/api-workflows/error_runtime.json")
    run = replay_trace(tracker, clock, read_trace("error_runtime"), prompt)
    assert run.status == "error"
    assert (run.failure.node_id, run.failure.class_type, run.failure.kind) == ("11", "LatentBlend", "other")
    assert run.nodes[-1].status == "failed" and run.nodes[-1].title.startswith("LatentBlend")
