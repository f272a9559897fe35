"""Tracing inside a real ComfyUI: every node of a real workflow, its stage and peaks; an execution
error named at its node; a cached re-run."""

from __future__ import annotations

from comfy_server import load_workflow

SMALL = {"5.width": 256, "5.height": 256}


def test_txt2img_is_traced_node_by_node(server):
    prompt_id, history = server.run(load_workflow("txt2img", **SMALL))
    assert history["status"]["status_str"] == "success"
    run = server.memprobe_run(prompt_id)
    assert run["status"] == "success" and run["failure"] is None
    nodes = {n["node_id"]: n for n in run["nodes"]}
    assert {nid: (n["class_type"], n["stage"], n["status"]) for nid, n in nodes.items()} == {
        "4": ("CheckpointLoaderSimple", "load", "ran"),
        "5": ("EmptyLatentImage", "other", "ran"),
        "6": ("CLIPTextEncode", "text-encode", "ran"),
        "7": ("CLIPTextEncode", "text-encode", "ran"),
        "3": ("KSampler", "sampling", "ran"),
        "8": ("VAEDecode", "vae-decode", "ran"),
        "9": ("SaveImage", "output", "ran"),
    }
    for node in nodes.values():
        assert node["before"]["process_rss_bytes"] > 0 and node["after"]["process_rss_bytes"] > 0
        assert node["duration_s"] >= 0
    sampler = nodes["3"]
    assert sampler["peaks"]["process_rss_bytes"] >= sampler["before"]["process_rss_bytes"]
    assert run["context"]["comfyui_version"] and run["timeline"]["t"]


def test_an_execution_error_names_the_failing_node(server):
    prompt_id, history = server.run(load_workflow("error_runtime"))
    assert history["status"]["status_str"] == "error"
    run = server.memprobe_run(prompt_id)
    assert run["status"] == "error"
    failure = run["failure"]
    assert (failure["node_id"], failure["class_type"], failure["kind"]) == ("11", "LatentBlend", "other")
    assert failure["exception_type"] == "RuntimeError"


def test_a_cached_rerun_records_every_node_as_cached(server):
    prompt = load_workflow("txt2img", **{**SMALL, "3.seed": 7})
    first, _ = server.run(prompt)
    second, history = server.run(prompt)
    assert history["status"]["status_str"] == "success"
    run = server.memprobe_run(second)
    assert run["status"] == "success"
    assert {n["node_id"]: n["status"] for n in run["nodes"]} == dict.fromkeys("3456789", "cached")
