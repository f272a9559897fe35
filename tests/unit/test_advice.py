"""The advice rules: each fires when its evidence is there and stays silent when it is not.

Runs recorded on this CPU machine (tests/fixtures/runs) carry real failures; the GPU situations
a CPU cannot produce are built by driving the tracker through recorded ComfyUI traces with GPU
readings taken from the cited issue reports (helpers.gpu_scenario)."""

from __future__ import annotations

import copy

import pytest
from helpers import FIXTURES, gpu_scenario, load_json

from memprobe.judging.advice import TILED_DEFAULTS, advise, shortfall, suggest
from memprobe.judging.facts import RunFacts
from memprobe.judging.runfacts import run_peaks
from memprobe.logs.explain import explain_log

GIB = 1024**3
torch_oom = type("OutOfMemoryError", (RuntimeError,), {"__module__": "torch"})
ALLOCATION = "Allocation on device 0 would exceed allowed memory. (out of memory)"


def run(name: str) -> dict:
    return load_json(f"runs/{name}.json")


def ids(doc, machine=None):
    return [s.id for s in suggest(doc, machine)]


# ---------------------------------------------------------------- recorded CPU runs
def test_recorded_decode_oom_suggests_the_tiled_swap_first_with_its_action():
    first = suggest(run("decode_oom_cpu"))[0]
    assert first.id == "tiled-decode" and first.severity == "critical" and first.rule == "decode-in-tiles"
    assert first.action == {"type": "swap_vae_decode", "node_id": "8", **TILED_DEFAULTS}
    assert "node 8" in first.why and "system RAM ran out" in first.why and "DefaultCPUAllocator" in first.why
    assert "VAE Decode (Tiled)" in first.try_


def test_recorded_load_failure_says_tiling_will_not_help_and_never_suggests_it():
    # GIVEN ComfyUI on the CPU failed to map the checkpoint (Linux, no swap) under an address-space cap
    # (ulimit -v), with RAM 96 % free at that moment
    found = suggest(run("load_oom_cpu"))
    # THEN the smaller model, and the limit that really stopped it: the process's own, not RAM (no swap
    # advice: nothing measured says RAM ran short); never the decode
    assert [s.id for s in found] == ["smaller-model", "process-limit"] and {s.tier for s in found} == {"failure"}
    assert "will not help" in found[0].try_ and "tiny_sd15.safetensors" in found[0].why
    assert "ulimit -v" in found[1].try_ and "more swap does not help" in found[1].try_
    assert "RAM in use peaked at" in found[1].why and "unable to mmap" in found[1].why


def test_a_ram_failure_with_ram_nearly_full_still_adds_swap():
    # GIVEN the same failure, measured with RAM 97 % in use
    doc = run("load_oom_cpu")
    total = doc["failure"]["snapshot"]["system"]["ram_total_bytes"]
    for record in doc["nodes"]:
        record.setdefault("peaks", {})["ram_used_bytes"] = int(total * 0.97)
    found = suggest(doc)
    # THEN swap, sized, comes first again
    assert found[0].id == "pagefile" and found[0].title == "Add swap so RAM can overflow"
    assert found[0].saves_bytes == 32 * GIB and "process-limit" not in {s.id for s in found}


def test_recorded_sampling_failure_batch_first_then_resolution_one_change_each():
    found = suggest(run("sampling_oom_cpu"))
    ids_ = [s.id for s in found]
    # the sampler's own experiments, one change each, batch before resolution; then the cap that stopped it
    # (recorded under ulimit -v with RAM 10 % in use): the process's own, so never swap
    assert ids_ == ["batch-one", "smaller-resolution", "process-limit"]
    batch, resolution = (next(s for s in found if s.id == i) for i in ("batch-one", "smaller-resolution"))
    assert "batch_size from 2 to 1" in batch.try_ and "768x768" in resolution.try_
    assert "quadruples" in resolution.try_ and "tiled-decode" not in ids_


def test_recorded_non_memory_error_gets_no_memory_advice():
    assert ids(run("error_runtime")) == []


def test_recorded_successful_txt2img_where_the_decode_is_the_ram_peak():
    # GIVEN no pressure: the decode is the run's peak at 12 % of RAM
    (found,) = suggest(run("txt2img"))
    # THEN a neutral note of the headroom, with the one-click swap still at hand, no warning
    assert found.id == "tiled-decode" and found.severity == "info" and found.action["type"] == "swap_vae_decode"
    assert found.title == "Headroom: the VAE decode is this run's peak" and found.try_.startswith("Nothing to change")
    assert "run's RAM peak at 2.7 GiB of 23.5 GiB RAM (12%)" in found.why and "nothing ran short" in found.why


