"""The workflow as the forecast reads it: an API-format graph (``{id: {class_type, inputs}}``) walked
in the order ComfyUI executes it, with what flows along each link — which model, which latent shape,
which image size — and, for each node, what it will do to memory: the models it moves onto the compute
device, ComfyUI's estimate of its working memory, the image it keeps.

A node the forecast does not know (most custom nodes) is a :class:`Step` with ``unknown`` set: its
memory is not counted, and what it passes on is taken from its inputs of the same type (a model
patch passes its model on) — said, never silent.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..judging.custom_nodes import custom_node
from ..judging.stages import NodeClass, node_specs, stage_of
from ..judging.workflow import is_link, literal

__all__ = ["ModelRef", "Latent", "Image", "Step", "walk", "execution_order", "OUTPUT_IMAGE_BYTES"]

OUTPUT_IMAGE_BYTES = 4
"""ComfyUI's images are float32 ``[B, H, W, 3]`` on the intermediate device (the CPU)."""


@dataclass(frozen=True, slots=True)
class ModelRef:
    """A model of a file: ``role`` is ``diffusion``, ``text_encoder``, ``vae``, ``clip_vision``, ``upscale``,
    ``controlnet``, ``lora``, ``style``."""

    folder: str
    file: str
    role: str
    weight_dtype: str | None = None
    """UNETLoader's ``weight_dtype`` (``fp8_e4m3fn`` ...): ComfyUI stores the weights so."""
    loras: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Latent:
    shape: tuple[int, ...]
    temporal: int | None = None
    """Frames per latent frame (video latents), to size the decoded frames."""
    ratio: int = 8


@dataclass(frozen=True, slots=True)
class Image:
    batch: int
    height: int
    width: int

    @property
    def bytes(self) -> int:
        return self.batch * self.height * self.width * 3 * OUTPUT_IMAGE_BYTES


@dataclass(slots=True)
class Step:
    """One node's effect on memory."""

    node_id: str
    class_type: str
    stage: str
    loads: list[ModelRef] = field(default_factory=list)
    """Models it moves onto the compute device (``load_models_gpu``)."""
    reads: list[ModelRef] = field(default_factory=list)
    """Model files it reads into RAM (a loader node)."""
    estimate: str | None = None
    """``sampling``, ``decode``, ``encode``, ``upscale``: which of ComfyUI's estimates applies."""
    latent: Latent | None = None
    image: Image | None = None
    tile: tuple[int, int, int] | None = None
    """A tiled decode's tile (latent height, width, frames)."""
    scale: float = 1.0
    cfg: float | None = None
    """A sampler's CFG scale (1.0: ComfyUI runs the positive prompt alone)."""
    keeps: int = 0
    """Bytes of the images it outputs (kept on the intermediate device until the prompt ends)."""
    unknown: str | None = None
    """Why its memory is not counted (a node the forecast does not know, a size it cannot see)."""
    unread: list[str] = field(default_factory=list)
    """Model files it names that the forecast does not read (a custom node's, a loader it has no model of)."""
    uses_memory: bool = False
    """A node the forecast cannot size that holds memory of its own: one that names a model file it does not read; a
    custom node that loads, encodes, samples, decodes or upscales by its stage, or that the packs' table lists; one it
    does not know that is given a model to run (``_Walk.runs_a_model``); a built-in loader, sampler or VAE node whose
    file or latent another node computes, or that encodes an image of a size not known; a built-in node it has no model
    of (a 3D VAE's decode, training, a diffusers folder); a legacy group node."""


# ---------------------------------------------------------------------------- values along links
Value = Any  # ModelRef | tuple[ModelRef, ...] | Latent | Image | frozenset[ModelRef] | None

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


