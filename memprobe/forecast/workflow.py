"""A saved workflow (the frontend's UI format: ``nodes``, ``links``, ``widgets_values``) as the API
graph the forecast reads. The frontend does this itself when it queues (``graphToPrompt``); the
command line needs it for a file saved with *Save* rather than *Export (API)*.

Widget values are matched to input names in the order ComfyUI 0.3.64's ``/object_info`` lists them
(a seed is followed by its "control after generate" value); muted nodes are left out, bypassed ones
pass their input on, reroutes and primitive nodes are followed. A node class this table does not
know keeps its links but not its widget values (the forecast says it cannot size it anyway).

>>> ui = {"nodes": [{"id": 5, "type": "EmptyLatentImage", "mode": 0, "inputs": [], "widgets_values": [768, 512, 2]}],
...       "links": []}
>>> to_api(ui)["5"]["inputs"]
{'width': 768, 'height': 512, 'batch_size': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..judging.stages import node_specs
from .service import BadGraph

__all__ = ["to_api", "is_ui_format", "WIDGET_TYPES"]

WIDGET_TYPES = frozenset({"INT", "FLOAT", "STRING", "BOOLEAN", "COMBO"})
_SKIP = {"Note", "MarkdownNote", "Reroute", "PrimitiveNode"}
_MUTED, _BYPASSED = 2, 4


def is_ui_format(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("nodes"), list) and "links" in doc


def _links(doc: Mapping[str, Any]) -> dict[int, tuple[int, int, str]]:
    """link id -> (origin node, origin slot, type), from the list or the object form."""
    out: dict[int, tuple[int, int, str]] = {}
    for link in doc.get("links") or []:
        if isinstance(link, list) and len(link) >= 6:
            out[int(link[0])] = (int(link[1]), int(link[2]), str(link[5]))
        elif isinstance(link, dict) and "id" in link:
            out[int(link["id"])] = (int(link["origin_id"]), int(link["origin_slot"]), str(link.get("type")))
    return out


def to_api(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The API graph of a UI-format workflow; :class:`BadGraph` for what it cannot convert."""
    nodes = {int(n["id"]): n for n in doc.get("nodes") or [] if isinstance(n, dict) and "id" in n}
    if (doc.get("definitions") or {}).get("subgraphs"):
        raise BadGraph(
            "this workflow has subgraphs, which the command line does not expand: export it with "
            "Workflow > Export (API) and forecast that file"
        )
    links = _links(doc)
    specs = node_specs()

    def source(link_id: int, depth: int = 0) -> Any:
        """What a link carries: a node's output ``[id, slot]``, a primitive's value, or ``None``."""
        if link_id not in links or depth > 64:
            return None
        origin, slot, kind = links[link_id]
        node = nodes.get(origin)
        if node is None:
            return None
        if node.get("type") == "PrimitiveNode":
            values = node.get("widgets_values") or []
            return values[0] if values else None
        if node.get("type") == "Reroute" or node.get("mode") == _BYPASSED:
            for slot_in in node.get("inputs") or []:
                if slot_in.get("link") is not None and (node.get("type") == "Reroute" or slot_in.get("type") == kind):
                    return source(int(slot_in["link"]), depth + 1)
            return None
        if node.get("mode") == _MUTED:
            return None
        return [str(origin), slot]

    api: dict[str, Any] = {}
    for node_id, node in nodes.items():
        kind = str(node.get("type") or "")
        if kind in _SKIP or node.get("mode") in (_MUTED, _BYPASSED):
            continue
        inputs: dict[str, Any] = {}
        spec = specs.get(kind)
        values = node.get("widgets_values")
        if spec is not None and isinstance(values, list):
            it = iter(values)
            for name, typ, seed in spec.inputs:
                if typ not in WIDGET_TYPES:
                    continue
                value = next(it, None)
                inputs[name] = value
                if seed:
                    next(it, None)  # the "control after generate" widget's value
        elif isinstance(values, dict):
            inputs.update(values)
        for slot in node.get("inputs") or []:
            if slot.get("link") is not None:
                inputs[str(slot.get("name"))] = source(int(slot["link"]))
        title = node.get("title")
        api[str(node_id)] = {"class_type": kind, "inputs": inputs, "_meta": {"title": title or kind}}
    if not api:
        raise BadGraph("the workflow has no node to forecast")
    return api
