"""What to try next, one change at a time, from the facts of a run, a log or a forecast.

The rules live in :mod:`memprobe.judging.rules`, each registered with an id, the evidence it
reads and the tiers it can give. Every suggestion carries its evidence (``why``: node, stage,
numbers), exactly one change (``try``), where the panel can make it a machine-readable ``action``,
and its measured effect (``saves_bytes``: what the run's own figures say it would save, or the
headroom it would add).

Ranking: tier first — a failure, then pressure (a fallback ComfyUI took, a VRAM spill, a peak
within 10 % of the limit the OS enforces), then a note without pressure evidence — then the
measured effect against what was missing (the bytes of the shortfall a change recovers: two
changes that each cover it rank alike; an unknown effect ranks last), then rule order. A note
never outranks evidence.

>>> [s.id for s in suggest({"status": "success", "nodes": []})]
[]
"""

from __future__ import annotations

from dataclasses import replace

from ..documents import MachineDoc, RunDoc
from ..vocabulary import NEAR_LIMIT
from .facts import FailureFacts, RunFacts
from .rules import RULES, Suggestion
from .rules.base import TIER_RANK
from .rules.decode import TILED_DEFAULTS

__all__ = ["Suggestion", "advise", "suggest", "shortfall", "TILED_DEFAULTS", "RULES"]


def advise(facts: RunFacts) -> list[Suggestion]:
    """Every suggestion for ``facts``, strongest first. Never raises on gaps in the data."""
    said = _ranked(facts)
    failure = facts.failure
    if failure is not None and failure.unsaid:
        said += _if_it_ran_out(facts, failure)
    return said


IF_STEPS = 2
"""How many of the steps for a memory failure a failure whose error was cut off is given, each as a condition."""
_IF_IT_SAYS = {
    "vram": (
        "GPU memory (VRAM)",
        '"CUDA out of memory", "HIP out of memory", "Allocation on device", "OutOfMemoryError"',
    ),
    "system-ram": ("system RAM", '"DefaultCPUAllocator: not enough memory", "MemoryError", "Unable to allocate"'),
}
"""The memory a cut-off error may have named, in words, and the wordings that would say so."""


def _if_it_ran_out(facts: RunFacts, failure: FailureFacts) -> list[Suggestion]:
    """A failure whose error the excerpt cut off: the first steps had that error said the memory it computes on
    ran out (VRAM; system RAM on the CPU), each a note said as a condition: nothing in the log says it did."""
    kind = "system-ram" if facts.on_cpu else "vram"
    supposed = replace(facts, failure=replace(failure, kind=kind, unsaid=False))
    memory, wordings = _IF_IT_SAYS[kind]
    steps = [s for s in _ranked(supposed) if s.tier == "failure"][:IF_STEPS]
    return [
        replace(
            s,
            tier="note",
            title=f"If it ran out of {memory}, {s.title[0].lower()}{s.title[1:]}",
            why=f"It failed {failure.where}; the excerpt stops before the error. If that error says the {memory} ran "
            f"out ({wordings}), this is the step.",
            saves_bytes=None,  # (nothing measured it: the error is not there)
            action=None,
            covers=None,
        )
        for s in steps
    ]


def _ranked(facts: RunFacts) -> list[Suggestion]:
    found: list[tuple[int, Suggestion]] = []
    spoken: set[str] = set()
    for order, registered in enumerate(RULES):
        said = registered.judge(facts)
        if registered.fallback:  # speaks only where no other rule of its tier did
            said = [s for s in said if s.tier not in spoken]
        for suggestion in said:
            spoken.add(suggestion.tier)
            found.append((order, replace(suggestion, rule=registered.id)))
    missing = shortfall(facts)
    ranked = []
    for order, s in found:
        covers = None if not missing or s.saves_bytes is None else s.saves_bytes >= missing
        ranked.append((order, replace(s, covers=covers)))
    ranked.sort(
        key=lambda item: (
            TIER_RANK[item[1].tier],
            item[1].saves_bytes is None and missing != 0,  # (nothing short: no saving is worth more than another)
            -_effect(item[1].saves_bytes, missing),
            item[0],
        )
    )
    out: list[Suggestion] = []
    said_ids: set[str] = set()
    for _, suggestion in ranked:  # two rules may reach --reserve-vram: the stronger case stays
        if suggestion.id == "reserve-vram" and suggestion.id in said_ids:
            continue
        said_ids.add(suggestion.id)
        out.append(suggestion)
    return out


def _effect(saves: int | None, missing: int | None) -> int:
    """The bytes of what was missing a change recovers: beyond that, more saved is no better."""
    if saves is None:
        return 0
    return min(saves, missing) if missing is not None else saves


def suggest(doc: RunDoc, machine: MachineDoc | None = None) -> list[Suggestion]:
    """:func:`advise` for a run document."""
    return advise(RunFacts.from_run(doc, machine))


def shortfall(facts: RunFacts) -> int | None:
    """What was missing: a failed allocation's size beyond what was free (none, 0, where far more was free than it
    asked), or how far a peak went past 90 % of the limit that bounds it (``None``: the figures do not tell)."""
    failure = facts.failure
    if failure is not None and failure.sizes.free_to_spare:
        return 0  # a refusal with far more free than it asked: nothing was short (rules.refused)
    if failure is not None and failure.sizes.requested_bytes is not None:
        free = failure.sizes.free_bytes or 0
        return max(failure.sizes.requested_bytes - free, 1)
    used = facts.compute.used(facts.peaks)
    if used is not None and facts.compute.limit_bytes and facts.compute.enforced:
        over = used - int(NEAR_LIMIT * facts.compute.limit_bytes)
        return over if over > 0 else None
    return None
