"""What a rule is and what it says: a :class:`Suggestion` (one change to try, with its evidence
and tier), and the registry every rule module adds itself to with :func:`rule`.

A rule reads the :class:`~memprobe.judging.facts.RunFacts` (a traced run, a log, a forecast: it
cannot tell which) and returns what it suggests. Its tier comes from the evidence it found:
``failure`` (the run failed of it), ``pressure`` (memory ran short and the run went on: ComfyUI's
fallback, a VRAM spill, a peak within 10 % of the limit the OS enforces) or ``note`` (no
pressure: a hint, the headroom). The severity follows the tier.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from ...vocabulary import Severity, Tier
from ..facts import RunFacts

__all__ = ["Rule", "RULES", "Suggestion", "rule", "SEVERITY_OF_TIER", "TIER_RANK"]

SEVERITY_OF_TIER: Final[dict[str, Severity]] = {"failure": "critical", "pressure": "warning", "note": "info"}
TIER_RANK: Final = {"failure": 0, "pressure": 1, "note": 2}


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One change to try. ``saves_bytes`` is its measured effect: the memory it would save (or the
    headroom it would add) by the run's own figures, ``None`` where they do not tell."""

    id: str
    tier: Tier
    title: str
    why: str
    try_: str
    saves_bytes: int | None = None
    action: dict[str, Any] | None = field(default=None)
    rule: str = ""
    covers: bool | None = None
    """Whether ``saves_bytes`` covers what was missing (set when ranked)."""

    @property
    def severity(self) -> Severity:
        return SEVERITY_OF_TIER[self.tier]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rule": self.rule,
            "tier": self.tier,
            "severity": self.severity,
            "title": self.title,
            "why": self.why,
            "try": self.try_,
            "action": self.action,
            "saves_bytes": self.saves_bytes,
            "covers": self.covers,
        }


RuleFunction = Callable[[RunFacts], list[Suggestion]]


@dataclass(frozen=True, slots=True)
class Rule:
    """A registered rule: its id (what it is), the evidence it reads, the tiers it can give and,
    for a ``fallback`` rule, that it speaks only when no other rule of its tier did."""

    id: str
    needs: tuple[str, ...]
    tiers: tuple[Tier, ...]
    judge: RuleFunction
    fallback: bool = False

    @property
    def summary(self) -> str:
        return (self.judge.__doc__ or "").strip().splitlines()[0] if self.judge.__doc__ else self.id


RULES: list[Rule] = []
"""Every rule, in the order their modules registered them (the tie-break of the ranking)."""


def rule(
    rule_id: str, *, needs: tuple[str, ...], tiers: tuple[Tier, ...], fallback: bool = False
) -> Callable[[RuleFunction], RuleFunction]:
    """Register a rule function under ``rule_id``."""

    def register(judge: RuleFunction) -> RuleFunction:
        if any(r.id == rule_id for r in RULES):
            raise ValueError(f"rule {rule_id!r} is registered twice")
        RULES.append(Rule(rule_id, needs, tiers, judge, fallback))
        return judge

    return register
