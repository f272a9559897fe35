"""ComfyUI's model-manager log lines, read from real logs: three wordings, dynamic VRAM, any prefix."""

from __future__ import annotations

from pathlib import Path

import pytest

from memprobe.logs.modellog import ModelLogReader, models_from_log, parse_model_line

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LOGS = FIXTURES / "modellog"
MIB = 1024**2


def lines(name: str) -> list[str]:
    return (LOGS / name).read_text(encoding="utf-8").splitlines()


def mib(value: float) -> int:
    return round(value * MIB)


def test_the_old_and_new_wording_of_the_same_loads_give_the_same_figures():
    # GIVEN the before/after lines of ComfyUI's PR #10538
    old_partial, old_complete, new_partial, new_complete = (
        parse_model_line(t) for t in lines("pr10538_log_formats.log")
    )
    # THEN both wordings give kind, usable and loaded bytes; only the new one says what stayed offloaded
    assert (old_partial.kind, old_partial.loaded_bytes, old_partial.offloaded_bytes) == (
        "partially-loaded",
        mib(20024.842895507812),
        None,
    )
    assert old_partial.usable_bytes == mib(20034.674988555907) and old_partial.count == 0
    assert (new_partial.kind, new_partial.loaded_bytes, new_partial.offloaded_bytes) == (
        "partially-loaded",
        mib(20024.84),
        mib(18943.05),
    )
    assert (old_complete.kind, old_complete.loaded_bytes, old_complete.full_load) == (
        "loaded",
        mib(7909.737449645996),
        True,
    )
    assert (new_complete.kind, new_complete.usable_bytes, new_complete.loaded_bytes, new_complete.offloaded_bytes) == (
        "loaded",
        mib(1199.53),
        mib(242.03),
        0,
    )


def test_a_partial_load_names_the_model_requested_before_it_and_its_buffer():
    reader = ModelLogReader()
    parsed = [p for p in map(reader.feed, lines("pr11096_te_offload.log")) if p and p.kind != "requested"]
    assert [(p.model_class, p.loaded_bytes, p.offloaded_bytes, p.buffer_bytes) for p in parsed] == [
        ("WanTEModel", 0, mib(6419.09), mib(6009.00)),
        ("WanTEModel", mib(5283.48), mib(1136.00), mib(48.00)),
    ]


def test_log_prefixes_are_ignored_and_unrequested_reloads_stay_unnamed():
    loads = models_from_log(lines("issue4816_lowvram_sampling.log"))
    assert len(loads) == 9
    assert {m["name"] for m in loads} == {None}  # ComfyUI re-loaded a model it had: no "Requested to load"
    assert loads[0] == {
        "name": None,
        "kind": "partially-loaded",
        "loaded_bytes": mib(3753.0542068481445),
        "offloaded_bytes": None,
        "usable_bytes": mib(3753.0549018859865),
        "staged_bytes": None,
        "line": 1,
    }
    assert parse_model_line(lines("issue4816_lowvram_sampling.log")[9]).count == 0  # "0 models unloaded."
    assert parse_model_line("2024-09-07 03:19:56,499 - root - INFO - Unloading models for lowram load.") is None


def test_unloaded_partially_says_what_was_freed_and_what_remains():
    text = lines("issue13976_unloaded_partially.log")
    unloads = [p for p in map(parse_model_line, text) if p and p.kind == "partially-unloaded"]
    assert [(u.freed_bytes, u.loaded_bytes, u.buffer_bytes, u.count) for u in unloads] == [
        (mib(781.53), mib(857.88), mib(28.13), 0),
        (mib(632.86), mib(225.02), mib(56.25), 0),
    ]
    # a complete load with no usable figure ("loaded completely;  159.56 MB loaded"), named after the request
    loads = models_from_log(text)
    assert [(m["name"], m["loaded_bytes"], m["usable_bytes"]) for m in loads] == [
        (None, mib(159.56), None),
        (None, mib(1639.41), None),
        ("AutoencoderKL", mib(159.56), None),
    ]


