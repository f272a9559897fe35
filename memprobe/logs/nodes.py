"""Which node failed and in which stage, from what a ComfyUI log prints: the class a report, a dialog or
a validation line names; else the traceback (the frame below ComfyUI's executor names a built-in node by its
function, or a custom node pack by its folder), the node's module, ComfyUI's own code it ran through; else the
line logged just before (a sampler's bar, a model load, the VAE loaded to decode).

>>> identify(LogFailure("message", 1, message="x", class_type="VAEDecode")).stage
'vae-decode'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..judging.custom_nodes import custom_node, custom_node_classes, node_of_frame
from ..judging.stages import (
    CUSTOM_STAGE_NOUNS,
    RECORDED_COMFYUI,
    NodeClass,
    builtin_nodes,
    custom_stage_by_name,
    newer_builtin,
    stage_of,
)
from .records import Frame, LogFailure, LogLine

__all__ = ["Node", "identify", "class_in_message", "in_tiled_fallback", "BUILTIN_SOURCE"]

# What a node function in ComfyUI's own files is, where the traceback shows no class:
# (file, function) -> [(a hint in the source line, class)], the first that matches wins ("" always).
_BUILTIN_FUNCTIONS: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("nodes.py", "sample"): (("start_step", "KSamplerAdvanced"), ("noise_seed", "KSamplerAdvanced"), ("", "KSampler")),
    ("nodes.py", "decode"): (("tiled", "VAEDecodeTiled"), ("", "VAEDecode")),
    ("nodes.py", "encode"): (
        ("tiled", "VAEEncodeTiled"),
        ("vae.encode", "VAEEncode"),
        ("clip_vision", "CLIPVisionEncode"),
        ("token", "CLIPTextEncode"),
        ("clip.", "CLIPTextEncode"),
    ),
    ("nodes.py", "load_checkpoint"): (
        ("config_path", "CheckpointLoader"),
        ("clipvision", "unCLIPCheckpointLoader"),
        ("", "CheckpointLoaderSimple"),
    ),
    ("nodes.py", "load_clip"): (
        ("clip_name2", "DualCLIPLoader"),
        ("clip_path2", "DualCLIPLoader"),
        ("clip_vision", "CLIPVisionLoader"),
        ("", "CLIPLoader"),
    ),
    ("nodes.py", "load_unet"): (("", "UNETLoader"),),
    ("nodes.py", "load_vae"): (("", "VAELoader"),),
    ("nodes.py", "load_lora"): (("", "LoraLoader"),),
    ("nodes.py", "load_lora_model_only"): (("", "LoraLoaderModelOnly"),),
    ("nodes.py", "load_controlnet"): (("diff", "DiffControlNetLoader"), ("", "ControlNetLoader")),
    ("nodes.py", "load_style_model"): (("", "StyleModelLoader"),),
    ("nodes.py", "load_image"): (("mask", "LoadImageMask"), ("", "LoadImage")),
    ("nodes.py", "save_images"): (("", "SaveImage"),),
    ("nodes.py", "blend"): (("", "LatentBlend"),),
    ("nodes.py", "composite"): (("", "LatentComposite"),),
    ("nodes.py", "generate"): (("latent", "EmptyLatentImage"), ("batch_size", "EmptyLatentImage")),
    ("nodes_upscale_model.py", "upscale"): (("", "ImageUpscaleWithModel"),),
    ("nodes_upscale_model.py", "load_model"): (("", "UpscaleModelLoader"),),
    ("nodes_custom_sampler.py", "sample"): (("guider", "SamplerCustomAdvanced"), ("", "SamplerCustom")),
}
_EXECUTOR = {
    "execute",
    "recursive_execute",
    "get_output_data",
    "_map_node_over_list",
    "map_node_over_list",
    "process_inputs",
    "_async_map_node_over_list",
    "async_map_node_over_list",
}
# comfy_extras modules whose nodes all belong to one stage
_MODULE_STAGES = (
    ("nodes_upscale_model", "upscale"),
    ("nodes_custom_sampler", "sampling"),
    ("nodes_video", "video"),
    ("nodes_wan", "video"),
    ("nodes_hunyuan", "video"),
    ("nodes_lt", "video"),  # LTX-Video's nodes (nodes_lt.py; newer ComfyUI's nodes_lt_audio.py, LTX-2's audio)
    ("nodes_mochi", "video"),
    ("nodes_cosmos", "video"),
)
# ComfyUI's own code a traceback passes through, and the stage that code is
_CODE_STAGES = (
    ("comfy/sd.py", ("decode", "decode_tiled", "decode_tiled_", "decode_tiled_3d", "decode_tiled_1d"), "vae-decode"),
    ("comfy/sd.py", ("encode", "encode_tiled", "encode_tiled_"), "vae-encode"),
    ("comfy/sd.py", ("encode_from_tokens", "encode_from_tokens_scheduled", "tokenize"), "text-encode"),
    (
        "comfy/sd.py",
        (
            "load_checkpoint_guess_config",
            "load_state_dict_guess_config",
            "load_diffusion_model",
            "load_clip",
            "load_unet",
        ),
        "load",
    ),
    ("comfy/utils.py", ("load_torch_file",), "load"),
    ("comfy/samplers.py", (), "sampling"),
    ("comfy/sample.py", (), "sampling"),
    ("comfy/k_diffusion/", (), "sampling"),
)
# ComfyUI's code as the programs built on it name its folders: Fooocus' ``fcbh`` (later its ``ldm_patched``),
# Forge's ``ldm_patched`` (``modules`` is ComfyUI's ``comfy``)
_FORK_ROOTS = (
    ("/ldm_patched/modules/", "/comfy/"),
    ("/ldm_patched/", "/comfy/"),
    ("/fcbh/", "/comfy/"),
)
_VAE_FILE = re.compile(
    r"(?:^|(?<=/))(?:comfy|stable-diffusion(?:-stability-ai)?)/ldm/(?:[\w.]+/)*[\w.]*(?:vae|autoencoder)[\w.]*(?:/|$)",
    re.IGNORECASE,
)
"""A VAE's code in ComfyUI's models (``comfy/ldm/models/autoencoder.py``, ``comfy/ldm/wan/vae.py``,
``comfy/ldm/lightricks/vae/...``, ``comfy/ldm/audio/autoencoder.py``), or in the latent diffusion code they come from
as AUTOMATIC1111's web UI and its forks keep it (``repositories/stable-diffusion-stability-ai/ldm/models/...``)."""
_CODING_FUNCTION = re.compile(r"(?i)(?:^|_)(de|en)code(?:_|$)")
"""A VAE's decode or encode function (``decode``, ``_decode``, ``encode_tiled``; not ``get_autoencoder_params``)."""
_UPSAMPLING = re.compile(r"\b(?:interpolate|upsample)\b|\.up\[", re.IGNORECASE)
"""The code of the VAE's decoder in ``comfy/ldm/modules/diffusionmodules/model.py``: its ``Upsample`` (the encoder
only downsamples) or its ``up`` blocks."""