# ---------------------------------------------------------------- both sides of pressure, recorded runs
NO_PRESSURE = (
    "txt2img",
    "txt2img_probes",
    "txt2img_tiled",
    "decode_big_tiled_cpu",
    "txt2img_commit_overcommitted",
    "error_runtime",
)


@pytest.mark.parametrize("name", NO_PRESSURE)
def test_without_pressure_evidence_there_is_no_warning_only_a_headroom_note_ranked_last(name):
    found = suggest(run(name))
    assert all(s.severity == "info" for s in found), [(s.id, s.severity) for s in found]
    notes = [s for s in found if s.title.startswith("Headroom")]
    assert found == [] or found[-1] in notes  # a note never outranks anything
    for note in notes:
        assert note.action is None or note.action["type"] == "swap_vae_decode"


def test_linux_commit_above_its_limit_in_overcommit_mode_0_is_no_pressure():
    # GIVEN txt2img recorded while Committed_AS stood at 128 % of CommitLimit (mode 0), RAM at 28 %
    doc = run("txt2img_commit_overcommitted")
    peaks = run_peaks(doc)
    assert peaks["commit_bytes"] > 1.25 * peaks["commit_limit_bytes"] and doc["context"]["overcommit_mode"] == 0
    # THEN no "add swap": the commit limit is not enforced there; only the neutral decode note
    (note,) = suggest(doc)
    assert (note.id, note.severity, note.tier) == ("tiled-decode", "info", "note")
    assert "6.5 GiB of 23.5 GiB RAM (28%)" in note.why
    # WHEN the same figures come from a machine with strict overcommit, THEN the commit limit binds
    strict = copy.deepcopy(doc)
    strict["context"]["overcommit_mode"] = 2
    found = {s.id: s for s in suggest(strict)}
    assert (found["pagefile"].severity, found["pagefile"].title) == ("warning", "Raise Linux's commit limit")
    assert "commit peaked at 15.1 GiB of the 11.8 GiB commit limit (128%)" in found["pagefile"].why
    assert found["tiled-decode"].severity == "warning"  # on the CPU the commit is the compute memory there


def test_a_run_near_its_containers_limit_gets_the_tiled_decode_and_the_container_limit_with_evidence():
    # GIVEN txt2img recorded inside a 2.2 GiB memory cgroup, its memory at 98 % of it in the decode
    found = suggest(run("txt2img_near_cgroup_limit"))
    assert [(s.id, s.severity) for s in found] == [("tiled-decode", "warning"), ("container-limit", "warning")]
    assert "reached 2.1 GiB of the 2.2 GiB container limit (98%) during it" in found[0].why
    assert "Raise the memory limit of ComfyUI's container to 3 GB or more" in found[1].try_
    assert "Swap or RAM on the host does not help" in found[1].try_


def test_a_run_killed_by_its_containers_limit_names_the_kill_and_never_host_swap():
    found = suggest(run("killed_by_cgroup_limit"))
    assert [(s.id, s.severity) for s in found] == [("tiled-decode", "critical"), ("container-limit", "critical")]
    assert "oom_kill 0 -> 1" in found[1].why and "99%" in found[1].why
    assert not any("swap" in s.title.lower() for s in found)


def test_a_container_kill_from_a_log_without_figures_asks_for_more_without_inventing_a_size():
    from memprobe.logs.explain import explain_log

    (first, *_) = explain_log("Runtime error\nMemory limit exceeded\n")["suggestions"]  # a Hugging Face Space
    assert first["id"] == "container-limit"
    assert "Raise the memory limit of ComfyUI's container by a quarter or more" in first["try"]
    assert " 0 GB" not in first["try"]


def test_funchooks_failure_is_told_as_hooks_not_an_address_reservation():
    from memprobe.logs.explain import explain_log

    doc = explain_log("funchook_prepare(cuMemAlloc_v2) failed: 8\nFailed to allocate memory in unused regions\n")
    (first,) = doc["suggestions"]
    assert first["id"] == "disable-dynamic-vram" and "funchook" in first["why"] and "reserves" not in first["why"]


