"""ComfyUI's async and expanded (ephemeral) nodes in a real ComfyUI, using the nodes of ComfyUI's own
execution test pack (``tests/execution/testing_nodes/testing-pack`` of the ComfyUI install)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def pack_server(make_server, comfy_install):
    pack = comfy_install.root / "tests" / "execution" / "testing_nodes" / "testing-pack"
    if not pack.is_dir():
        pytest.fail(f"ComfyUI's testing pack is missing at {pack}")
    from comfy_server import REPO

    return make_server("testing-pack", extensions=[REPO, pack])


def image(content: str = "WHITE") -> dict:
    return {"class_type": "StubImage", "inputs": {"content": content, "height": 64, "width": 64, "batch_size": 1}}


def test_async_nodes_are_closed_when_their_tasks_end(pack_server):
    prompt = {
        "1": image(),
        "2": {"class_type": "TestSleep", "inputs": {"value": ["1", 0], "seconds": 0.3}},
        "3": {"class_type": "PreviewImage", "inputs": {"images": ["2", 0]}},
    }
    prompt_id, history = pack_server.run(prompt)
    assert history["status"]["status_str"] == "success"
    run = pack_server.memprobe_run(prompt_id)
    nodes = {n["node_id"]: n for n in run["nodes"]}
    assert nodes["2"]["class_type"] == "TestSleep" and nodes["2"]["status"] == "ran"
    assert nodes["2"]["duration_s"] >= 0.25  # measured until the task ended, not until it was scheduled


def test_an_async_failure_is_the_runs_failure(pack_server):
    prompt = {
        "1": image(),
        "2": {"class_type": "TestAsyncError", "inputs": {"value": ["1", 0], "error_after": 0.1}},
        "3": {"class_type": "PreviewImage", "inputs": {"images": ["2", 0]}},
    }
    prompt_id, history = pack_server.run(prompt)
    assert history["status"]["status_str"] == "error"
    run = pack_server.memprobe_run(prompt_id)
    assert run["status"] == "error"
    assert (run["failure"]["node_id"], run["failure"]["class_type"]) == ("2", "TestAsyncError")
    assert "Intentional async execution error" in run["failure"]["message"]


def test_expanded_nodes_are_traced_with_their_display_node(pack_server):
    prompt = {
        "1": image("WHITE"),
        "2": image("BLACK"),
        "3": {
            "class_type": "TestDynamicAsyncGeneration",
            "inputs": {"image1": ["1", 0], "image2": ["2", 0], "num_async_nodes": 2, "sleep_duration": 0.1},
        },
        "4": {"class_type": "PreviewImage", "inputs": {"images": ["3", 0]}},
    }
    prompt_id, history = pack_server.run(prompt)
    assert history["status"]["status_str"] == "success"
    run = pack_server.memprobe_run(prompt_id)
    expanded = [n for n in run["nodes"] if n["node_id"] not in {"1", "2", "3", "4"}]
    assert {n["class_type"] for n in expanded} >= {"TestSleep", "TestVariadicAverage"}
    for node in expanded:  # ephemeral ids like "3.0.0.1"; shown on the node that created them
        assert node["display_node_id"] == "3" and node["status"] == "ran"