BUILTIN_SOURCE = f"ComfyUI {RECORDED_COMFYUI}"


# ---------------------------------------------------------------------------- identifying the node
@dataclass(slots=True)
class Node:
    class_type: str | None = None
    node_id: str | None = None
    pack: str | None = None
    stage: str | None = None
    stage_evidence: str | None = None
    stage_line: LogLine | None = None
    not_builtin: bool = False


_DECODE_CALL = re.compile(r"\b(decode_first_stage|decode_latents|vae\.decode(?:_tiled)?)\(")
"""A call that decodes latents with the VAE: latent diffusion's ``decode_first_stage`` (its VAE is the "first
stage"), a diffusers pipeline's ``decode_latents``, a pipeline's ``vae.decode``."""


def _path(frame: Frame) -> str:
    return frame.path.replace("\\", "/")


def _comfy_path(frame: Frame) -> str:
    """The frame's path with a fork's name for ComfyUI's code put back (``.../ldm_patched/modules/sd.py`` is
    ``.../comfy/sd.py``)."""
    path = _path(frame)
    for fork, comfy in _FORK_ROOTS:
        if fork in path:
            return path.replace(fork, comfy, 1)
    return path


_TILED_CALL = re.compile(r"\.(?:_?(?:de|en)code_tiled)")
"""``VAE.decode`` (``encode``) calling its tiled variant: in ComfyUI's ``comfy/sd.py`` only after the whole attempt
raised an out-of-memory error (0.3.x), or ComfyUI's estimate said it would (newer: "tiling directly")."""


