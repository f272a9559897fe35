"""Every rule of the advice, one module per family, registered in this order (the ranking's last
tie-break). A new rule is a function with ``@rule(...)`` in one of these modules (or a new one
imported here) and a test over recorded runs."""

from . import custom, decode, models, stages, system  # noqa: F401  (registration order)
from .base import RULES, Rule, Suggestion, rule

__all__ = ["RULES", "Rule", "Suggestion", "rule"]
