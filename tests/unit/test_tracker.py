"""The tracker assembles runs from what the hooks, sampler, probes and log report."""

from __future__ import annotations

import pytest
from helpers import FakeClock, ScriptedSensors, load_json, read_trace, replay_trace

from memprobe._log import reset_warnings
from memprobe.recording.listener import TrackerListener
from memprobe.recording.records import RunRecord
from memprobe.recording.tracker import Tracker
from memprobe.sensing.snapshot import GpuMemory

GIB = 1024**3
PROMPT = load_json("comfyui-0.3.64/api-workflows/txt2img.json")


def ram_profile(t: float) -> dict:
    """RAM fills while sampling (t 1..10) and peaks at decode (t 12)."""
    used = 2 * GIB + (3 * GIB if 1 <= t <= 10 else 0) + (4 * GIB if 11.5 <= t <= 12.5 else 0)
    return {
        "ram_total_bytes": 32 * GIB,
        "ram_available_bytes": 32 * GIB - used,
        "commit_bytes": used + GIB,
        "commit_limit_bytes": 40 * GIB,
        "process_rss_bytes": used // 2,
    }


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
        tracker.on_sample(
            t, {"ram_used_bytes": ram_profile(t)["ram_total_bytes"] - ram_profile(t)["ram_available_bytes"]}
        )
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
        ("3", "sampling", "ran"),
        ("8", "vae-decode", "ran"),
        ("4", "load", "cached"),
        ("6", "text-encode", "cached"),
        ("7", "text-encode", "cached"),
        ("5", "other", "cached"),
    ]
    assert run.nodes[0].title == "KSampler" and run.nodes[2].title == "Load Checkpoint"
    assert run.nodes[0].peaks["ram_used_bytes"] == 5 * GIB  # seen only by the sampler
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
    run = tracker.end_run(
        "r2", "error", error={"node_id": "8", "exception_type": "MemoryError", "exception_message": ""}
    )
    first, second = run.failures
    assert (first.node_id, first.stage, first.kind, first.consequence) == ("8", "vae-decode", "system-ram", False)
    assert (second.kind, second.consequence) == ("disk", True)
    assert first.snapshot["system"]["ram_total_bytes"] == 32 * GIB
    assert run.nodes[0].error == {"exception_type": "MemoryError", "message": "", "kind": "system-ram"}


def test_an_error_the_hook_never_saw_is_taken_from_comfyuis_report(tracker):
    tracker.begin_run("r3", prompt=PROMPT)
    run = tracker.end_run(
        "r3",
        "error",
        error={
            "node_id": "3",
            "node_type": "KSampler",
            "exception_type": "torch.OutOfMemoryError",
            "exception_message": "Allocation on device ",
        },
    )
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
        return (
            GpuMemory(
                index=0,
                backend="cuda",
                device_used_bytes=int(7.9 * GIB),
                device_total_bytes=8 * GIB,
                shared_used_bytes=shared,
            ),
        )

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


class Process:
    """A process's RSS over time, with the peak counters an OS keeps of it: ``since="node"``
    restarts at each node start (Linux ``VmHWM`` via clear_refs), ``since="start"`` counts since the
    process started (Windows ``PeakWorkingSetSize``). ``rss`` maps times to RSS; between two
    times the RSS stays; every point counts for the counter, readings only see the times read."""

    def __init__(self, clock, rss: dict[float, int], since: str) -> None:
        self.clock, self.rss, self.since = clock, sorted(rss.items()), since
        self.counted_from = -1.0
        self.counter = 0

    def at(self, t: float) -> int:
        return [v for when, v in self.rss if when <= t][-1]

    def read(self, t: float) -> dict:
        self.counter = max([self.counter] + [v for when, v in self.rss if self.counted_from < when <= t])
        self.counted_from = t
        return {
            "process_rss_bytes": self.at(t),
            "process_peak_rss_bytes": max(self.counter, self.at(t)),
            "ram_total_bytes": 32 * GIB,
            "ram_available_bytes": 32 * GIB - self.at(t),
        }

    def sensors(self, **kwargs) -> ScriptedSensors:
        process = self

        class Sensors(ScriptedSensors):
            def reset_peaks(self, *, rss: bool = True):
                if process.since == "node" and rss:
                    process.read(process.clock())
                    process.counter = process.at(process.clock())
                return super().reset_peaks(rss=rss)

        resettable = frozenset({"process_rss_bytes"}) if self.since == "node" else frozenset()
        return Sensors(self.clock, self.read, resettable=resettable, **kwargs)


