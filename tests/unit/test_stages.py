"""Stages over every node class of the recorded /object_info of ComfyUI 0.3.64."""

from __future__ import annotations

import pytest
from helpers import load_json

from memprobe.judging.stages import (
    STAGES,
    NodeClass,
    StageCache,
    node_class_from_object_info,
    node_class_from_type,
    stage_of,
)

OBJECT_INFO = load_json("comfyui-0.3.64/object_info.json")


def stage(class_type: str) -> str:
    return stage_of(node_class_from_object_info(class_type, OBJECT_INFO[class_type]))


def test_every_recorded_class_gets_a_known_stage():
    stages = {name: stage(name) for name in OBJECT_INFO}
    assert len(stages) == 478  # 365, and the 113 API nodes ComfyUI loads unless --disable-api-nodes
    assert set(stages.values()) <= set(STAGES)
    used = set(stages.values())
    assert {
        "load",
        "text-encode",
        "sampling",
        "vae-decode",
        "vae-encode",
        "upscale",
        "video",
        "image",
        "output",
        "custom",
        "other",
    } <= used


@pytest.mark.parametrize(
    ("class_type", "expected"),
    [
        ("CheckpointLoaderSimple", "load"),
        ("UNETLoader", "load"),
        ("CLIPLoader", "load"),
        ("VAELoader", "load"),
        ("LoraLoader", "load"),
        ("UpscaleModelLoader", "load"),
        ("DualCLIPLoader", "load"),
        ("CLIPTextEncode", "text-encode"),
        ("CLIPTextEncodeSDXL", "text-encode"),
        ("CLIPTextEncodeFlux", "text-encode"),
        ("TextEncodeQwenImageEdit", "text-encode"),
        ("KSampler", "sampling"),
        ("KSamplerAdvanced", "sampling"),
        ("SamplerCustomAdvanced", "sampling"),
        ("VAEDecode", "vae-decode"),
        ("VAEDecodeTiled", "vae-decode"),
        ("VAEDecodeHunyuan3D", "vae-decode"),
        ("VAEEncode", "vae-encode"),
        ("VAEEncodeTiled", "vae-encode"),
        ("VAEEncodeForInpaint", "vae-encode"),
        ("ImageUpscaleWithModel", "upscale"),
        ("LatentUpscale", "upscale"),
        ("ImageScaleBy", "upscale"),
        ("WanImageToVideo", "video"),
        ("EmptyHunyuanLatentVideo", "video"),
        ("CreateVideo", "video"),
        ("LoadImage", "image"),
        ("ImageBlur", "image"),
        ("GrowMask", "image"),
        ("SaveImage", "output"),
        ("PreviewImage", "output"),
        ("SaveVideo", "output"),
        ("SaveAnimatedWEBP", "output"),
        ("SaveImageWebsocket", "custom"),  # ships in custom_nodes/ as an example
        ("EmptyLatentImage", "other"),
        ("ConditioningCombine", "other"),
        ("LatentBlend", "other"),
    ],
)
def test_core_classes_get_the_right_stage(class_type, expected):
    assert stage(class_type) == expected


def test_custom_nodes_are_custom_unless_their_name_says_what_they_do():
    """A pack's own decoder (HunyuanVideo's, TangoFlux's) spends its memory decoding, and is told to
    use its own tiling (never swapped for VAE Decode); a pack's model loader, text encoder, sampler and upscaler
    say so in their names (held-out classes of 59 packs: docs/explain-accuracy.md); any other is ``custom``."""
    assert stage_of(NodeClass("VAEDecodeSpecial", "latent", "custom_nodes.some-pack")) == "vae-decode"
    assert stage_of(NodeClass("TangoFluxVAEDecodeAndPlay", "TangoFlux", "custom_nodes.ComfyUI-TangoFlux")) == (
        "vae-decode"
    )
    assert stage_of(NodeClass("SomePackMagic", "some/pack", "custom_nodes.some-pack")) == "custom"
    pack = "custom_nodes.some-pack"
    assert [
        stage_of(NodeClass(name, None, pack))
        for name in (
            "FancyLoader",
            "NunchakuTextEncoderLoaderV2",  # a loader first, whatever it loads
            "LoadFramePackModel",
            "ADE_LoadAnimateDiffModel",
            "LoadUpscalerTensorrtModel",
            "MochiTextEncode",
            "PyramidFlowSampler",
            "KSampler (Efficient)",
            "CCSR_Upscale",
            "DepthAnything_V2",
            "RembgByBiRefNet",
            "LoadVideoPath",  # loads no model
        )
    ] == [
        "load",
        "load",
        "load",
        "load",
        "load",
        "text-encode",
        "sampling",
        "sampling",
        "upscale",
        "image",
        "image",
        "custom",
    ]
    assert stage_of(NodeClass("MemProbe", "utils/memory", "custom_nodes.memory-probe")) == "probe"


def test_unknown_classes_are_guessed_from_their_name_or_other_never_an_error():
    assert stage_of(NodeClass("MysteryNode")) == "other"
    assert stage_of(NodeClass("FancyUpscaler")) == "upscale"
    assert stage_of(NodeClass("")) == "other"
    assert stage_of(NodeClass("X", category=None, python_module=None, output_node=True)) == "output"


def test_live_classes_v1_and_v3_attributes():
    class V1Node:
        CATEGORY = "sampling"
        RELATIVE_PYTHON_MODULE = "comfy_extras.nodes_custom_sampler"

    class Exploding:
        @property
        def CATEGORY(self):
            raise RuntimeError

    class CustomV3:
        CATEGORY = "image"
        RELATIVE_PYTHON_MODULE = "custom_nodes.foo"
        OUTPUT_NODE = False

    assert stage_of(node_class_from_type("SamplerX", V1Node)) == "sampling"
    assert stage_of(node_class_from_type("CustomX", CustomV3)) == "custom"
    assert stage_of(node_class_from_type("VAEDecode", None)) == "vae-decode"
    assert node_class_from_type("Y", Exploding).class_type == "Y"


def test_cache_computes_each_class_once():
    cache = StageCache()
    calls = []

    class Counting(type):
        def __getattribute__(cls, name):
            if name == "CATEGORY":
                calls.append(name)
            return super().__getattribute__(name)

    class KSamplerLike(metaclass=Counting):
        CATEGORY = "sampling"

    assert cache.stage("KSampler", KSamplerLike) == "sampling"
    assert cache.stage("KSampler", KSamplerLike) == "sampling"
    assert calls == ["CATEGORY"]
