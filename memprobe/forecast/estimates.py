"""ComfyUI's own memory estimates, written from what its source publishes (facts, not its code):
what the sampler asks for (``BaseModel.memory_required``), what a VAE decode or encode asks for
(``VAE.memory_used_decode``/``memory_used_encode``), the VRAM it keeps in reserve, and the rule that
decides how much of a model stays in VRAM (``load_models_gpu``: the "loaded partially" line).

Two generations of ComfyUI differ in a few numbers: ``"0.3"`` (0.3.x, the version the project runs
here) and ``"new"`` (0.4 on, through 0.38.x with dynamic VRAM). Each number says which; docs/forecast.md
cites the source lines.

>>> from memprobe.forecast.estimates import sampling_bytes, MIB
>>> round(sampling_bytes("sdxl", {}, (1, 4, 128, 128), dtype_bytes=2, efficient=True)[0] / MIB, 1)
524.3
>>> round(vae_decode_bytes("kl", (1, 4, 128, 128), dtype_bytes=2) / MIB)
4356
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MIB",
    "GIB",
    "Family",
    "FAMILIES",
    "family_of",
    "usage_factor",
    "latent_shape",
    "sampling_bytes",
    "vae_decode_bytes",
    "vae_encode_bytes",
    "extra_reserved",
    "minimum_inference",
    "weight_budget",
    "partial_load",
    "upscale_model_bytes",
]

MIB = 1024 * 1024
GIB = 1024 * MIB


@dataclass(frozen=True, slots=True)
class Family:
    """A diffusion model family: its name, ComfyUI's ``memory_usage_factor`` (0.3.x and newer), and
    its latent: channels, the VAE's spatial downscale, and how frames fold into latent frames."""

    label: str
    factor: float
    factor_new: float
    channels: int
    ratio: int
    temporal: int | None = None
    """Frames per latent frame after the first (Wan, Hunyuan: 4; LTXV, Cosmos: 8; Mochi: 6); ``None``: images."""
    vae: str = "kl"


# comfy/supported_models.py (memory_usage_factor), comfy/latent_formats.py (channels, ratio)
FAMILIES: dict[str, Family] = {
    "sd15": Family("Stable Diffusion 1.x", 1.0, 1.0, 4, 8),
    "sd2": Family("Stable Diffusion 2.x", 1.0, 1.0, 4, 8),
    "sdxl": Family("SDXL", 0.8, 0.8, 4, 8),
    "sdxl_refiner": Family("SDXL refiner", 1.0, 1.0, 4, 8),
    "svd": Family("Stable Video Diffusion", 2.0, 2.0, 4, 8),
    "sd3": Family("SD3", 1.2, 1.6, 16, 8),
    "flux": Family("Flux", 3.1, 3.1, 16, 8),
    "chroma": Family("Chroma", 3.2, 3.2, 16, 8),
    "aura_flow": Family("AuraFlow", 2.0, 2.0, 4, 8),
    "hunyuan_dit": Family("HunyuanDiT", 1.3, 1.3, 4, 8),
    "pixart": Family("PixArt", 0.5, 0.5, 4, 8),
    "lumina2": Family("Lumina 2", 1.2, 1.4, 16, 8),
    "hidream": Family("HiDream", 2.0, 2.0, 16, 8),
    "qwen_image": Family("Qwen-Image", 1.8, 1.8, 16, 8, vae="wan21"),
    "stable_cascade": Family("Stable Cascade", 2.0, 2.0, 16, 32),
    "hunyuan_video": Family("HunyuanVideo", 1.8, 1.8, 16, 8, 4, "hunyuan_video"),
    "mochi": Family("Mochi", 2.0, 2.0, 12, 8, 6, "mochi"),
    "ltxv": Family("LTX-Video", 5.5, 5.5, 128, 32, 8, "ltxv"),
    "cosmos": Family("Cosmos", 1.6, 1.6, 16, 8, 8, "cosmos"),
    "wan21": Family("Wan 2.1", 0.9, 0.9, 16, 8, 4, "wan21"),
    "wan21_vace": Family("Wan 2.1 VACE", 0.9, 0.9, 16, 8, 4, "wan21"),
    "wan22": Family("Wan 2.2 5B", 0.9, 0.9, 48, 16, 4, "wan22"),
}
DEFAULT_FACTOR = 2.0
"""``supported_models_base.BASE.memory_usage_factor``: a model class that sets none."""