def in_tiled_fallback(frames: list[Frame]) -> bool:
    """The traceback runs through ComfyUI's retry of a VAE decode (encode) in tiles for want of VRAM."""
    return any(
        f.function in ("decode", "encode")
        and _comfy_path(f).endswith("/comfy/sd.py")
        and _TILED_CALL.search(f.code or "") is not None
        for f in frames
    )


def _code_stage(frame: Frame) -> tuple[str, str] | None:
    """The stage ComfyUI's own code in ``frame`` is, and where it says so."""
    path = _comfy_path(frame)
    if "/custom_nodes/" in path or frame.function == "<module>":  # (a pack's code; a module being imported)
        return None
    for where, functions, stage in _CODE_STAGES:
        if where in path and (not functions or frame.function in functions):
            return stage, f"ComfyUI's {where.rstrip('/')} ({frame.function})"
    if (vae := _VAE_FILE.search(path)) and (coding := _CODING_FUNCTION.search(frame.function)):
        stage = "vae-decode" if coding.group(1).lower() == "de" else "vae-encode"
        where = path[vae.start() :]
        owner = "ComfyUI's" if where.startswith("comfy/") else "latent diffusion's"
        return stage, f"the VAE's {frame.function}() in {owner} {where}"
    if path.endswith("/comfy/ldm/modules/diffusionmodules/model.py") and _UPSAMPLING.search(frame.code or ""):
        return "vae-decode", "the VAE decoder's upsampling in ComfyUI's ldm/modules/diffusionmodules/model.py"
    return None


def _pack_of(frame: Frame) -> str | None:
    path = _path(frame)
    if "/custom_nodes/" not in path:
        return None
    return path.split("/custom_nodes/", 1)[1].split("/", 1)[0] or None


def _is_executor(frame: Frame) -> bool:
    path = _path(frame)
    if "/custom_nodes/" in path:
        return False
    name = path.rsplit("/", 1)[-1]
    return (
        (name in ("execution.py", "main.py") and frame.function in _EXECUTOR)
        or "/comfy_api/" in path
        or "/comfy_execution/" in path
    )


def _node_frame(frames: list[Frame]) -> Frame | None:
    """The node's own function: the frame right below ComfyUI's executor."""
    last = max((i for i, f in enumerate(frames) if _is_executor(f)), default=None)
    if last is not None and last + 1 < len(frames):
        return frames[last + 1]
    return None


def _class_from_frame(frame: Frame) -> str | None:
    name = _path(frame).rsplit("/", 1)[-1]
    if (pack := _pack_of(frame)) is not None:  # a custom node: the table knows its method and file
        return node_of_frame(pack, _path(frame), frame.function)
    code = (frame.code or "").lower()
    for hint, class_type in _BUILTIN_FUNCTIONS.get((name, frame.function), ()):
        if hint in code:
            return class_type
    return None


_OBJECT_OF = re.compile(r"'(\w+)' object has no attribute")


@cache
def _classes_by_lower() -> dict[str, str]:
    names = [*builtin_nodes(), *custom_node_classes()]
    return {name.lower(): name for name in names}


def _known_class(name: str | None) -> str | None:
    """The node class ``name`` spells, in its own case (a dialog pasted all in lower case still names
    ``VHS_VideoCombine``); ``name`` itself when it is no class Memory Probe knows."""
    if not name or name in builtin_nodes() or custom_node(name) is not None:
        return name
    return _classes_by_lower().get(name.lower(), name)


