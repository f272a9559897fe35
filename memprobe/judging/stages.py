"""Which stage of a workflow a node belongs to, from its class type, category and module.

Stages are what users reason about ("it fails at decode"), and what the advice keys on:

``load``, ``text-encode``, ``sampling``, ``vae-decode``, ``vae-encode``, ``upscale``, ``video``,
``image``, ``probe``, ``output``, ``custom`` (a node from ``custom_nodes``), ``other``.

>>> stage_of(NodeClass("VAEDecodeTiled", category="_for_testing"))
'vae-decode'
>>> stage_of(NodeClass("KSampler (Efficient)", python_module="custom_nodes.efficiency-nodes"))
'sampling'
>>> stage_of(NodeClass("SomePackMagic", python_module="custom_nodes.some-pack"))
'custom'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ..vocabulary import STAGES as STAGE_WORDS
from .custom_nodes import custom_node

__all__ = [
    "builtin_nodes",
    "unrecorded_builtin_nodes",
    "newer_builtin",
    "newer_node_specs",
    "RECORDED_COMFYUI",
    "node_specs",
    "NodeSpec",
    "STAGES",
    "NodeClass",
    "stage_of",
    "custom_stage_by_name",
    "CUSTOM_STAGE_NOUNS",
    "builtin_class_titled",
    "builtin_display_name",
    "node_class_from_object_info",
    "node_class_from_type",
    "StageCache",
]

STAGES = tuple(STAGE_WORDS)

PROBE_CLASSES = frozenset({"MemProbe"})


@dataclass(frozen=True, slots=True)
class NodeClass:
    """What is known of a node class; every field but the type may be missing."""

    class_type: str
    category: str | None = None
    python_module: str | None = None
    output_node: bool = False


# By name: these hold whatever category a pack files them under.
_NAME_RULES: tuple[tuple[str, str], ...] = (
    ("Loader", "load"),  # a text encoder's loader loads (``LTXAVTextEncoderLoader``)
    ("VAEDecode", "vae-decode"),
    ("VAEEncode", "vae-encode"),
    ("TextEncode", "text-encode"),
)

_IMAGE_FAMILIES = (
    "Depth",
    "Matte",
    "Matting",
    "Rembg",
    "BiRefNet",
    "Segment",
    "SemSeg",
    "Tagger",
    "FaceRestore",
    "RestoreFace",
    "FaceSwap",
)
"""An image model's node by its family's name: depth, matting, background removal, segmentation, tagging, faces."""

# A custom node Memory Probe does not know: only what its name says plainly, the first that matches (a pack's model
# loader, its decoder, its text encoder, its sampler, its upscaler).
_CUSTOM_NAME_RULES: tuple[tuple[str, str], ...] = (
    ("Loader", "load"),
    ("VAEDecode", "vae-decode"),
    ("VAEEncode", "vae-encode"),
    ("Decode", "vae-decode"),
    ("TextEncode", "text-encode"),
    ("Sampler", "sampling"),
    ("Upscale", "upscale"),
    *((family, "image") for family in _IMAGE_FAMILIES),
)
_LOADS_A_MODEL = re.compile(r"(?:^|_)Load[A-Z0-9]\w*Models?(?:[A-Z_]|$)")
"""A pack's loader named for what it does (``LoadFramePackModel``, ``ADE_LoadAnimateDiffModel``, ``LoadTrellis2Models``)."""
CUSTOM_STAGE_NOUNS = {
    "load": "model loader",
    "vae-decode": "VAE decoder",
    "vae-encode": "VAE encoder",
    "text-encode": "text encoder",
    "sampling": "sampler",
    "upscale": "upscaler",
    "image": "image model's node",
}
"""What a custom node's name says it is, by the stage it gives."""


def custom_stage_by_name(class_type: str) -> str:
    """The stage of a custom node the table does not know, from what its name says plainly: ``load`` for a pack's
    model loader (``BrushNetLoader``, ``LoadFramePackModel``), ``vae-decode`` for its decoder (``HyVideoDecode``,
    ``TangoFluxVAEDecodeAndPlay``), ``text-encode``, ``sampling`` (``MochiSampler``), ``upscale``, ``image`` for an
    image model's (``DepthAnything_V2``, ``RembgByBiRefNet``); else ``custom``.

    >>> custom_stage_by_name("TangoFluxVAEDecodeAndPlay"), custom_stage_by_name("SomePackMagic")
    ('vae-decode', 'custom')
    >>> custom_stage_by_name("LoadUpscalerTensorrtModel"), custom_stage_by_name("PyramidFlowSampler")
    ('load', 'sampling')
    """
    if _LOADS_A_MODEL.search(class_type):
        return "load"
    return next((stage for needle, stage in _CUSTOM_NAME_RULES if needle in class_type), "custom")