def family_of(name: str | None) -> Family | None:
    return FAMILIES.get(name or "")


def usage_factor(family: str | None, detail: Mapping[str, Any], version: str = "0.3") -> float:
    """``memory_usage_factor`` as ComfyUI sets it for the model: Wan's scales with its width
    (``dim / 2222``, VACE x1.2), LTXV's with its cross-attention width (``/2048 * 5.5``)."""
    fam = family_of(family)
    if fam is None:
        return DEFAULT_FACTOR
    if family in ("wan21", "wan21_vace", "wan22") and detail.get("dim"):
        factor = float(detail["dim"]) / 2222
        return factor * 1.2 if family == "wan21_vace" else factor
    if family == "ltxv" and detail.get("cross_attention_dim"):
        return float(detail["cross_attention_dim"]) / 2048 * 5.5
    return fam.factor if version == "0.3" else fam.factor_new


def latent_shape(
    family: str | None, width: int, height: int, batch: int = 1, frames: int | None = None
) -> tuple[int, ...]:
    """The latent an empty-latent node of this family makes for an image (or video) of that size:
    ``[B, C, H/r, W/r]`` or ``[B, C, T', H/r, W/r]``."""
    fam = family_of(family) or FAMILIES["sd15"]
    h, w = max(1, height // fam.ratio), max(1, width // fam.ratio)
    if fam.temporal is None or frames is None:
        return (batch, fam.channels, h, w)
    return (batch, fam.channels, (max(1, frames) - 1) // fam.temporal + 1, h, w)


def sampling_bytes(
    family: str | None,
    detail: Mapping[str, Any],
    shape: Sequence[int],
    *,
    dtype_bytes: int,
    efficient: bool,
    version: str = "0.3",
) -> tuple[float, float]:
    """(what the sampler asks VRAM for, its minimum): ``memory_required`` of the latent with the batch
    doubled (cond and uncond together), and of the latent as it is. The area leaves the channels out.

    Efficient attention (xformers, or PyTorch's flash SDPA on NVIDIA/AMD/Intel):
    ``area x dtype size x 0.01 x factor`` MiB; any other (sub-quadratic, split, the CPU):
    ``area x 0.15 x factor`` MiB (comfy/model_base.py ``memory_required``, sampler_helpers.py
    ``estimate_memory``)."""
    factor = usage_factor(family, detail, version)
    rest = math.prod(int(d) for d in shape[2:])

    def required(batch: int) -> float:
        area = batch * rest
        per = dtype_bytes * 0.01 if efficient else 0.15
        return area * per * factor * MIB

    batch = int(shape[0]) if shape else 1
    return required(batch * 2), required(batch)


def vae_decode_bytes(kind: str | None, shape: Sequence[int], *, dtype_bytes: int, version: str = "0.3") -> float:
    """What ComfyUI asks for to decode ONE sample of the latent ``shape`` (``memory_used_decode``; the
    lambdas leave the batch out: ``decode`` splits a batch by the free memory), for the VAE's kind."""
    s = [int(d) for d in shape]
    ds = dtype_bytes
    if len(s) == 5:
        t, h, w = s[2], s[3], s[4]
    else:
        t, h, w = 1, s[-2], s[-1]
    if kind == "wan21":
        return (2200 if version != "0.3" and t <= 4 else 7000) * h * w * 64 * ds
    if kind == "wan22":
        return 8000 * h * w * 256 * ds
    if kind == "ltxv":
        return (900 if version == "0.3" else 1200) * t * h * w * 512 * ds
    if kind == "hunyuan_video":
        if version == "0.3":
            return 1500 * t * h * w * 256 * ds
        return 2800 * min(8, (t - 1) * 4 + 1) * h * w * 64 * ds
    if kind == "mochi":
        return 1000 * t * h * w * 384 * ds
    if kind == "cosmos":
        return 50 * t * h * w * 512 * ds
    return 2178 * h * w * 64 * ds  # the AutoencoderKL default (SD1.x, SDXL, SD3, Flux; TAESD takes it too)


def vae_encode_bytes(kind: str | None, pixels: Sequence[int], *, dtype_bytes: int, version: str = "0.3") -> float:
    """What ComfyUI asks for to encode one image ``[B, 3, H, W]`` (or ``[B, 3, T, H, W]``)."""
    s = [int(d) for d in pixels]
    ds = dtype_bytes
    h, w = s[-2], s[-1]
    t = s[2] if len(s) == 5 else 1
    if kind == "wan21":
        return (1500 if version != "0.3" and t <= 4 else 6000) * h * w * ds
    if kind == "wan22":
        return 3300 * h * w * ds
    if kind == "ltxv":
        return (70 if version == "0.3" else 80) * max(t, 7) * h * w * ds
    if kind == "hunyuan_video":
        return 900 * max(t, 2) * h * w * ds
    return 1767 * h * w * ds


def upscale_model_bytes(model_bytes: int, image: Sequence[int], scale: float) -> float:
    """What ``ImageUpscaleWithModel`` frees VRAM for: the model, a 512x512 tile at the model's scale
    x 384 (ComfyUI's own rough figure), and the input image (comfy_extras/nodes_upscale_model.py)."""
    elements = math.prod(int(d) for d in image)
    return model_bytes + 512 * 512 * 3 * 4 * max(scale, 1.0) * 384.0 + elements * 4


def extra_reserved(os_name: str, vram_total: int | None, reserve_vram_gb: float | None) -> int:
    """The VRAM ComfyUI keeps free for other programs: 400 MiB, 600 MiB on Windows (700 MiB there
    on a card over 15 GiB); ``--reserve-vram GB`` replaces it (model_management.py ``EXTRA_RESERVED_VRAM``)."""
    if reserve_vram_gb is not None:
        return int(reserve_vram_gb * GIB)
    if os_name.lower().startswith("win"):
        return (700 if (vram_total or 0) > 15 * GIB else 600) * MIB
    return 400 * MIB


def minimum_inference(reserved: int) -> float:
    """``minimum_inference_memory``: 0.8 GiB plus the reserve."""
    return 0.8 * GIB + reserved


def weight_budget(
    free: float,
    memory_required: float,
    minimum_required: float | None,
    reserved: int,
    *,
    nvidia: bool = True,
    version: str = "0.3",
) -> float:
    """How much of a model ``load_models_gpu`` lets stay in VRAM (``lowvram_model_memory``) when
    ``free`` is free (with the model's own loaded part counted free) and the work asks
    ``memory_required``: ``max(floor, free - minimum, min(free x ratio, free - minimum_inference))``;
    the floor is 128 MiB in 0.3.x and 0 after; the ratio 0 on NVIDIA, 0.4 elsewhere."""
    inference = minimum_inference(reserved)
    extra = max(inference, memory_required + reserved)
    minimum = extra if minimum_required is None else max(inference, minimum_required + reserved)
    ratio = 0.0 if nvidia else 0.4
    floor = 128 * MIB if version == "0.3" else 0.0
    return max(floor, free - minimum, min(free * ratio, free - inference))


def partial_load(module_bytes: Sequence[int], budget: float, *, streams: int = 0) -> tuple[int, int, int]:
    """(loaded, offloaded, buffer reserved) for a model of these modules under ``budget``, as
    ``ModelPatcher.load`` decides: largest modules first; one that would reach the budget stays in RAM.
    ``streams`` > 0 is newer ComfyUI's async offload: a module also needs room for the offload
    buffer (the largest offloaded module plus the next ``streams`` modules)."""
    sizes = sorted((int(m) for m in module_bytes), reverse=True)
    loaded = offloaded = buffer = 0
    for i, size in enumerate(sizes):
        if streams:
            potential = max(buffer, size + sum(sizes[i + 1 : i + 1 + streams]))
            fits = loaded + size + potential < budget
        else:
            potential = 0
            fits = loaded + size < budget
        if fits:
            loaded += size
        else:
            offloaded += size
            buffer = max(buffer, potential)
    return loaded, offloaded, buffer
