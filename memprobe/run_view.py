"""What the panel shows next to a run's raw figures: the suggestions, the stage summary and the
workflow's settings. One function, so routes, events and exports agree."""

from __future__ import annotations

from typing import Any

from .advice import suggest
from .runfacts import compute_memory, limit_of, stage_summary
from .workflow import workflow_parameters

__all__ = ["enrich"]


def enrich(doc: dict[str, Any], machine: dict[str, Any] | None = None) -> dict[str, Any]:
    """``doc`` with ``suggestions``, ``stages``, ``parameters`` and ``memory`` {metric, limit_bytes}."""
    doc["suggestions"] = [s.to_dict() for s in suggest(doc, machine)]
    doc["stages"] = stage_summary(doc)
    doc["parameters"] = workflow_parameters(doc.get("prompt"))
    metric = compute_memory(doc)
    doc["memory"] = {"metric": metric, "limit_bytes": limit_of(doc, metric)}
    return doc
