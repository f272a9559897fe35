"""The table of ComfyUI's own nodes newer than 0.3.64 (``memprobe/data/comfyui_newer_nodes.json``) against the
frontend the browser tests run: every class its English node definitions hold that 0.3.64 did not record is in the
table, under the display name the frontend shows (tests/fixtures/comfyui-newer/build.py made it from the same wheel
and from comfyui-embedded-docs)."""

from __future__ import annotations

import json

import pytest
from frontend_server import Unavailable, frontend_static, unavailable
from helpers import FIXTURES

from memprobe.judging.stages import builtin_display_name, newer_node_specs, unrecorded_builtin_nodes

FRONTEND_ONLY = {"Note", "MarkdownNote", "Reroute", "PrimitiveNode"}


def _english_node_defs(version: str) -> dict:
    try:
        static = frontend_static(version)
    except Unavailable as exc:
        unavailable(str(exc))
    for source_map in (static / "assets").glob("nodeDefs-*.js.map"):
        doc = json.loads(source_map.read_text(encoding="utf-8"))
        if doc["sources"][0].endswith("/locales/en/nodeDefs.json"):
            return json.loads(doc["sourcesContent"][0])
    pytest.fail(f"frontend {version} holds no en/nodeDefs.json")


def test_every_newer_class_the_frontend_names_is_in_the_table_with_its_title():
    defs = _english_node_defs("1.58.1")
    recorded = json.loads((FIXTURES / "comfyui-0.3.64" / "object_info.json").read_text(encoding="utf-8"))
    newer = set(defs) - set(recorded) - FRONTEND_ONLY
    table = unrecorded_builtin_nodes()
    assert len(newer) > 500 and newer <= set(table), sorted(newer - set(table))[:10]
    for name in newer:
        assert builtin_display_name(name) == (defs[name].get("display_name") or name), name
    # what the table holds beyond them comes from the embedded docs (a class documented, not yet translated)
    assert len(set(table) - newer) < 20


def test_the_newer_classes_inputs_are_the_frontends_in_its_order():
    # the inputs the forecast reads a newer class by (newer_node_specs: typed by its embedded doc) are the ones this
    # frontend names for it, in its order — /object_info's — where it names the class
    defs = _english_node_defs("1.58.1")
    specs = newer_node_specs()
    assert len(specs) > 300 and set(specs) <= set(unrecorded_builtin_nodes())
    named = [k for k in specs if k in defs]
    assert len(named) > 280
    for name in named:
        assert [n for n, _, _ in specs[name].inputs] == list(defs[name].get("inputs") or {}), name
    assert specs["TextEncodeAceStepAudio1.5"].input_type("clip") == "CLIP"  # (not in this frontend's English list)