def class_in_message(message: str) -> str | None:
    """A known node class a message names as the object that broke (``'SUPIR_Upscale' object has no
    attribute 'model'``)."""
    m = _OBJECT_OF.search(message)
    if m is None:
        return None
    name = _known_class(m.group(1))
    return name if name in builtin_nodes() or custom_node(name) is not None else None


_CALLED_NODE = re.compile(r"^([A-Z]\w*)\.\w+\(\) (?:missing \d+ required|got an unexpected keyword|takes \d+ )")
"""Python's TypeError for a call with the wrong arguments, naming the method's class (``VanGoghPreprocessor.preprocess()
missing 1 required positional argument: 'swirl_effect'``)."""


_MISSING_NODE = re.compile(r"Cannot execute because node (.+?) does not exist")
"""ComfyUI's refusal of a prompt that holds a node no pack registered (``execution.py``, ``validate_prompt``)."""


def _class_the_executor_names(failure: LogFailure, frames: list[Frame]) -> str | None:
    """The node class an error raised by the executor itself names: the call into the node's method with arguments
    it does not take (a workflow saved for another version of the pack), or a class no pack registered — looked up
    (``KeyError: 'Eff. Loader SDXL'`` at ``NODE_CLASS_MAPPINGS[...]``, in ComfyUI or a tool that runs its
    workflows) or refused ("Cannot execute because node FaceDetailer does not exist.")."""
    if "does not exist" in failure.message and (m := _MISSING_NODE.search(failure.message)):
        return m.group(1)
    last = frames[-1] if frames else None
    if last is None:
        return None
    kind = (failure.exception_type or "").rsplit(".", 1)[-1]
    if kind == "KeyError" and last.code is not None and "node_class_mappings[" in last.code.lower():
        return failure.message.strip().strip("'\"") or None
    # the executor's call: execution.py's, or a V3 node's (comfy_api's EXECUTE_NORMALIZED, newer ComfyUI)
    executor = _path(last).endswith("/execution.py") or _is_executor(last)
    if kind == "TypeError" and executor and (m := _CALLED_NODE.match(failure.message)):
        return m.group(1)
    return None


