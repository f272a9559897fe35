"""What each node class ComfyUI ships does to memory, as the graph walk reads it (:mod:`.graph`): a handler per class
(loaders, samplers, the VAE's nodes, image scaling ...) sets its :class:`Step` — the files it reads, the models it
moves onto the compute device, which of ComfyUI's estimates applies and to what — and returns the values of its
outputs. A built-in class without a handler is read by :func:`generic`."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..judging.stages import NodeSpec, newer_node_specs, node_specs
from ..judging.workflow import MATH_EXPRESSION, SWITCHES, is_link, switch_choice
from .steps import Image, Latent, ModelRef, Step, Value

if TYPE_CHECKING:
    from .graph import Walk

__all__ = ["HANDLERS", "generic"]

_CHECKPOINT_LOADERS = {
    "CheckpointLoaderSimple": ("MODEL", "CLIP", "VAE"),
    "CheckpointLoader": ("MODEL", "CLIP", "VAE"),
    "unCLIPCheckpointLoader": ("MODEL", "CLIP", "VAE", "CLIP_VISION"),
    "ImageOnlyCheckpointLoader": ("MODEL", "CLIP_VISION", "VAE"),
}
_UNET_LOADERS = {"UNETLoader": "unet_name", "UnetLoaderGGUF": "unet_name", "UnetLoaderGGUFAdvanced": "unet_name"}
_CLIP_KEYS = ("clip_name", "clip_name1", "clip_name2", "clip_name3", "clip_name4")
_TAESD = {"taesd", "taesdxl", "taesd3", "taef1", "pixel_space"}

# empty latents by name: (channels, spatial ratio, frames per latent frame or None)
_EMPTY_LATENTS: tuple[tuple[str, tuple[int, int, int | None]], ...] = (
    ("Wan22", (48, 16, 4)),
    ("LTXV", (128, 32, 8)),
    ("Mochi", (12, 8, 6)),
    ("Cosmos", (16, 8, 8)),
    ("Hunyuan", (16, 8, 4)),
    ("Wan", (16, 8, 4)),
    ("SD3", (16, 8, None)),
    ("Flux", (16, 8, None)),
    ("Chroma", (16, 8, None)),
    ("Qwen", (16, 8, None)),
)
_SAMPLERS = {"KSampler", "KSamplerAdvanced", "SamplerCustom", "SamplerCustomAdvanced"}
_DECODERS = {"VAEDecode", "VAEDecodeTiled"}
_ENCODERS = {"VAEEncode", "VAEEncodeTiled", "VAEEncodeForInpaint"}


def _int(value: Any, default: int | None = None) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _float(value: Any, default: float | None = None) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _scale_of(name: str) -> float:
    """An upscale model's factor from its file name (``4x_NMKD...``, ``RealESRGAN_x2``); 4 when it says none."""
    m = re.search(r"(?:^|[^a-z0-9])(\d)x|x(\d)(?:[^0-9]|$)", name.lower())
    return float(next(g for g in m.groups() if g)) if m else 4.0


# ---------------------------------------------------------------------------- node handlers
Handler = Callable[["Walk", Step, Mapping[str, Any]], "list[Value] | None"]
HANDLERS: dict[str, Handler] = {}


