"""What a run's workflow was: the parameters people change between experiments, read from the
API-format prompt ComfyUI executed (``{node_id: {class_type, inputs, _meta}}``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from .expression import evaluate

__all__ = [
    "workflow_parameters",
    "model_files",
    "upstream",
    "is_link",
    "literal",
    "switch_choice",
    "follow",
    "SWITCHES",
    "graph_signature",
    "workflow_identity",
]

_MAX_ID_CHARS = 200
_NO_ID = "00000000-0000-0000-0000-000000000000"
"""The id LiteGraph gives a graph it has no identity for (e.g. one built from an API prompt)."""

_MODEL_KEY = re.compile(r"(ckpt|unet|vae|clip|lora|model|control_net|style_model|upscale_model|gligen)\w*_name\d*$")
_SAMPLER_KEYS = ("seed", "noise_seed", "steps", "cfg", "sampler_name", "scheduler", "denoise")
_LATENT_KEYS = ("width", "height", "batch_size", "length")
_TILE_KEYS = ("tile_size", "overlap", "temporal_size", "temporal_overlap")


def is_link(value: Any) -> bool:
    """``["4", 0]``: an input wired to another node's output."""
    return isinstance(value, list) and len(value) == 2 and isinstance(value[0], str | int) and isinstance(value[1], int)


def literal(prompt: dict[str, Any], value: Any, depth: int = 0) -> Any:
    """The value itself, or the value of a primitive node it is wired to (also through a switch whose condition is
    set); ``None`` if computed."""
    if not is_link(value):
        return value
    node = prompt.get(str(value[0]))
    if depth > _MAX_HOPS or not isinstance(node, dict):
        return None
    inputs = node.get("inputs") or {}
    chosen = switch_choice(prompt, node, depth + 1)
    if chosen is not None:
        return literal(prompt, inputs.get(chosen), depth + 1)
    if node.get("class_type") == MATH_EXPRESSION:
        names = {
            k.removeprefix("values."): literal(prompt, v, depth + 1)
            for k, v in inputs.items()
            if k.startswith("values.")
        }
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in names.values()):
            return None
        result = evaluate(literal(prompt, inputs.get("expression"), depth + 1), names)
        return None if result is None else (float(result) if value[1] == 0 else int(result))  # (its FLOAT, its INT)
    if not str(node.get("class_type", "")).startswith("Primitive"):
        return None
    return literal(prompt, inputs.get("value"), depth + 1)


SWITCHES = frozenset({"ComfySwitchNode"})
"""ComfyUI's If/Else switch (``comfy_extras/nodes_logic.py``, newer than 0.3.64): it passes on ``on_true`` or
``on_false`` as its ``switch`` says, and both inputs are lazy: ComfyUI runs only the branch it passes on (a template's
"use the 4-step LoRA" toggle picks the LoRA-patched model and 4 steps, or the plain model and 20)."""
MATH_EXPRESSION = "ComfyMathExpression"
"""ComfyUI's Math Expression node (newer than 0.3.64): its formula over its ``values.a``, ``values.b`` … inputs, out as
a FLOAT and an INT (:mod:`.expression`)."""
_MAX_HOPS = 8
"""How many primitives, switches and formulas a value is followed through."""


def switch_choice(prompt: dict[str, Any], node: Any, depth: int = 0) -> str | None:
    """The input a switch passes on (``"on_true"``, ``"on_false"``) where its condition is set in the prompt, itself
    or through a primitive; ``None`` for any other node, or a condition another node computes."""
    if not isinstance(node, dict) or node.get("class_type") not in SWITCHES:
        return None
    condition = literal(prompt, (node.get("inputs") or {}).get("switch"), depth)
    return ("on_true" if condition else "on_false") if isinstance(condition, bool) else None


def follow(prompt: dict[str, Any], value: Any) -> Any:
    """A link followed through the switches that pass it on, to the output that makes the value (the chosen
    branch's); an unchosen input, or one left unwired, gives ``None``."""
    for _ in range(_MAX_HOPS):
        if not is_link(value):
            return value
        node = prompt.get(str(value[0]))
        chosen = switch_choice(prompt, node)
        if chosen is None or not isinstance(node, dict):
            return value
        value = (node.get("inputs") or {}).get(chosen)
    return None


def _nodes(prompt: dict[str, Any] | None) -> list[tuple[str, dict[str, Any]]]:
    """The prompt's nodes; an entry without a class (the frontend sends ``class_type: null`` for a
    node type it does not know) is not one."""
    return [
        (nid, n) for nid, n in (prompt or {}).items() if isinstance(n, dict) and isinstance(n.get("class_type"), str)
    ]