def test_ram_and_swap_near_full_on_linux_is_pressure_with_its_evidence():
    # GIVEN the recorded txt2img, judged as on a machine whose RAM + swap is 3 GiB (2 GiB RAM, 1 GiB swap)
    doc = copy.deepcopy(run("txt2img"))
    doc["context"].update(ram_total_bytes=2 * GIB, swap_total_bytes=GIB, overcommit_mode=0)
    for source in [doc["start_metrics"], doc["end_metrics"], *(n.get("before") or {} for n in doc["nodes"])]:
        source.pop("ram_total_bytes", None)
    found = {s.id: s for s in suggest(doc)}
    swap = found["pagefile"]
    assert swap.title == "Add swap so RAM can overflow" and swap.severity == "warning"
    assert "RAM + swap in use peaked at" in swap.why and "of 3.0 GiB RAM + swap" in swap.why
    assert found["tiled-decode"].severity == "warning"
    # macOS: the same pressure, phrased for it
    doc["context"]["os"] = "Darwin 23.1"
    assert next(s for s in suggest(doc) if s.id == "pagefile").title == "Free RAM for ComfyUI"


def test_an_already_tiled_decode_that_did_not_run_short_is_left_alone():
    assert ids(run("txt2img_tiled")) == []
    assert ids(run("decode_big_tiled_cpu")) == []


def test_a_killed_run_without_memory_evidence_gets_the_diagnostic_step():
    (found,) = suggest(run("killed_mid_sampling"))
    assert found.id == "find-who-ended-it" and "journalctl" in found.try_ and "KSampler" in found.why


def test_suggestions_are_ranked_by_tier_then_by_the_bytes_they_recover():
    # GIVEN a recorded sampling OOM (batch 4): each suggestion carries its measured effect
    facts = RunFacts.from_run(run("sampling_oom_cpu"))
    found = advise(facts)
    ranks = {"failure": 0, "pressure": 1, "note": 2}
    assert [ranks[s.tier] for s in found] == sorted(ranks[s.tier] for s in found)
    # THEN within a tier the change that recovers more of what was missing comes first, unknown last
    missing = shortfall(facts)
    first_tier = [s for s in found if s.tier == found[0].tier]
    effects = [min(s.saves_bytes, missing or s.saves_bytes) if s.saves_bytes is not None else -1 for s in first_tier]
    assert effects == sorted(effects, reverse=True) and effects[0] > 0


def test_a_note_without_pressure_never_outranks_evidence():
    # GIVEN a failed decode that is also the run's peak (a note would fit too) plus a disk warning
    doc = run("decode_oom_cpu")
    found = advise(RunFacts.from_run(doc, {"disks": [{"role": "output", "free_bytes": 1, "total_bytes": 10**12}]}))
    tiers = [s.tier for s in found]
    # THEN every failure-tier suggestion comes before pressure, and pressure before notes
    assert tiers == sorted(tiers, key=["failure", "pressure", "note"].index) and "pressure" in tiers


# ---------------------------------------------------------------- GPU situations
def test_vram_oom_at_decode_comfyui_issue_2431():
    # "Currently allocated : 1.26 GiB / Requested : 256.00 MiB / Device limit : 2.00 GiB" at VAEDecode
    doc = gpu_scenario(
        "error_runtime", "error_runtime", total_gib=2.0, vram_gib={"11": 1.9}, fail_with=torch_oom(ALLOCATION)
    )
    # the recorded trace fails at LatentBlend; re-label that node as the decode it would be
    doc = _as_decode_failure(doc)
    first = suggest(doc)[0]
    assert first.id == "tiled-decode" and first.severity == "critical"
    assert "VRAM" in first.why or "vram" in first.why


def test_comfyuis_own_tiled_retry_at_decode_is_flagged():
    line = "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding."
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"8": 6.0}, log_lines={"8": line})
    found = suggest(doc)[0]
    assert found.id == "tiled-decode" and "retried in tiles" in found.why and found.severity == "warning"