class _Walk:
    def __init__(self, prompt: Mapping[str, Any], image_size: Callable[[str], tuple[int, int] | None] | None) -> None:
        self.prompt = {
            str(k): v for k, v in prompt.items() if isinstance(v, dict) and isinstance(v.get("class_type"), str)
        }
        self.image_size = image_size
        self.outputs: dict[str, list[Value]] = {}
        self.passthrough: dict[str, dict[str, Value]] = {}
        self.steps: list[Step] = []
        self.unsized_loaders: set[str] = set()
        """Nodes that load a model the forecast cannot size (a pack's loader, a loader newer than its table)."""
        self.vae_channels: Callable[[ModelRef], int | None] = lambda _ref: None

    # -- reading inputs ---------------------------------------------------------------
    def value(self, raw: Any, kind: str) -> Value:
        """What a link carries, of the type ``kind``."""
        if not is_link(raw):
            return None
        source, index = str(raw[0]), int(raw[1])
        if source in self.outputs:
            outs = self.outputs[source]
            return outs[index] if 0 <= index < len(outs) else None
        return self.passthrough.get(source, {}).get(kind)

    def lit(self, inputs: Mapping[str, Any], key: str) -> Any:
        return literal(self.prompt, inputs.get(key))

    # -- the walk ---------------------------------------------------------------------
    def run(self, order: list[str]) -> list[Step]:
        for node_id in order:
            node = self.prompt[node_id]
            meta = node.get("_meta")
            unnamed = meta.get("widgets_values") if isinstance(meta, dict) else None
            self.node(node_id, node["class_type"], node.get("inputs") or {}, unnamed)
        return self.steps

    def node(self, node_id: str, class_type: str, inputs: Mapping[str, Any], unnamed: Any = None) -> None:
        spec = node_specs().get(class_type)
        if spec is not None:
            stage = stage_of(NodeClass(class_type, spec.category, "nodes", spec.output_node))
        else:  # as the tracer stages a custom node: its pack's table entry, else what its name says
            stage = stage_of(NodeClass(class_type, python_module="custom_nodes"))
        step = Step(node_id, class_type, stage)
        if class_type.startswith(_GROUP_NODE):
            step.unknown = (
                f"{class_type} is a group node (as frontends saved them before subgraphs): the nodes in it are not "
                "counted; save the workflow again from a current frontend, which turns it into a subgraph, or "
                "export it as API, to forecast them"
            )
        handler = _HANDLERS.get(class_type)
        if handler is None:
            handler = _generic
        outs = handler(self, step, inputs) if spec is not None or class_type in _HANDLERS else None
        if outs is None:
            outs = self.unknown(step, inputs, spec is None)
        if outs is not None:
            self.outputs[node_id] = outs
        read = {r.file for r in (*step.reads, *step.loads)}
        values = [*inputs.values(), *(unnamed if isinstance(unnamed, list) else ())]
        step.unread = [name for name in _model_files(values) if name not in read]
        if step.unknown is not None or step.unread:
            step.uses_memory = (
                step.uses_memory
                or bool(step.unread)
                or step.stage in (_MEMORY_STAGES if spec is None else _ESTIMATED_STAGES)
                or (spec is None and custom_node(class_type) is not None)
                or class_type.startswith(_GROUP_NODE)
                or (spec is None and self.runs_a_model(class_type, inputs))
            )
        if step.uses_memory and step.stage == "load":
            self.unsized_loaders.add(node_id)
        self.steps.append(step)

    def runs_a_model(self, class_type: str, inputs: Mapping[str, Any]) -> bool:
        """A node the forecast does not know that is given a model — a VAE, a text encoder, a CLIP vision, upscale or
        ControlNet model, or what a loader it cannot size loaded — runs it, whatever its name (a newer ComfyUI's
        ``Kandinsky5ImageToVideo`` encodes with the VAE, its ``TextGenerate`` runs the text encoder's LLM). A diffusion
        model says so only beside an image (``SAM3_Detect``, ``RTDETR_detect`` run a checkpoint on it): most nodes
        given one alone patch it. The input's name says what it takes (``vae``, ``clip`` ...): a switch's ``on_true``
        passes a model on, and what an unknown node outputs is only guessed from its inputs. Not so: an empty latent
        given a VAE (``LTXVEmptyLatentAudio``) reads its shape; a node given the diffusion model, the text encoder and
        the VAE at once bundles them (Impact Pack's ``ToBasicPipe``, rgthree's ``Context``)."""
        if "Empty" in class_type and "Latent" in class_type:
            return False
        given: set[str] = set()
        runs = image = False
        for name, raw in inputs.items():
            if not is_link(raw):
                continue
            runs = runs or str(raw[0]) in self.unsized_loaders
            for kind, word in _RUN_INPUTS:
                value = self.value(raw, kind) if word in name.lower() else None
                if isinstance(value, tuple) or (isinstance(value, ModelRef) and value.role in _RUN_ROLES):
                    given.add(kind)
            if name == "model" and _kind_of(self.value(raw, "MODEL")) == "MODEL":
                given.add("MODEL")
            image = image or name in ("image", "images", "pixels")
        if {"MODEL", "CLIP", "VAE"} <= given:
            return False
        return runs or bool(given - {"MODEL"}) or ("MODEL" in given and image)

    def unknown(self, step: Step, inputs: Mapping[str, Any], custom: bool) -> list[Value] | None:
        """A node the forecast cannot size: its memory is not counted; it passes on its inputs by type."""
        carried: dict[str, Value] = {}
        for raw in inputs.values():
            for kind in ("MODEL", "CLIP", "VAE", "CLIP_VISION", "LATENT", "IMAGE", "CONDITIONING"):
                if kind not in carried and (v := self.value(raw, kind)) is not None and _kind_of(v) == kind:
                    carried[kind] = v
        self.passthrough[step.node_id] = carried
        if step.unknown is None:
            step.unknown = (
                f"{step.class_type} is a node the forecast does not know (a custom node, or one newer than "
                "ComfyUI 0.3.64): its own memory is not counted, what it passes on is taken as unchanged"
                if custom
                else f"{step.class_type}: no estimate for this node's memory"
            )
        return None


