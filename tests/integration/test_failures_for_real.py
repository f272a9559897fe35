"""Failures that really happen: a server killed mid-sampling (found at the next start) and a real
system-RAM out-of-memory, provoked with an address-space limit (``ulimit -v``)."""

from __future__ import annotations

import resource
import time

from comfy_server import ComfyServer, load_workflow

GIB = 1024**3


def test_a_server_killed_mid_sampling_is_found_at_the_next_start(comfy_install, tmp_path):
    first = ComfyServer(comfy_install, tmp_path).start()
    try:
        prompt_id = first.queue(load_workflow("txt2img", **{"3.steps": 30, "3.seed": 5}))
        deadline = time.monotonic() + 180
        while True:  # until KSampler has run for a second (sampled at least once since its start): its start is
            # committed by the ledger's writer thread, so a kill in its first milliseconds finds the node before it
            live = first.get("/memprobe/live")
            running = [n for n in (live.get("run") or {}).get("nodes", []) if n["status"] == "running"]
            times = (live.get("run") or {}).get("timeline", {}).get("t") or []
            if (
                running
                and running[0]["class_type"] == "KSampler"
                and running[0].get("start_s") is not None
                and times
                and times[-1] >= running[0]["start_s"] + 1.0
            ):
                break
            assert time.monotonic() < deadline, f"KSampler never ran: {live}"
            time.sleep(0.3)
    finally:
        first.kill()
    second = ComfyServer(comfy_install, tmp_path).start()
    try:
        run = second.memprobe_run(prompt_id)
        assert run["status"] == "ended_abruptly"
        failure = run["failure"]
        assert (failure["node_id"], failure["class_type"], failure["stage"], failure["abrupt"]) == (
            "3",
            "KSampler",
            "sampling",
            True,
        )
        assert run["sample_count"] > 0 and run["timeline"]["t"]  # the readings up to the kill were kept
        assert any(s["id"] for s in run["suggestions"])
    finally:
        second.stop()


def limit_address_space(limit_bytes: int):
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return preexec


def test_a_real_system_ram_oom_in_vae_decode(comfy_install, tmp_path):
    """2048x2048 VAE decode under a 5 GiB address-space limit: PyTorch's DefaultCPUAllocator fails."""
    prompt = load_workflow("txt2img", **{"5.width": 2048, "5.height": 2048})
    prompt["8"]["inputs"]["samples"] = ["5", 0]  # decode the empty latent straight away: no sampling needed
    del prompt["3"], prompt["6"], prompt["7"]
    server = ComfyServer(comfy_install, tmp_path, preexec=limit_address_space(5 * GIB)).start()
    try:
        prompt_id, history = server.run(prompt, timeout_s=400)
        assert history["status"]["status_str"] == "error"
        run = server.memprobe_run(prompt_id)
        failure = run["failure"]
        assert (failure["node_id"], failure["class_type"], failure["stage"], failure["kind"]) == (
            "8",
            "VAEDecode",
            "vae-decode",
            "system-ram",
        )
        assert "DefaultCPUAllocator" in failure["message"] or "not enough memory" in failure["message"]
        assert run["suggestions"][0]["id"] == "tiled-decode"
    finally:
        server.stop()