def test_a_decode_that_failed_in_comfyuis_own_retry_in_tiles_gets_smaller_tiles():
    # GIVEN ComfyUI retried the decode in tiles (its warning, in node 11) and the retry ran out of VRAM too
    line = "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding."
    doc = _as_decode_failure(
        gpu_scenario(
            "error_runtime",
            "error_runtime",
            total_gib=8.0,
            vram_gib={"11": 7.9},
            fail_with=torch_oom(ALLOCATION),
            log_lines={"11": line},
        )
    )
    first = suggest(doc)[0]
    # THEN not VAE Decode (Tiled) at its defaults (what ComfyUI's retry already tried) but smaller tiles, one click
    assert first.id == "tiled-decode" and "tile_size 256" in first.title and "ran out of memory too" in first.why
    assert first.action["type"] == "swap_vae_decode" and first.action["tile_size"] == 256
    assert first.action["temporal_size"] == 32 and "temporal_size 32" in first.try_  # the text and the click agree


def test_newer_comfyuis_tiling_by_estimate_is_no_failed_attempt():
    # GIVEN newer ComfyUI's INFO line (comfy/sd.py: "VAE decode needs more than the free VRAM; tiling directly.")
    # before the retry's warning, which it logs though no attempt ran
    planned = "VAE decode needs more than the free VRAM; tiling directly."
    line = "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding."
    doc = explain_log(f"got prompt\nRequested to load WanVAE\n{planned}\n{line}\nPrompt executed in 9.10 seconds\n")
    # THEN the fallback is its estimate's line, nothing is said to have failed, and the step is a note
    assert [(f["kind"], f["text"]) for f in doc["fallbacks"]] == [("tiled-vae-decode", planned)]
    assert doc["failure"] is None and "estimate" in doc["no_failure"]
    first = doc["suggestions"][0]
    assert first["tier"] == "note" and "nothing failed" in first["why"] and "failed whole-image" not in first["why"]
    # AND a traced run reads it the same way: the live handler joins the INFO line to the warning it announces
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"8": 6.0}, log_lines={"8": f"{planned} {line}"})
    found = next(s for s in suggest(doc) if s.id == "tiled-decode")
    assert "estimate" in found.why and "wasted" not in found.why and found.tier == "note"


def test_vram_near_the_limit_at_decode_without_a_failure():
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"3": 8.0, "8": 11.5})
    found = suggest(doc)[0]
    assert found.id == "tiled-decode" and found.severity == "warning" and "11.5 GiB of 12.0 GiB VRAM (96%)" in found.why


def test_vram_spill_during_decode_and_during_sampling():
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"8": 11.9}, shared_gib={"8": 3.0})
    assert suggest(doc)[0].id == "tiled-decode" and "spilled" in suggest(doc)[0].why
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"3": 11.9, "8": 4.0}, shared_gib={"3": 2.0})
    assert "sysmem-fallback" in ids(doc) and "tiled-decode" not in ids(doc)


def test_an_already_tiled_decode_that_still_fails_gets_one_smaller_tile_step():
    doc = _as_decode_failure(
        gpu_scenario(
            "error_runtime", "error_runtime", total_gib=8.0, vram_gib={"11": 7.9}, fail_with=torch_oom(ALLOCATION)
        ),
        class_type="VAEDecodeTiled",
        tile_size=384,
    )
    first = suggest(doc)[0]
    assert first.id == "smaller-tiles" and "from 384 to 192" in first.try_ and "seams" in first.try_
    assert first.action == {"type": "set_widget", "node_id": "11", "widget": "tile_size", "value": 192}


def test_a_specialised_decoder_is_never_swapped_for_an_image_decoder():
    doc = _as_decode_failure(
        gpu_scenario(
            "error_runtime", "error_runtime", total_gib=8.0, vram_gib={"11": 7.9}, fail_with=torch_oom(ALLOCATION)
        ),
        class_type="VAEDecodeHunyuan3D",
    )
    found = suggest(doc)
    assert found[0].id == "tiled-decode-own" and found[0].action is None
    assert all((s.action or {}).get("type") != "swap_vae_decode" for s in found)


def test_vram_oom_while_loading_comfyui_issue_5886_with_launch_options_for_portable():
    # CheckpointLoaderSimple: "Currently allocated : 5.96 GiB ... Device limit : 12.00 GiB"
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={"4": 11.9}),
        "4",
        "CheckpointLoaderSimple",
        "load",
        "vram",
        "torch.OutOfMemoryError",
        ALLOCATION,
    )
    found = ids(doc)
    assert found[0] == "smaller-model" and "tiled-decode" not in found and "lowvram" in found
    lowvram = next(s for s in suggest(doc) if s.id == "lowvram")
    assert "python_embeded" in lowvram.try_ and "Trade-off" in lowvram.try_


