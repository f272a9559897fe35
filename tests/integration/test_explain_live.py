"""`memprobe explain` on the log of a real ComfyUI, next to Memory Probe's trace of the same prompt:
an execution error, and a RAM out-of-memory provoked by capping the server's address space once it
has started (the checkpoint can no longer be mapped). The log alone gets the traced run's judgement."""

from __future__ import annotations

import resource

from comfy_server import load_workflow

from memprobe.judging.advice import suggest
from memprobe.logs.explain import explain_log

SMALL = {"5.width": 256, "5.height": 256}


def vm_size_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))


def judgements(server, prompt_id: str) -> tuple[tuple, tuple]:
    run = server.memprobe_run(prompt_id)
    traced = suggest(run)
    doc = explain_log(server.log_text())
    failure = doc["failure"]
    return (
        (
            run["failure"]["kind"],
            run["failure"]["class_type"],
            run["failure"]["stage"],
            traced[0].id if traced else None,
        ),
        (
            failure["kind"],
            failure["node"]["class_type"],
            failure["stage"],
            doc["suggestions"][0]["id"] if doc["suggestions"] else None,
        ),
    )


def test_an_execution_error_is_explained_from_the_log_as_it_was_traced(make_server):
    server = make_server("explain-error")
    prompt_id, history = server.run(load_workflow("error_runtime"))
    assert history["status"]["status_str"] == "error"
    traced, explained = judgements(server, prompt_id)
    assert explained == traced == ("other", "LatentBlend", "other", None)


def cap_address_space(server, room_bytes: int) -> None:
    """Cap the started server's address space at its size now plus ``room_bytes``."""
    pid = server.process.pid
    limit = vm_size_bytes(pid) + room_bytes
    resource.prlimit(pid, resource.RLIMIT_AS, (limit, limit))


def test_a_ram_oom_at_load_is_explained_from_the_log_as_it_was_traced(make_server):
    server = make_server("explain-load-oom")
    cap_address_space(server, 300 * 1024**2)  # room for the server, not for mapping a 500 MB checkpoint
    prompt_id, history = server.run(load_workflow("txt2img", **SMALL))
    assert history["status"]["status_str"] == "error"
    traced, explained = judgements(server, prompt_id)
    # the trace measured RAM nearly empty: the cap was the process's own (its first steps: the smaller
    # model, then that cap); the log cannot see RAM and raises the limit the OS enforces first
    assert traced == ("system-ram", "CheckpointLoaderSimple", "load", "smaller-model")
    assert explained == ("system-ram", "CheckpointLoaderSimple", "load", "pagefile")
    assert "process-limit" in {s.id for s in suggest(server.memprobe_run(prompt_id))}


def test_a_ram_oom_at_decode_is_explained_from_the_log_as_it_was_traced(make_server):
    prompt = load_workflow("txt2img", **{"5.width": 2048, "5.height": 2048})
    prompt["8"]["inputs"]["samples"] = ["5", 0]  # decode the empty latent straight away
    del prompt["3"], prompt["6"], prompt["7"]
    server = make_server("explain-decode-oom")
    cap_address_space(server, 1536 * 1024**2)  # the models load; a 2048x2048 decode's tensors do not fit
    prompt_id, history = server.run(prompt, timeout_s=400)
    assert history["status"]["status_str"] == "error"
    traced, explained = judgements(server, prompt_id)
    assert explained == traced == ("system-ram", "VAEDecode", "vae-decode", "tiled-decode")
