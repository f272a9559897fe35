"""What a model file holds, from its safetensors header alone (never the weights): its parts — the
diffusion model, the VAE, the text encoders — each with its parameter count, its bytes in the file,
its dominant dtype and its family, found by the keys ComfyUI's own detection looks for
(``comfy/model_detection.py`` ``detect_unet_config``, ``comfy/sd.py`` ``VAE.__init__``).

A safetensors file starts with 8 bytes (the header's length, little-endian) and a JSON header:
``{"tensor name": {"dtype": "F16", "shape": [...], "data_offsets": [begin, end]}, ...}``. Reading it
costs one small read however large the file; a file that is not safetensors (``.gguf``, ``.ckpt``)
gives its size only.

>>> part_role("model.diffusion_model.input_blocks.0.0.weight"), part_role("first_stage_model.decoder.conv_in.weight")
('diffusion', 'vae')
"""

from __future__ import annotations

import json
import math
import os
import struct
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "DTYPE_BYTES",
    "ModelFile",
    "Part",
    "read_model",
    "model_from_header",
    "part_role",
    "diffusion_family",
    "vae_kind",
]

MAX_HEADER = 100 * 1024 * 1024
"""ComfyUI's own ceiling on a safetensors header (``comfy.utils.safetensors_header``)."""

DTYPE_BYTES = {
    "F64": 8,
    "I64": 8,
    "U64": 8,
    "F32": 4,
    "I32": 4,
    "U32": 4,
    "F16": 2,
    "BF16": 2,
    "I16": 2,
    "U16": 2,
    "F8_E4M3": 1,
    "F8_E5M2": 1,
    "F8_E8M0": 1,
    "I8": 1,
    "U8": 1,
    "BOOL": 1,
}

# prefix of a checkpoint's part -> its role; the first that matches wins (a checkpoint's CLIP vision model at the
# ``clip_vision_prefix`` ComfyUI 0.3.64's comfy/supported_models.py gives its family: SVD, unCLIP, Zero123, Cascade,
# Hunyuan3D)
_PREFIXES: tuple[tuple[str, str], ...] = (
    ("conditioner.embedders.0.open_clip.model.visual.", "clip_vision"),
    ("embedder.model.visual.", "clip_vision"),
    ("cond_stage_model.model.visual.", "clip_vision"),
    ("clip_l_vision.", "clip_vision"),
    ("conditioner.main_image_encoder.model.", "clip_vision"),
    ("model.diffusion_model.", "diffusion"),
    ("first_stage_model.", "vae"),
    ("vae.", "vae"),
    ("cond_stage_model.", "text_encoder"),
    ("conditioner.embedders.", "text_encoder"),
    ("text_encoders.", "text_encoder"),
    ("embedder.", "other"),
    ("model.model.", "diffusion"),
    ("net.", "diffusion"),
)


@dataclass(frozen=True, slots=True)
class Part:
    """One model of a file: its role (``diffusion``, ``vae``, ``text_encoder``, ``clip_vision``, ``other``), size and
    family."""

    role: str
    params: int
    file_bytes: int
    dtype: str | None
    """The dtype holding most of its elements (ComfyUI's ``weight_dtype``): ``F16``, ``BF16``, ``F8_E4M3`` ..."""
    family: str | None = None
    """``sd15``, ``sdxl``, ``flux``, ``wan21``... for a diffusion model; the VAE's kind for a VAE (``kl``, ``wan21`` ...)."""
    detail: Mapping[str, Any] = field(default_factory=dict)
    """What the family needs besides: a Wan model's ``dim``, a VAE's ``latent_channels``, LTXV's ``cross_attention_dim``."""
    modules: tuple[int, ...] = ()
    """Bytes in the file of each module (a layer's weight and bias), largest first: what ComfyUI moves
    to VRAM one at a time when it loads a model partially."""


@dataclass(frozen=True, slots=True)
class ModelFile:
    """A model file as read from its header (``parts``), or its size alone (``error`` says why)."""

    name: str
    size_bytes: int
    format: str
    parts: tuple[Part, ...] = ()
    error: str | None = None

    def part(self, role: str) -> Part | None:
        return next((p for p in self.parts if p.role == role), None)

    @property
    def family(self) -> str | None:
        diffusion = self.part("diffusion")
        return diffusion.family if diffusion is not None else None


def part_role(key: str) -> str:
    """The role of a tensor of a checkpoint by its prefix; a bare model's tensors are ``diffusion``
    until its keys say otherwise (see :func:`model_from_header`)."""
    for prefix, role in _PREFIXES:
        if key.startswith(prefix):
            return role
    return "diffusion"


