"""Will it fit? The per-stage memory forecast of a workflow before it runs (docs/forecast.md).

``models``    what a model file holds, from its safetensors header alone
``estimates`` ComfyUI's own published estimates and its partial-load rule
``graph``     the workflow walked in ComfyUI's order, what each node does to memory
``handlers``  what each of ComfyUI's own node classes does (the files it reads, the models it loads, the estimate)
``steps``     the values along the links (a model, a latent, an image) and each node's step
``machine``   the machine it is for (this one, or a what-if) and ComfyUI's launch options
``forecast``  the simulation: levels, loads, working memory, per node
``verdicts``  how its numbers are judged: each node's verdict, the stages rolled up, why ``unknown``
``learn``     what this machine's runs teach (a correction per model family and stage)
``advice``    the suggestions, through the rules a traced run gets, and what would fit
``workflow``  a UI-format workflow (the frontend's saved file) as the API graph the forecast reads
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .advice import with_suggestions
from .forecast import Correction, ModelLookup, forecast
from .machine import Machine

__all__ = ["predict"]


def predict(
    prompt: Mapping[str, Any],
    machine: Machine,
    lookup: ModelLookup,
    *,
    context: Mapping[str, Any],
    corrections: Mapping[tuple[str, str, str], Correction] | None = None,
    image_size: Callable[[str], tuple[int, int] | None] | None = None,
) -> dict[str, Any]:
    """The forecast of ``prompt`` on ``machine`` with its suggestions and what would fit."""

    def refit(trial: Mapping[str, Any]) -> dict[str, Any]:
        return forecast(trial, machine, lookup, corrections=corrections, image_size=image_size)

    return with_suggestions(refit(prompt), prompt, context, refit)