# By category prefix, the first match wins (so the longer, more specific prefixes come first).
_CATEGORY_RULES: tuple[tuple[str, str], ...] = (
    ("image/upscaling", "upscale"),
    ("image/video", "video"),
    ("latent/video", "video"),
    ("conditioning/video_models", "video"),
    ("advanced/loaders", "load"),
    ("loaders", "load"),
    ("sampling", "sampling"),
    ("image", "image"),
    ("mask", "image"),
)

# Only for classes whose category says nothing: the guesses made from a bare class name.
_GUESS_RULES: tuple[tuple[str, str], ...] = (
    ("Sampler", "sampling"),
    ("Upscale", "upscale"),
    ("Video", "video"),
    ("Save", "output"),
    ("Preview", "output"),
)


def stage_of(node: NodeClass) -> str:
    """The node's stage. Never raises; unknown classes are ``custom`` or ``other``."""
    name = node.class_type or ""
    if name in PROBE_CLASSES:
        return "probe"
    if (node.python_module or "").startswith("custom_nodes"):
        known = custom_node(name)  # a memory-heavy node Memory Probe knows: the stage of its memory
        return known.stage if known is not None else custom_stage_by_name(name)
    for needle, stage in _NAME_RULES:
        if needle in name:
            return stage
    category = node.category or ""
    if category.startswith("latent") and "Upscale" in name:
        return "upscale"
    if node.output_node:
        return "output"
    for prefix, stage in _CATEGORY_RULES:
        if category == prefix or category.startswith(prefix + "/"):
            return stage
    if not category and not node.python_module:
        if name in unrecorded_builtin_nodes() and (said := custom_stage_by_name(name)) != "custom":
            return said  # one of ComfyUI's own not recorded: what its name says plainly (``VaeDecodeShapeTrellis``)
        for needle, stage in _GUESS_RULES:
            if needle in name:
                return stage
    return "other"


def node_class_from_object_info(class_type: str, entry: dict[str, Any]) -> NodeClass:
    """A :class:`NodeClass` from one ``/object_info`` entry."""
    return NodeClass(
        class_type=class_type,
        category=entry.get("category"),
        python_module=entry.get("python_module"),
        output_node=bool(entry.get("output_node", False)),
    )


def node_class_from_type(class_type: str, cls: type | None) -> NodeClass:
    """A :class:`NodeClass` from a live node class (V1 attributes; V3 classes expose the same)."""
    if cls is None:
        return NodeClass(class_type)

    def attr(name: str) -> Any:
        try:
            return getattr(cls, name, None)
        except Exception:  # a V3 classproperty can raise on a broken schema
            return None

    module = attr("RELATIVE_PYTHON_MODULE") or "nodes"
    category = attr("CATEGORY")
    return NodeClass(
        class_type=class_type,
        category=category if isinstance(category, str) else None,
        python_module=module if isinstance(module, str) else None,
        output_node=attr("OUTPUT_NODE") is True,
    )


class StageCache:
    """Stage per class type, computed once: the tracing hook asks for it at every node."""

    def __init__(self) -> None:
        self._stages: dict[str, str] = {}

    def stage(self, class_type: str, cls: type | None) -> str:
        stage = self._stages.get(class_type)
        if stage is None:
            stage = self._stages[class_type] = stage_of(node_class_from_type(class_type, cls))
        return stage


RECORDED_COMFYUI = "0.3.64"
"""The ComfyUI whose ``/object_info`` the built-in table records (``memprobe/data/comfyui_nodes.json``)."""
_BUILTIN_NODES = Path(__file__).resolve().parents[1] / "data" / "comfyui_nodes.json"
_NEWER_NODES = _BUILTIN_NODES.with_name("comfyui_newer_nodes.json")


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """A built-in node class as ``/object_info`` describes it: its outputs' types and its inputs
    (name, type; ``seed`` marks an input the frontend follows with its control-after-generate widget)."""

    category: str
    output_node: bool
    outputs: tuple[str, ...]
    inputs: tuple[tuple[str, str, bool], ...]

    def input_type(self, name: str) -> str | None:
        return next((t for n, t, _ in self.inputs if n == name), None)


