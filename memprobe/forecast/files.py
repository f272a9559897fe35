"""Where a workflow's files are: ComfyUI's model folders (``models/checkpoints`` ...), found the way
ComfyUI names them in a graph — a folder and a file name that may hold a subfolder
(``SDXL/juggernaut.safetensors``) — and its input images (``input/``, ``photo.png [output]``). The glue
asks ComfyUI itself (``folder_paths``); the command line looks under a ComfyUI folder, or takes the
sizes it is given for files not on this machine.

>>> FOLDERS["diffusion_models"]
('diffusion_models', 'unet')
"""

from __future__ import annotations

import importlib
import logging
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from .graph import ModelRef
from .models import ModelFile, read_model

__all__ = ["FOLDERS", "FolderLookup", "InputImages", "parse_image_size"]

log = logging.getLogger(__name__)

FOLDERS: dict[str, tuple[str, ...]] = {
    "checkpoints": ("checkpoints",),
    "diffusion_models": ("diffusion_models", "unet"),
    "text_encoders": ("text_encoders", "clip"),
    "vae": ("vae",),
    "loras": ("loras",),
    "upscale_models": ("upscale_models",),
    "controlnet": ("controlnet", "t2i_adapter"),
    "model_patches": ("model_patches",),
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


_ANNOTATED = re.compile(r"^(.*?)\s*\[(input|output|temp)\]$")
"""``photo.png [output]``: ComfyUI's name of a file in another of its folders (``folder_paths.annotated_filepath``)."""


def _safe(name: str) -> str | None:
    name = name.replace("\\", "/")
    return None if not name or name.startswith("/") or ".." in name.split("/") or ":" in name else name


class InputImages:
    """(width, height) of the images a graph's ``LoadImage`` nodes name: under a ComfyUI folder's ``input/`` (or
    ``output/``, ``temp/`` where the name says so), read from their headers by Pillow when it is installed (ComfyUI
    installs it), or as given (``--image photo.png=1024x768``) for images not on this machine."""

    def __init__(self, comfyui: str | os.PathLike[str] | None, sizes: Mapping[str, tuple[int, int]] | None = None):
        self.root = Path(comfyui) if comfyui is not None else None
        self.sizes = dict(sizes or {})
        self.unread: list[str] = []
        """Images found that could not be read (no Pillow, not an image), in the order asked."""
        self._read: dict[str, tuple[int, int] | None] = {}

    def __call__(self, name: str) -> tuple[int, int] | None:
        if name not in self._read:  # the forecast asks again for each change it tries
            self._read[name] = self._size(name)
        return self._read[name]

    def _size(self, name: str) -> tuple[int, int] | None:
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        given = self.sizes.get(name) or self.sizes.get(base)
        if given is not None:
            return given
        m = _ANNOTATED.match(name)
        file, folder = (m.group(1), m.group(2)) if m else (name, "input")
        path = self.root / folder / safe if self.root is not None and (safe := _safe(file)) else None
        if path is None or not path.is_file():
            return None
        try:
            pil = importlib.import_module("PIL.Image")
            with pil.open(path) as image:  # its header only: Pillow decodes lazily
                return int(image.size[0]), int(image.size[1])
        except Exception as exc:  # no Pillow, not an image: its size is unknown
            log.debug("input image %s not read: %s", name, exc)
            self.unread.append(name)
            return None


def parse_image_size(text: str) -> tuple[int, int]:
    """``1024x768`` -> (1024, 768); :class:`ValueError` with what is expected.

    >>> parse_image_size("1024x768"), parse_image_size(" 512 X 512 ")
    ((1024, 768), (512, 512))
    """
    m = re.fullmatch(r"\s*([0-9]{1,6})\s*[xX×]\s*([0-9]{1,6})\s*", text or "")
    if m is None or not int(m.group(1)) or not int(m.group(2)):
        raise ValueError(f"{text!r} is not an image size: write it as WIDTHxHEIGHT, like 1024x768")
    return int(m.group(1)), int(m.group(2))
