"""A Math Expression node's formula (ComfyUI's ``ComfyMathExpression``, newer than 0.3.64), computed as the node does
with ``simpleeval`` where every value it names is set: the formulas are those the newest templates and users'
workflows hold; what the node's grammar does not offer, or what is no size, is no value."""

from __future__ import annotations

import pytest

from memprobe.judging.expression import MAX_CHARS, evaluate
from memprobe.judging.workflow import literal, workflow_parameters


@pytest.mark.parametrize(
    ("expression", "names", "value"),
    [
        ("floor(a * b) + 1", {"a": 5.0, "b": 16.0}, 81),  # a Wan 2.2 video's length: seconds x fps + 1
        ("a * b + 1", {"a": 5, "b": 25}, 126),  # LTX 2.3's
        ("min(a * 16 + 1, 81)", {"a": 5.0}, 81.0),  # causal forcing's, capped
        ("floor(a/32)*32", {"a": 1000}, 992),  # HiDream O1's size on a 32-pixel grid
        ("max(5, round(a * 24)) + (5 - (max(5, round(a * 24)) % 17)) % 17", {"a": 4.0}, 107),  # MiniMax H3's frames
        ("a-8", {"a": 1024}, 1016),
        ("a if a > b else b", {"a": 3, "b": 7}, 7),
        ("sum(values) / 2", {"a": 2, "b": 4}, 3.0),
        ("pow(2, 10) + -a", {"a": 24}, 1000),
        ("sqrt(a) ** 2", {"a": 16}, 16.0),
    ],
)
def test_a_formula_is_computed_as_the_node_computes_it(expression, names, value):
    assert evaluate(expression, names) == value


@pytest.mark.parametrize(
    "expression",
    [
        "a.__class__",  # an attribute
        "__import__('os')",  # a function it does not offer
        "'a' * 3",  # a string
        "c + 1",  # a name it is not given
        "a / 0",
        "9 ** 99",  # a power past any size
        "a * 10 ** 20",
        "a > 1",  # a truth, not a number
        "",
        "a +",
        "a" + " + a" * MAX_CHARS,  # longer than a formula is
        "[a][0]",
        "lambda: 1",
        "min(a, key=abs)",
        "values * 1000000000",  # the list of values is no operand (its copies would fill the memory)
        "sum(values * 99)",
    ],
)
def test_what_the_grammar_does_not_offer_is_no_value(expression):
    assert evaluate(expression, {"a": 3}) is None


def test_a_value_is_read_through_the_formula_from_the_workflows_primitives():
    prompt = {
        "1": {"class_type": "PrimitiveFloat", "inputs": {"value": 5}},
        "2": {"class_type": "PrimitiveFloat", "inputs": {"value": 16}},
        "3": {"class_type": "ComfyMathExpression",
              "inputs": {"expression": "floor(a * b) + 1", "values.a": ["1", 0], "values.b": ["2", 0]}},
        "4": {"class_type": "EmptyHunyuanLatentVideo",
              "inputs": {"width": 640, "height": 640, "length": ["3", 1], "batch_size": 1}},
        "5": {"class_type": "LoadImage", "inputs": {"image": "x.png"}},
        "6": {"class_type": "ComfyMathExpression", "inputs": {"expression": "a", "values.a": ["5", 1]}},
    }  # fmt: skip
    assert literal(prompt, ["3", 1]) == 81 and literal(prompt, ["3", 0]) == 81.0  # its INT, its FLOAT
    assert workflow_parameters(prompt)["length"] == 81
    assert literal(prompt, ["6", 1]) is None  # a value another node computes (an image's height)
    prompt["3"]["inputs"]["expression"] = ["7", 0]  # the formula itself from another node: not read
    assert literal(prompt, ["3", 1]) is None