def _handles(*classes: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for c in classes:
            HANDLERS[c] = fn
        return fn

    return register


@_handles(*_CHECKPOINT_LOADERS)
def _checkpoint(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, "ckpt_name")
    if not isinstance(name, str):
        step.unknown = "the checkpoint's name is computed by another node"
        return None
    model, clip, vae, vision = (
        ModelRef("checkpoints", name, role) for role in ("diffusion", "text_encoder", "vae", "clip_vision")
    )
    refs: dict[str, ModelRef] = {"MODEL": model, "CLIP": clip, "VAE": vae, "CLIP_VISION": vision}
    outputs = _CHECKPOINT_LOADERS[step.class_type]
    step.reads = [refs[kind] for kind in outputs]  # ComfyUI builds the parts the loader outputs (output_clip ...)
    return [(refs[kind],) if kind == "CLIP" else refs[kind] for kind in outputs]


@_handles(*_UNET_LOADERS)
def _unet(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, _UNET_LOADERS[step.class_type])
    if not isinstance(name, str):
        return None
    dtype = w.lit(inputs, "weight_dtype")
    ref = ModelRef(
        "diffusion_models", name, "diffusion", dtype if isinstance(dtype, str) and dtype != "default" else None
    )
    step.reads, step.stage = [ref], "load"
    return [ref]


@_handles(
    "CLIPLoader", "DualCLIPLoader", "TripleCLIPLoader", "QuadrupleCLIPLoader", "CLIPLoaderGGUF", "DualCLIPLoaderGGUF"
)
def _clip(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    names = [w.lit(inputs, k) for k in _CLIP_KEYS if k in inputs]
    refs = tuple(ModelRef("text_encoders", n, "text_encoder") for n in names if isinstance(n, str))
    if not refs:
        return None
    step.reads, step.stage = list(refs), "load"
    return [refs]


@_handles("VAELoader")
def _vae(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, "vae_name")
    if not isinstance(name, str):
        return None
    ref = ModelRef("vae", name, "vae")
    if name not in _TAESD:
        step.reads = [ref]
    return [ref]


def _file_loader(folder: str, key: str, role: str) -> Handler:
    """A loader of one file whose model another node uses whole (an upscale model, a ControlNet)."""

    def load(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
        name = w.lit(inputs, key)
        if not isinstance(name, str):
            return None
        ref = ModelRef(folder, name, role)
        step.reads = [ref]
        return [ref]

    return load


HANDLERS["UpscaleModelLoader"] = _file_loader("upscale_models", "model_name", "upscale")
HANDLERS["CLIPVisionLoader"] = _file_loader("clip_vision", "clip_name", "clip_vision")
HANDLERS["StyleModelLoader"] = _file_loader("style_models", "style_model_name", "style")  # (it stays in RAM)
HANDLERS["ControlNetLoader"] = HANDLERS["DiffControlNetLoader"] = _file_loader(
    "controlnet", "control_net_name", "controlnet"
)
HANDLERS["ModelPatchLoader"] = _file_loader("model_patches", "name", "model_patch")  # (at the file's own dtype)


@_handles("QwenImageDiffsynthControlnet", "USOStyleReference", "ZImageFunControlnet", "AnimaLLLiteApply")
def _model_patch_apply(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    """A model patch set on the diffusion model (``comfy_extras/nodes_model_patch.py``): the sampler loads it with the
    model; a DiffSynth or Z-Image ControlNet's image is encoded with the VAE on the way, as :func:`generic` reads it
    (``ZImageFunControlnet`` and ``AnimaLLLiteApply``, newer than the recorded ComfyUI, by their documented inputs)."""
    spec = node_specs().get(step.class_type) or newer_node_specs().get(step.class_type)
    outs = (generic(w, step, inputs, spec) if spec is not None else None) or [w.value(inputs.get("model"), "MODEL")]
    if spec is None and is_link(inputs.get("vae")):
        step.unknown, step.uses_memory = "the image it encodes with its VAE is not counted", True
    model, patch = outs[0], w.value(inputs.get("model_patch"), "MODEL_PATCH")
    if isinstance(model, ModelRef) and isinstance(patch, ModelRef):
        outs[0] = replace(model, patches=(*model.patches, patch))
    return outs


@_handles(*SWITCHES)
def _switch(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    """An If/Else switch whose condition is set passes its chosen branch on: the walk follows links past it
    (``Walk.source``) and never runs the other branch. One whose condition another node computes is read as a node the
    forecast does not know: both branches run, and what it passes on is the first of each type."""
    if switch_choice(w.prompt, {"class_type": step.class_type, "inputs": inputs}) is not None:
        return []
    step.unknown = (
        f"{step.class_type}: its condition is computed by another node, so both of its branches are counted and what "
        "it passes on is taken from either"
    )
    return None


@_handles(MATH_EXPRESSION)
def _math_expression(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    """A Math Expression holds no memory: the number it makes is read where it is used (``literal``), or is said to be
    computed by another node there."""
    return []


@_handles("LoraLoader", "LoraLoaderModelOnly")
def _lora(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, "lora_name")
    model = w.value(inputs.get("model"), "MODEL")
    clip = w.value(inputs.get("clip"), "CLIP")
    if isinstance(name, str):
        step.reads = [ModelRef("loras", name, "lora")]
    if isinstance(model, ModelRef) and isinstance(name, str):
        model = replace(model, loras=(*model.loras, name))
    return [model] if step.class_type == "LoraLoaderModelOnly" else [model, clip]


@_handles("ControlNetApply", "ControlNetApplyAdvanced", "ControlNetApplySD3", "ControlNetInpaintingAliMamaApply")
def _controlnet_apply(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    net = w.value(inputs.get("control_net"), "CONTROL_NET")
    extra = frozenset({net}) if isinstance(net, ModelRef) else frozenset()
    outs = []
    for key in ("conditioning", "positive", "negative"):
        if key in inputs:
            cond = w.value(inputs.get(key), "CONDITIONING")
            outs.append((cond if isinstance(cond, frozenset) else frozenset()) | extra)
    return outs


def _empty_latent(w: Walk, step: Step, inputs: Mapping[str, Any]) -> Latent | None:
    width, height = _int(w.lit(inputs, "width")), _int(w.lit(inputs, "height"))
    if width is None or height is None:
        step.unknown = "the latent's size is computed by another node"
        return None
    batch = _int(w.lit(inputs, "batch_size"), 1) or 1
    length = _int(w.lit(inputs, "length"))
    channels, ratio, temporal = next((v for n, v in _EMPTY_LATENTS if n in step.class_type), (4, 8, None))
    if temporal is not None and length is not None:
        frames = (max(1, length) - 1) // temporal + 1
        return Latent((batch, channels, frames, max(1, height // ratio), max(1, width // ratio)), temporal, ratio)
    return Latent((batch, channels, max(1, height // ratio), max(1, width // ratio)), None, ratio)


@_handles("LatentUpscale", "LatentUpscaleBy")
def _latent_upscale(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    latent = w.value(inputs.get("samples"), "LATENT")
    if not isinstance(latent, Latent):
        return [None]
    *lead, h, wd = latent.shape
    if step.class_type == "LatentUpscaleBy":
        s = _float(w.lit(inputs, "scale_by"), 1.0) or 1.0
        nh, nw = round(h * s), round(wd * s)
    else:
        width, height = _int(w.lit(inputs, "width"), 0) or 0, _int(w.lit(inputs, "height"), 0) or 0
        nw = width // 8 if width else 0
        nh = height // 8 if height else 0
        if not nw and not nh:
            nh, nw = h, wd
        elif not nw:
            nw = max(1, round(wd * nh / h))
        elif not nh:
            nh = max(1, round(h * nw / wd))
    return [Latent((*lead, max(1, nh), max(1, nw)), latent.temporal, latent.ratio)]


@_handles("RepeatLatentBatch")
def _repeat(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    latent = w.value(inputs.get("samples"), "LATENT")
    amount = _int(w.lit(inputs, "amount"), 1) or 1
    if not isinstance(latent, Latent):
        return [None]
    return [Latent((latent.shape[0] * amount, *latent.shape[1:]), latent.temporal, latent.ratio)]


def _model_of(w: Walk, step: Step, inputs: Mapping[str, Any]) -> ModelRef | None:
    model = w.value(inputs.get("model"), "MODEL")
    step.cfg = _float(w.lit(inputs, "cfg"))
    if model is None and "guider" in inputs:  # SamplerCustomAdvanced: the guider holds the model
        link = w.source(inputs["guider"])
        guider = w.prompt.get(str(link[0])) if is_link(link) else None
        if guider is not None:
            guided = guider.get("inputs") or {}
            model = w.value(guided.get("model"), "MODEL")
            step.cfg = 1.0 if guider.get("class_type") == "BasicGuider" else _float(w.lit(guided, "cfg"))
            step.loads.extend(_controlnets(w, guided))
    return model if isinstance(model, ModelRef) else None


def _controlnets(w: Walk, inputs: Mapping[str, Any]) -> list[ModelRef]:
    found: set[ModelRef] = set()
    for key in ("positive", "negative", "conditioning"):
        cond = w.value(inputs.get(key), "CONDITIONING")
        if isinstance(cond, frozenset):
            found |= cond
    return sorted(found, key=lambda r: r.file)


@_handles(*_SAMPLERS)
def _sampler(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    latent = w.value(inputs.get("latent_image"), "LATENT")
    model = _model_of(w, step, inputs)
    if model is not None:
        step.loads[0:0] = [model, *model.patches]
    step.loads.extend(_controlnets(w, inputs))
    if isinstance(latent, Latent):
        step.latent, step.estimate = latent, "sampling"
    else:
        step.unknown = "the latent's size is not known (it comes from a node the forecast cannot size)"
    outs = [latent if isinstance(latent, Latent) else None]
    return outs * 2 if step.class_type.startswith("SamplerCustom") else outs


def _frames(latent: Latent) -> int:
    if latent.temporal is None or len(latent.shape) < 5:
        return 1
    return (latent.shape[2] - 1) * latent.temporal + 1


def _coding(w: Walk, step: Step, inputs: Mapping[str, Any], name: str, kind: str) -> tuple[Value, Value]:
    """A VAE node's input to decode or encode, and its VAE, which the node loads."""
    vae = w.value(inputs.get("vae"), "VAE")
    if isinstance(vae, ModelRef):
        step.loads = [vae]
    return w.value(inputs.get(name), kind), vae


def _tiles(w: Walk, inputs: Mapping[str, Any]) -> tuple[int, int]:
    """A tiled VAE node's tile: ``tile_size`` pixels, ``temporal_size`` frames (nodes.py's defaults 512 and 64)."""
    return _int(w.lit(inputs, "tile_size"), 512) or 512, _int(w.lit(inputs, "temporal_size"), 64) or 64


@_handles(*_DECODERS)
def _decode(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    latent, _ = _coding(w, step, inputs, "samples", "LATENT")
    if not isinstance(latent, Latent):
        step.unknown = "the latent's size is not known (it comes from a node the forecast cannot size)"
        return [None]
    step.latent, step.estimate = latent, "decode"
    h, wd = latent.shape[-2], latent.shape[-1]
    image = Image(latent.shape[0] * _frames(latent), h * latent.ratio, wd * latent.ratio)
    if step.class_type == "VAEDecodeTiled":
        pixels, t_size = _tiles(w, inputs)
        tile = pixels // latent.ratio
        frames = latent.shape[2] if len(latent.shape) == 5 else 1
        tile_t = min(frames, max(1, t_size // (latent.temporal or 1))) if latent.temporal else 1
        step.tile = (min(h, tile), min(wd, tile), tile_t)
    step.image, step.keeps = image, image.bytes
    return [image]


@_handles(*_ENCODERS)
def _encode(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    image, vae = _coding(w, step, inputs, "pixels", "IMAGE")
    if not isinstance(image, Image):
        step.unknown = "the image's size is not known"
        return [None]
    channels = (w.vae_channels(vae) if isinstance(vae, ModelRef) else None) or 4
    step.image, step.estimate = image, "encode"
    if step.class_type == "VAEEncodeTiled":  # tiles of tile_size pixels, temporal_size frames
        tile, frames = _tiles(w, inputs)
        step.tile = (min(image.height, tile), min(image.width, tile), min(image.batch, frames))
    return [Latent((image.batch, channels, max(1, image.height // 8), max(1, image.width // 8)))]


@_handles("VAEDecodeHunyuan3D", "TrainLoraNode", "DiffusersLoader")
def _unestimated(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    """A built-in node that loads or runs a model the forecast has no model of (a 3D shape VAE's decode, training,
    a diffusers folder)."""
    step.unknown = f"{step.class_type}: the forecast has no model of this node's memory"
    step.uses_memory = True
    return None


@_handles("LoadImage", "LoadImageMask", "LoadImageOutput")
def _load_image(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, "image")
    size = w.image_size(name) if isinstance(name, str) and w.image_size is not None else None
    if size is None:
        step.unknown = "the input image's size is not known (the file is not on this machine)"
        return [None, None]
    image = Image(1, size[1], size[0])
    step.keeps = image.bytes
    return [image, None]


@_handles("ImageScale", "ImageScaleBy", "ImageScaleToTotalPixels", "ImageUpscaleWithModel")
def _image_scale(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    image = w.value(inputs.get("image"), "IMAGE")
    if not isinstance(image, Image):
        step.unknown = "the image's size is not known"
        return [None]
    if step.class_type == "ImageScaleBy":
        s = _float(w.lit(inputs, "scale_by"), 1.0) or 1.0
        out = Image(image.batch, round(image.height * s), round(image.width * s))
    elif step.class_type == "ImageScaleToTotalPixels":
        mp = _float(w.lit(inputs, "megapixels"), 1.0) or 1.0
        s = math.sqrt(mp * 1024 * 1024 / max(1, image.height * image.width))
        out = Image(image.batch, round(image.height * s), round(image.width * s))
    elif step.class_type == "ImageUpscaleWithModel":
        model = w.value(inputs.get("upscale_model"), "UPSCALE_MODEL")
        s = _scale_of(model.file) if isinstance(model, ModelRef) else 4.0
        if isinstance(model, ModelRef):
            step.loads = [model]
        step.image, step.estimate, step.scale = image, "upscale", s
        out = Image(image.batch, round(image.height * s), round(image.width * s))
    else:
        width, height = _int(w.lit(inputs, "width"), 0) or 0, _int(w.lit(inputs, "height"), 0) or 0
        if not width and not height:
            width, height = image.width, image.height
        elif not width:
            width = round(image.width * height / image.height)
        elif not height:
            height = round(image.height * width / image.width)
        out = Image(image.batch, height, width)
    step.keeps = out.bytes
    return [out]


_KONTEXT_SIZES = (
    (672, 1568), (688, 1504), (720, 1456), (752, 1392), (800, 1328), (832, 1248), (880, 1184), (944, 1104),
    (1024, 1024), (1104, 944), (1184, 880), (1248, 832), (1328, 800), (1392, 752), (1456, 720), (1504, 688),
    (1568, 672),
)  # fmt: skip
"""Flux Kontext's preferred sizes (width, height): comfy_extras/nodes_flux.py ``PREFERED_KONTEXT_RESOLUTIONS``."""


@_handles("FluxKontextImageScale")
def _kontext_scale(w: Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    """The preferred size whose aspect is nearest the image's (ComfyUI's own choice, ties to the first)."""
    image = w.value(inputs.get("image"), "IMAGE")
    if not isinstance(image, Image):
        step.unknown = "the image's size is not known"
        return [None]
    aspect = image.width / max(1, image.height)
    _, width, height = min((abs(aspect - wd / ht), wd, ht) for wd, ht in _KONTEXT_SIZES)
    out = Image(image.batch, height, width)
    step.keeps = out.bytes
    return [out]


def generic(w: Walk, step: Step, inputs: Mapping[str, Any], spec: NodeSpec | None = None) -> list[Value] | None:
    """A built-in node without a handler: an empty latent by its inputs, a text encoder (it loads its
    CLIP), or one that passes a value of the type it outputs through (a latent, an image, a model patch). ``spec``: a
    newer ComfyUI's node, by its documented inputs (else the recorded ComfyUI's)."""
    spec = spec or node_specs()[step.class_type]
    linked = {k: v for k, v in inputs.items() if is_link(v)}
    empty = None
    if "LATENT" in spec.outputs and "width" in inputs and "height" in inputs and spec.input_type("samples") is None:
        empty = _empty_latent(w, step, inputs)
    clip = next((w.value(v, "CLIP") for k, v in linked.items() if spec.input_type(k) == "CLIP"), None)
    if isinstance(clip, tuple) and "CONDITIONING" in spec.outputs:
        step.loads = list(clip)
        step.stage = "text-encode" if step.stage in ("other", "text-encode") else step.stage
    vision = next((w.value(v, "CLIP_VISION") for k, v in linked.items() if spec.input_type(k) == "CLIP_VISION"), None)
    if isinstance(vision, ModelRef):  # CLIPVisionEncode, SVD_img2vid_Conditioning ...: encode_image loads it
        step.loads.append(vision)
    encoded = _encodes_on_the_way(w, step, spec, inputs, linked)
    outs: list[Value] = []
    for kind in spec.outputs:
        carried = next((w.value(v, kind) for k, v in linked.items() if spec.input_type(k) == kind), None)
        if kind == "LATENT" and empty is not None:
            carried = empty
        if kind == "LATENT" and carried is None and encoded is not None:  # (InpaintModelConditioning: the image's)
            carried = encoded
        if kind == "CONDITIONING" and carried is None:
            carried = frozenset()
        outs.append(carried)
    if isinstance(next((o for o in outs if isinstance(o, Image)), None), Image) and step.stage not in ("output",):
        step.keeps = max(o.bytes for o in outs if isinstance(o, Image))
    return outs


def _encodes_on_the_way(
    w: Walk, step: Step, spec: NodeSpec, inputs: Mapping[str, Any], linked: Mapping[str, Any]
) -> Latent | None:
    """A built-in node given a VAE and an image encodes the image with it on the way (an image-to-video or inpaint
    conditioning: ``vae.encode`` inside ``WanImageToVideo``, ``InpaintModelConditioning`` ...): ComfyUI's encode
    estimate, at the size the node scales the image to (its ``width`` x ``height``) or the image's own. Its frames are
    the image's, or ``length`` for the Wan nodes, which pad the image to the video's length (comfy_extras/nodes_wan.py).
    Returns the latent of the image it encodes, for a node whose latent is that (``InpaintModelConditioning``,
    ``InstructPixToPixConditioning``: ``vae.encode(pixels)``)."""
    vae = next((w.value(v, "VAE") for k, v in linked.items() if spec.input_type(k) == "VAE"), None)
    images = [w.value(v, "IMAGE") for k, v in linked.items() if spec.input_type(k) == "IMAGE"]
    if not isinstance(vae, ModelRef) or not images:
        return None
    sized = [i for i in images if isinstance(i, Image)]
    width, height, length = (_int(w.lit(inputs, k)) for k in ("width", "height", "length"))
    frames = max((i.batch for i in sized), default=1)
    if length:
        frames = length if step.class_type.startswith("Wan") else min(frames, length)
    if width and height:
        image = Image(frames, height, width)
    elif sized:
        largest = max(sized, key=lambda i: i.height * i.width)
        image = Image(frames, largest.height, largest.width)
    else:
        step.unknown = "the image it encodes with its VAE is of a size not known"
        step.uses_memory = True
        return None
    step.loads.insert(0, vae)
    step.image, step.estimate = image, "encode"
    if "length" in inputs:  # a video's latent is the node's own (its frames folded), not the image's
        return None
    channels = w.vae_channels(vae) or 4
    return Latent((image.batch, channels, max(1, image.height // 8), max(1, image.width // 8)))