def test_other_programs_holding_vram_point_to_reserve_vram():
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={"3": 11.9}, reserved_gib={"3": 8.0}),
        "3",
        "KSampler",
        "sampling",
        "vram",
        "torch.OutOfMemoryError",
        ALLOCATION,
        snapshot_gpu={"device_used_bytes": int(11.9 * GIB), "torch_reserved_bytes": 8 * GIB},
    )
    reserve = next(s for s in suggest(doc) if s.id == "reserve-vram")
    assert "3.9 GiB" in reserve.why and "--reserve-vram 3.9" in reserve.try_


def test_launch_options_are_not_suggested_when_already_set():
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={"3": 11.9}, context={"argv": ["main.py", "--lowvram"]}),
        "3",
        "KSampler",
        "sampling",
        "vram",
        "torch.OutOfMemoryError",
        ALLOCATION,
    )
    assert "lowvram" not in ids(doc)


def test_pagefile_advice_sized_from_the_runs_peak_commit_windows_and_linux():
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"3": 6.0})
    for node in doc["nodes"]:
        if node["node_id"] == "4":
            node["peaks"]["commit_bytes"] = 38 * GIB  # 95% of the 40 GiB limit while loading
    found = next(s for s in suggest(doc) if s.id == "pagefile")
    assert found.severity == "warning" and "38.0 GiB of the 40.0 GiB commit limit (95%)" in found.why
    assert "fixed pagefile of 32 GB" in found.try_ and "never an HDD" in found.try_ and "compression" in found.try_
    # GIVEN the same figures on Linux: the commit limit binds only with strict overcommit (mode 2)
    doc["context"].update(os="Linux 6.8", overcommit_mode=2)
    strict = next(s for s in suggest(doc) if s.id == "pagefile")
    assert strict.title == "Raise Linux's commit limit" and "vm.overcommit_ratio" in strict.try_
    doc["context"]["overcommit_mode"] = 0  # the default: Committed_AS may pass CommitLimit freely
    assert "pagefile" not in ids(doc)


def test_a_paging_file_failure_comfyui_issue_8065_is_critical_and_mentions_lowvram_pressure():
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={"4": 3.0}, context={"argv": ["--lowvram"]}),
        "4",
        "CheckpointLoaderSimple",
        "load",
        "commit-limit",
        "OSError",
        "The paging file is too small for this operation to complete. (os error 1455)",
    )
    found = suggest(doc)
    assert found[0].id == "pagefile" and found[0].severity == "critical"
    assert "--lowvram moves work into system RAM" in found[0].try_
    assert [s.id for s in found][:2] == ["pagefile", "smaller-model"]  # both single changes, pagefile first


def test_commit_well_below_its_limit_gives_no_pagefile_advice():
    assert "pagefile" not in ids(gpu_scenario("txt2img", "txt2img", vram_gib={"3": 6.0}))


def test_disk_full_and_low_disk_from_the_machine():
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={}),
        "9",
        "SaveImage",
        "output",
        "disk",
        "OSError",
        "[Errno 28] No space left on device",
    )
    first = suggest(doc)[0]
    assert first.id == "free-disk" and first.severity == "critical" and "frees disk, not VRAM" in first.try_
    machine = {"disks": [{"role": "models", "path": "D:\\models", "free_bytes": 3 * GIB, "total_bytes": 1000 * GIB}]}
    assert "free-disk" in ids(gpu_scenario("txt2img", "txt2img", vram_gib={}), machine)
    roomy = {"disks": [{"role": "models", "path": "D:\\models", "free_bytes": 300 * GIB, "total_bytes": 1000 * GIB}]}
    assert "free-disk" not in ids(gpu_scenario("txt2img", "txt2img", vram_gib={}), roomy)


def test_memory_still_held_after_a_failed_run_offers_free_memory():
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={"3": 11.9}, end_gib=11.0),
        "3",
        "KSampler",
        "sampling",
        "vram",
        "torch.OutOfMemoryError",
        ALLOCATION,
    )
    doc["status"], doc["start_metrics"]["gpu0_used_bytes"] = "error", 2 * GIB
    held = next(s for s in suggest(doc) if s.id == "free-memory")
    assert held.action == {"type": "free_memory", "unload_models": True, "free_memory": True}
    doc["end_metrics"]["gpu0_used_bytes"] = 2 * GIB
    assert "free-memory" not in ids(doc)


