"""Advice that reads the model picture: weights ComfyUI kept in RAM because VRAM was short, the
same checkpoint loaded twice, models still loaded after a failed run.

Duplicates and resident models come from runs recorded in a real ComfyUI (tests/fixtures/runs).
Partial loads need a GPU: their figures are the real ``ModelPatcher`` partial load recorded on
CPU tensors (fixtures/residency/partial_load_cpu.json, see tests/integration/partial_load_driver.py)
placed on ``cuda:0``, or real ``loaded partially`` lines from the threads cited in
fixtures/modellog/SOURCES.md, replayed through the tracker (helpers.gpu_scenario)."""

from __future__ import annotations

from dataclasses import replace

from helpers import FIXTURES, gpu_scenario, load_json

from memprobe.judging.advice import suggest
from memprobe.judging.residency import ModelState
from memprobe.logs.explain import explain_log

GIB = 1024**3


def run(name: str) -> dict:
    return load_json(f"runs/{name}.json")


def by_id(doc) -> dict:
    return {s.id: s for s in suggest(doc)}


def recorded_states(step: str, device: str = "cuda:0") -> list[ModelState]:
    """The models of one step of the recorded real partial load, as they read on ``device``."""
    doc = load_json("residency/partial_load_cpu.json")
    models = next(s for s in doc["steps"] if s["step"] == step)["models"]
    return [
        ModelState(
            key=m["key"],
            model_class=m["class"],
            kind=m["kind"],
            device=device,
            offload_device=m["offload_device"],
            size_bytes=m["size_bytes"],
            loaded_bytes=m["loaded_bytes"],
            offloaded_bytes=m["offloaded_bytes"],
            dtype=m["dtype"],
            file=m["file"],
            loaded_by=m["loaded_by"],
        )
        for m in models
    ]


CLIP_ONLY = recorded_states("start")
PARTIAL = recorded_states("partial load")  # the UNet: 67.6 of its 169 MiB on the device


def partial_run(**kwargs) -> dict:
    """txt2img on a 12 GB card where the sampler loads the UNet partially."""
    kwargs.setdefault("vram_gib", {"3": 11.5})
    kwargs.setdefault("models", {"4": CLIP_ONLY, "3": PARTIAL})
    return gpu_scenario("txt2img", "txt2img", **kwargs)


# ---------------------------------------------------------------- weights kept in RAM
def test_a_partial_load_under_commit_pressure_points_at_lower_precision_with_the_arithmetic():
    # GIVEN commit at 38 of 40 GiB while the sampler ran with part of its UNet in RAM
    doc = partial_run(
        system={"3": {"commit_bytes": 38 * GIB, "process_private_bytes": 9 * GIB}}, reserved_gib={"3": 11.4}
    )
    found = by_id(doc)
    offload = found["smaller-model-offload"]
    # THEN the suggestion names the node, the model, what stayed in RAM and the pressure
    assert offload.severity == "warning" and offload.rule == "offloaded-weights"
    assert (
        "node 3 KSampler (sampling)" in offload.why
        and "ComfyUI kept 101.4 MiB of BaseModel (tiny_sd15.safetensors) in RAM" in offload.why
    )
    assert (
        "67.6 MiB of its 169.0 MiB fit on cuda:0" in offload.why
        and "commit reached 38.0 GiB of the 40.0 GiB commit limit (95%)" in offload.why
    )
    # AND one change with its arithmetic: float32 -> fp16 halves it, still more than the VRAM it got
    assert "as fp16: about 84.5 MiB instead of 169.0 MiB (float32)" in offload.try_
    assert "is still more than the 67.6 MiB" in offload.try_
    # AND the pagefile suggestion (commit is the limit) says how much of the commit those weights are
    assert "101.4 MiB of that are BaseModel (tiny_sd15.safetensors)'s weights" in found["pagefile"].why


