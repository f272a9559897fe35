"""How the forecast judges its numbers: a node's verdict against the limit of each memory (``fits``, ``tight``
within 10 % of it, ``won't fit``; ``unknown`` where what was counted fits but not all was), the stages rolled up from
their nodes, and the one sentence that says why a verdict is ``unknown``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..vocabulary import FORECAST_VERDICTS, NEAR_LIMIT

__all__ = [
    "VERDICTS",
    "FITS",
    "UNKNOWN",
    "TIGHT",
    "WONT_FIT",
    "verdict",
    "gpu_verdict",
    "worst",
    "stage_rows",
    "unknown_because",
]

VERDICTS = tuple(FORECAST_VERDICTS)
FITS, UNKNOWN, TIGHT, WONT_FIT = VERDICTS


def verdict(used: float | None, limit: float | None) -> str:
    """``won't fit`` over the limit, ``tight`` within 10 % of it, else ``fits`` (no limit: ``fits``)."""
    if used is None or not limit:
        return FITS
    if used > limit:
        return WONT_FIT
    return TIGHT if used >= limit * NEAR_LIMIT else FITS


def gpu_verdict(n: Mapping[str, Any], total: int | None) -> str:
    """On a GPU: ``won't fit`` when even after ComfyUI made its room the work does not fit; ``tight``
    when what the node itself needs (its models' loaded part, its work, other programs) comes within
    10 % of the card, or part of its model had to stay in RAM. Models ComfyUI merely keeps cached
    give way, so they make nothing tight."""
    if not total:
        return FITS
    if n["peak_bytes"] > total:
        return WONT_FIT
    if n["offloaded_bytes"] > 0 or n["needed_bytes"] >= total * NEAR_LIMIT:
        return TIGHT
    return FITS


def worst(*verdicts: str) -> str:
    """The worst of ``verdicts`` (``fits`` < ``unknown`` < ``tight`` < ``won't fit``)."""
    return max(verdicts, key=VERDICTS.index) if verdicts else FITS


def stage_rows(nodes: list[dict[str, Any]], metric: str, limit: int | None) -> list[dict[str, Any]]:
    """The forecast's nodes rolled up by stage: each stage's peak (and the node at it), system memory, offloaded
    weights and worst verdict."""
    out: dict[str, dict[str, Any]] = {}
    for n in nodes:
        s = out.setdefault(
            n["stage"],
            {
                "stage": n["stage"],
                "node_ids": [],
                "metric": metric,
                "peak_bytes": 0,
                "system_bytes": 0,
                "offloaded_bytes": 0,
                "limit_bytes": limit,
                "verdict": FITS,
                "peak_node_id": None,
            },
        )
        s["node_ids"].append(n["node_id"])
        if n["peak_bytes"] >= s["peak_bytes"]:
            s["peak_bytes"], s["peak_node_id"] = n["peak_bytes"], n["node_id"]
        s["system_bytes"] = max(s["system_bytes"], n["system_used_bytes"] or n["system_bytes"])
        s["offloaded_bytes"] = max(s["offloaded_bytes"], n["offloaded_bytes"])
        s["verdict"] = worst(s["verdict"], n["verdict"])
    return list(out.values())


def unknown_because(nodes: list[dict[str, Any]]) -> str:
    """Why what was counted fitting is no verdict, in one sentence (the command line's and the panel's): the model
    files not on this machine, the nodes whose own memory the forecast cannot size (a node it does not know, a latent
    or image of a size it cannot see).

    >>> unknown_because([{"class_type": "WanVideoSampler", "stage": "sampling", "uncounted": [], "not_counted": True}])
    'the memory of WanVideoSampler (sampling) is not counted: the forecast cannot size it (a traced run measures it)'
    """
    files = list(dict.fromkeys(f for n in nodes for f in n.get("uncounted") or ()))
    heavy = list(dict.fromkeys(f"{n['class_type']} ({n['stage']})" for n in nodes if n.get("not_counted")))
    parts = []
    if files:
        many = len(files) > 1
        what = f"{len(files)} model files it loads are" if many else f"a model file it loads ({files[0]}) is"
        parts.append(f"{what} not on this machine, so not counted")
    if heavy:
        named = ", ".join(heavy[:3]) + (f" and {len(heavy) - 3} more" if len(heavy) > 3 else "")
        many = len(heavy) > 1
        parts.append(
            f"the memory of {named} is not counted: the forecast cannot size {'them' if many else 'it'} "
            f"(a traced run measures {'them' if many else 'it'})"
        )
    return "; ".join(parts)
