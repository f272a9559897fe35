"""Where a workflow's model files are: ComfyUI's model folders (``models/checkpoints`` ...), found
the way ComfyUI names them in a graph — a folder and a file name that may hold a subfolder
(``SDXL/juggernaut.safetensors``). The glue asks ComfyUI itself (``folder_paths``); the command line
looks under a ComfyUI folder, or takes the sizes it is given for files not on this machine.

>>> FOLDERS["diffusion_models"]
('diffusion_models', 'unet')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from .graph import ModelRef
from .models import ModelFile, read_model

__all__ = ["FOLDERS", "FolderLookup"]

FOLDERS: dict[str, tuple[str, ...]] = {
    "checkpoints": ("checkpoints",),
    "diffusion_models": ("diffusion_models", "unet"),
    "text_encoders": ("text_encoders", "clip"),
    "vae": ("vae",),
    "loras": ("loras",),
    "upscale_models": ("upscale_models",),
    "controlnet": ("controlnet", "t2i_adapter"),
}
"""A graph's folder -> ComfyUI's folders for it (the newer name first, then the older one)."""


class FolderLookup:
    """Model files under ComfyUI's ``models`` folders, and sizes given for files that are elsewhere."""

    def __init__(self, roots: Iterable[str | os.PathLike[str]], sizes: Mapping[str, int] | None = None) -> None:
        self.roots = [Path(r) for r in roots]
        self.sizes = dict(sizes or {})

    def path(self, ref: ModelRef) -> Path | None:
        name = ref.file.replace("\\", "/")
        if name.startswith("/") or ".." in name.split("/"):
            return None  # a graph names files under a model folder, nothing else
        for root in self.roots:
            for folder in FOLDERS.get(ref.folder, (ref.folder,)):
                candidate = root / folder / name
                if candidate.is_file():
                    return candidate
        return None

    def __call__(self, ref: ModelRef) -> ModelFile | None:
        path = self.path(ref)
        if path is not None:
            return read_model(path)
        base = ref.file.replace("\\", "/").rsplit("/", 1)[-1]
        size = self.sizes.get(ref.file, self.sizes.get(base))
        if size is not None:
            return ModelFile(base, int(size), "given", error="size given, not read: its layout is not known")
        return None