def test_without_pressure_a_partial_load_is_a_fact_not_an_alarm():
    doc = partial_run()
    assert not {"smaller-model-offload", "close-vram-programs", "reserve-vram"} & set(by_id(doc))
    change = next(n for n in doc["nodes"] if n["node_id"] == "3")["model_changes"]
    assert [(c["class"], c["change"]) for c in change] == [("BaseModel", "partially-loaded")]


def test_other_programs_holding_vram_point_at_closing_them():
    # GIVEN 3 GiB of the card used outside ComfyUI when the sampler loaded (11.5 used, 8.5 reserved)
    before = ("4", "6", "7", "5")
    doc = partial_run(
        reserved_gib={**dict.fromkeys(before, 3.0), "3": 8.5},
        vram_gib={**dict.fromkeys(before, 6.0), "3": 11.5},
        system={"3": {"commit_bytes": 38 * GIB}},
    )  # Windows: commit is the limit it enforces
    found = by_id(doc)["close-vram-programs"]
    assert "other programs held 3.0 GiB of VRAM" in found.why
    assert "commit reached 38.0 GiB of the 40.0 GiB commit limit (95%)" in found.why
    assert found.try_.startswith("Close the programs using 3.0 GiB of VRAM")


def test_other_programs_and_a_spill_point_at_reserve_vram():
    before = ("4", "6", "7", "5")  # 6 GiB in use, 3 of them ComfyUI's
    doc = partial_run(
        reserved_gib={**dict.fromkeys(before, 3.0), "3": 8.5},
        vram_gib={**dict.fromkeys(before, 6.0), "3": 11.9},
        shared_gib={"3": 2.0},
    )
    found = by_id(doc)
    assert found["reserve-vram"].rule == "offloaded-weights" and "--reserve-vram 3.0" in found["reserve-vram"].try_
    assert "VRAM then spilled into shared memory" in found["reserve-vram"].why
    assert [s.id for s in suggest(doc)].count("reserve-vram") == 1


def test_a_run_known_only_from_comfyuis_log_lines_still_shows_the_offload():
    # GIVEN no readable model objects, only the log line ComfyUI wrote when the sampler loaded
    lines = (FIXTURES / "modellog" / "pr11096_te_offload.log").read_text(encoding="utf-8").splitlines()
    doc = gpu_scenario(
        "txt2img",
        "txt2img",
        vram_gib={"3": 11.5},
        model_log={"3": lines[2:4]},
        system={"3": {"commit_bytes": 38 * GIB}},
    )
    node = next(n for n in doc["nodes"] if n["node_id"] == "3")
    (event,) = [e for e in doc["events"] if e["node_id"] == "3"]
    assert event["kind"] == "model-partially-loaded" and event["data"]["model_class"] == "WanTEModel"
    assert node["models"] is None
    found = by_id(doc)["smaller-model-offload"]
    assert "ComfyUI kept 1.1 GiB of WanTEModel in RAM" in found.why


# ---------------------------------------------------------------- a model with none of it on the GPU
ZERO_USABLE = FIXTURES / "logs" / "ComfyUI14573_flux2_gguf_zero_usable_hang_console.log"  # Comfy-Org/ComfyUI#14573


def test_a_sampler_whose_model_got_no_vram_is_told_to_free_the_card_before_it_loads():
    # GIVEN a traced run whose sampler logged the real load of ComfyUI#14573: 0 MB usable, all of Flux2 offloaded
    lines = ZERO_USABLE.read_text(encoding="utf-8").splitlines()[:3]
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"3": 7.6}, model_log={"3": lines})
    found = by_id(doc)["free-vram-before-load"]
    # THEN it is pressure (nothing failed), names the node and the model, and says why none of it fit
    assert (found.tier, found.rule) == ("pressure", "no-vram-for-model")
    assert "node 3 KSampler (sampling): ComfyUI loaded Flux2 with none of it on the GPU" in found.why
    assert "all 22.8 GiB of it left in RAM" in found.why and "by its count there was none" in found.why
    assert found.try_.startswith("Close what else holds the card") and found.action == {
        "type": "free_memory",
        "unload_models": True,
        "free_memory": True,
    }