def model_files(prompt: dict[str, Any] | None) -> list[str]:
    """Every model file the workflow loads (file names only, in node order)."""
    files = []
    for _, node in _nodes(prompt):
        for key, value in (node.get("inputs") or {}).items():
            value = literal(prompt or {}, value)
            if isinstance(value, str) and _MODEL_KEY.search(key):
                files.append(re.split(r"[\\/]", value)[-1])
    return files


def workflow_parameters(prompt: dict[str, Any] | None) -> dict[str, Any]:
    """``{models, seed, steps, cfg, sampler_name, scheduler, denoise, width, height, batch_size,
    length, decode: {node_id, class_type, tile_size, ...}}``; a value the workflow does not set
    (or computes) is absent."""
    params: dict[str, Any] = {"models": model_files(prompt)}
    decode: dict[str, Any] | None = None
    for node_id, node in _nodes(prompt):
        class_type = node["class_type"]
        inputs = node.get("inputs") or {}
        if "Sampler" in class_type or "Noise" in class_type or "Scheduler" in class_type:
            for key in _SAMPLER_KEYS:
                if key in inputs and key not in params:
                    value = literal(prompt or {}, inputs[key])
                    if value is not None:
                        params["seed" if key == "noise_seed" else key] = value
        if "Latent" in class_type and class_type.startswith("Empty"):
            for key in _LATENT_KEYS:
                value = literal(prompt or {}, inputs.get(key))
                if value is not None and key not in params:
                    params[key] = value
        if "VAEDecode" in class_type and decode is None:
            decode = {"node_id": node_id, "class_type": class_type}
            decode.update({k: literal(prompt or {}, inputs[k]) for k in _TILE_KEYS if k in inputs})
    if decode is not None:
        params["decode"] = decode
    return params


def upstream(prompt: dict[str, Any] | None, node_id: str) -> dict[str, Any]:
    """The sub-workflow ``node_id`` depends on (itself and every ancestor): the smallest workflow
    that still reaches the node."""
    nodes = dict(_nodes(prompt))
    keep: dict[str, Any] = {}
    stack = [str(node_id)]
    while stack:
        current = stack.pop()
        if current in keep or current not in nodes:
            continue
        keep[current] = nodes[current]
        for value in (nodes[current].get("inputs") or {}).values():
            if is_link(value):
                stack.append(str(value[0]))
    return {nid: keep[nid] for nid in nodes if nid in keep}


def graph_signature(prompt: dict[str, Any] | None) -> str | None:
    """A short digest of the prompt's graph: every node's id and class and which output feeds
    which input. Widget values (seed, prompt texts, sizes) are left out, so runs of the same graph
    with other settings share it; adding, removing, swapping or rewiring a node changes it.
    ``None`` for an empty prompt.

    >>> graph_signature({"8": {"class_type": "VAEDecode", "inputs": {"samples": ["3", 0], "vae": ["4", 2]}}})
    '6f8fd13976ec8b87'
    """
    nodes = _nodes(prompt)
    if not nodes:
        return None
    lines = []
    for node_id, node in sorted(nodes, key=lambda item: str(item[0])):
        links = sorted(
            f"{name}<{value[0]}.{value[1]}" for name, value in (node.get("inputs") or {}).items() if is_link(value)
        )
        lines.append(f"{node_id}:{node['class_type']}({','.join(links)})")
    return hashlib.blake2b("\n".join(lines).encode("utf-8"), digest_size=8).hexdigest()


def workflow_identity(prompt: dict[str, Any] | None, extra_data: Any) -> dict[str, Any]:
    """Which workflow a run came from: ``{"id": the frontend's workflow id (the ``id`` of the
    workflow JSON it sends in ``extra_data.extra_pnginfo.workflow``, as ComfyUI's own job list
    reads it) or None, "graph": graph_signature(prompt)}``.

    The frontend's placeholder for a graph without identity (the nil UUID, which a graph built from
    an API prompt keeps) counts as no id. Only these two values are kept: never the workflow JSON (the prompt is already stored) nor
    anything else of ``extra_data``, which also carries the user's comfy.org token and API key.
    Never raises: a missing or odd ``extra_data`` gives ``id: None``.
    """
    workflow_id = None
    try:
        workflow = extra_data["extra_pnginfo"]["workflow"]
        raw = workflow.get("id") if isinstance(workflow, dict) else None
        if isinstance(raw, str | int) and not isinstance(raw, bool):
            text = str(raw).strip()
            if text and text != _NO_ID and len(text) <= _MAX_ID_CHARS and text.isprintable():
                workflow_id = text
    except (KeyError, TypeError, AttributeError, IndexError):
        workflow_id = None
    try:
        signature = graph_signature(prompt)
    except Exception:  # a malformed prompt costs the signature only
        signature = None
    return {"id": workflow_id, "graph": signature}
