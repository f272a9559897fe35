"""A custom node that ran out of memory: its own memory knob where Memory Probe knows the node (the
table in ``memprobe/data/custom_nodes.json``: tiling, frame caps, block swap, offload, precision,
under the node's real input names), else the smallest built-in node that does the same job."""

from __future__ import annotations

from typing import Any

from ...documents import NodeDoc
from ..custom_nodes import CustomNode, Knob, custom_node, pack_nodes, pack_of
from ..facts import RunFacts
from .base import Suggestion, rule

__all__ = ["knob_suggestion", "KNOB_IDS"]

KNOB_IDS = {
    "tiling": "custom-node-tiling",
    "tile-size": "custom-node-tiling",
    "frames": "custom-node-frames",
    "block-swap": "custom-node-offload",
    "offload": "custom-node-offload",
    "quantization": "custom-node-precision",
    "precision": "custom-node-precision",
}
"""Suggestion ids by the kind of knob (``custom-node-size`` for the rest: resolution, batch, chunks)."""


def _change(knob: Knob) -> str:
    value = knob.value
    if knob.direction == "enable":
        return f"turn on {knob.input}" if value in (True, None) else f"set {knob.input} to {value!r}"
    if value is None:
        return f"{knob.direction} {knob.input}"
    return f"{'set' if knob.direction == 'set' else knob.direction} {knob.input} to {value}"


def knob_suggestion(
    f: RunFacts, node: CustomNode, owner: NodeDoc | None, knobs: list[Knob], why: str, tier: Any, saves: int | None
) -> Suggestion:
    """The first knob's change (the others named as the next steps), on the node that has it."""
    first = knobs[0]
    others = "; ".join(f"{_change(k)}" for k in knobs[1:3])
    on = node.display if owner is None or owner.get("class_type") != node.class_type else node.display
    text = (
        f"In {on} ({node.class_type}, {node.pack}), {_change(first)}: {first.words}"
        + (f" If that is not enough, one at a time: {others}." if others else "")
        + f" (inputs as {node.pack} defines them: {node.source})"
    )
    action = None
    if (
        owner is not None
        and owner.get("class_type") == node.class_type
        and first.value is not None
        and f.source == "run"
    ):
        action = {
            "type": "set_widget",
            "node_id": owner.get("real_node_id") or owner.get("node_id"),
            "widget": first.input,
            "value": first.value,
        }
    return Suggestion(
        KNOB_IDS.get(first.kind, "custom-node-size"),
        tier,
        f"Use {node.class_type}'s {first.input.replace('_', ' ')}",
        why,
        text,
        saves,
        action,
    )


@rule("custom-node", needs=("failure",), tiers=("failure",))
def custom_node_failed(f: RunFacts) -> list[Suggestion]:
    """A memory failure in a custom node: its own memory knob; else where to look for one, or a built-in node.
    (A known custom decoder's tiling is the decode rule's.)"""
    failure = f.failure
    if not f.failed or failure is None:
        return []
    node = f.failing_node()
    known = custom_node(failure.class_type)
    who = (
        f.label(node)
        if node
        else failure.class_type or (f"a node of custom_nodes/{failure.pack}" if failure.pack else "a custom node")
    )
    why = f"{who[:1].upper()}{who[1:]} failed: {failure.said}."
    if known is not None:
        if known.stage in ("vae-decode", "vae-encode"):
            return []
        knobs = known.knobs_for(failure.stage, failure.kind)
        owner: CustomNode = known
        if not knobs:  # the pack's other nodes (a sampler's block swap lives on its own node)
            for other in pack_nodes(known.pack):
                if other.knobs_for(failure.stage, failure.kind):
                    owner, knobs = other, other.knobs_for(failure.stage, failure.kind)
                    break
        if knobs:
            return [knob_suggestion(f, owner, node, knobs, why, "failure", failure.sizes.requested_bytes)]
    if known is None and (
        failure.stage in ("vae-decode", "vae-encode") or (failure.stage != "custom" and not failure.pack)
    ):
        return []  # a decoder's (or encoder's) own tiling is the decode rule's
    if known is None and not failure.class_type and (options := pack_options(f, why)):
        return [options]
    name = failure.class_type or (f"the node of custom_nodes/{failure.pack}" if failure.pack else "it")
    return [
        Suggestion(
            "builtin-node",
            "failure",
            "Give the custom node less to hold, or try a built-in one",
            why,
            f"Look among the inputs of {name} (and of its pack's other nodes) for a memory option: tiling, offload or "
            "block swap, fp8 or quantized weights, a frame or batch cap; and lower the resolution, frames or batch it "
            "gets, one at a time. If it still fails, swap it for the smallest built-in ComfyUI node that does the same "
            "job: if the built-in node fails too, the limit is the workload, not the pack.",
        )
    ]


PACK_OPTIONS = 3
"""How many of a pack's nodes' memory options a failure that names only the pack is given."""


def pack_options(f: RunFacts, why: str) -> Suggestion | None:
    """A memory failure in a pack's code that names none of its nodes (a traceback's frames in custom_nodes/<pack>):
    the memory options of the pack's nodes the table knows, one per node (those of the failure's stage first), to
    try one at a time; ``None`` where the table knows fewer than two."""
    failure = f.failure
    pack = pack_of(failure.pack) if failure is not None else None
    if failure is None or pack is None:
        return None
    nodes = [n for n in pack_nodes(pack) if n.stage not in ("vae-decode", "vae-encode")]  # (the decode rule's)
    nodes.sort(key=lambda n: n.stage != failure.stage)
    picked: list[tuple[CustomNode, Knob]] = []
    for node in nodes:  # each node's likeliest option; a variant of a node taken already (VHS' loaders) adds none
        knobs = node.knobs_for(None, failure.kind)
        if knobs and knobs[0].input not in {k.input for _, k in picked}:
            picked.append((node, knobs[0]))
        if len(picked) == PACK_OPTIONS:
            break
    if len(picked) < 2:  # one node's option, perhaps not the failing node's: the general advice says more
        return None
    first = picked[0][1]
    options = "; ".join(f"in {n.display} ({n.class_type}), {_change(k)}" for n, k in picked)
    return Suggestion(
        KNOB_IDS.get(first.kind, "custom-node-size"),
        "failure",
        f"Use {pack}'s own memory options",
        why,
        f"The log does not say which of {pack}'s nodes failed; these of them have a memory option: try it on the "
        f"one in your workflow, one change at a time: {options}. (Inputs as {pack} defines them: "
        f"{picked[0][0].source})",
        failure.sizes.requested_bytes,
    )
