"""The value of a Math Expression node's formula (``ComfyMathExpression``, ComfyUI newer than 0.3.64: a video's
``length`` as ``seconds * fps + 1``, a size rounded as ``floor(a/32)*32``), computed as the node computes it where
the workflow sets every value it names.

ComfyUI evaluates it with ``simpleeval`` (``comfy_extras/nodes_math.py``): Python's own expression grammar and
operators, the names its inputs give (``a``, ``b`` … and ``values``), and a fixed set of functions. ComfyUI 0.3.64
does not ship that library and the extension's requirements stay as they are, so the same grammar is read here with
Python's ``ast`` — only numbers, those names, arithmetic, comparisons, a conditional and those functions; anything
else (an attribute, a string, a huge power) is no value rather than a guess.

>>> evaluate("floor(a/32)*32", {"a": 1000})
992
>>> evaluate("min(a * 16 + 1, 81)", {"a": 3})
49
>>> evaluate("a.__class__", {"a": 1}) is None
True
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["evaluate", "MAX_CHARS"]

MAX_CHARS = 1000
"""A longer formula is not read (a workflow's are a line)."""
_MAX_POWER = 64
_MAX_MAGNITUDE = 1 << 53
"""Past this a number stops being a size, frame count or step count: no value."""

_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "round": round,
    "sqrt": math.sqrt,
    "ceil": math.ceil,
    "floor": math.floor,
    "log": math.log,
    "log2": math.log2,
    "log10": math.log10,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "int": int,
    "float": float,
    "sum": lambda *a: sum(a[0]) if len(a) == 1 and isinstance(a[0], list) else sum(a),
    "pow": lambda base, exp: _power(base, exp),
}
"""The functions the node offers (its ``MATH_FUNCTIONS``)."""
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: lambda base, exp: _power(base, exp),
}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


class _NoValue(Exception):
    """What the formula asks is not read here."""


def evaluate(expression: str, names: Mapping[str, int | float]) -> int | float | None:
    """The formula's number with ``names`` bound (the node's inputs by name), or ``None``: not a number, a name it is
    not given, what the grammar above does not hold, a division by zero, a non-finite result."""
    if not isinstance(expression, str) or not expression.strip() or len(expression) > MAX_CHARS:
        return None
    context: dict[str, Any] = dict(names)
    context["values"] = list(names.values())
    try:
        result = _value(ast.parse(expression.strip(), mode="eval").body, context)
    except (_NoValue, SyntaxError, ArithmeticError, ValueError, TypeError, RecursionError):
        return None
    if isinstance(result, bool) or not isinstance(result, int | float) or not math.isfinite(result):
        return None
    return result if abs(result) <= _MAX_MAGNITUDE else None


def _value(node: ast.AST, names: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _bounded(_BINARY[type(node.op)](_number(node.left, names), _number(node.right, names)))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _number(node.operand, names)
        return -operand if isinstance(node.op, ast.USub) else +operand
    if isinstance(node, ast.IfExp):
        return _value(node.body if _value(node.test, names) else node.orelse, names)
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        left = _number(node.left, names)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _number(right_node, names)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
    ):
        return _bounded(_FUNCTIONS[node.func.id](*(_value(arg, names) for arg in node.args)))
    raise _NoValue(type(node).__name__)


def _number(node: ast.AST, names: dict[str, Any]) -> int | float:
    """An operand: a number (``values``, the list of them, only as a function's argument: ``sum(values)``)."""
    value = _value(node, names)
    if not isinstance(value, int | float):
        raise _NoValue("operand")
    return value


def _power(base: Any, exp: Any) -> Any:
    if abs(exp) > _MAX_POWER:
        raise _NoValue("power")
    return base**exp


def _bounded(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > _MAX_MAGNITUDE:
        raise _NoValue("magnitude")
    return value
