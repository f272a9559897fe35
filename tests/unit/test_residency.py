"""Model residency in the pure core: changes between readings, the per-stage picture, copies of one
file, partial loads — over runs recorded in a real ComfyUI and the real ModelPatcher partial load."""

from __future__ import annotations

import pytest
from helpers import FakeClock, ScriptedSensors, load_json

from memprobe._log import reset_warnings
from memprobe.judging.residency import (
    ModelState,
    describe_change,
    describe_model,
    diff_models,
    duplicate_models,
    max_offloaded,
    offloaded_bytes,
    partial_loads,
    run_models,
    same_residency,
    stage_models,
)
from memprobe.logs.modellog import parse_model_line
from memprobe.recording.tracker import Tracker

MIB = 1024**2
PARTIAL = load_json("residency/partial_load_cpu.json")
STEPS = {s["step"]: s["models"] for s in PARTIAL["steps"]}


def unet(step: str) -> dict:
    return next(m for m in STEPS[step] if m["class"] == "BaseModel")


def test_each_step_of_the_real_partial_load_reads_as_one_change():
    assert [c["change"] for c in diff_models(STEPS["start"], STEPS["partial load"])] == ["partially-loaded"]
    assert [c["change"] for c in diff_models(STEPS["partial load"], STEPS["partial unload"])] == ["offloaded"]
    assert [c["change"] for c in diff_models(STEPS["partial unload"], STEPS["load the rest"])] == ["loaded"]
    assert sorted(c["change"] for c in diff_models(STEPS["load the rest"], STEPS["unload all"])) == ["unloaded"] * 2
    (offload,) = diff_models(STEPS["partial load"], STEPS["partial unload"])
    assert offload["loaded_bytes_before"] == unet("partial load")["loaded_bytes"]
    assert offload["loaded_bytes"] == unet("partial unload")["loaded_bytes"]