def _strip(key: str) -> str:
    for prefix, _ in _PREFIXES:
        if key.startswith(prefix):
            return key[len(prefix) :]
    return key


_TEXT_ENCODER_KEYS = ("text_model.", "encoder.block.", "shared.weight", "model.layers.", "transformer.resblocks.")
_VAE_KEYS = ("decoder.", "encoder.down", "taesd_decoder.", "post_quant_conv.", "quant_conv.")
_CLIP_VISION_KEYS = ("vision_model.", "visual.")
"""A CLIP vision file's keys (``comfy/clip_vision.py`` ``load``: transformers' layout, or open_clip's ``visual.``)."""


def _bare_role(keys: set[str]) -> str:
    """What a single-model file is (a UNet, a VAE, a text encoder, a CLIP vision model) from its keys."""
    if all(k.startswith(_CLIP_VISION_KEYS) or k.startswith("visual_projection") for k in keys):
        return "clip_vision"
    if any(k.startswith(_TEXT_ENCODER_KEYS) for k in keys) and not any("diffusion" in k for k in keys):
        return "text_encoder"
    if any(k.startswith(_VAE_KEYS) for k in keys) and diffusion_family(keys, {}) is None:
        return "vae"
    return "diffusion"


def diffusion_family(keys: set[str], shapes: Mapping[str, list[int]]) -> str | None:
    """The diffusion model's family from its keys (prefix removed), as ComfyUI's detection checks them,
    in its order; ``None`` for a layout it would not recognise either."""

    def has(key: str) -> bool:
        return key in keys

    if has("joint_blocks.0.context_block.attn.qkv.weight"):
        return "sd3"
    if has("clf.1.weight"):
        return "stable_cascade"
    if has("double_layers.0.attn.w1q.weight"):
        return "aura_flow"
    if has("mlp_t5.0.weight"):
        return "hunyuan_dit"
    if has("txt_in.individual_token_refiner.blocks.0.norm1.weight"):
        return "hunyuan_video"
    if has("double_blocks.0.img_attn.norm.key_norm.scale"):
        if any(k.startswith("distilled_guidance_layer.") for k in keys):
            return "chroma"
        return "flux"
    if has("t5_yproj.weight"):
        return "mochi"
    if has("adaln_single.emb.timestep_embedder.linear_1.bias"):
        return "ltxv"
    if has("t_block.1.weight"):
        return "pixart"
    if has("blocks.block0.blocks.0.block.attn.to_q.0.weight"):
        return "cosmos"
    if has("cap_embedder.1.weight"):
        return "lumina2"
    if has("head.modulation"):
        out = shapes.get("head.head.weight")
        if out and out[0] // 4 == 48:
            return "wan22"
        return "wan21_vace" if any(k.startswith("vace_patch_embedding") for k in keys) else "wan21"
    if has("caption_projection.0.linear.weight"):
        return "hidream"
    if has("txt_norm.weight"):
        return "qwen_image"
    if has("input_blocks.0.0.weight"):
        return _unet_family(keys, shapes)
    return None


def _unet_family(keys: set[str], shapes: Mapping[str, list[int]]) -> str:
    """SD1.x / SD2.x / SDXL / its refiner / SVD, by the cross-attention width and the class embedding."""
    if any(".time_stack." in k for k in keys):
        return "svd"
    context = next(
        (
            shapes[k][1]
            for k in sorted(keys)
            if k.endswith("transformer_blocks.0.attn2.to_k.weight") and len(shapes.get(k, [])) == 2
        ),
        None,
    )
    adm = shapes.get("label_emb.0.0.weight")
    if context == 2048:
        return "sdxl"
    if context == 1280 or (adm and adm[1] == 2560):
        return "sdxl_refiner"
    if context == 1024:
        return "sd2"
    return "sd15"


def vae_kind(keys: set[str], shapes: Mapping[str, list[int]]) -> tuple[str, dict[str, Any]]:
    """The VAE's kind by the keys ``comfy.sd.VAE`` tells them apart with, and its latent channels."""
    conv_in = shapes.get("decoder.conv_in.weight") or shapes.get("decoder.conv_in.conv.weight")
    detail: dict[str, Any] = {}
    if conv_in and len(conv_in) >= 2:
        detail["latent_channels"] = conv_in[1]
    if "decoder.middle.0.residual.0.gamma" in keys:
        wan22 = "decoder.upsamples.0.upsamples.0.residual.2.weight" in keys
        detail["latent_channels"] = 48 if wan22 else 16
        return ("wan22" if wan22 else "wan21"), detail
    if "decoder.up_blocks.0.res_blocks.0.conv1.conv.weight" in keys:
        return "ltxv", {"latent_channels": 128}
    if "decoder.unpatcher3d.wavelets" in keys:
        return "cosmos", detail
    if any(k.startswith(("decoder.blocks.2.blocks.3.stack.5", "blocks.2.blocks.3.stack.5")) for k in keys):
        return "mochi", {"latent_channels": 12}
    if "decoder.conv_in.conv.weight" in keys:
        return "hunyuan_video", detail
    if "taesd_decoder.1.weight" in keys or "decoder.1.weight" in keys:
        return "taesd", detail
    return "kl", detail