def _table(path: Path) -> dict[str, Any]:
    """A table of ``memprobe/data`` (``{}`` when it cannot be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@cache
def _builtin_table() -> dict[str, Any]:
    """``memprobe/data/comfyui_nodes.json``, read once."""
    return _table(_BUILTIN_NODES)


@cache
def _newer_table() -> dict[str, Any]:
    """``memprobe/data/comfyui_newer_nodes.json``, read once (its classes and their specs)."""
    return _table(_NEWER_NODES)


@cache
def unrecorded_builtin_nodes() -> dict[str, tuple[str, bool]]:
    """ComfyUI's own node classes that 0.3.64's recorded ``/object_info`` does not hold
    (``memprobe/data/comfyui_newer_nodes.json``, from the frontend's and the embedded docs' lists of ComfyUI's own
    nodes): class -> (display name, newer: only ComfyUI newer than 0.3.64 has it; else 0.3.64 registers it where
    torchaudio imports). Their categories are not recorded (their inputs, in part: :func:`newer_node_specs`); a log
    naming one names a built-in node."""
    try:
        data = _newer_table()
        old = set(data["in_0_3_64"])
        return {str(k): (str(v or k), k not in old) for k, v in data["nodes"].items()}
    except (KeyError, TypeError, AttributeError):
        return {}


def newer_builtin(class_type: str) -> bool:
    """One of ComfyUI's own nodes that only ComfyUI newer than :data:`RECORDED_COMFYUI` has."""
    return unrecorded_builtin_nodes().get(class_type, ("", False))[1]


@cache
def newer_node_specs() -> dict[str, NodeSpec]:
    """The inputs and outputs of ComfyUI's own nodes newer than the recorded ComfyUI, where their embedded docs type
    every input the frontend names and every output (``specs`` in ``memprobe/data/comfyui_newer_nodes.json``; 307 of
    585). Written by a model from each node's source, they are read only for what a link carries: the forecast trusts
    what they say a node loads (a text encoder it is given, a VAE it encodes an image with), never that a node is
    light. No category, no output-node flag: neither is in them."""
    try:
        data = _newer_table()["specs"]
        return {
            str(k): NodeSpec("", False, tuple(str(o) for o in v[0]), tuple((str(i[0]), str(i[1]), False) for i in v[1]))
            for k, v in data.items()
        }
    except (KeyError, TypeError, IndexError, AttributeError):
        return {}


@cache
def node_specs() -> dict[str, NodeSpec]:
    """ComfyUI's built-in node classes (from 0.3.64's ``/object_info``)."""
    try:
        data = _builtin_table()
        return {
            k: NodeSpec(
                str(v[0]),
                bool(v[1]),
                tuple(str(o) for o in v[2]),
                tuple((str(i[0]), str(i[1]), len(i) > 2) for i in v[3]),
            )
            for k, v in data["nodes"].items()
        }
    except (KeyError, TypeError, IndexError):
        return {}


@cache
def _display_names() -> dict[str, str]:
    """Each built-in class's display name where it has one of its own (0.3.64's, then the newer nodes')."""
    names = _builtin_table().get("display_names")
    recorded = {str(k): str(title) for title, k in names.items()} if isinstance(names, dict) else {}
    newer = {k: title for k, (title, _) in unrecorded_builtin_nodes().items() if title != k}
    return newer | recorded


@cache
def _titles() -> dict[str, str]:
    titles = {_squash(k): k for k in [*unrecorded_builtin_nodes(), *node_specs()]}
    titles.update({_squash(title): k for k, title in _display_names().items()})
    return titles


_NOT_ALNUM = re.compile(r"[\W_]+")


def _squash(name: str) -> str:
    return _NOT_ALNUM.sub("", name.lower())


def builtin_display_name(class_type: str) -> str:
    """A built-in class's display name (``VAEDecodeAudioTiled`` -> ``VAE Decode Audio (Tiled)``); the class itself
    when it has none of its own or is not built in."""
    return _display_names().get(class_type, class_type)


@lru_cache(maxsize=4096)
def builtin_class_titled(title: str) -> str | None:
    """The built-in class a node's title names: its class or its display name, spaced or cased as a user
    typed it (``VAE Decode``, ``K sampler``, ``Load Checkpoint``), or ``None``.

    >>> builtin_class_titled("Load Checkpoint"), builtin_class_titled("K sampler"), builtin_class_titled("Loading")
    ('CheckpointLoaderSimple', 'KSampler', None)
    """
    return _titles().get(_squash(title)) if len(title) <= 64 else None


@cache
def builtin_nodes() -> dict[str, tuple[str | None, bool]]:
    """ComfyUI's built-in node classes: class -> (category, output node); the category is ``None`` for one
    0.3.64's ``/object_info`` does not hold (not recorded)."""
    unrecorded: dict[str, tuple[str | None, bool]] = dict.fromkeys(unrecorded_builtin_nodes(), (None, False))
    return unrecorded | {k: (v.category, v.output_node) for k, v in node_specs().items()}
