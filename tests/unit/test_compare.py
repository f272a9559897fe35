"""Comparing two recorded runs: what changed, stage by stage what it did."""

from __future__ import annotations

import copy

from helpers import load_json

from memprobe.judging.compare import compare_runs
from memprobe.output.markdown import comparison_md as render_comparison_md


def test_txt2img_then_txt2img_tiled_one_change_the_decoder():
    cmp = compare_runs(load_json("runs/txt2img.json"), load_json("runs/txt2img_tiled.json"))
    assert cmp["one_change"] and cmp["changes"] == [
        {
            "what": "decode node",
            "a": "VAEDecode",
            "b": "VAEDecodeTiled (tile_size 512, overlap 64, temporal_size 64, temporal_overlap 8)",
        }
    ]
    decode = next(s for s in cmp["stages"] if s["stage"] == "vae-decode")
    assert decode["peak_a"] and decode["peak_b"] and decode["time_delta_s"] > 0  # tiles: more time on this CPU
    sampling = next(s for s in cmp["stages"] if s["stage"] == "sampling")
    assert sampling["b"] is None and sampling["cached"]["b"]  # the second run reused the sampled latent
    assert cmp["outcome"]["a"]["status"] == cmp["outcome"]["b"]["status"] == "success"
    assert cmp["metric"] == "ram_used_bytes"
    md = render_comparison_md(cmp)
    assert "| decode node | VAEDecode | VAEDecodeTiled" in md and "| sampling |" in md and "cached" in md


def test_a_failing_decode_fixed_by_tiling():
    cmp = compare_runs(load_json("runs/decode_oom_cpu.json"), load_json("runs/decode_big_tiled_cpu.json"))
    decode = next(s for s in cmp["stages"] if s["stage"] == "vae-decode")
    assert decode["a"]["failed"] and not decode["b"]["failed"] and decode["peak_delta"] < 0
    assert cmp["outcome"]["a"]["failure_kind"] == "system-ram" and cmp["outcome"]["b"]["status"] == "success"
    assert "A error (system-ram at node 8, vae-decode) → B success" in render_comparison_md(cmp)


def test_several_changes_at_once_are_called_out():
    a = load_json("runs/txt2img.json")
    b = copy.deepcopy(a)
    b["prompt"]["5"]["inputs"].update(width=768, batch_size=2)
    b["prompt"]["3"]["inputs"]["seed"] = 7
    b["context"]["argv"] = [*a["context"]["argv"], "--lowvram"]
    cmp = compare_runs(a, b)
    assert {c["what"] for c in cmp["changes"]} == {"width", "batch_size", "seed", "launch options"}
    assert not cmp["one_change"] and "4 things changed at once" in render_comparison_md(cmp)


def test_identical_runs_have_no_changes():
    a = load_json("runs/txt2img.json")
    assert compare_runs(a, a)["changes"] == []


def test_a_precision_change_is_one_change_with_its_effect_on_each_memory():
    # GIVEN the same workflow run with UNETLoader at its default (float32 on a CPU) and at fp8
    a, b = load_json("runs/unet_default.json"), load_json("runs/unet_fp8.json")
    cmp = compare_runs(a, b)
    # THEN the model is the one change, with both precisions and sizes
    assert cmp["one_change"]
    (change,) = cmp["changes"]
    assert (change["what"], change["a"], change["b"]) == (
        "models",
        "BaseModel float32 169.0 MiB (tiny_sd15.safetensors)",
        "BaseModel float8_e4m3fn 42.2 MiB (tiny_sd15.safetensors)",
    )
    assert [m["kind"] for m in change["models"]] == ["diffusion_model"]
    # AND its effect on each memory the runs measured, B - A
    effect = change["effect"]
    assert set(effect) == {"comfyui_ram", "commit"}
    for entry in effect.values():
        assert entry["delta"] == entry["b"] - entry["a"]
    assert cmp["memory"] == effect
    md = render_comparison_md(cmp)
    assert "What the model change did to each memory:" in md and "| peak commit |" in md


def test_runs_without_model_readings_compare_their_model_files_as_before():
    old, new = load_json("runs/txt2img.json"), load_json("runs/txt2img_models.json")
    assert "models" not in {c["what"] for c in compare_runs(old, new)["changes"]}
    other = load_json("runs/two_checkpoints.json")
    (models,) = [c for c in compare_runs(new, other)["changes"] if c["what"] == "models"]
    assert "tiny_sd15_taesd.safetensors" in models["b"] and "tiny_sd15_taesd.safetensors" not in models["a"]
