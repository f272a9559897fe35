"""ComfyUI's own nodes that 0.3.64's recorded ``/object_info`` lacks (``memprobe/data/comfyui_newer_nodes.json``, built
from comfyui-frontend-package 1.58.1 and comfyui-embedded-docs 0.5.15 by tests/fixtures/comfyui-newer/build.py): a log
of newer ComfyUI naming one names a built-in node, and a built-in decoder other than VAE Decode that ran out of VRAM is
told what ComfyUI itself offers it."""

from __future__ import annotations

import json

import pytest
from helpers import FIXTURES

from memprobe.judging.custom_nodes import custom_node_classes
from memprobe.judging.stages import builtin_class_titled, builtin_nodes, node_specs, unrecorded_builtin_nodes
from memprobe.logs.explain import explain_log

LOGS = FIXTURES / "logs"
OBJECT_INFO = json.loads((FIXTURES / "comfyui-0.3.64" / "object_info.json").read_text(encoding="utf-8"))


def test_the_table_holds_only_comfyuis_own_classes_that_0_3_64_did_not_record():
    table = unrecorded_builtin_nodes()
    assert len(table) > 500
    assert not set(table) & set(OBJECT_INFO) and not set(table) & set(node_specs())
    assert not set(table) & set(custom_node_classes())  # no pack's class taken for ComfyUI's
    assert not {"Note", "MarkdownNote", "Reroute", "PrimitiveNode"} & set(table)  # the frontend's own
    # the classes 2026's logs name (corpus: LTX-2, ACE-Step 1.5, Kandinsky 5, the audio VAE)
    for newer in ("LTXVAudioVAEDecode", "TextEncodeAceStepAudio1.5", "Kandinsky5ImageToVideo", "VAEDecodeAudioTiled"):
        assert table[newer][1] is True, newer
    # 0.3.64's own audio nodes, registered only where torchaudio imports: built in, not newer
    for audio in ("LoadAudio", "SaveAudio", "VAEDecodeAudio", "VAEEncodeAudio", "AudioEncoderLoader"):
        assert table[audio][1] is False, audio
    assert builtin_nodes()["VAEDecodeAudio"] == (None, False)
    # their display names, as a dialog or a report may title them
    assert builtin_class_titled("VAE Decode Audio (Tiled)") == "VAEDecodeAudioTiled"
    assert builtin_class_titled("Load Audio") == "LoadAudio"


@pytest.mark.parametrize(
    ("log", "class_type", "stage"),
    [
        # github.com/WhatDreamsCost/WhatDreamsCost-ComfyUI/issues/79: LTX-2's audio VAE decode, in a report
        ("WhatDreamsCost79_ltxv_audio_vae_decode_size_mismatch_report.log", "LTXVAudioVAEDecode", "vae-decode"),
        # github.com/Comfy-Org/ComfyUI/issues/15973: ACE-Step 1.5's text encode on ROCm
        ("ComfyUI15973_acestep_hip_invalid_kernel_report.log", "TextEncodeAceStepAudio1.5", "text-encode"),
    ],
)
def test_a_newer_built_in_node_in_a_real_log_is_not_taken_for_a_custom_one(log, class_type, stage):
    doc = explain_log((LOGS / log).read_bytes())
    failure = doc["failure"]
    assert failure["node"]["class_type"] == class_type and failure["node"]["pack"] is None
    assert failure["stage"] == stage
    assert failure["stage_evidence"] == f"{class_type} is a built-in node of ComfyUI newer than 0.3.64"
    assert not any("custom node pack" in u for u in doc["unknown"])


def _oom_in(class_type: str) -> dict:
    """A VRAM failure in the node, as newer torch words it (its caching allocator's message since 2.6)."""
    text = (
        "got prompt\n"
        "!!! Exception during processing !!! Allocation on device 0 would exceed allowed memory. (out of memory)\n"
        "Currently allocated     : 21.40 GiB\n"
        "Requested               : 3.00 GiB\n"
        "Device limit            : 23.99 GiB\n"
        "Free (according to CUDA): 0 bytes\n"
        "Traceback (most recent call last):\n"
        '  File "/ComfyUI/execution.py", line 496, in execute\n'
        "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\n"
    )
    return explain_log(f"Error occurred when executing {class_type}:\n\n{text}".encode())


def test_a_built_in_decoder_with_a_tiled_twin_is_told_to_use_it():
    doc = _oom_in("VAEDecodeAudio")
    first = doc["suggestions"][0]
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["stage"] == "vae-decode"
    assert first["id"] == "tiled-decode" and first["title"] == (
        "Decode in tiles: replace VAE Decode Audio with VAE Decode Audio (Tiled)"
    )
    assert "(in ComfyUI newer than 0.3.64) at tile_size 512, overlap 64" in first["try"]


def test_a_built_in_decoder_that_chunks_is_told_to_lower_its_chunk():
    # comfy_extras/nodes_hunyuan3d.py: VAEDecodeHunyuan3D's num_chunks (default 8000) is the points decoded at once
    first = _oom_in("VAEDecodeHunyuan3D")["suggestions"][0]
    assert (
        first["id"] == "tiled-decode-own"
        and first["title"] == "Decode in smaller chunks: lower VAEDecodeHunyuan3D's num_chunks"
    )
    assert first["try"].startswith("Lower num_chunks from 8000 to 4000")


def test_a_built_in_decoder_without_tiles_is_never_sent_to_a_pack():
    first = _oom_in("LTXVAudioVAEDecode")["suggestions"][0]
    assert first["id"] == "tiled-decode-own" and first["title"] == "Give LTXV Audio VAE Decode less to decode at once"
    assert "has no tiled mode in ComfyUI" in first["try"] and "pack" not in first["try"]
