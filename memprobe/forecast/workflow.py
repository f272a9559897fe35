"""A saved workflow (the frontend's UI format: ``nodes``, ``links``, ``widgets_values``) as the API
graph the forecast reads. The frontend does this itself when it queues (``graphToPrompt``); the
command line needs it for a file saved with *Save* rather than *Export (API)*.

Widget values are matched to input names in the order ComfyUI 0.3.64's ``/object_info`` lists them
(a seed is followed by its "control after generate" value); muted nodes are left out, bypassed ones
pass their input on, reroutes and primitive nodes are followed. A node class this table does not
know keeps its links, and its widget values unnamed under ``_meta`` (the forecast cannot size it, but says which model
files it names).

A subgraph (``definitions.subgraphs``, newer frontends) is expanded as the frontend expands it when it queues: each
node inside an instance becomes ``"<instance id>:<node id>"``, the links into and out of the subgraph are joined to
the instance's own, and the values the instance shows as its widgets (one per input of a widget's type, in the
subgraph's order) feed the nodes inside unless a link feeds that input (checked against frontends 1.27.10 and 1.58.1,
the instances' values edited too).

A legacy group node (``workflow>Name``, defined in ``extra.groupNodes``; frontends before subgraphs) is expanded as
frontend 1.27.10's ``groupNode.ts`` expands it when it queues: node *i* of the group becomes ``"<instance id>:<i>"``,
the instance's inputs feed the inputs the nodes inside leave unlinked (in the group's node order), its outputs are the
outputs those nodes do not use inside (or that the group gives out), and its widget values replace the nodes' own in
order. A group whose slots or values do not line up so (widgets converted to inputs, a newer frontend's widget inputs)
is left as it is, and the forecast says it does not count the nodes in it.

>>> ui = {"nodes": [{"id": 5, "type": "EmptyLatentImage", "mode": 0, "inputs": [], "widgets_values": [768, 512, 2]}],
...       "links": []}
>>> to_api(ui)["5"]["inputs"]
{'width': 768, 'height': 512, 'batch_size': 2}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..judging.stages import NodeSpec, newer_node_specs, node_specs
from ..judging.workflow import MATH_EXPRESSION
from .service import BadGraph

__all__ = ["to_api", "is_ui_format", "graph_in", "WIDGET_TYPES"]

WIDGET_TYPES = frozenset({"INT", "FLOAT", "STRING", "BOOLEAN", "COMBO"})
_SKIP = {"Note", "MarkdownNote", "Reroute", "PrimitiveNode"}
MAX_NODES = 20_000
"""More nodes than a workflow expands to (the largest of ComfyUI's templates has a few hundred): subgraphs or group
nodes that hold several copies of themselves grow past it before they nest too deep."""
_MUTED, _BYPASSED = 2, 4


def is_ui_format(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("nodes"), list) and "links" in doc


def graph_in(doc: Any) -> Any:
    """The API graph a workflow file holds: a saved workflow (UI format) converted, an API graph as it is, or either
    inside the envelope a program sends it in — ComfyUI's ``POST /prompt`` body (``{"prompt": ...}``) or a RunPod
    worker-comfyui request (``{"input": {"workflow": ...}}``, its README's request format)."""
    if isinstance(doc, dict):
        sent = doc.get("input")
        doc = sent["workflow"] if isinstance(sent, dict) and "workflow" in sent else doc.get("prompt", doc)
    return to_api(doc) if is_ui_format(doc) else doc


Link = tuple[str, int, str, str, int]
"""(origin node, origin slot, type, target node, target slot), node ids as strings."""


def _links(items: Any) -> dict[str, Link]:
    """link id -> :data:`Link`, from the list form (the graph's) or the object form (a subgraph's, newer graphs')."""
    out: dict[str, Link] = {}
    for link in items or []:
        if isinstance(link, list) and len(link) >= 6:
            out[str(link[0])] = (str(link[1]), int(link[2]), str(link[5]), str(link[3]), int(link[4]))
        elif isinstance(link, dict) and "id" in link:
            origin, target = str(link["origin_id"]), str(link.get("target_id"))
            out[str(link["id"])] = (
                origin,
                int(link["origin_slot"]),
                str(link.get("type")),
                target,
                int(link.get("target_slot") or 0),
            )
    return out


def _by_levels(nodes: dict[str, dict[str, Any]], expand_level: Callable[[], bool], what: str) -> None:
    """Expands a level of nested instances per pass (``expand_level``: whether there was one to expand) until none is
    left; :class:`BadGraph` for nesting past 16 levels or past :data:`MAX_NODES` (an instance inside itself)."""
    for _ in range(16):
        if len(nodes) > MAX_NODES:
            break
        if not expand_level():
            return
    raise BadGraph(f"the workflow's {what} nest too deep (or contain themselves)")


def _expand(nodes: dict[str, dict[str, Any]], links: dict[str, Link], subgraphs: Mapping[str, Any]) -> None:
    """Each subgraph instance in ``nodes`` replaced by the nodes inside it (nested ones too), in place."""

    def level() -> bool:
        instances = [(nid, n) for nid, n in nodes.items() if str(n.get("type")) in subgraphs]
        for iid, inst in instances:
            _expand_one(iid, inst, subgraphs[str(inst["type"])], nodes, links)
        return bool(instances)

    _by_levels(nodes, level, "subgraphs")


def _expand_one(
    iid: str, inst: dict[str, Any], sub: Mapping[str, Any], nodes: dict[str, dict[str, Any]], links: dict[str, Link]
) -> None:
    del nodes[iid]
    slots = list(sub.get("inputs") or [])
    outer = {str(i.get("name")): i.get("link") for i in inst.get("inputs") or []}  # the instance's input -> its link
    shown_values = inst.get("widgets_values")
    values: list[Any] = shown_values if isinstance(shown_values, list) else []
    if len(values) != sum(str(slot.get("type")) in WIDGET_TYPES for slot in slots) or (
        (inst.get("properties") or {}).get("proxyWidgets")
    ):  # an older frontend's promoted widgets (``proxyWidgets``): values in that list's order, and copied by its
        values = []  # save into the nodes inside, which keep their own (ComfyUI_frontend's ADR 0009)
    shown = iter(values)
    feeds: dict[int, tuple[str, int, str] | None] = {}  # the subgraph's input slot -> what feeds it
    for k, slot in enumerate(slots):
        value = next(shown, None) if str(slot.get("type")) in WIDGET_TYPES else None
        link = outer.get(str(slot.get("name")))
        if link is not None and str(link) in links:
            origin, oslot, kind, _, _ = links[str(link)]
            feeds[k] = (origin, oslot, kind)
        elif value is not None:  # the value the instance shows: a constant, as a primitive node gives one
            nodes[f"{iid}:in{k}"] = {
                "id": f"{iid}:in{k}",
                "type": "PrimitiveNode",
                "mode": 0,
                "widgets_values": [value],
            }
            feeds[k] = (f"{iid}:in{k}", 0, str(slot.get("type")))
        else:
            feeds[k] = None
    inner = _links(sub.get("links"))
    outputs: dict[int, tuple[str, int]] = {}
    unfed: set[str] = set()  # links from an input nothing feeds: the node inside keeps its own widget's value
    for lid, (origin, oslot, kind, target, tslot) in inner.items():
        if origin == "-10":
            fed = feeds.get(oslot)
            if fed is None:
                unfed.add(lid)
                continue
            origin, oslot, kind = fed
        else:
            origin = f"{iid}:{origin}"
        if target == "-20":
            outputs[tslot] = (origin, oslot)
        else:
            links[f"{iid}:{lid}"] = (origin, oslot, kind, f"{iid}:{target}", tslot)
    mode = inst.get("mode")
    for node in sub.get("nodes") or []:
        copy = {**node, "id": f"{iid}:{node['id']}"}
        copy["inputs"] = [
            {
                **slot,
                "link": f"{iid}:{slot['link']}"
                if slot.get("link") is not None and str(slot["link"]) not in unfed
                else None,
            }
            for slot in node.get("inputs") or []
        ]
        if mode in (_MUTED, _BYPASSED):
            copy["mode"] = mode
        nodes[copy["id"]] = copy
    for lid, (origin, oslot, kind, target, tslot) in list(links.items()):  # what the instance gave out
        if origin == iid:
            if oslot in outputs:
                links[lid] = (*outputs[oslot], kind, target, tslot)
            else:
                del links[lid]


_GROUP_PREFIXES = ("workflow>", "workflow/")  # frontend 1.2.63 on, and before
_NOTES = {"Note", "MarkdownNote"}


def _group_name(kind: Any) -> str | None:
    kind = str(kind or "")
    return next((kind[len(p) :] for p in _GROUP_PREFIXES if kind.startswith(p)), None)


def _expand_groups(nodes: dict[str, dict[str, Any]], links: dict[str, Link], groups: Mapping[str, Any]) -> None:
    """Each legacy group node instance in ``nodes`` whose definition lines up replaced by its nodes, in place."""
    left: set[str] = set()  # instances that do not line up: kept (the forecast says it cannot count them)

    def level() -> bool:
        instances = [
            (nid, n, groups[name])
            for nid, n in nodes.items()
            if nid not in left
            and (name := _group_name(n.get("type"))) is not None
            and isinstance(groups.get(name), dict)
        ]
        for iid, inst, group in instances:
            try:
                expanded = _expand_group(iid, inst, group, nodes, links)
            except (TypeError, ValueError, AttributeError):
                expanded = False  # a definition not as frontends write them (found before anything is changed)
            if not expanded:
                left.add(iid)
        return bool(instances)

    _by_levels(nodes, level, "group nodes")


def _expand_group(
    iid: str, inst: dict[str, Any], group: Mapping[str, Any], nodes: dict[str, dict[str, Any]], links: dict[str, Link]
) -> bool:
    inner = list(group.get("nodes") or [])
    if not all(isinstance(n, dict) for n in inner):
        return False  # (its links name nodes by their place in this list)
    to: dict[tuple[int, int], tuple[int, int, str]] = {}  # (node, input slot) -> (node, output slot, type) inside
    used: set[tuple[int, int]] = set()  # (node, output slot) linked inside
    for link in group.get("links") or []:
        if isinstance(link, list) and len(link) >= 4 and link[0] is not None and link[2] is not None:
            to[(int(link[2]), int(link[3]))] = (int(link[0]), int(link[1]), str(link[5] if len(link) > 5 else "*"))
            used.add((int(link[0]), int(link[1])))
    given = {(int(e[0]), int(e[1])) for e in group.get("external") or [] if isinstance(e, list) and len(e) >= 2}
    config = group.get("config")
    config = config if isinstance(config, dict) else {}

    def shown(i: int, way: str, key: Any, default: bool) -> bool:  # a slot the group's config hides or shows
        custom = ((config.get(str(i)) or {}).get(way) or {}).get(str(key)) or {}
        return bool(custom.get("visible", default)) if isinstance(custom, dict) else default

    def real(i: int, node: Mapping[str, Any]) -> bool:  # what groupNode.ts keeps: no note, no unlinked primitive
        kind = node.get("type")
        return kind not in _NOTES and (kind != "PrimitiveNode" or any(o == i for o, _ in used))

    counted = [(i, n) for i, n in enumerate(inner) if real(i, n)]
    if any(not isinstance(slot, dict) for n in inner for slot in [*(n.get("inputs") or []), *(n.get("outputs") or [])]):
        return False
    if any(isinstance(slot, dict) and "widget" in slot for _, n in counted for slot in n.get("inputs") or []) or any(
        isinstance(slot, dict) and "widget" in slot for slot in inst.get("inputs") or []
    ):
        return False  # widgets converted to inputs (or a newer frontend's widget inputs): their order is the frontend's
    if any(n.get("widgets_values") is not None and not isinstance(n.get("widgets_values"), list) for _, n in counted):
        return False
    ins = [
        (i, s)
        for i, n in counted
        for s, slot in enumerate(n.get("inputs") or [])
        if (i, s) not in to and shown(i, "input", slot.get("name"), True)
    ]
    outs = [
        (i, o)
        for i, n in counted
        for o in range(len(n.get("outputs") or []))
        if shown(i, "output", o, (i, o) not in used or (i, o) in given)
    ]
    values = inst.get("widgets_values") or []
    if (
        len(ins) != len(inst.get("inputs") or [])
        or len(outs) != len(inst.get("outputs") or [])
        or not isinstance(values, list)
        or len(values) != sum(len(n.get("widgets_values") or []) for _, n in counted)
    ):
        return False
    del nodes[iid]
    feed = {pos: slot.get("link") for pos, slot in enumerate(inst.get("inputs") or []) if isinstance(slot, dict)}
    outer = {pos: feed.get(k) for k, pos in enumerate(ins)}  # (node, slot) -> the instance's link into it
    own, kept = iter(values), {i for i, _ in counted}
    for i, node in enumerate(inner):
        copy = {**node, "id": f"{iid}:{i}"}
        if i in kept:
            copy["widgets_values"] = [next(own) for _ in node.get("widgets_values") or []]
        if inst.get("mode") in (_MUTED, _BYPASSED):
            copy["mode"] = inst["mode"]
        slots = []
        for s, slot in enumerate(node.get("inputs") or []):
            link = None
            if (i, s) in to:
                src, src_slot, kind = to[(i, s)]
                link = f"{iid}:{i}.{s}"
                links[link] = (f"{iid}:{src}", src_slot, kind, copy["id"], s)
            elif (i, s) in outer and str(outer[(i, s)]) in links:
                link = str(outer[(i, s)])
                links[link] = (*links[link][:3], copy["id"], s)
            slots.append({**slot, "link": link})
        copy["inputs"] = slots
        nodes[copy["id"]] = copy
    for lid, (origin, oslot, kind, target, tslot) in list(links.items()):  # what the instance gave out
        if origin == iid:
            if oslot < len(outs):
                links[lid] = (f"{iid}:{outs[oslot][0]}", outs[oslot][1], kind, target, tslot)
            else:
                del links[lid]
    return True


def _newer_widgets(kind: str, values: Any) -> NodeSpec | None:
    """A newer ComfyUI's node whose widget values its documented inputs name (:func:`newer_node_specs`: in the
    frontend's order), where they are as many as its widgets and none is a seed (whose "control after generate" value
    the documentation does not show); else ``None`` (its values stay unnamed)."""
    spec = newer_node_specs().get(kind)
    if spec is None or not isinstance(values, list):
        return None
    names = [name for name, typ, _ in spec.inputs if typ in WIDGET_TYPES]
    if len(names) != len(values) or any("seed" in name for name in names):
        return None
    return spec


def to_api(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The API graph of a UI-format workflow; :class:`BadGraph` for what it cannot convert."""
    nodes = {str(n["id"]): n for n in doc.get("nodes") or [] if isinstance(n, dict) and "id" in n}
    links = _links(doc.get("links"))
    definitions, extra = doc.get("definitions"), doc.get("extra")
    found = definitions.get("subgraphs") if isinstance(definitions, dict) else None
    subgraphs = {str(sg.get("id")): sg for sg in found if isinstance(sg, dict)} if isinstance(found, list) else {}
    groups = extra.get("groupNodes") if isinstance(extra, dict) else None
    if isinstance(groups, dict) and groups:
        _expand_groups(nodes, links, groups)
    if subgraphs:
        _expand(nodes, links, subgraphs)
    specs = node_specs()

    def source(link_id: str, depth: int = 0) -> Any:
        """What a link carries: a node's output ``[id, slot]``, a primitive's value, or ``None``."""
        if link_id not in links or depth > 64:
            return None
        origin, slot, kind, _, _ = links[link_id]
        node = nodes.get(origin)
        if node is None:
            return None
        if node.get("type") == "PrimitiveNode":
            values = node.get("widgets_values") or []
            return values[0] if values else None
        if node.get("type") == "Reroute" or node.get("mode") == _BYPASSED:
            for slot_in in node.get("inputs") or []:
                if slot_in.get("link") is not None and (node.get("type") == "Reroute" or slot_in.get("type") == kind):
                    return source(str(slot_in["link"]), depth + 1)
            return None
        if node.get("mode") == _MUTED:
            return None
        return [origin, slot]

    api: dict[str, Any] = {}
    for node_id, node in nodes.items():
        kind = str(node.get("type") or "")
        if kind in _SKIP or node.get("mode") in (_MUTED, _BYPASSED):
            continue
        inputs: dict[str, Any] = {}
        values = node.get("widgets_values")
        spec = specs.get(kind) or _newer_widgets(kind, values)
        if spec is not None and isinstance(values, list):
            it = iter(values)
            for name, typ, seed in spec.inputs:
                if typ not in WIDGET_TYPES:
                    continue
                value = next(it, None)
                inputs[name] = value
                if seed:
                    next(it, None)  # the "control after generate" widget's value
        elif kind == MATH_EXPRESSION and isinstance(values, list) and len(values) == 1:
            inputs["expression"] = values[0]  # its one widget (its values.a, values.b … are sockets)
        elif isinstance(values, dict):
            inputs.update(values)
        for slot in node.get("inputs") or []:
            if slot.get("link") is not None:
                inputs[str(slot.get("name"))] = source(str(slot["link"]))
        meta: dict[str, Any] = {"title": node.get("title") or kind}
        if spec is None and isinstance(values, list):
            meta["widgets_values"] = values  # unnamed without the class's inputs: the model files it names are read
        api[node_id] = {"class_type": kind, "inputs": inputs, "_meta": meta}
    if not api:
        raise BadGraph("the workflow has no node to forecast")
    return api
