"""The table of memory-heavy custom nodes (memprobe/data/custom_nodes.json): every entry has its
stage, its knobs under the node's real input names, and the source file they were read from; a
failure in one of them is answered with its own knob."""

from __future__ import annotations

import json
from collections import Counter

from helpers import ROOT

from memprobe.judging.custom_nodes import custom_node, pack_of
from memprobe.logs.explain import explain_log
from memprobe.vocabulary import STAGES

TABLE = json.loads((ROOT / "memprobe" / "data" / "custom_nodes.json").read_text(encoding="utf-8"))["nodes"]


def test_the_table_covers_the_memory_heavy_packs_with_their_sources():
    assert len(TABLE) >= 50
    stages = Counter(entry["stage"] for entry in TABLE.values())
    assert {"load", "sampling", "vae-decode", "video", "upscale", "image", "text-encode"} <= set(stages)
    for class_type, entry in TABLE.items():
        assert entry["source"].startswith("https://github.com/") and entry["pack"] and entry["repo"], class_type
        assert entry["stage"] in STAGES or entry["stage"] == "custom-model", class_type
        for knob in entry["knobs"]:
            assert knob["input"] and knob["kind"] and knob["words"], class_type
    packs = {entry["pack"] for entry in TABLE.values()}
    for needed in (
        "ComfyUI-WanVideoWrapper",
        "ComfyUI-VideoHelperSuite",
        "ComfyUI_UltimateSDUpscale",
        "ComfyUI-Impact-Pack",
        "ComfyUI-Florence2",
        "ComfyUI-GGUF",
        "comfyui_segment_anything",
    ):
        assert needed in packs, needed


def test_a_clone_folder_is_matched_to_its_pack():
    assert pack_of("ComfyUI-WanVideoWrapper-main") == "ComfyUI-WanVideoWrapper"
    assert pack_of("comfyui-videohelpersuite") == "ComfyUI-VideoHelperSuite"
    assert pack_of("some-unknown-pack") is None


def test_a_decode_in_a_video_wrapper_is_told_to_tile_with_its_own_input():
    # GIVEN a VRAM failure in CogVideoXWrapper's decoder (kijai/ComfyUI-CogVideoXWrapper#26)
    doc = explain_log(
        (ROOT / "tests" / "fixtures" / "logs" / "cogvideox_26_cogvideodecode_allocation_on_device.log").read_bytes()
    )
    first = doc["suggestions"][0]
    # THEN its own tiling input, as the pack names it, with where that was read
    assert doc["failure"]["stage"] == "vae-decode" and first["id"] == "custom-node-tiling"
    assert "enable_vae_tiling" in first["try"] and custom_node("CogVideoDecode").source in first["try"]


def test_a_packs_decoder_known_by_its_code_or_its_name_is_told_to_tile():
    # GIVEN a traceback that stops in custom_nodes/comfyui-hunyuanvideowrapper/nodes.py's decode() (ROCm/ROCm#4742)
    doc = explain_log(
        (ROOT / "tests/fixtures/logs/rocm4742_9070xt_hyvideo_decode_allocation_traceback.log").read_bytes()
    )
    # THEN the pack's one decoder's own tiling input, though the log never names the node
    first = doc["suggestions"][0]
    assert doc["failure"]["stage"] == "vae-decode" and first["id"] == "custom-node-tiling"
    assert "HyVideoDecode" in first["try"] and "enable_vae_tiling" in first["try"]
    # AND a decoder the table does not know, named in a report, is told to use its own tiled mode, not swapped
    doc = explain_log(
        (ROOT / "tests/fixtures/logs/tangoflux18_vaedecodeandplay_allocation_on_device_report.log").read_bytes()
    )
    assert doc["failure"]["stage"] == "vae-decode" and doc["suggestions"][0]["id"] == "tiled-decode-own"
    assert not any((s.get("action") or {}).get("type") == "swap_vae_decode" for s in doc["suggestions"])


def test_system_memory_is_never_answered_by_moving_work_into_it():
    loader = custom_node("WanVideoModelLoader")
    assert loader is not None
    assert {k.kind for k in loader.knobs_for("load", "vram")} & {"offload", "block-swap", "quantization"}
    assert not {k.kind for k in loader.knobs_for("load", "system-ram")} & {"offload", "block-swap"}


def test_a_traceback_frame_names_the_custom_node_by_its_method_and_file():
    # LayerStyle#181: the frame below ComfyUI's executor is the node's FUNCTION in its pack's file
    from memprobe.judging.custom_nodes import node_of_frame

    path = "D:\\ComfyUI-aki-v1.3\\custom_nodes\\ComfyUI_LayerStyle\\py\\segment_anything_ultra_v2.py"
    assert (
        node_of_frame("ComfyUI_LayerStyle", path, "segment_anything_ultra_v2") == "LayerMask: SegmentAnythingUltra V2"
    )
    assert node_of_frame("ComfyUI_LayerStyle", path, "other_method") is None
    assert (
        node_of_frame("ComfyUI_LayerStyle-main", path.replace("py\\", "nodes\\"), "segment_anything_ultra_v2") is None
    )
    for class_type, entry in TABLE.items():  # a method is only a name with its file
        assert ("function" in entry) == ("file" in entry), class_type
    assert sum("function" in entry for entry in TABLE.values()) >= 100
    doc = explain_log(
        (ROOT / "tests/fixtures/logs/LayerStyle181_SegmentAnythingUltraV2_allocation_console.log").read_bytes()
    )
    assert doc["failure"]["node"]["class_type"] == "LayerMask: SegmentAnythingUltra V2"
