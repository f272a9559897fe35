"""A custom node that failed: its own memory knob where Memory Probe knows the node, else the
smallest built-in node that does the same job."""

from __future__ import annotations

from ..facts import RunFacts, short
from .base import Suggestion, rule

__all__: list[str] = []


@rule("custom-node", needs=("failure",), tiers=("failure",))
def custom_node(f: RunFacts) -> list[Suggestion]:
    """A failure inside a custom node: try a built-in node in its place."""
    if not f.failed_in("custom") or f.failure is None:
        return []
    node = f.failing_node()
    return [
        Suggestion(
            "builtin-node",
            "failure",
            "Try a built-in node in place of the custom one",
            f"{f.label(node)}, from a custom node pack, failed ({f.failure.kind}: {short(f.failure.message)}).",
            f"Swap {node.get('class_type') if node else 'it'} for the smallest built-in ComfyUI node that does the same "
            "job; if the built-in node fails too, the limit is the workload, not the pack.",
        )
    ]