def sample(tracker, clock, t):
    clock.t = t
    tracker.on_sample(t, tracker.sensors.snapshot().metrics(totals=False))


def test_a_spike_between_two_readings_is_the_nodes_exact_peak_when_the_counter_restarts_per_node(clock):
    # GIVEN a node whose RSS jumps from 1 to 3 GiB for a moment between two sampler readings
    process = Process(clock, {0: GIB, 1.5: 3 * GIB, 1.6: GIB, 5: 2 * GIB}, since="node")
    tracker = Tracker(process.sensors(), clock=clock)
    tracker.begin_run("r")
    clock.t = 0.5
    decode = tracker.node_begin("r", "8", "VAEDecode")
    for t in (1.0, 2.0):
        sample(tracker, clock, t)
    clock.t = 3.0
    tracker.node_end(decode)
    node = tracker.node_begin("r", "9", "SaveImage")
    # THEN the spike the sampler never saw is the node's peak, recorded as exact
    assert decode.peaks["process_rss_bytes"] == 3 * GIB and "process_rss_bytes" in decode.exact_peaks
    # AND machine RAM, which no counter keeps, stays the sampled peak
    assert decode.peaks["ram_used_bytes"] == GIB and "ram_used_bytes" not in decode.exact_peaks
    clock.t = 6.0
    tracker.node_end(node)
    assert node.peaks["process_rss_bytes"] == 2 * GIB and node.to_dict()["exact_peaks"] == ["process_rss_bytes"]


def test_with_the_reset_turned_off_the_counter_counts_since_the_process_started(clock):
    # GIVEN a process that peaked at 5 GiB before the node, and the reset turned off
    process = Process(clock, {0: 5 * GIB, 0.5: GIB, 1.5: 3 * GIB, 1.6: GIB}, since="node")
    tracker = Tracker(process.sensors(), clock=clock)
    tracker.exact_rss_peaks = False
    tracker.begin_run("r")
    clock.t = 1.0
    node = tracker.node_begin("r", "8", "VAEDecode")
    sample(tracker, clock, 1.2)
    clock.t = 2.0
    tracker.node_end(node)
    # THEN the counter still says 5 GiB: the node's spike is not in it, its peak is the sampled one
    assert process.counter == 5 * GIB
    assert node.peaks["process_rss_bytes"] == GIB and node.exact_peaks == set()


def test_overlapping_nodes_keep_exact_peaks_across_a_restart_of_the_counter(clock):
    # GIVEN an async node left pending at 1 s, a spike at 2 s, and a second node starting at 3 s
    process = Process(clock, {0: GIB, 2.0: 4 * GIB, 2.1: GIB, 4.0: 2 * GIB}, since="node")
    tracker = Tracker(process.sensors(), clock=clock)
    tracker.begin_run("r")
    pending = tracker.node_begin("r", "12", "AsyncNode")
    clock.t = 1.0
    tracker.node_end(pending, pending=True)
    clock.t = 3.0
    second = tracker.node_begin("r", "13", "KSampler")  # restarts the counter: the spike is banked first
    clock.t = 5.0
    tracker.node_end(second)
    clock.t = 6.0
    tracker.node_end(pending)
    # THEN each has the exact peak of its own time: the pending one the spike, the second its 2 GiB
    assert pending.peaks["process_rss_bytes"] == 4 * GIB and "process_rss_bytes" in pending.exact_peaks
    assert second.peaks["process_rss_bytes"] == 2 * GIB and "process_rss_bytes" in second.exact_peaks


@pytest.mark.parametrize(
    ("rss", "peak", "exact"),
    [
        # the process's peak so far is 5 GiB (from an earlier node)
        ({0: 5 * GIB, 0.5: 2 * GIB, 2.5: 6 * GIB, 2.6: 2 * GIB}, 6 * GIB, True),  # the node sets a new high
        ({0: 5 * GIB, 0.5: 2 * GIB, 2.5: 3 * GIB, 2.6: 2 * GIB}, 2 * GIB, False),  # below the old high: sampled
        ({0: 5 * GIB, 0.5: 2 * GIB, 2.0: 5 * GIB, 2.2: 2 * GIB}, 5 * GIB, True),  # reads the old high: nothing above
    ],
)
def test_a_counter_kept_since_the_process_started_is_exact_only_when_it_can_tell(clock, rss, peak, exact):
    # GIVEN Windows-like peak counters that cannot be restarted, and a node from 1 s to 3 s
    process = Process(clock, rss, since="start")
    tracker = Tracker(process.sensors(), clock=clock)
    tracker.begin_run("r")
    clock.t = 1.0
    node = tracker.node_begin("r", "8", "VAEDecode")
    for t in (1.5, 2.0):
        sample(tracker, clock, t)
    clock.t = 3.0
    tracker.node_end(node)
    assert node.peaks["process_rss_bytes"] == peak and ("process_rss_bytes" in node.exact_peaks) is exact