def _dominant(counts: Mapping[str, int]) -> str | None:
    return max(counts.items(), key=lambda kv: kv[1])[0] if counts else None


def model_from_header(name: str, size_bytes: int, header: Mapping[str, Any]) -> ModelFile:
    """A :class:`ModelFile` from a parsed safetensors header."""
    groups: dict[str, dict[str, Any]] = {}
    for key, info in header.items():
        if key == "__metadata__" or not isinstance(info, dict):
            continue
        shape = info.get("shape") or []
        dtype = str(info.get("dtype") or "")
        begin, end = (info.get("data_offsets") or [0, 0])[:2]
        group = groups.setdefault(
            part_role(key), {"keys": set(), "shapes": {}, "params": 0, "bytes": 0, "dtypes": {}, "modules": {}}
        )
        stripped = _strip(key)
        count = math.prod(int(d) for d in shape) if shape else 1
        group["keys"].add(stripped)
        group["shapes"][stripped] = [int(d) for d in shape]
        group["params"] += count
        nbytes = max(0, int(end) - int(begin))
        group["bytes"] += nbytes
        module = stripped.rsplit(".", 1)[0]
        group["modules"][module] = group["modules"].get(module, 0) + nbytes
        group["dtypes"][dtype] = group["dtypes"].get(dtype, 0) + count
    if set(groups) == {"diffusion"}:  # a file of one model: which one its keys say
        groups = {_bare_role(groups["diffusion"]["keys"]): groups["diffusion"]}
    parts = []
    for role, g in groups.items():
        family: str | None = None
        detail: dict[str, Any] = {}
        if role == "diffusion":
            family = diffusion_family(g["keys"], g["shapes"])
            if family in ("wan21", "wan21_vace", "wan22"):
                detail["dim"] = (g["shapes"].get("head.modulation") or [0])[-1]
            if family == "ltxv":
                proj = g["shapes"].get("caption_projection.linear_1.weight")
                detail["cross_attention_dim"] = proj[0] if proj else 2048
        elif role == "vae":
            family, detail = vae_kind(g["keys"], g["shapes"])
        modules = tuple(sorted(g["modules"].values(), reverse=True))
        parts.append(Part(role, g["params"], g["bytes"], _dominant(g["dtypes"]), family, detail, modules))
    order = {"diffusion": 0, "text_encoder": 1, "vae": 2, "clip_vision": 3, "other": 4}
    return ModelFile(name, size_bytes, "safetensors", tuple(sorted(parts, key=lambda p: order.get(p.role, 9))))


_CACHE: dict[tuple[str, int, int], ModelFile] = {}
_CACHE_LOCK = threading.Lock()
_CACHE_MAX = 256


def read_model(path: str | os.PathLike[str]) -> ModelFile:
    """The file's parts from its header (cached by path, size and modification time). Never raises:
    an unreadable file or header gives its size (or 0) and ``error``."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        return ModelFile(p.name, 0, "missing", error=f"cannot read {p.name}: {e.strerror or e}")
    key = (str(p), st.st_size, st.st_mtime_ns)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    found = _read(p, st.st_size)
    with _CACHE_LOCK:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _read(p: Path, size: int) -> ModelFile:
    if p.suffix.lower() not in (".safetensors", ".sft"):
        return ModelFile(p.name, size, p.suffix.lower().lstrip(".") or "unknown", error="not safetensors: size only")
    try:
        with open(p, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise ValueError("shorter than a header")
            (length,) = struct.unpack("<Q", head)
            if length > MAX_HEADER or length > size:
                raise ValueError(f"header of {length} bytes")
            header = json.loads(f.read(length))
        if not isinstance(header, dict):
            raise ValueError("header is not an object")
        ends = (info.get("data_offsets", [0, 0])[1] for info in header.values() if isinstance(info, dict))
        declared = 8 + length + max((int(e) for e in ends if isinstance(e, int)), default=0)
        return model_from_header(p.name, max(size, declared), header)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        return ModelFile(p.name, size, "safetensors", error=f"unreadable header ({e})")


def total_params(parts: Iterable[Part]) -> int:
    return sum(p.params for p in parts)
