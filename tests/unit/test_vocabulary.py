"""One vocabulary, held once: failure kinds, statuses, stages, metrics, severities, tones, thresholds
and event names live in memprobe/vocabulary.py. The browser receives them from the server; a copy
of one of these lists in js/ (or a second one in Python) is what this test fails on."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from helpers import ROOT

from memprobe import vocabulary as v

LISTS: dict[str, set[str]] = {
    "failure kinds": set(v.KINDS),
    "run statuses": set(v.RUN_STATUSES),
    "node statuses": set(v.NODE_STATUSES),
    "stages": set(v.STAGES),
    "system metrics": {m.key for m in v.SYSTEM_METRICS},
    "gpu metrics": {m.key for m in v.GPU_METRICS} | {f"gpu0_{m.key}" for m in v.GPU_METRICS},
    "severities": set(v.SEVERITIES),
    "tones": set(v.TONES),
    "node tones": set(v.NODE_TONES),
    "fallback kinds": set(v.FALLBACK_KINDS),
    "events": set(v.EVENTS) | {e.removeprefix("memprobe.") for e in v.EVENTS},
    "limit names": {"VRAM", "RAM + swap", "commit limit", "container limit (cgroup)"},
}
THRESHOLDS = {str(v.NEAR_LIMIT), str(v.AT_LIMIT)}

_TOKEN = re.compile(
    r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|[\[\]{}()]|"""
    r"""\b[A-Za-z_$][\w$]*(?=\s*:)|\b\d+\.\d+\b""",
    re.S,
)


def js_groups(text: str) -> tuple[list[set[str]], set[str]]:
    """The string literals and object keys of each bracketed group of a JS source (comments
    skipped), and its decimal number literals."""
    groups: list[set[str]] = [set()]
    stack: list[int] = [0]
    numbers: set[str] = set()
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if token.startswith(("//", "/*")):
            continue
        if token in "[{(":
            groups.append(set())
            stack.append(len(groups) - 1)
        elif token in "]})":
            if len(stack) > 1:
                stack.pop()
        elif token[0] in "\"'`":
            if not (token[0] == "`" and "${" in token):
                groups[stack[-1]].add(token[1:-1])
        elif token[0].isdigit():
            numbers.add(token)
        else:
            groups[stack[-1]].add(token)
    return groups, numbers


JS_FILES = sorted(p for p in (ROOT / "js").rglob("*.js"))


@pytest.mark.parametrize("path", JS_FILES, ids=[str(p.relative_to(ROOT)) for p in JS_FILES])
def test_the_browser_holds_no_copy_of_a_vocabulary_list(path: Path):
    groups, numbers = js_groups(path.read_text(encoding="utf-8"))
    for name, words in LISTS.items():
        for group in groups:
            copied = group & words
            assert len(copied) < 2, f"{path.name} holds {sorted(copied)} of the {name}: ask js/vocab.js instead"
    assert not numbers & THRESHOLDS, f"{path.name} holds a threshold of memprobe/vocabulary.py: {numbers & THRESHOLDS}"


def test_the_scan_finds_a_copy_when_there_is_one():
    # GIVEN the kind of list this project once kept in js/memory.js
    groups, numbers = js_groups(
        'const NEAR = 0.9;\nconst MEMORY_FAILURES = new Set(["vram", "system-ram"]);\n'
        '// "disk", "other" in a comment is no copy\nconst N = { vram: "Out", disk: "Full" };'
    )
    # THEN both the list and the keyed map are found, and the comment is not
    found = [g & LISTS["failure kinds"] for g in groups if len(g & LISTS["failure kinds"]) >= 2]
    assert found == [{"vram", "system-ram"}, {"vram", "disk"}] and numbers == {"0.9"}


PY_FILES = sorted(
    p
    for folder in ("memprobe", "web", "glue", "nodes")
    for p in (ROOT / folder).rglob("*.py")
    if p.name != "vocabulary.py"
)


def _literal_groups(tree: ast.AST) -> list[set[str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            out.append({e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)})
        elif isinstance(node, ast.Dict):
            out.append({k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)})
    return out


# Readings are dicts keyed by metric names and rules map their own situations to stages: those are
# data, not copies. Kinds, statuses, severities, tones, fallbacks, events and limits are words.
PY_LISTS = {
    k: LISTS[k]
    for k in (
        "failure kinds",
        "run statuses",
        "node statuses",
        "severities",
        "tones",
        "node tones",
        "fallback kinds",
        "events",
        "limit names",
    )
}


@pytest.mark.parametrize("path", PY_FILES, ids=[str(p.relative_to(ROOT)) for p in PY_FILES])
def test_python_defines_each_list_once(path: Path):
    # a condition may name two kinds; a third makes it a copy of the list
    for group in _literal_groups(ast.parse(path.read_text(encoding="utf-8"))):
        for name, words in PY_LISTS.items():
            copied = group & words
            assert len(copied) < 3, (
                f"{path.relative_to(ROOT)} holds {sorted(copied)} of the {name}: import it from memprobe.vocabulary"
            )


def test_the_document_the_browser_reads_carries_every_list():
    doc = v.vocabulary_document()
    assert {k["id"] for k in doc["failure_kinds"]} == set(v.KINDS)
    assert [s["id"] for s in doc["stages"]] == list(v.STAGES)
    assert {s["id"] for s in doc["node_statuses"] if s["executed"]} == v.EXECUTED_STATUSES
    assert doc["thresholds"] == {"near_limit": 0.9, "at_limit": 0.95} and doc["events"] == list(v.EVENTS)
    assert all(k["memory"] == (k["id"] in v.MEMORY_KINDS) for k in doc["failure_kinds"])