def test_custom_node_upscale_and_video_failures():
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={"3": 11.9}),
        "3",
        "KSampler (Efficient)",
        "custom",
        "vram",
        "torch.OutOfMemoryError",
        ALLOCATION,
    )
    assert ids(doc)[0] == "builtin-node"
    doc = _fail_at(
        gpu_scenario("txt2img", "txt2img", vram_gib={"3": 11.9}),
        "3",
        "ImageUpscaleWithModel",
        "upscale",
        "vram",
        "torch.OutOfMemoryError",
        ALLOCATION,
    )
    assert ids(doc)[0] == "smaller-upscale"
    doc = gpu_scenario("txt2img", "txt2img", vram_gib={"3": 11.5})
    next(n for n in doc["nodes"] if n["node_id"] == "3")["stage"] = "video"
    assert "smaller-video" in ids(doc)


def test_no_advice_at_all_for_a_calm_successful_gpu_run():
    assert ids(gpu_scenario("txt2img", "txt2img", vram_gib={"3": 5.0, "8": 4.0})) == []


def test_gaps_in_the_data_never_raise():
    # a VRAM failure with nothing else known still gets a first step; no data at all gets nothing
    assert suggest({}) == []
    assert [s.id for s in suggest({"nodes": [{"node_id": "1"}], "failure": {"kind": "vram"}})] == ["smaller-step"]


# ---------------------------------------------------------------- helpers
def _fail_at(doc, node_id, class_type, stage, kind, exception_type, message, snapshot_gpu=None):
    doc = copy.deepcopy(doc)
    node = next(n for n in doc["nodes"] if n["node_id"] == node_id)
    node.update(class_type=class_type, stage=stage, status="failed")
    snapshot = {"gpus": [snapshot_gpu]} if snapshot_gpu else None
    doc["failure"] = {
        "node_id": node_id,
        "class_type": class_type,
        "stage": stage,
        "kind": kind,
        "exception_type": exception_type,
        "message": message,
        "snapshot": snapshot,
    }
    doc["status"] = "error"
    return doc


def _as_decode_failure(doc, class_type="VAEDecode", tile_size=None):
    doc = copy.deepcopy(doc)
    node = next(n for n in doc["nodes"] if n["node_id"] == "11")
    node.update(class_type=class_type, stage="vae-decode")
    doc["failure"].update(class_type=class_type, stage="vae-decode")
    if tile_size is not None:
        doc["prompt"]["11"] = {"class_type": class_type, "inputs": {"tile_size": tile_size, "overlap": 64}}
    return doc


def test_a_pagefile_or_swap_is_sized_to_hold_the_one_allocation_that_failed():
    # GIVEN Kosinkadink/ComfyUI-VideoHelperSuite#136 (Windows: "DefaultCPUAllocator: not enough memory: you tried to
    # allocate 65641881600 bytes", the machine's RAM not in the log) and numz/ComfyUI-SeedVR2_VideoUpscaler#130 (Linux)
    for name, size, asked in (
        ("vhs_136_loadvideo_1080p_defaultcpuallocator_65gb.log", "fixed pagefile of 62 GB", "61.1 GiB"),
        ("seedvr2_130_postprocess_defaultcpuallocator_83gb.log", "a 78 GB swap file", "77.2 GiB"),
    ):
        doc = explain_log((FIXTURES / "logs" / name).read_text(encoding="utf-8"))
        step = next(s for s in doc["suggestions"] if s["id"] == "pagefile")
        # THEN the size offered holds that allocation (not the table's smallest, 32 GB) and says why; and it points
        # at the setting that may have asked for that much
        assert size in step["try"] and f"one allocation alone asked for {asked}" in step["try"], step["try"]
        assert "lower the one that does" in step["try"]


def test_a_custom_nodes_failure_is_said_in_words_with_its_pack():
    # GIVEN Saganaki22/ComfyUI-FishAudioS2#5: a traceback through the pack's code, no node class in the log
    doc = explain_log((FIXTURES / "logs" / "ComfyUI-FishAudioS2-5_kv_cache_fp8_12g_traceback.log").read_text("utf-8"))
    step = next(s for s in doc["suggestions"] if s["id"] == "builtin-node")
    # THEN its why names the pack and what ran out, in words (not the kind's id, "vram")
    assert (
        step["why"]
        == "A node of custom_nodes/ComfyUI-FishAudioS2 failed: GPU memory (VRAM) ran out: Allocation on device."
    )
