"""What the forecast's graph walk carries along a workflow's links and records per node: the model of a file
(:class:`ModelRef`), a latent's shape (:class:`Latent`), an image's size (:class:`Image`), and each node's effect on
memory (:class:`Step`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ModelRef", "Latent", "Image", "Step", "Value", "OUTPUT_IMAGE_BYTES"]

OUTPUT_IMAGE_BYTES = 4
"""ComfyUI's images are float32 ``[B, H, W, 3]`` on the intermediate device (the CPU)."""


@dataclass(frozen=True, slots=True)
class ModelRef:
    """A model of a file: ``role`` is ``diffusion``, ``text_encoder``, ``vae``, ``clip_vision``, ``upscale``,
    ``controlnet``, ``lora``, ``style``, ``model_patch``."""

    folder: str
    file: str
    role: str
    weight_dtype: str | None = None
    """UNETLoader's ``weight_dtype`` (``fp8_e4m3fn`` ...): ComfyUI stores the weights so."""
    loras: tuple[str, ...] = ()
    patches: tuple[ModelRef, ...] = field(default=(), compare=False)
    """The model patches applied to a diffusion model (``ModelPatchLoader``'s, through ``QwenImageDiffsynthControlnet``
    or ``USOStyleReference``): the sampler loads them with it (``DiffSynthCnetPatch.models()``). Not part of the
    model's identity: a patch hooks the model ComfyUI holds once, where a LoRA's weights are a copy of their own."""


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
    resizes: str | None = None
    """A node the forecast does not know: its setting that may change the size of the image it passes on."""
    tile: tuple[int, int, int] | None = None
    """A tiled decode's tile (latent height, width, frames); a tiled encode's (pixels' height, width, frames)."""
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
    does not know that is given a model to run (``graph.Walk.runs_a_model``); a built-in loader, sampler or VAE node whose
    file or latent another node computes, or that encodes an image of a size not known; a built-in node it has no model
    of (a 3D VAE's decode, training, a diffusers folder); a legacy group node."""


Value = Any  # ModelRef | tuple[ModelRef, ...] | Latent | Image | frozenset[ModelRef] | None
