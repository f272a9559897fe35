"""The one verdict of a run, over the recorded runs (tests/fixtures/runs, from real ComfyUI 0.3.64
runs, some in a real memory cgroup): the headline the panel, the toasts, the report and explain
render — which memory, how close to the limit the OS enforces, at which node and stage, the change."""

from __future__ import annotations

import copy

from helpers import load_json

from memprobe.judging.run_view import enrich, live_verdict
from memprobe.logs.explain import explain_log

GIB = 1024**3


def verdict(doc: dict, machine: dict | None = None) -> dict:
    return enrich(copy.deepcopy(doc), machine)["verdict"]


def test_a_healthy_run_names_the_peak_memory_its_limit_the_node_and_the_change():
    # GIVEN a traced txt2img on the CPU (24 GB RAM, Linux overcommit 0: RAM is the enforced limit)
    v = verdict(load_json("runs/txt2img.json"))
    # THEN the headline is the peak against the enforced limit, at the decode, with its change
    assert v["tone"] == "ok" and not v["failed"] and v["kind"] is None
    assert v["title"] == "Peak: RAM in use 2.7 GiB (12 % of RAM) at VAE Decode (vae-decode)"
    assert (v["metric"], v["limit_name"], v["limit_enforced"]) == ("ram_used_bytes", "RAM", True)
    assert 0.11 < v["share"] < 0.12 and not v["near_limit"]
    assert v["node"]["node_id"] == "8" and v["change"]["id"] == "tiled-decode" and v["severity"] == "info"


def test_near_the_enforced_limit_the_tone_says_so_and_a_limit_not_enforced_gives_no_share():
    near = load_json("runs/txt2img.json")
    near["context"]["ram_total_bytes"] = 3 * GIB
    for source in (near["start_metrics"], near["end_metrics"], *(n.get("before") or {} for n in near["nodes"])):
        if "ram_total_bytes" in source:
            source["ram_total_bytes"] = 3 * GIB
    v = verdict(near)
    assert v["tone"] == "near" and v["near_limit"] and "(91 % of RAM)" in v["title"]
    # Linux overcommit 0: Committed_AS over CommitLimit is no pressure, and no percentage of it is shown
    loose = verdict(load_json("runs/txt2img_commit_overcommitted.json"))
    assert loose["tone"] == "ok" and loose["limit_name"] == "RAM"


def test_failed_runs_read_plainly_the_memory_that_ran_out_or_that_it_was_not_memory():
    assert verdict(load_json("runs/decode_oom_cpu.json"))["title"] == "Out of system RAM at VAE Decode (vae-decode)"
    assert verdict(load_json("runs/load_oom_cpu.json"))["title"] == "Out of system RAM at Load Checkpoint (load)"
    assert verdict(load_json("runs/sampling_oom_cpu.json"))["title"] == "Out of system RAM at KSampler (sampling)"
    other = verdict(load_json("runs/error_runtime.json"))
    assert (other["tone"], other["title"], other["memory_ran_out"]) == (
        "other-failure",
        "Not a memory error: LatentBlend failed",
        False,
    )
    assert other["detail"].startswith("RuntimeError: The size of tensor a (4) must match")
    killed = verdict(load_json("runs/killed_mid_sampling.json"))
    assert (killed["tone"], killed["kind"], killed["title"]) == (
        "ended",
        "abrupt",
        "ComfyUI ended mid-run at KSampler (sampling)",
    )
    assert "No sign that memory ran out" in killed["detail"]


def test_a_run_the_containers_limit_killed_is_headlined_as_the_container_limit():
    # GIVEN the run the kernel's OOM killer ended in a real 3 GiB memory cgroup, mid-decode
    v = verdict(load_json("runs/killed_by_cgroup_limit.json"))
    # THEN the verdict says which memory ran out, where, and how close it came
    assert (v["tone"], v["kind"], v["memory_ran_out"], v["failed"]) == ("failed", "cgroup-limit", True, True)
    assert v["title"] == "Container memory limit reached at VAE Decode (vae-decode)"
    assert v["detail"].startswith("ComfyUI was ended mid-run: the kernel's OOM killer ended 1 process(es)")
    assert v["limit_name"] == "container limit (cgroup)" and v["change"]["id"] == "tiled-decode"
    assert v["change"]["severity"] == "critical"
    assert {n["node_id"]: n["tone"] for n in v["nodes"]}["8"] == "failed"


def test_a_run_that_failed_on_a_full_disk_is_headlined_as_the_full_disk():
    doc = load_json("runs/decode_oom_cpu.json")
    doc["failure"] = {
        **doc["failure"],
        "kind": "disk",
        "exception_type": "OSError",
        "message": "[Errno 28] No space left on device",
    }
    v = verdict(doc)
    assert (v["tone"], v["kind"], v["title"]) == ("failed", "disk", "Disk full at VAE Decode (vae-decode)")
    assert v["detail"] == "[Errno 28] No space left on device" and v["change"]["id"] == "free-disk"


def test_the_badges_tone_each_node_by_the_enforced_limit():
    nodes = {n["node_id"]: n for n in verdict(load_json("runs/txt2img_near_cgroup_limit.json"))["nodes"]}
    assert {n["tone"] for n in nodes.values()} <= {"neutral", "near", "failed"}
    assert nodes["8"]["tone"] == "near" and nodes["8"]["peak_bytes"] > 0


def test_a_live_run_names_the_running_node():
    live = {
        "id": "x",
        "status": "running",
        "context": {"compute_device": "cpu", "ram_total_bytes": 16 * GIB},
        "nodes": [
            {
                "node_id": "3",
                "class_type": "KSampler",
                "title": "KSampler",
                "stage": "sampling",
                "status": "running",
                "start_s": 0,
                "end_s": None,
                "peaks": {},
            }
        ],
        "timeline": {"t": [0, 1], "series": {"ram_used_bytes": [2 * GIB, 4 * GIB]}},
    }
    v = live_verdict(live)
    assert (v["tone"], v["title"]) == ("running", "Running KSampler (sampling)")
    assert v["detail"] == "RAM in use: peak so far 4.0 GiB (25 % of RAM)"


def test_an_explained_log_gets_the_same_verdict():
    text = (
        "got prompt\n!!! Exception during processing !!! Allocation on device 0 would exceed allowed memory. "
        "(out of memory)\nCurrently allocated : 1.26 GiB\nRequested : 256.00 MiB\nDevice limit : 2.00 GiB\n"
        'Traceback (most recent call last):\n  File "C:\\ComfyUI\\execution.py", line 323, in execute\n'
        "    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)\n"
        '  File "C:\\ComfyUI\\nodes.py", line 287, in decode\n    images = vae.decode(samples["samples"])\n'
        "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)\n"
    )
    v = explain_log(text)["verdict"]
    assert (v["tone"], v["kind"], v["title"]) == (
        "failed",
        "vram",
        "Out of GPU memory (VRAM) at VAEDecode (vae-decode)",
    )
    assert v["change"]["id"] == "tiled-decode" and "action" not in v["change"]


def test_a_windows_only_status_pasted_alone_gets_the_windows_remedy():
    # the dialog names no OS; 0xc000012d (STATUS_COMMITMENT_LIMIT) exists only on Windows (Comfy-Org/ComfyUI#3109)
    doc = explain_log("Unable to start the application correctly (0xc000012d). Click OK to close the application\n")
    assert doc["machine"]["os"] == "Windows" and doc["verdict"]["kind"] == "commit-limit"
    assert doc["suggestions"][0]["id"] == "pagefile" and "pagefile" in doc["suggestions"][0]["try"]