_MODEL_SUFFIXES = (".safetensors", ".sft", ".ckpt", ".pt", ".pth", ".bin", ".gguf", ".onnx", ".engine")
"""How the model files ComfyUI's and the packs' loaders list end."""
_MEMORY_STAGES = frozenset({"load", "text-encode", "sampling", "vae-decode", "vae-encode", "upscale", "image"})
"""The stages whose nodes hold memory of their own (a custom node's by its name: see ``custom_stage_by_name``)."""
_RUN_ROLES = frozenset({"vae", "clip_vision", "upscale", "controlnet"})
"""The models a node given one runs (a text encoder travels as a tuple: the CLIP)."""
_RUN_INPUTS = (
    ("VAE", "vae"),
    ("CLIP", "clip"),
    ("CLIP_VISION", "clip_vision"),
    ("UPSCALE_MODEL", "upscale"),
    ("CONTROL_NET", "control"),
)
"""The input that takes each model, by the word its name holds (``vae``, ``clip``, ``upscale_model``, ``control_net``)."""
_GROUP_NODE = ("workflow>", "workflow/")
"""A legacy group node's class in a saved workflow (``workflow>Name``; ``workflow/Name`` before frontend 1.x)."""
_ESTIMATED_STAGES = frozenset({"load", "sampling", "vae-decode", "vae-encode"})
"""A built-in node's stages whose memory is a model's or ComfyUI's estimate (an unknown image size is only an image's)."""


def _model_files(values: list[Any]) -> list[str]:
    """The model files a node's own values name (``"wan2.1_i2v_480p_14B_fp8.safetensors"``)."""
    return list(dict.fromkeys(v for v in values if isinstance(v, str) and v.lower().endswith(_MODEL_SUFFIXES)))


def _kind_of(value: Value) -> str | None:
    if isinstance(value, Latent):
        return "LATENT"
    if isinstance(value, Image):
        return "IMAGE"
    if isinstance(value, ModelRef):
        return {"diffusion": "MODEL", "vae": "VAE", "clip_vision": "CLIP_VISION"}.get(value.role)
    if isinstance(value, tuple):
        return "CLIP"
    if isinstance(value, frozenset):
        return "CONDITIONING"
    return None


# ---------------------------------------------------------------------------- node handlers
Handler = Callable[[_Walk, Step, Mapping[str, Any]], "list[Value] | None"]
_HANDLERS: dict[str, Handler] = {}


