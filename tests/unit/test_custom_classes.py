"""Held-out custom node classes (``tests/fixtures/custom_classes/nodes.json``): 120 classes of 59 packs, each read from
its pack's source by a helper that never ran nor read Memory Probe — class key, what it does (its stage), whether
it decodes, the inputs that change its memory. Each is put where a user meets it failing: a VRAM out-of-memory in
the frontend's Error Report and in an older ComfyUI's popup. The failing node is named, its stage is the one its
code says (or, where the fixture says ``reads``, that one, for the reason it gives), a first step is given, and a
decode node is told to decode in tiles. First score (6a53c5a): class 240/240, stage 102/196, tile 24/24."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memprobe.logs.explain import explain_log

DOC = json.loads((Path(__file__).parents[1] / "fixtures" / "custom_classes" / "nodes.json").read_text("utf-8"))
NODES: list[dict[str, Any]] = DOC["nodes"]
NAMED = {"load", "text-encode", "sampling", "vae-decode", "vae-encode", "upscale", "video", "image"}
"""The stages Memory Probe names; the collectors' ``audio``, ``llm``, ``3d`` and ``other`` are custom steps to it."""
TILING = {"tiled-decode", "tiled-decode-own", "custom-node-tiling", "smaller-tiles"}


def report(node: dict[str, Any]) -> str:
    pack = node["pack"].split("/")[-1]
    return (
        "# ComfyUI Error Report\n## Error Details\n- **Node ID:** 42\n"
        f"- **Node Type:** {node['class_type']}\n- **Exception Type:** torch.OutOfMemoryError\n"
        "- **Exception Message:** Allocation on device \n## Stack Trace\n```\n"
        '  File "/root/ComfyUI/execution.py", line 496, in execute\n'
        "    output_data, output_ui, has_subgraph, has_pending_tasks = await get_output_data(prompt_id, unique_id, obj)\n\n"
        f'  File "/root/ComfyUI/custom_nodes/{pack}/nodes.py", line 812, in process\n    out = self.model(x)\n\n```\n'
    )


def popup(node: dict[str, Any]) -> str:
    pack = node["pack"].split("/")[-1]
    return (
        f"Error occurred when executing {node['class_type']}:\n\n"
        "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.99 GiB of which 0 bytes is "
        "free. Of the allocated memory 10.20 GiB is allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but "
        "unallocated.\n\n"
        '  File "C:\\ComfyUI\\execution.py", line 152, in recursive_execute\n'
        "    output_data, output_ui = get_output_data(obj, input_data_all)\n"
        f'  File "C:\\ComfyUI\\custom_nodes\\{pack}\\nodes.py", line 812, in process\n    out = self.model(x)\n'
    )


@pytest.mark.parametrize("shape", [report, popup])
@pytest.mark.parametrize("node", NODES, ids=[n["class_type"] for n in NODES])
def test_a_custom_node_that_ran_out_of_vram_is_named_staged_and_advised(node: dict[str, Any], shape: Any) -> None:
    doc = explain_log(shape(node))
    failure = doc["failure"]
    assert (failure["kind"], failure["node"]["class_type"]) == ("vram", node["class_type"])
    expected = node.get("reads", node["stage"])
    if expected in NAMED:
        assert failure["stage"] == expected, node.get("why") or node["note"]
    assert doc["suggestions"], "a memory failure gets a first step"
    if node["stage"] == "vae-decode":
        assert {s["id"] for s in doc["suggestions"]} & TILING, "a decode node is told to decode in tiles"


def test_the_set_is_the_held_out_one() -> None:
    assert len(NODES) == 120 and len({n["pack"] for n in NODES}) == 59
    assert sum(n["stage"] == "vae-decode" for n in NODES) == 12
    assert all(n["source"].startswith("https://github.com/") for n in NODES)
    assert all(n["why"] for n in NODES if "reads" in n) and sum("reads" in n for n in NODES) == 16
