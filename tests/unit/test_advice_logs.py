"""Advice from what a log says and does not say: a traceback cut before its error (its first step is that line,
the memory step only as a condition), errors that are no memory's (cudaMallocAsync's own assertion), and a failure
in a custom pack's code that names none of its nodes (the pack's own options). Real logs from tests/fixtures/logs,
each cited where it is used."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log

CUT_DECODE = "ltxvideo_7006_vaedecode_ltx_vae_allocation.log"  # Comfy-Org/ComfyUI#7006: cut above its error line
MALLOC_ASSERT = "MuseTalkChaojie5_cudaMallocAsync_internal_assert_oneline.log"  # chaojie/ComfyUI-MuseTalk#5


def _log(name: str) -> str:
    return (FIXTURES / "logs" / name).read_text(encoding="utf-8")


def test_a_traceback_cut_before_its_error_is_told_to_copy_it_and_what_to_do_if_vram_ran_out():
    # GIVEN a real paste of VAE Decode's traceback that stops before the line naming the error
    doc = explain_log(_log(CUT_DECODE))
    # THEN nothing says what ran out: the verdict stays "not known to be memory"
    assert doc["failure"]["kind"] == "other" and doc["verdict"]["kind"] == "other"
    # AND the first step is the line it lacks, where ComfyUI keeps it; the decode's step follows as a condition,
    # a note (no alarm: nothing in the log says VRAM ran out)
    (first, tiles) = doc["suggestions"]
    assert (first["id"], first["tier"]) == ("find-the-error", "failure") and doc["verdict"]["change"]["id"] == first[
        "id"
    ]
    assert "at VAEDecode (vae-decode)" in first["why"] and "** Log path:" in first["try"]
    assert "Desktop app's comfyui_<date>.log" in first["try"]  # (its logs folder, as Comfy-Org/desktop's README says)
    assert (tiles["id"], tiles["tier"], tiles["severity"]) == ("tiled-decode", "note", "info")
    assert tiles["title"].startswith("If it ran out of GPU memory (VRAM), decode in tiles")
    assert "CUDA out of memory" in tiles["why"] and "VAE Decode (Tiled)" in tiles["try"]


def test_on_the_cpu_the_condition_is_system_ram():
    # GIVEN the same cut traceback from a ComfyUI started with --cpu
    doc = explain_log("python main.py --cpu\n" + _log(CUT_DECODE))
    # THEN the conditional step is for the memory it computes in
    ifs = [s for s in doc["suggestions"] if s["tier"] == "note"]
    assert ifs and all(s["title"].startswith("If it ran out of system RAM") for s in ifs)
    assert "MemoryError" in ifs[0]["why"]


def test_an_error_the_log_states_gets_no_step_to_find_it():
    # GIVEN the failure's error line in the log (the same decode, its error pasted)
    doc = explain_log(_log(CUT_DECODE) + "\ntorch.OutOfMemoryError: Allocation on device\n")
    # THEN it is judged and advised as that error, with nothing conditional
    assert doc["failure"]["kind"] == "vram"
    assert [s["id"] for s in doc["suggestions"]][0] == "tiled-decode"
    assert {s["id"] for s in doc["suggestions"]}.isdisjoint({"find-the-error"}) and not any(
        s["title"].startswith("If it ran out") for s in doc["suggestions"]
    )


def test_cuda_malloc_asyncs_own_assertion_is_told_to_switch_that_allocator_off():
    # GIVEN PyTorch's cudaMallocAsync bookkeeping assertion, pasted alone (a real one-line paste)
    doc = explain_log(_log(MALLOC_ASSERT))
    # THEN not called a memory failure, and the step is the native allocator
    assert doc["failure"]["kind"] == "other"
    (first,) = doc["suggestions"]
    assert first["id"] == "disable-cuda-malloc" and "--disable-cuda-malloc" in first["try"]
    assert "not an out-of-memory error" in first["why"] and "139382" in first["why"]
    # AND a ComfyUI already started without it is not told to
    launched = "python main.py --disable-cuda-malloc\n" + _log(MALLOC_ASSERT)
    assert "disable-cuda-malloc" not in [s["id"] for s in explain_log(launched)["suggestions"]]


@pytest.mark.parametrize(
    "name",
    [
        "KJNodes233_pointeditor_failed_validation_console.log",  # a prompt refused: nothing ran
        "PuLID21_import_failed_oneline.log",  # a pack that failed to import at start-up
        "3XCeptional_colab_struct_unpack_model_preview.log",  # its error is a module's own: "struct.error: ..."
    ],
)
def test_a_failure_with_no_error_line_to_cut_is_not_told_to_copy_one(name):
    # GIVEN real logs whose failure has no traceback cut before its error
    doc = explain_log(_log(name))
    # THEN no step to copy a missing line, and no condition on memory nothing points to
    assert doc["failure"]["kind"] == "other"
    assert not any(s["id"] == "find-the-error" or s["title"].startswith("If it ran out") for s in doc["suggestions"])


def test_an_error_named_by_a_c_extensions_module_ends_its_traceback():
    # GIVEN a traceback ending in OpenCV's own error type (lower-case, as C extensions name theirs)
    frames = _log(CUT_DECODE)
    said = "cv2.error: OpenCV(4.8.0) error: (-4:Insufficient memory) Failed to allocate 3221225472 bytes"
    doc = explain_log(frames + "\n" + said + "\n")
    # THEN that line is the error: read, not asked for
    assert doc["failure"]["exception_type"] == "cv2.error" and "Insufficient memory" in doc["failure"]["message"]
    assert "find-the-error" not in [s["id"] for s in doc["suggestions"]]


def test_vram_running_out_in_an_encode_is_told_to_encode_in_tiles():
    # GIVEN ComfyUI's VAE Encode out of VRAM (the shape of Comfy-Org/ComfyUI#7503's report, as a console prints it)
    log = (
        "got prompt\n!!! Exception during processing !!! Allocation on device\nTraceback (most recent call last):\n"
        '  File "/content/ComfyUI/execution.py", line 317, in execute\n    output_data = get_output_data(obj, inputs)\n'
        '  File "/content/ComfyUI/nodes.py", line 340, in encode\n    t = vae.encode(pixels[:,:,:,:3])\n'
        "torch.OutOfMemoryError: Allocation on device\n"
    )
    (first,) = explain_log(log)["suggestions"]
    # THEN the encoder's tiled node, not the decoder's
    assert first["title"] == "Encode in tiles" and "VAE Encode (Tiled)" in first["try"]
    assert "Decode" not in first["try"]


def test_a_failure_in_a_packs_code_that_names_none_of_its_nodes_gets_the_packs_own_memory_options():
    # GIVEN VHS's video loader out of host RAM, the traceback naming only the pack's code
    # (Kosinkadink/ComfyUI-VideoHelperSuite#67: a 3-minute 60 fps video, 68.9 GB asked of 64 GB)
    first = explain_log(_log("vhs_67_loadvideo_defaultcpuallocator_69gb.log"))["suggestions"][0]
    # THEN the pack's loaders' frame cap first, the maintainer's own advice, under the input's real name
    assert first["id"] == "custom-node-frames" and first["title"] == "Use ComfyUI-VideoHelperSuite's own memory options"
    assert "(VHS_LoadVideo), lower frame_load_cap to 81" in first["try"] and "does not say which" in first["try"]
    # AND a loader's variant with the same option is not listed twice
    assert first["try"].count("frame_load_cap") == 1
    # GIVEN GGUF's code out of VRAM, no node named (Comfy-Org/ComfyUI#13110)
    gguf = explain_log(_log("ComfyUI13110_gguf_dequantize_allocation_memory_summary_traceback.log"))["suggestions"]
    # THEN a smaller quantisation of its loader's file
    assert gguf[0]["id"] == "custom-node-precision" and "(UnetLoaderGGUF), set unet_name to Q4_K_M" in gguf[0]["try"]


def test_a_refusal_with_memory_free_is_looked_for_under_pytorch_first():
    # GIVEN CUDA's out-of-memory for 202 MiB while its own message says 14.98 GiB of 23.99 GiB was free (a one-line
    # paste from lllyasviel/FramePack#233, whose thread ended it with a larger Windows pagefile)
    doc = explain_log(_log("framepack_4090_oom_202mib_with_15gib_free.log"))
    # THEN the GPU's memory is what failed, but the first step says it was not full and where to look instead
    assert doc["failure"]["kind"] == "vram"
    first = doc["suggestions"][0]
    assert (first["id"], first["tier"]) == ("refused-while-free", "failure") and doc["verdict"]["change"]["id"] == (
        "refused-while-free"
    )
    assert "15.0 GiB of 24.0 GiB was free when 202.0 MiB was asked" in first["why"]
    assert first["try"].startswith("On Windows: let Windows manage the pagefile")  # (the paste names no system)
    assert "--disable-cuda-malloc" not in first["try"]  # (torch's own allocator's message, not cudaMallocAsync's)
    # AND cudaMallocAsync's refusal with 5 GiB free (cubiq/ComfyUI_IPAdapter_plus#761): its allocator is named, and
    # the loader's own step follows it
    doc = explain_log(_log("ipadapter761_checkpointloadersimple_exceed_allowed.log"))
    ids = [s["id"] for s in doc["suggestions"]]
    assert (
        ids[:2] == ["refused-while-free", "smaller-model"] and "--disable-cuda-malloc" in doc["suggestions"][0]["try"]
    )
    # AND on AMD (HIP, Comfy-Org/ComfyUI#13112: 13.60 GiB of 15.92 GiB free for 26 MiB) ROCm comes first
    first = explain_log(_log("rocm_windows_portable_message_only.log"))["suggestions"][0]
    assert first["id"] == "refused-while-free" and first["try"].startswith("On AMD's ROCm, update it")


@pytest.mark.parametrize(
    "name",
    [
        "ComfyUI13730_ltx23_rocm_7900xtx_oom_console.log",  # 1.40 GiB free of 24 GiB for 226 MiB: nearly full
        "comfyui12360_rtx5080_popup_exceed_allowed.log",  # cudaMallocAsync's, with little free
    ],
)
def test_a_refusal_with_little_free_is_a_shortage(name):
    ids = [s["id"] for s in explain_log(_log(name))["suggestions"]]
    assert ids and "refused-while-free" not in ids