def test_unknown_readings_and_tiny_movements_are_no_change():
    model = {**unet("partial load"), "device": "cuda:0"}
    assert diff_models(None, [model]) == [] and diff_models([model], None) == []
    nudged = {**model, "loaded_bytes": model["loaded_bytes"] + MIB // 2}  # dynamic VRAM streams all the time
    assert diff_models([model], [nudged]) == [] and same_residency([model], [nudged])
    moved = {**model, "device": "cuda:1"}
    assert [c["change"] for c in diff_models([model], [moved])] == ["moved"]
    assert not same_residency([model], []) and same_residency(None, None) and not same_residency(None, [])


def test_descriptions_say_where_the_bytes_are():
    model = {**unet("partial load"), "device": "cuda:0"}
    assert describe_model(model) == "BaseModel (tiny_sd15.safetensors): 67.6 MiB on cuda:0, 101.4 MiB offloaded to RAM"
    assert (
        describe_model({**model, "loaded_bytes": None}) == "BaseModel (tiny_sd15.safetensors): 169.0 MiB, where unknown"
    )
    (change,) = diff_models([], [model])
    assert describe_change(change) == (
        "loaded BaseModel (tiny_sd15.safetensors) partially: 67.6 MiB on cuda:0, 101.4 MiB left in RAM"
    )
    assert offloaded_bytes([model]) == model["offloaded_bytes"]
    assert offloaded_bytes([]) == 0 and offloaded_bytes(None) is None and offloaded_bytes([{"key": 1}]) is None


def test_the_per_stage_picture_of_a_recorded_txt2img():
    stages = stage_models(load_json("runs/txt2img_models.json"))
    assert list(stages) == ["load", "other", "text-encode", "sampling", "vae-decode", "output"]  # as they ran
    assert [m["class"] for m in stages["load"]["models"]] == ["SD1ClipModel"]
    assert [(c["node_id"], c["class"], c["change"]) for c in stages["sampling"]["changes"]] == [
        ("3", "BaseModel", "loaded")
    ]
    assert sorted(m["class"] for m in stages["output"]["models"]) == ["AutoencoderKL", "BaseModel", "SD1ClipModel"]
    assert stages["text-encode"]["changes"] == []


def test_copies_of_one_file_are_found_and_two_files_are_not():
    twice = load_json("runs/same_checkpoint_twice.json")["models_end"]
    groups = duplicate_models(twice)
    assert sorted((g[0]["class"], len(g)) for g in groups) == [("BaseModel", 2), ("SD1ClipModel", 2)]
    assert duplicate_models(load_json("runs/two_checkpoints.json")["models_end"]) == []
    assert duplicate_models([{"key": "1", "file": None}, {"key": "2", "file": None}]) == []


def test_a_runs_models_leave_out_another_workflows_leftovers():
    doc = load_json("runs/two_checkpoints.json")
    files = {m["file"] for m in run_models(doc)}
    assert files == {"tiny_sd15.safetensors", "tiny_sd15_taesd.safetensors"}
    assert {m["file"] for m in run_models(doc, ["tiny_sd15_taesd.safetensors"])} == {"tiny_sd15_taesd.safetensors"}
    assert max_offloaded(doc) == 0 and max_offloaded({"nodes": []}) is None


def test_partial_loads_come_from_readings_on_a_gpu_or_else_from_comfyuis_log():
    on_gpu = [{**m, "device": "cuda:0"} for m in STEPS["partial load"]]
    doc = {
        "nodes": [
            {
                "node_id": "3",
                "status": "ran",
                "models": on_gpu,
                "model_changes": diff_models([{**m, "device": "cuda:0"} for m in STEPS["start"]], on_gpu),
            }
        ]
    }
    (found,) = partial_loads(doc)
    assert (found["node_id"], found["class"], found["dtype"], found["source"]) == (
        "3",
        "BaseModel",
        "float32",
        "models",
    )
    # the same change on a CPU is no VRAM shortage
    doc["nodes"][0]["model_changes"] = diff_models(STEPS["start"], STEPS["partial load"])
    assert partial_loads(doc) == []
    line = parse_model_line(
        "loaded partially; 5334.55 MB usable, 5283.48 MB loaded, 1136.00 MB offloaded, "
        "48.00 MB buffer reserved, lowvram patches: 0"
    )
    log_only = {
        "nodes": [{"node_id": "6", "status": "ran", "models": None}],
        "events": [{"node_id": "6", "kind": "model-partially-loaded", "data": line.to_dict()}],
    }
    (found,) = partial_loads(log_only)
    assert (found["source"], found["offloaded_bytes"], found["size_bytes"]) == (
        "log",
        line.offloaded_bytes,
        line.loaded_bytes + line.offloaded_bytes,
    )


# ---------------------------------------------------------------- the tracker records it
@pytest.fixture
def tracker():
    clock = FakeClock()
    tracker = Tracker(ScriptedSensors(clock), clock=clock)
    tracker.clock_ref = clock
    return tracker


def states(step: str) -> list[ModelState]:
    return [
        ModelState(
            key=m["key"],
            model_class=m["class"],
            kind=m["kind"],
            device=m["device"],
            size_bytes=m["size_bytes"],
            loaded_bytes=m["loaded_bytes"],
            offloaded_bytes=m["offloaded_bytes"],
            dtype=m["dtype"],
            file=m["file"],
            loaded_by=m["loaded_by"],
        )
        for m in STEPS[step]
    ]


def test_nodes_marks_and_the_run_carry_the_readings_and_changes(tracker):
    held = {"now": states("start")}
    tracker.residency = lambda: held["now"]
    tracker.begin_run("r1")
    node = tracker.node_begin("r1", "3", "KSampler")
    running = node.to_dict()
    assert running["models"][0]["class"] == "SD1ClipModel" and "models_before" not in running
    held["now"] = states("partial load")
    tracker.on_model_log(parse_model_line("loaded partially 67.5870418548584 67.57447814941406 0"))
    tracker.node_end(node)
    doc = node.to_dict()
    assert [m["class"] for m in doc["models"]] == ["BaseModel", "SD1ClipModel"]
    assert [m["class"] for m in doc["models_before"]] == ["SD1ClipModel"]
    assert [(c["class"], c["change"]) for c in doc["model_changes"]] == [("BaseModel", "partially-loaded")]
    mark = tracker.add_mark("after sampling")
    assert "BaseModel (tiny_sd15.safetensors): 67.6 MiB in RAM (cpu), 101.4 MiB offloaded to RAM" in mark.summary
    still = tracker.node_begin("r1", "8", "VAEDecode")
    tracker.node_end(still)
    assert "models_before" not in still.to_dict() and still.model_changes == []
    run = tracker.end_run("r1", "success")
    assert [m["class"] for m in run.header()["models_start"]] == ["SD1ClipModel"]
    assert len(run.header()["models_end"]) == 2
    (event,) = run.to_dict()["events"]
    assert (event["kind"], event["node_id"], event["data"]["loaded_bytes"]) == ("model-partially-loaded", "3", 70856976)


def test_a_failing_reading_costs_that_reading_only(tracker, caplog):
    reset_warnings()

    def broken():
        raise RuntimeError("the model manager changed")

    tracker.residency = broken
    tracker.begin_run("r2")
    node = tracker.node_begin("r2", "4", "CheckpointLoaderSimple")
    tracker.node_end(node)
    run = tracker.end_run("r2", "success")
    assert run.status == "success" and node.status == "ran"
    assert node.models is None and node.model_changes == []
    assert sum("could not read ComfyUI's loaded models" in r.message for r in caplog.records) == 1


def test_without_a_model_manager_nothing_is_claimed(tracker):
    tracker.begin_run("r3")
    node = tracker.node_begin("r3", "4", "CheckpointLoaderSimple")
    tracker.node_end(node)
    tracker.on_model_log(parse_model_line("Requested to load SDXL"))  # requests are not events
    tracker.on_model_log(parse_model_line("0 models unloaded."))  # nor is unloading nothing
    run = tracker.end_run("r3", "success")
    assert (node.to_dict()["models"], run.models_end, run.events) == (None, None, [])
