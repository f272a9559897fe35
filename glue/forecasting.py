"""What the forecast needs of the ComfyUI it runs in: where a graph's model files are (ComfyUI's own
``folder_paths``, extra model paths included) and how big an input image is. Both are read lazily,
when a graph asks; a file ComfyUI cannot find is ``None`` (the forecast says it is not counted)."""

from __future__ import annotations

from typing import Any

from ..memprobe.forecast.files import FOLDERS
from ..memprobe.forecast.graph import ModelRef
from ..memprobe.forecast.models import ModelFile, read_model
from .environment import import_optional

__all__ = ["comfy_model", "input_image_size"]


def comfy_model(ref: ModelRef) -> ModelFile | None:
    """The model file a graph names, as ComfyUI would find it."""
    folder_paths = import_optional("folder_paths")
    if folder_paths is None:
        return None
    for folder in FOLDERS.get(ref.folder, (ref.folder,)):
        try:
            path = folder_paths.get_full_path(folder, ref.file)
        except Exception:  # a folder name this ComfyUI does not know
            path = None
        if path:
            return read_model(path)
    return None


def input_image_size(name: str) -> tuple[int, int] | None:
    """(width, height) of an image in ComfyUI's input folder, from its header (Pillow reads it lazily)."""
    folder_paths = import_optional("folder_paths")
    pil: Any = import_optional("PIL.Image")
    if folder_paths is None or pil is None:
        return None
    try:
        path = folder_paths.get_annotated_filepath(name)
        with pil.open(path) as image:
            return int(image.size[0]), int(image.size[1])
    except Exception:  # not there, not an image: its size is unknown
        return None
