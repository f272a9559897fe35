"""Which workflow a run came from: the frontend's workflow id from the prompt's ``extra_data`` and
a signature of the prompt's graph, over what real frontends sent to a real ComfyUI 0.3.64."""

from __future__ import annotations

import copy
import json

import pytest
from helpers import load_json

from memprobe.judging.workflow import graph_signature, workflow_identity
from memprobe.recording.records import RunRecord

TXT2IMG = load_json("comfyui-0.3.64/api-workflows/txt2img.json")


@pytest.mark.parametrize("version", ["1.27.10", "1.58.1"])
def test_the_frontends_workflow_id_is_read_from_extra_data(version):
    # GIVEN the extra_data a real frontend sent with its prompt
    extra = load_json(f"comfyui-0.3.64/extra_data/frontend_{version}.json")
    # WHEN the run's identity is read
    identity = workflow_identity(TXT2IMG, extra)
    # THEN it is the workflow JSON's id, and the graph's signature
    assert identity == {"id": extra["extra_pnginfo"]["workflow"]["id"], "graph": graph_signature(TXT2IMG)}
    assert len(identity["graph"]) == 16


def test_only_the_id_is_kept_never_the_workflow_nor_the_users_keys():
    extra = load_json("comfyui-0.3.64/extra_data/frontend_1.58.1.json")
    extra.update(auth_token_comfy_org="secret-token-1", api_key_comfy_org="secret-key-2")
    identity = workflow_identity(TXT2IMG, extra)
    assert set(identity) == {"id", "graph"}
    text = json.dumps(identity)
    assert "secret" not in text and "nodes" not in text and len(text) < 120


@pytest.mark.parametrize(
    "extra",
    [
        None,
        {},
        [],
        "x",
        {"extra_pnginfo": None},
        {"extra_pnginfo": {"workflow": "w"}},
        {"extra_pnginfo": {"workflow": {"id": None}}},
        {"extra_pnginfo": {"workflow": {"id": {"nested": 1}}}},
        {"extra_pnginfo": {"workflow": {"id": True}}},
        {"extra_pnginfo": {"workflow": {"id": "x" * 201}}},
        {"extra_pnginfo": {"workflow": {"id": "bad\nid"}}},
        {"extra_pnginfo": {"workflow": {"id": "00000000-0000-0000-0000-000000000000"}}},
    ],
)
def test_a_missing_odd_or_placeholder_id_is_no_id_and_never_an_error(extra):
    assert workflow_identity(TXT2IMG, extra) == {"id": None, "graph": graph_signature(TXT2IMG)}


def test_the_signature_ignores_settings_but_not_nodes_or_links():
    base = graph_signature(TXT2IMG)
    other_settings = copy.deepcopy(TXT2IMG)
    other_settings["3"]["inputs"]["seed"] = 12345
    other_settings["6"]["inputs"]["text"] = "another prompt"
    other_settings["5"]["inputs"]["width"] = 768
    assert graph_signature(other_settings) == base
    tiled = load_json("comfyui-0.3.64/api-workflows/txt2img_tiled.json")
    assert graph_signature(tiled) != base  # the decode node's class changed
    rewired = copy.deepcopy(TXT2IMG)
    rewired["3"]["inputs"]["positive"], rewired["3"]["inputs"]["negative"] = (
        rewired["3"]["inputs"]["negative"],
        rewired["3"]["inputs"]["positive"],
    )
    assert graph_signature(rewired) != base
    assert graph_signature({}) is None and graph_signature(None) is None
    assert graph_signature({"1": "not a node", "2": {"class_type": "X"}}) == graph_signature({"2": {"class_type": "X"}})


def test_a_run_carries_its_workflow_in_its_header():
    run = RunRecord(id="r", started_at=1.0, started_mono=1.0, workflow={"id": "w-1", "graph": "abc"})
    assert run.header()["workflow"] == {"id": "w-1", "graph": "abc"}
    assert RunRecord(id="r", started_at=1.0, started_mono=1.0).header()["workflow"] is None


def test_a_node_the_frontend_does_not_know_is_skipped_not_a_crash():
    """The frontend sends ``class_type: null`` for a node type it has no definition of (a
    template's custom node that is not installed); reading such a prompt must not fail."""
    from memprobe.judging.workflow import workflow_parameters

    prompt = copy.deepcopy(TXT2IMG)
    prompt["100"] = {"inputs": {"UNKNOWN": "disable", "image": ["8", 0]}, "class_type": None, "_meta": {"title": None}}
    assert workflow_parameters(prompt) == workflow_parameters(TXT2IMG)
    assert graph_signature(prompt) == graph_signature(TXT2IMG)