def none_on_gpu(dynamic: bool) -> list[ModelState]:
    """The recorded UNet as the model manager reads it with none of it on the device."""
    return [
        replace(m, loaded_bytes=0, offloaded_bytes=m.size_bytes, dynamic=dynamic) if m.model_class == "BaseModel" else m
        for m in PARTIAL
    ]


def test_a_model_read_with_none_of_it_on_the_gpu_is_told_to_free_the_card_unless_dynamic_vram_streams_it():
    # GIVEN the sampler's UNet read with 0 bytes on cuda:0 and all 169 MiB offloaded, classic and under dynamic VRAM
    classic = partial_run(models={"4": CLIP_ONLY, "3": none_on_gpu(dynamic=False)})
    dynamic = partial_run(models={"4": CLIP_ONLY, "3": none_on_gpu(dynamic=True)})
    # THEN the classic load was left off a full card; dynamic VRAM loads weights on demand by design: no alarm
    found = by_id(classic)["free-vram-before-load"]
    assert "node 3 KSampler (sampling): ComfyUI loaded BaseModel (tiny_sd15.safetensors) with none of it" in found.why
    assert "free-vram-before-load" not in by_id(dynamic)


def test_a_partial_load_that_put_some_of_the_model_on_the_gpu_is_not_a_model_without_vram():
    doc = partial_run()  # the recorded real partial load: 67.6 of 169 MiB on the device
    assert "free-vram-before-load" not in by_id(doc) and "novram" not in by_id(doc)


def test_the_zero_usable_logs_of_real_threads_are_told_to_free_the_card():
    # GIVEN ComfyUI#14573 (a hang at "Model Initializing" after Flux2 got 0 MB) and ComfyUI#14679 (an OOM after
    # LTXAV got 269.5 MB, too little to place any of it)
    hang = explain_log(ZERO_USABLE.read_text(encoding="utf-8"))
    oom = explain_log(
        (FIXTURES / "logs" / "comfyui14679_ltx23_tiledsampler_oom_console.log").read_text(encoding="utf-8")
    )
    # THEN the hang, no failure in its text, is pressure; the OOM's is part of the failure, with what ComfyUI found
    (first,) = hang["suggestions"]
    assert (first["id"], first["tier"]) == ("free-vram-before-load", "pressure")
    assert hang["no_failure"] == (
        "No failure in this log, but memory ran short: ComfyUI loaded Flux2 with none of it on the GPU "
        "(0 B loaded, all 22.8 GiB of it left in RAM)."
    )
    ids = {s["id"]: s for s in oom["suggestions"]}
    assert ids["free-vram-before-load"]["tier"] == "failure"
    assert "it found 269.5 MiB, too little to place any of LTXAV" in ids["free-vram-before-load"]["why"]
    # AND --lowvram is not offered where ComfyUI already left 28 GiB of the model in RAM
    assert "lowvram" not in ids


def test_a_traceback_cut_before_its_error_is_not_called_a_memory_error_or_not():
    # GIVEN Comfy-Org/ComfyUI#7006's paste: VAEDecode's traceback, cut before its error's line
    doc = explain_log(
        (FIXTURES / "logs" / "ltxvideo_7006_vaedecode_ltx_vae_allocation.log").read_text(encoding="utf-8")
    )
    # THEN the headline says what the log lacks instead of "Not a memory error"
    assert doc["verdict"]["title"] == "VAEDecode failed; its error is not in the log"
    assert doc["verdict"]["detail"] == "Whether memory ran out cannot be told without the error's own line."


def test_a_model_kept_off_the_gpu_under_a_reserve_vram_option_is_told_it_can_lower_it():
    text = "python main.py --reserve-vram 6\n" + ZERO_USABLE.read_text(encoding="utf-8")
    (first,) = explain_log(text)["suggestions"]
    assert first["id"] == "free-vram-before-load" and "a smaller --reserve-vram" in first["try"]


