"""Model residency in a real ComfyUI 0.3.64 on the CPU: which models its model manager holds at
every node, their sizes against the checkpoint file, ComfyUI's own log lines, a second checkpoint,
the same checkpoint loaded twice, and its real partial-load path driven on CPU tensors.

The sizes are checked against the safetensors header (parsed with the standard library): a model's
size is its parameter count times the element size of the dtype ComfyUI loaded it in (on a CPU,
ComfyUI 0.3.64 runs the UNet and VAE in float32 and keeps the text encoder in float16)."""

from __future__ import annotations

import json
import struct
import subprocess
import time
from pathlib import Path

import pytest
from comfy_server import load_workflow

SMALL = {"5.width": 256, "5.height": 256}
ITEMSIZE = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "F8_E4M3": 1, "F8_E5M2": 1, "I64": 8, "I32": 4, "U8": 1}
TORCH_ITEMSIZE = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "float8_e4m3fn": 1, "float8_e5m2": 1}
COMPONENTS = {
    "diffusion_model": "model.diffusion_model.",
    "text_encoder": "cond_stage_model.",
    "vae": "first_stage_model.",
}
DRIVER = Path(__file__).with_name("partial_load_driver.py")


def parameter_counts(path: Path) -> dict[str, int]:
    """Parameters per component of a checkpoint, from its safetensors header alone."""
    with path.open("rb") as f:
        header = json.loads(f.read(struct.unpack("<Q", f.read(8))[0]))
    counts = dict.fromkeys(COMPONENTS, 0)
    for name, info in header.items():
        if name == "__metadata__":
            continue
        for kind, prefix in COMPONENTS.items():
            if name.startswith(prefix):
                start, end = info["data_offsets"]
                counts[kind] += (end - start) // ITEMSIZE[info["dtype"]]
    return counts


def expected_size(counts: dict[str, int], model: dict) -> int:
    return counts[model["kind"]] * TORCH_ITEMSIZE[model["dtype"]]


@pytest.fixture(scope="module")
def checkpoints(comfy_install) -> Path:
    return comfy_install.root / "models" / "checkpoints"


@pytest.fixture(scope="module")
def fresh(make_server):
    """A ComfyUI of its own: the first run of this module starts with nothing loaded."""
    return make_server("residency")


def first_resident(run: dict, cls: str) -> dict:
    return next(n for n in run["nodes"] if any(m["class"] == cls for m in n["models"] or []))


def test_txt2img_shows_unet_clip_and_vae_resident_from_the_node_that_loaded_them(fresh, checkpoints):
    # GIVEN a fresh ComfyUI WHEN txt2img runs
    prompt_id, history = fresh.run(load_workflow("txt2img", **SMALL))
    assert history["status"]["status_str"] == "success"
    run = fresh.memprobe_run(prompt_id)
    counts = parameter_counts(checkpoints / "tiny_sd15.safetensors")
    assert run["models_start"] == []
    assert (run["context"]["vram_state"], run["context"]["dynamic_vram"]) == ("DISABLED", None)  # --cpu, 0.3.64
    # THEN each model appears at the node where ComfyUI loaded it, says so in its changes, and
    # ComfyUI's own log line for that load was recorded at the same node
    loaded_at = {"SD1ClipModel": "4", "BaseModel": "3", "AutoencoderKL": "8"}
    for cls, node_id in loaded_at.items():
        node = first_resident(run, cls)
        assert node["node_id"] == node_id, cls
        (change,) = [c for c in node["model_changes"] if c["class"] == cls]
        assert change["change"] == "loaded" and change["loaded_bytes_before"] == 0
        logged = [e for e in run["events"] if e["kind"] == "model-loaded" and e["data"].get("model_class") == cls]
        assert [e["node_id"] for e in logged] == [node_id]
        assert abs(logged[0]["data"]["loaded_bytes"] - change["loaded_bytes"]) <= 0.01 * change["loaded_bytes"]
    # AND at the end all three are resident, completely on the CPU, with their checkpoint's sizes
    final = {m["class"]: m for m in run["nodes"][-1]["models"]}
    assert set(final) == set(loaded_at) and run["models_end"] == run["nodes"][-1]["models"]
    for model in final.values():
        assert (model["device"], model["offloaded_bytes"], model["file"]) == ("cpu", 0, "tiny_sd15.safetensors")
        assert model["loaded_by"] == {"node_id": "4", "class_type": "CheckpointLoaderSimple"}
        assert abs(model["size_bytes"] - expected_size(counts, model)) <= 0.05 * expected_size(counts, model), model
        assert model["loaded_bytes"] == model["size_bytes"]
    assert {m["kind"] for m in final.values()} == {"diffusion_model", "text_encoder", "vae"}
    assert (final["BaseModel"]["dtype"], final["SD1ClipModel"]["dtype"]) == ("float32", "float16")
    # AND a node that loaded nothing changed nothing
    assert next(n for n in run["nodes"] if n["node_id"] == "5")["model_changes"] == []


