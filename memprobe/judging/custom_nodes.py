"""The memory-heavy custom nodes Memory Probe knows (``memprobe/data/custom_nodes.json``): the
stage each one's memory is spent in and the node's own memory knobs — tiling, frame caps, block
swap, offload, precision — under the input names the node really has, each read from the pack's
source (the entry cites it).

>>> node = custom_node("WanVideoDecode")
>>> node.stage, node.pack, [k.input for k in node.knobs_for("vae-decode", "vram")][:2]
('vae-decode', 'ComfyUI-WanVideoWrapper', ['enable_vae_tiling', 'tile_x'])
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..vocabulary import SYSTEM_KINDS

__all__ = [
    "Knob",
    "CustomNode",
    "custom_node",
    "custom_node_classes",
    "pack_nodes",
    "node_of_frame",
    "pack_of",
    "pack_decoder",
    "KNOB_KINDS",
]

_DATA = Path(__file__).resolve().parents[1] / "data" / "custom_nodes.json"

KNOB_KINDS: dict[str, tuple[str, ...]] = {
    "vae-decode": ("tiling", "tile-size", "chunk", "precision"),
    "vae-encode": ("tiling", "tile-size", "chunk", "precision"),
    "load": ("quantization", "precision", "block-swap", "offload"),
    "text-encode": ("quantization", "precision", "offload"),
    "sampling": ("block-swap", "offload", "quantization", "frames", "resolution", "batch", "chunk", "attention"),
    "video": ("frames", "resolution", "batch", "chunk", "offload"),
    "upscale": ("tile-size", "tiling", "batch", "resolution", "chunk"),
    "image": ("resolution", "batch", "precision", "offload", "chunk"),
    "custom": (
        "tiling",
        "tile-size",
        "frames",
        "resolution",
        "batch",
        "chunk",
        "quantization",
        "precision",
        "offload",
        "block-swap",
    ),
}
"""Which of a node's knobs answer a failure in each stage, the likeliest first."""
_INTO_RAM = ("offload", "block-swap")
"""Knobs that move weights or work into system RAM: never the answer when system memory ran out."""


@dataclass(frozen=True, slots=True)
class Knob:
    input: str
    kind: str
    direction: str
    """``enable``, ``lower``, ``raise`` or ``set`` (to ``value``)."""
    value: Any
    default: Any
    words: str


@dataclass(frozen=True, slots=True)
class CustomNode:
    class_type: str
    pack: str
    repo: str
    display: str
    stage: str
    knobs: tuple[Knob, ...]
    source: str
    function: str | None = None
    """The method ComfyUI runs the node by (its ``FUNCTION``; ``execute`` for V3 nodes)."""
    file: str | None = None
    """The file of the pack that defines it: with ``function``, a traceback's frame names the node."""

    def knobs_for(self, stage: str | None, kind: str | None) -> list[Knob]:
        """The knobs that answer a failure of ``kind`` in ``stage``, the likeliest first."""
        kinds = KNOB_KINDS.get(stage or self.stage) or KNOB_KINDS.get(self.stage) or KNOB_KINDS["custom"]
        system = kind in SYSTEM_KINDS
        usable = [k for k in self.knobs if k.kind in kinds and not (system and k.kind in _INTO_RAM)]
        return sorted(usable, key=lambda k: kinds.index(k.kind))


@cache
def _table() -> dict[str, CustomNode]:
    try:
        data = json.loads(_DATA.read_text(encoding="utf-8"))["nodes"]
    except (OSError, ValueError, KeyError):
        return {}
    out = {}
    for class_type, entry in data.items():
        stage = entry.get("stage") or "custom"
        out[class_type] = CustomNode(
            class_type=class_type,
            pack=entry.get("pack") or "",
            repo=entry.get("repo") or "",
            display=entry.get("display") or class_type,
            stage="custom" if stage == "custom-model" else stage,
            knobs=tuple(
                Knob(
                    k["input"],
                    k["kind"],
                    k.get("direction") or "set",
                    k.get("value"),
                    k.get("default"),
                    k.get("words") or "",
                )
                for k in entry.get("knobs") or []
            ),
            source=entry.get("source") or "",
            function=entry.get("function"),
            file=entry.get("file"),
        )
    return out


def custom_node(class_type: str | None) -> CustomNode | None:
    """The table's entry for ``class_type`` (``None``: a node it does not know)."""
    return _table().get(class_type or "")


def custom_node_classes() -> list[str]:
    """Every node class the table knows."""
    return list(_table())


def _folder_key(name: str) -> str:
    key = name.lower().removesuffix("-main").removesuffix("-master")
    return key.replace("_", "-").removeprefix("comfyui-").removeprefix("comfyui")


def pack_of(folder: str | None) -> str | None:
    """The table's pack for a ``custom_nodes/<folder>`` (clones are named freely: ``-main`` and
    case are ignored); ``None`` when the table has none of its nodes."""
    if not folder:
        return None
    key = _folder_key(folder)
    return next((n.pack for n in _table().values() if _folder_key(n.pack) == key), None)


def node_of_frame(folder: str, path: str, function: str) -> str | None:
    """The node class whose code a traceback frame in ``custom_nodes/<folder>/...`` runs: the one node
    of that pack the table knows by that method in that file (``None`` when none, or more than one)."""
    pack = pack_of(folder)
    path = path.replace("\\", "/")
    found = {
        n.class_type
        for n in pack_nodes(pack)
        if n.function == function and n.file is not None and path.endswith("/" + n.file)
    }
    return found.pop() if len(found) == 1 else None


def pack_nodes(pack: str | None) -> list[CustomNode]:
    """Every node of ``pack`` the table knows."""
    return [n for n in _table().values() if pack and n.pack == pack]


def pack_decoder(folder: str | None) -> CustomNode | None:
    """The decoder of the pack in ``custom_nodes/<folder>``, when the table knows exactly one: a log that
    names the pack's code (a ``decode`` function) but not its node."""
    decoders = [n for n in pack_nodes(pack_of(folder)) if n.stage == "vae-decode"]
    return decoders[0] if len(decoders) == 1 else None