def test_a_model_kept_off_the_gpu_by_novram_is_a_note_on_that_option():
    text = "python main.py --novram\n" + ZERO_USABLE.read_text(encoding="utf-8")
    (note,) = explain_log(text)["suggestions"]
    assert (note["id"], note["tier"]) == ("novram", "note")
    assert "started with --novram" in note["why"] and "without --novram" in note["try"]


# ---------------------------------------------------------------- the same model twice
def test_the_recorded_same_checkpoint_twice_is_flagged_once_with_what_it_costs():
    (found,) = [s for s in suggest(run("same_checkpoint_twice")) if s.id == "duplicate-model"]
    # the UNet and the text encoder, each loaded by both loader nodes: one file, one change
    assert found.why == (
        "tiny_sd15.safetensors is loaded 2 times, by node 4 (CheckpointLoaderSimple) and node 14 "
        "(unCLIPCheckpointLoader); 2 copies of SD1ClipModel (235.8 MiB each) and of BaseModel "
        "(169.0 MiB each): 404.8 MiB more than one copy needs."
    )
    assert found.severity == "info"  # nothing ran short: a fact, no alarm
    assert "delete the second loader node" in found.try_


def test_two_different_checkpoints_of_one_architecture_are_not_a_duplicate():
    assert "duplicate-model" not in by_id(run("two_checkpoints"))


def test_a_plain_recorded_txt2img_gets_no_model_advice():
    assert not {"duplicate-model", "smaller-model-offload", "free-memory"} & set(by_id(run("txt2img_models")))


# ---------------------------------------------------------------- models left loaded
def test_models_still_loaded_after_a_ram_failure_feed_free_memory():
    doc = run("sampling_oom_models")
    found = by_id(doc)["free-memory"]
    assert "still loaded" in found.why and "BaseModel (tiny_sd15.safetensors)" in found.why
    assert found.action == {"type": "free_memory", "unload_models": True, "free_memory": True}


def test_a_non_memory_failure_with_models_loaded_is_no_reason_to_free_memory():
    assert "free-memory" not in by_id(run("error_runtime_models"))


def test_a_log_that_shows_a_partial_load_then_a_commit_failure_is_explained_with_both():
    """``memprobe explain`` on a log put together from two real logs: the WAN text encoder's
    partial load (fixtures/modellog/pr11096_te_offload.log) and a Desktop install's os error 1455
    block (fixtures/logs/commit1455_desktop_english.log, from its second prompt on)."""
    from memprobe.logs.explain import explain_log

    offload = (FIXTURES / "modellog" / "pr11096_te_offload.log").read_text(encoding="utf-8").splitlines()[2:4]
    commit = (FIXTURES / "logs" / "commit1455_desktop_english.log").read_text(encoding="utf-8").splitlines()
    failure = commit[next(i for i, line in enumerate(commit) if line.endswith(" - got prompt")) + 1 :]
    doc = explain_log("\n".join(["got prompt", *offload, *failure]) + "\n")
    assert doc["failure"]["kind"] == "commit-limit"
    assert [(m["name"], m["partial"]) for m in doc["models"]] == [("WanTEModel", True)]
    found = {s["id"]: s for s in doc["suggestions"]}
    assert list(found)[0] == "pagefile"
    assert (
        "1.1 GiB of that are WanTEModel's weights, which ComfyUI kept in RAM because VRAM was short"
        in found["pagefile"]["why"]
    )
    offloaded = found["smaller-model-offload"]
    assert offloaded["why"].startswith("ComfyUI kept 1.1 GiB of WanTEModel in RAM because VRAM was short")
    assert "(ComfyUI's log)" in offloaded["why"] and offloaded["severity"] == "critical"


def test_ram_nearly_full_on_windows_is_no_pressure_while_commit_has_room():
    # GIVEN Windows, RAM in use 31 of 32 GiB, commit 14 of its 40 GiB limit: Windows pages, nothing ran short
    doc = partial_run(system={"3": {"ram_available_bytes": 1 * GIB}})
    # THEN the offloaded weights are no alarm
    assert "smaller-model-offload" not in by_id(doc) and "close-vram-programs" not in by_id(doc)