def test_dynamic_vram_lines_name_themselves_and_give_the_staged_size():
    loads = models_from_log(lines("pr15027_dynamic_vram.log"))
    assert [(m["name"], m["kind"], m["staged_bytes"]) for m in loads] == [
        ("WanTEModel", "dynamic-prepared", 6419 * MIB),
        ("WanTEModel", "dynamic-prepared", 6419 * MIB),
        ("WanVAE", "dynamic-prepared", 241 * MIB),
        ("WAN21", "dynamic-prepared", 27251 * MIB),
    ]
    wan = parse_model_line(lines("pr15027_dynamic_vram.log")[-1])
    assert (wan.count, wan.loaded_bytes, wan.offloaded_bytes) == (400, None, None)


def test_dynamic_and_classic_loads_mixed_in_one_prompt_are_paired_in_order():
    loads = models_from_log(lines("gguf_pr427_dynamic_mixed.log"))
    assert [(m["name"], m["kind"]) for m in loads] == [
        ("LTXAVTEModel_", "partially-loaded"),
        (None, "partially-loaded"),
        ("LTXAV", "dynamic-prepared"),
        ("LTXAV", "dynamic-prepared"),
        ("AudioVAE", "loaded"),
        ("VideoVAE", "dynamic-prepared"),
    ]
    assert loads[0]["offloaded_bytes"] == mib(13574.77)


def test_a_dynamic_unload_fix_log_reads_zero_bytes_loaded():
    loads = models_from_log(lines("pr12227_dynamic_unload.log"))
    assert [(m["name"], m["loaded_bytes"], m["offloaded_bytes"], m["usable_bytes"]) for m in loads] == [
        (None, 0, mib(14825.46), 0),
        ("WAN21", 0, mib(14825.46), mib(201.17)),
    ]


def test_a_real_comfyui_0364_cpu_log_names_clip_unet_and_vae():
    # GIVEN the log of a real txt2img run of ComfyUI 0.3.64 on the CPU (fixtures/comfyui-0.3.64)
    text = (FIXTURES / "comfyui-0.3.64" / "logs" / "txt2img.log").read_text(encoding="utf-8").splitlines()
    loads = models_from_log(text)
    # THEN each model is named, loaded completely, with "unlimited" usable memory read as None
    assert [(m["name"], m["loaded_bytes"], m["usable_bytes"]) for m in loads] == [
        ("SD1ClipModel", mib(235.84423828125), None),
        ("BaseModel", mib(168.95997619628906), None),
        ("AutoencoderKL", mib(319.11416244506836), None),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "loaded",
        "loaded completely",
        "loaded partially; nonsense",
        "\x00\xff load \u2603",
        "x" * 100_000 + " load",
        "Requested to load",
        "Model  prepared for dynamic VRAM loading.",
        "loaded partially 1.0 nan 0",
    ],
)
def test_anything_else_is_not_a_model_line_and_never_raises(text):
    assert parse_model_line(text) is None


def test_ansi_colours_do_not_hide_a_line():
    parsed = parse_model_line(
        "\x1b[32m[INFO]\x1b[0m loaded completely; 484.30 MB usable, 415.20 MB loaded, full load: True"
    )
    assert (parsed.kind, parsed.loaded_bytes, parsed.full_load) == ("loaded", mib(415.20), True)


def test_a_load_line_repeated_under_another_request_takes_that_requests_name():
    # GIVEN the real 0.3.64 run's load lines, read twice in one reader (a long log repeats its lines), and the
    # same "loaded completely" line once more under a different request
    text = (FIXTURES / "comfyui-0.3.64" / "logs" / "txt2img.log").read_text(encoding="utf-8").splitlines()
    same = "loaded completely 9.5367431640625e+25 235.84423828125 True"
    loads = models_from_log([*text, "got prompt", *text, "Requested to load SDXL", same])
    # THEN the second reading names the same models with the same figures, and the last load is SDXL's
    names = [(m["name"], m["loaded_bytes"]) for m in loads]
    assert names[:3] == names[3:6] and len(names) == 7
    assert names[6] == ("SDXL", mib(235.84423828125))


def test_a_reader_of_a_log_whose_lines_never_repeat_keeps_a_bounded_memory_of_them():
    reader = ModelLogReader()
    for i in range(5000):
        reader.feed(f"Requested to load Model{i}")
        reader.feed(f"loaded completely 9.5367431640625e+25 {i}.5 True")
    assert len(reader._parsed) <= 1024
    assert reader.feed("loaded completely 9.5367431640625e+25 1.5 True") is not None