def identify(failure: LogFailure) -> Node:
    frames = failure.frames or (failure.causes[0].frames if failure.causes else [])
    named = _known_class(failure.class_type) or _class_the_executor_names(failure, frames)
    node = Node(class_type=named, node_id=failure.node_id)
    own = _node_frame(frames)
    if own is not None:
        node.pack = _pack_of(own)
        if node.class_type is None:
            node.class_type = _class_from_frame(own)
    elif frames and not any(_is_executor(f) for f in frames):  # a paste that starts below the executor
        node.pack = next((p for f in frames if (p := _pack_of(f))), None)
    builtins = builtin_nodes()
    if node.class_type:
        entry = builtins.get(node.class_type)
        if entry is not None and node.pack is None:
            category, output_node = entry
            module = "nodes" if category is not None else None  # a newer class: what its name says
            node.stage = stage_of(NodeClass(node.class_type, category, module, output_node))
            node.stage_evidence = (
                f"{node.class_type} is a built-in node ({category or 'no category'})"
                if category is not None
                else f"{node.class_type} is a built-in node of ComfyUI newer than {RECORDED_COMFYUI}"
                if newer_builtin(node.class_type)
                else f"{node.class_type} is a built-in node (ComfyUI registers it where torchaudio imports)"
            )
        elif (known := custom_node(node.class_type)) is not None:
            node.stage, node.pack = known.stage, node.pack or known.pack
            node.stage_evidence = f"{node.class_type} is {known.pack}'s node for {known.stage} ({known.source})"
        else:
            node.stage = custom_stage_by_name(node.class_type)
            node.not_builtin = node.pack is None
            node.stage_evidence = (
                f"its code is in custom_nodes/{node.pack}"
                if node.pack
                else f"{node.class_type} is not one of {BUILTIN_SOURCE}'s built-in nodes"
            )
            if node.stage != "custom":
                node.stage_evidence += f"; its name says it is a {CUSTOM_STAGE_NOUNS[node.stage]}"
        return node
    if node.pack:
        node.stage, node.stage_evidence = "custom", f"the failing code is in custom_nodes/{node.pack}"
        deeper = frames[frames.index(own) + 1 :] if own is not None else frames
        decoder = next((f for f in deeper if "decode" in f.function.lower() and "vae" in _path(f).lower()), None)
        last = frames[-1] if frames else None
        if own is not None and "decode" in own.function.lower():  # the pack's own decoder
            node.stage = "vae-decode"
            node.stage_evidence += f", in its function {own.function}()"
        elif decoder is not None:  # a pack's sampler decoding its latents with its own VAE
            node.stage = "vae-decode"
            node.stage_evidence += f", decoding in its VAE's {decoder.function}()"
        elif last is not None and last.code is not None and (m := _DECODE_CALL.search(last.code)):
            node.stage = "vae-decode"  # the paste ends at the call: the latent diffusion code's VAE decode
            node.stage_evidence += f", calling {m.group(1)}() in {last.function}()"
        return node
    deeper = frames[frames.index(own) + 1 :] if own is not None else []
    for frame in deeper:  # what the node was doing (loading a file in a video node's module: a load)
        if (found := _code_stage(frame)) is not None:
            node.stage, where = found
            node.stage_evidence = f"the traceback runs through {where}"
            return node
    if own is not None and "/comfy_extras/" in _path(own):
        module = _path(own).rsplit("/", 1)[-1]
        for needle, stage in _MODULE_STAGES:
            if needle in module:
                node.stage, node.stage_evidence = stage, f"the failing node is in ComfyUI's {module}"
                return node
    for frame in [*frames, *(f for cause in failure.causes for f in cause.frames)]:  # (the error it handled too)
        if (found := _code_stage(frame)) is not None:
            node.stage, where = found
            node.stage_evidence = f"the traceback runs through {where}"
            return node
    if failure.before_hint and failure.before is not None:
        node.stage, node.stage_line = failure.before_hint, failure.before
        node.stage_evidence = _hint_evidence(failure.before_hint, failure.before.text)
        return node
    for line in failure.message.splitlines()[:8]:  # a pack's own words: "Error in Phase 3 (Decoding): ..."
        if ":" in line and (m := _CODING.search(line.split(":", 1)[0])) and not _MEDIA.search(line):
            node.stage = "vae-decode" if m.group(1).lower() == "de" else "vae-encode"
            node.stage_evidence = f"the failing step names itself: {line.split(':', 1)[0].strip()[:80]}"
            return node
    return node


_CODING = re.compile(r"(?i)\b(de|en)cod(?:e|ing|er)\b")
"""A decode (or encode) named before a failure's message: the phase a pack says it was in."""
_MEDIA = re.compile(r"(?i)\b(?:video|audio|x26[45]|h\.?26[45]|hevc|ffmpeg|codec)\b|initialize encoder\b")
"""A media file's encoder or decoder (FFmpeg's, x264's: video2x's "Failed to initialize encoder: Generic error in an
external library", "Error while decoding video"): not a VAE's."""


def _hint_evidence(hint: str, text: str) -> str | None:
    """Why the line logged last places the failure in ``hint``'s stage."""
    if text.startswith("Requested to load"):  # a VAE, loaded to decode (sampling had finished) or to encode
        return f"ComfyUI had just loaded the VAE to {'decode' if hint == 'vae-decode' else 'encode'} ({text})"
    if "retrying with tiled" in text.lower():
        return f"ComfyUI had just retried the VAE {hint.removeprefix('vae-')} in tiles"
    return {
        "sampling": "a sampler's progress bar was running when it failed",
        "load": "a checkpoint was being loaded when it failed",
        "vae-decode": "the line logged just before is a VAE decode's",
        "vae-encode": "the line logged just before is a VAE encode's",
    }.get(hint)
