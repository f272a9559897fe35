"""Test double of the few ``comfy_api.latest`` names Memory Probe's nodes use (V3 node API).

It mirrors the shapes of ComfyUI 0.3.64's ``comfy_api/latest`` (``io.Schema``, ``io.NodeOutput``,
``ui.PreviewText``...) closely enough to build and run the node classes; it is not ComfyUI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from types import SimpleNamespace
from typing import Any


class _Input:
    def __init__(self, id: str, display_name: str | None = None, tooltip: str | None = None, **extra: Any) -> None:
        self.id, self.display_name, self.tooltip, self.extra = id, display_name, tooltip, extra


class _Output:
    def __init__(
        self, id: str | None = None, display_name: str | None = None, tooltip: str | None = None, **extra: Any
    ) -> None:
        self.id, self.display_name, self.tooltip, self.extra = id, display_name, tooltip, extra


class _Type:
    io_type = "*"
    Input = _Input
    Output = _Output


class AnyType(_Type):
    io_type = "*"


class String(_Type):
    io_type = "STRING"


class Hidden(str, Enum):
    unique_id = "UNIQUE_ID"


@dataclass
class Schema:
    node_id: str
    display_name: str | None = None
    category: str = "sd"
    inputs: list[Any] = field(default_factory=list)
    outputs: list[Any] = field(default_factory=list)
    hidden: list[Any] = field(default_factory=list)
    description: str = ""
    is_output_node: bool = False


class NodeOutput:
    def __init__(self, *args: Any, ui: Any = None) -> None:
        self.args, self.ui = args, ui


class ComfyNode:
    hidden: Any = None

    @classmethod
    def fingerprint_inputs(cls, **kwargs: Any) -> Any:
        raise NotImplementedError  # the real base class: "not overridden" = normal caching


class ComfyExtension:
    async def on_load(self) -> None: ...


class PreviewText:
    def __init__(self, value: str) -> None:
        self.value = value

    def as_dict(self) -> dict[str, Any]:
        return {"text": (self.value,)}


io = SimpleNamespace(
    AnyType=AnyType, String=String, Hidden=Hidden, Schema=Schema, NodeOutput=NodeOutput, ComfyNode=ComfyNode
)
ui = SimpleNamespace(PreviewText=PreviewText)
