"""The Memory Probe node and the routes in a real ComfyUI: probes between stages change no output
byte; every route answers on the real server."""

from __future__ import annotations

import struct
import zlib

from comfy_server import load_workflow

SMALL = {"5.width": 256, "5.height": 256, "3.seed": 1234}


def with_probes(prompt: dict) -> dict:
    """txt2img with a probe after loading (on the model), after sampling and after decoding."""
    prompt = {**prompt}
    prompt["20"] = {"class_type": "MemProbe", "inputs": {"value": ["4", 0], "label": "after load"}}
    prompt["21"] = {"class_type": "MemProbe", "inputs": {"value": ["3", 0], "label": "after sampling"}}
    prompt["22"] = {"class_type": "MemProbe", "inputs": {"value": ["8", 0], "label": "after decode"}}
    prompt["3"] = {**prompt["3"], "inputs": {**prompt["3"]["inputs"], "model": ["20", 0]}}
    prompt["8"] = {**prompt["8"], "inputs": {**prompt["8"]["inputs"], "samples": ["21", 0]}}
    prompt["9"] = {**prompt["9"], "inputs": {**prompt["9"]["inputs"], "images": ["22", 0], "filename_prefix": "probed"}}
    return prompt


def saved_pixels(server, history: dict) -> bytes:
    """The decompressed pixel rows of the one PNG the run saved (its text chunks hold the prompt,
    which differs between the two runs)."""
    images = [img for out in history["outputs"].values() for img in out.get("images", [])]
    assert len(images) == 1, history["outputs"]
    png = (server.base_dir / "output" / images[0].get("subfolder", "") / images[0]["filename"]).read_bytes()
    pos, idat = 8, b""
    while pos < len(png):
        (length,), kind = struct.unpack(">I", png[pos : pos + 4]), png[pos + 4 : pos + 8]
        if kind == b"IDAT":
            idat += png[pos + 8 : pos + 8 + length]
        pos += 12 + length
    return zlib.decompress(idat)


def test_probes_pass_every_value_through_untouched(server):
    plain_id, plain = server.run(load_workflow("txt2img", **SMALL, **{"9.filename_prefix": "plain"}))
    probed_id, probed = server.run(with_probes(load_workflow("txt2img", **SMALL)))
    assert plain["status"]["status_str"] == probed["status"]["status_str"] == "success"
    pixels = saved_pixels(server, plain)
    assert len(pixels) == 256 * (1 + 256 * 3) and saved_pixels(server, probed) == pixels
    texts = {nid: out["text"][0] for nid, out in probed["outputs"].items() if "text" in out}
    assert set(texts) == {"20", "21", "22"} and texts["21"].startswith("after sampling\n")
    assert "RAM" in texts["21"]
    run = server.memprobe_run(probed_id)
    assert [m["label"] for m in run["marks"]] == ["after load", "after sampling", "after decode"]


def test_every_route_answers_on_the_real_server(server):
    prompt_id, _ = server.run(load_workflow("txt2img", **{**SMALL, "3.seed": 99}))
    server.memprobe_run(prompt_id)
    runs = server.get("/memprobe/runs")
    assert prompt_id in [r["id"] for r in runs["runs"]]
    live = server.get("/memprobe/live")
    assert live["status"]["tracing"]["available"] and live["status"]["ledger"]["available"]
    system = server.get("/memprobe/system")
    assert system["memory"]["ram_total_bytes"] > 0 and system["findings"]
    assert server.get("/memprobe/config")["sample_hz"] == 0  # the default: the rate follows the device
    samples = server.get(f"/memprobe/runs/{prompt_id}/samples?max_points=50")
    assert 0 < len(samples["t"]) <= 50
    status, report = server.request("GET", f"/memprobe/runs/{prompt_id}/report?format=md")
    assert status == 200 and "KSampler" in report and "lighthouse" not in report  # the prompt text stays private
    other = runs["runs"][1]["id"] if len(runs["runs"]) > 1 else prompt_id
    assert server.get(f"/memprobe/compare?a={other}&b={prompt_id}")
    assert server.request("GET", "/memprobe/runs/no-such-run")[0] == 404
    assert server.request("GET", "/memprobe/runs?limit=0")[0] == 400