def _handles(*classes: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for c in classes:
            _HANDLERS[c] = fn
        return fn

    return register


@_handles(*_CHECKPOINT_LOADERS)
def _checkpoint(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
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
def _unet(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
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
def _clip(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    names = [w.lit(inputs, k) for k in _CLIP_KEYS if k in inputs]
    refs = tuple(ModelRef("text_encoders", n, "text_encoder") for n in names if isinstance(n, str))
    if not refs:
        return None
    step.reads, step.stage = list(refs), "load"
    return [refs]


@_handles("VAELoader")
def _vae(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, "vae_name")
    if not isinstance(name, str):
        return None
    ref = ModelRef("vae", name, "vae")
    if name not in _TAESD:
        step.reads = [ref]
    return [ref]


def _file_loader(folder: str, key: str, role: str) -> Handler:
    """A loader of one file whose model another node uses whole (an upscale model, a ControlNet)."""

    def load(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
        name = w.lit(inputs, key)
        if not isinstance(name, str):
            return None
        ref = ModelRef(folder, name, role)
        step.reads = [ref]
        return [ref]

    return load


_HANDLERS["UpscaleModelLoader"] = _file_loader("upscale_models", "model_name", "upscale")
_HANDLERS["CLIPVisionLoader"] = _file_loader("clip_vision", "clip_name", "clip_vision")
_HANDLERS["StyleModelLoader"] = _file_loader("style_models", "style_model_name", "style")  # (it stays in RAM)
_HANDLERS["ControlNetLoader"] = _HANDLERS["DiffControlNetLoader"] = _file_loader(
    "controlnet", "control_net_name", "controlnet"
)


@_handles("LoraLoader", "LoraLoaderModelOnly")
def _lora(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, "lora_name")
    model = w.value(inputs.get("model"), "MODEL")
    clip = w.value(inputs.get("clip"), "CLIP")
    if isinstance(name, str):
        step.reads = [ModelRef("loras", name, "lora")]
    if isinstance(model, ModelRef) and isinstance(name, str):
        model = ModelRef(model.folder, model.file, model.role, model.weight_dtype, (*model.loras, name))
    return [model] if step.class_type == "LoraLoaderModelOnly" else [model, clip]


@_handles("ControlNetApply", "ControlNetApplyAdvanced", "ControlNetApplySD3", "ControlNetInpaintingAliMamaApply")
def _controlnet_apply(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    net = w.value(inputs.get("control_net"), "CONTROL_NET")
    extra = frozenset({net}) if isinstance(net, ModelRef) else frozenset()
    outs = []
    for key in ("conditioning", "positive", "negative"):
        if key in inputs:
            cond = w.value(inputs.get(key), "CONDITIONING")
            outs.append((cond if isinstance(cond, frozenset) else frozenset()) | extra)
    return outs


def _empty_latent(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> Latent | None:
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
def _latent_upscale(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
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
def _repeat(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    latent = w.value(inputs.get("samples"), "LATENT")
    amount = _int(w.lit(inputs, "amount"), 1) or 1
    if not isinstance(latent, Latent):
        return [None]
    return [Latent((latent.shape[0] * amount, *latent.shape[1:]), latent.temporal, latent.ratio)]


def _model_of(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> ModelRef | None:
    model = w.value(inputs.get("model"), "MODEL")
    step.cfg = _float(w.lit(inputs, "cfg"))
    if model is None and "guider" in inputs:  # SamplerCustomAdvanced: the guider holds the model
        guider = w.prompt.get(str(inputs["guider"][0])) if is_link(inputs["guider"]) else None
        if guider is not None:
            guided = guider.get("inputs") or {}
            model = w.value(guided.get("model"), "MODEL")
            step.cfg = 1.0 if guider.get("class_type") == "BasicGuider" else _float(w.lit(guided, "cfg"))
            step.loads.extend(_controlnets(w, guided))
    return model if isinstance(model, ModelRef) else None


def _controlnets(w: _Walk, inputs: Mapping[str, Any]) -> list[ModelRef]:
    found: set[ModelRef] = set()
    for key in ("positive", "negative", "conditioning"):
        cond = w.value(inputs.get(key), "CONDITIONING")
        if isinstance(cond, frozenset):
            found |= cond
    return sorted(found, key=lambda r: r.file)


@_handles(*_SAMPLERS)
def _sampler(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    latent = w.value(inputs.get("latent_image"), "LATENT")
    model = _model_of(w, step, inputs)
    if model is not None:
        step.loads.insert(0, model)
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


@_handles(*_DECODERS)
def _decode(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    latent = w.value(inputs.get("samples"), "LATENT")
    vae = w.value(inputs.get("vae"), "VAE")
    if isinstance(vae, ModelRef):
        step.loads = [vae]
    if not isinstance(latent, Latent):
        step.unknown = "the latent's size is not known (it comes from a node the forecast cannot size)"
        return [None]
    step.latent, step.estimate = latent, "decode"
    h, wd = latent.shape[-2], latent.shape[-1]
    image = Image(latent.shape[0] * _frames(latent), h * latent.ratio, wd * latent.ratio)
    if step.class_type == "VAEDecodeTiled":
        tile = (_int(w.lit(inputs, "tile_size"), 512) or 512) // latent.ratio
        frames = latent.shape[2] if len(latent.shape) == 5 else 1
        t_size = _int(w.lit(inputs, "temporal_size"), 64) or 64
        tile_t = min(frames, max(1, t_size // (latent.temporal or 1))) if latent.temporal else 1
        step.tile = (min(h, tile), min(wd, tile), tile_t)
    step.image, step.keeps = image, image.bytes
    return [image]


@_handles(*_ENCODERS)
def _encode(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    image = w.value(inputs.get("pixels"), "IMAGE")
    vae = w.value(inputs.get("vae"), "VAE")
    if isinstance(vae, ModelRef):
        step.loads = [vae]
    if not isinstance(image, Image):
        step.unknown = "the image's size is not known"
        return [None]
    channels = (w.vae_channels(vae) if isinstance(vae, ModelRef) else None) or 4
    step.image, step.estimate = image, "encode"
    return [Latent((image.batch, channels, max(1, image.height // 8), max(1, image.width // 8)))]


@_handles("VAEDecodeHunyuan3D", "TrainLoraNode", "DiffusersLoader")
def _unestimated(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    """A built-in node that loads or runs a model the forecast has no model of (a 3D shape VAE's decode, training,
    a diffusers folder)."""
    step.unknown = f"{step.class_type}: the forecast has no model of this node's memory"
    step.uses_memory = True
    return None


@_handles("LoadImage", "LoadImageMask", "LoadImageOutput")
def _load_image(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    name = w.lit(inputs, "image")
    size = w.image_size(name) if isinstance(name, str) and w.image_size is not None else None
    if size is None:
        step.unknown = "the input image's size is not known (the file is not on this machine)"
        return [None, None]
    image = Image(1, size[1], size[0])
    step.keeps = image.bytes
    return [image, None]


@_handles("ImageScale", "ImageScaleBy", "ImageScaleToTotalPixels", "ImageUpscaleWithModel")
def _image_scale(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
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
def _kontext_scale(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
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


def _generic(w: _Walk, step: Step, inputs: Mapping[str, Any]) -> list[Value] | None:
    """A built-in node without a handler: an empty latent by its inputs, a text encoder (it loads its
    CLIP), or one that passes a value of the type it outputs through (a latent, an image, a model patch)."""
    spec = node_specs()[step.class_type]
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
    encoded = _encodes_on_the_way(w, step, inputs, linked)
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


def _encodes_on_the_way(w: _Walk, step: Step, inputs: Mapping[str, Any], linked: Mapping[str, Any]) -> Latent | None:
    """A built-in node given a VAE and an image encodes the image with it on the way (an image-to-video or inpaint
    conditioning: ``vae.encode`` inside ``WanImageToVideo``, ``InpaintModelConditioning`` ...): ComfyUI's encode
    estimate, at the size the node scales the image to (its ``width`` x ``height``) or the image's own. Its frames are
    the image's, or ``length`` for the Wan nodes, which pad the image to the video's length (comfy_extras/nodes_wan.py).
    Returns the latent of the image it encodes, for a node whose latent is that (``InpaintModelConditioning``,
    ``InstructPixToPixConditioning``: ``vae.encode(pixels)``)."""
    spec = node_specs()[step.class_type]
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


# ---------------------------------------------------------------------------- order and entry
def execution_order(prompt: Mapping[str, Any]) -> list[str]:
    """The nodes ComfyUI runs, inputs before the node (depth first from each output node in id
    order); nodes no output depends on do not run."""
    nodes = {str(k): v for k, v in prompt.items() if isinstance(v, dict) and isinstance(v.get("class_type"), str)}
    consumers: dict[str, int] = {k: 0 for k in nodes}
    for node in nodes.values():
        for raw in (node.get("inputs") or {}).values():
            if is_link(raw) and str(raw[0]) in consumers:
                consumers[str(raw[0])] += 1

    def is_output(nid: str) -> bool:
        spec = node_specs().get(nodes[nid]["class_type"])
        return spec.output_node if spec is not None else consumers[nid] == 0

    def key(nid: str) -> tuple[int, str]:
        return (int(nid), nid) if nid.isdigit() else (1 << 60, nid)

    order: list[str] = []
    seen: set[str] = set()

    def visit(nid: str, depth: int = 0) -> None:
        if nid in seen or nid not in nodes or depth > 2000:
            return
        seen.add(nid)
        for raw in (nodes[nid].get("inputs") or {}).values():
            if is_link(raw):
                visit(str(raw[0]), depth + 1)
        order.append(nid)

    outputs = [n for n in nodes if is_output(n)] or [n for n in nodes if consumers[n] == 0]  # a graph still edited
    for nid in sorted(outputs, key=key):
        visit(nid)
    return order


def walk(
    prompt: Mapping[str, Any],
    *,
    image_size: Callable[[str], tuple[int, int] | None] | None = None,
    vae_channels: Callable[[ModelRef], int | None] | None = None,
) -> list[Step]:
    """Every node ComfyUI will run, in its order, with what it does to memory."""
    w = _Walk(prompt, image_size)
    if vae_channels is not None:
        w.vae_channels = vae_channels
    return w.run(execution_order(w.prompt))