def test_a_second_checkpoint_keeps_the_first_loaded_until_comfyui_is_asked_to_unload(fresh, checkpoints):
    # GIVEN the first checkpoint resident from the previous test's run
    prompt_id, history = fresh.run(load_workflow("two_checkpoints", **{"3.seed": 11}))
    assert history["status"]["status_str"] == "success"
    run = fresh.memprobe_run(prompt_id)
    # THEN ComfyUI (on a CPU it never frees memory for a load) kept the first checkpoint's models and
    # added the second's: two UNets of the same class and size, from two files
    unets = [m for m in run["models_end"] if m["kind"] == "diffusion_model"]
    assert sorted(m["file"] for m in unets) == ["tiny_sd15.safetensors", "tiny_sd15_taesd.safetensors"]
    assert not [c for n in run["nodes"] for c in n["model_changes"] if c["change"] == "unloaded"]
    second = next(n for n in run["nodes"] if n["node_id"] == "13")
    assert [(c["change"], c["name"]) for c in second["model_changes"]] == [
        ("loaded", "BaseModel (tiny_sd15_taesd.safetensors)")
    ]
    assert not any(e["kind"] == "model-models-unloaded" for e in run["events"])
    # WHEN ComfyUI is asked to unload its models (the panel's Free memory) and a run follows
    status, _ = fresh.request("POST", "/free", {"unload_models": True})
    assert status == 200
    deadline = time.monotonic() + 20
    while fresh.get("/memprobe/live")["models"] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert fresh.get("/memprobe/live")["models"] == []
    prompt_id, _ = fresh.run(load_workflow("txt2img", **SMALL, **{"3.seed": 12}))
    # THEN that run began with nothing loaded and re-loaded the UNet at the sampler
    after = fresh.memprobe_run(prompt_id)
    assert after["models_start"] == []
    assert first_resident(after, "BaseModel")["node_id"] == "3"


def test_the_same_checkpoint_loaded_twice_is_two_copies_and_is_flagged(fresh):
    # GIVEN a workflow that loads tiny_sd15 through two different loader nodes
    prompt_id, history = fresh.run(load_workflow("same_checkpoint_twice", **{"3.seed": 21}))
    assert history["status"]["status_str"] == "success"
    run = fresh.memprobe_run(prompt_id)
    # THEN two distinct UNets from the one file are resident, and the advice says so
    copies = [m for m in run["models_end"] if m["kind"] == "diffusion_model" and m["file"] == "tiny_sd15.safetensors"]
    assert len(copies) == 2 and copies[0]["key"] != copies[1]["key"]
    assert {m["loaded_by"]["class_type"] for m in copies} == {"CheckpointLoaderSimple", "unCLIPCheckpointLoader"}
    duplicate = [s for s in run["suggestions"] if s["id"] == "duplicate-model"]
    assert duplicate and "tiny_sd15.safetensors" in duplicate[0]["why"]


def test_comfyuis_partial_load_path_on_cpu_tensors_reads_as_comfyui_logs_it(comfy_install, checkpoints):
    # GIVEN ComfyUI's own LoadedModel/ModelPatcher driven through a partial load, a partial
    # unload, loading the rest and unloading all (in ComfyUI's Python, on CPU tensors)
    out = subprocess.run(
        [
            str(comfy_install.python),
            str(DRIVER),
            str(checkpoints / "tiny_sd15.safetensors"),
            str(Path(__file__).resolve().parents[1]),
        ],
        cwd=comfy_install.root,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    steps = {s["step"]: s for s in doc["steps"]}
    size = doc["size"]
    counts = parameter_counts(checkpoints / "tiny_sd15.safetensors")

    def unet(step: str) -> dict:
        return next(m for m in steps[step]["models"] if m["class"] == "BaseModel")

    # THEN the partial load reads as ComfyUI logged it: the bytes it put on the device, the rest offloaded
    partial = unet("partial load")
    (logged,) = steps["partial load"]["log"]
    assert logged["kind"] == "partially-loaded" and logged["loaded_bytes"] == partial["loaded_bytes"]
    assert abs(logged["usable_bytes"] - int(size * 0.4)) <= 1
    assert 0 < partial["loaded_bytes"] <= size * 0.4 and partial["offloaded_bytes"] == size - partial["loaded_bytes"]
    assert [c["change"] for c in steps["partial load"]["changes"]] == ["partially-loaded"]
    assert abs(size - counts["diffusion_model"] * TORCH_ITEMSIZE[partial["dtype"]]) <= 0.05 * size
    # AND a partial unload moves at least what was asked back to RAM
    unloaded = unet("partial unload")
    (change,) = steps["partial unload"]["changes"]
    assert change["change"] == "offloaded"
    assert partial["loaded_bytes"] - unloaded["loaded_bytes"] >= int(size * 0.15)
    assert unloaded["offloaded_bytes"] == size - unloaded["loaded_bytes"]
    # AND loading the rest completes it; unloading all empties the model manager
    assert (unet("load the rest")["offloaded_bytes"], steps["load the rest"]["log"][0]["kind"]) == (0, "loaded")
    assert steps["unload all"]["models"] == []
    assert {c["change"] for c in steps["unload all"]["changes"]} == {"unloaded"}
