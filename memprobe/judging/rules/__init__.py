"""Every rule of the advice, one module per family. :data:`FAMILIES` is their order, and within a
module the order the rules are written in: the ranking's last tie-break (after tier and measured
effect), so the rule that addresses the failing stage itself comes before one that changes the
launch options or the machine — after a refusal the failure's own message shows was no shortage
(:mod:`.refused`), which makes advice to shrink the step a second resort. A new rule is a function with ``@rule(...)`` in one of these
modules (or a new module added to :data:`FAMILIES`) and a test over recorded runs.
"""

from . import custom, decode, firststep, models, refused, stages, system
from .base import RULES, Rule, Suggestion, rule

__all__ = ["RULES", "FAMILIES", "Rule", "Suggestion", "rule"]

FAMILIES = (refused, decode, custom, stages, system, models, firststep)
_ORDER = [m.__name__ for m in FAMILIES]
RULES.sort(key=lambda r: _ORDER.index(r.judge.__module__) if r.judge.__module__ in _ORDER else len(_ORDER))