def test_torchs_peak_counters_give_exact_gpu_peaks(clock):
    def gpus(t):
        return (
            GpuMemory(
                index=0,
                backend="cuda",
                torch_allocated_bytes=2 * GIB,
                torch_reserved_bytes=3 * GIB,
                torch_peak_allocated_bytes=7 * GIB,
                torch_peak_reserved_bytes=8 * GIB,
                device_used_bytes=4 * GIB,
                device_total_bytes=12 * GIB,
            ),
        )

    sensors = ScriptedSensors(
        clock, ram_profile, gpus, resettable=frozenset({"gpu0_allocated_bytes", "gpu0_reserved_bytes"})
    )
    tracker = Tracker(sensors, clock=clock)
    tracker.begin_run("r")
    node = tracker.node_begin("r", "3", "KSampler")
    clock.t = 2.0
    tracker.node_end(node)
    assert (node.peaks["gpu0_allocated_bytes"], node.peaks["gpu0_reserved_bytes"]) == (7 * GIB, 8 * GIB)
    # NVML's device memory in use has no peak counter: its peak is sampled
    assert node.exact_peaks == {"gpu0_allocated_bytes", "gpu0_reserved_bytes"} and sensors.resets == 1


def test_a_bare_cuda_oom_raised_while_pinning_host_ram_is_recorded_as_system_ram(tracker):
    tracker.begin_run("r3", prompt=PROMPT)
    node = tracker.node_begin("r3", "8", "VAEDecode")

    def pin_memory() -> None:  # the function ComfyUI pins offloaded weights in
        raise RuntimeError("CUDA error: out of memory")

    try:
        pin_memory()
    except RuntimeError as exc:
        tracker.node_failed(node, exc)
    assert node.error is not None and node.error["kind"] == "system-ram"


def test_the_free_heap_is_read_where_the_forecast_learns_and_at_a_runs_start(clock):
    # GIVEN a C library that reports its free heap (glibc's mallinfo2), growing as nodes free their work
    sensors = ScriptedSensors(clock, ram_profile, heap_free=lambda t: 20 * 2**20 + int(t) * 2**20)
    reads = []
    heap = sensors.heap_free_bytes
    sensors.heap_free_bytes = lambda: reads.append(clock.t) or heap()
    tracker = Tracker(sensors, clock=clock)
    tracker.compute_device = "cpu"  # ComfyUI --cpu: the forecast learns the process's own memory
    tracker.begin_run("r1", prompt=PROMPT)
    latent = tracker.node_begin("r1", "5", "EmptyLatentImage")
    tracker.node_end(latent)
    clock.t = 1.0
    sampler = tracker.node_begin("r1", "3", "KSampler")
    clock.t = 11.0
    tracker.node_end(sampler)
    run = tracker.end_run("r1", "success")
    # THEN the sampler's node carries it at its start and end, the run's start readings hold it, and a
    # node the forecast learns nothing from costs no read (each one walks malloc's arenas)
    docs = {n.node_id: n.to_dict() for n in run.nodes}
    assert docs["3"]["heap_free_bytes"] == {"before": 21 * 2**20, "after": 31 * 2**20}
    assert "heap_free_bytes" not in docs["5"]
    assert run.start_metrics["process_heap_free_bytes"] == 20 * 2**20
    assert reads == [0.0, 1.0, 11.0]
    # AND on a GPU, where the forecast learns VRAM, it is never read
    tracker.compute_device = "cuda"
    tracker.begin_run("r2", prompt=PROMPT)
    tracker.node_end(tracker.node_begin("r2", "3", "KSampler"))
    assert "heap_free_bytes" not in tracker.end_run("r2", "success").nodes[0].to_dict() and len(reads) == 3
