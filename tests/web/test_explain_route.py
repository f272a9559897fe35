"""POST /memprobe/explain on a fresh aiohttp app: a log in, its explanation out; an empty body is a
clear 400, a log over the limit a clear 413 (declared or streamed), and it never answers 500."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

LOG = FIXTURES / "logs" / "cuda_vaedecode_control_lora_6gb.log"


@pytest.fixture
def app(routes_app):
    return routes_app()


async def test_a_log_is_explained(aiohttp_client, app):
    client = await aiohttp_client(app[0])
    response = await client.post("/memprobe/explain", data=LOG.read_bytes(), headers={"Content-Type": "text/plain"})
    assert response.status == 200
    doc = await response.json()
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"], doc["failure"]["stage"]) == (
        "vram",
        "VAEDecode",
        "vae-decode",
    )
    assert doc["suggestions"][0]["id"] == "tiled-decode" and "action" not in doc["suggestions"][0]


async def test_one_pasted_line_is_a_failure_with_a_first_step(aiohttp_client, app):
    # the one line many people paste (Comfy-Org/ComfyUI#7481): no "got prompt", no traceback
    line = b"[enforce fail at alloc_cpu.cpp:115] data. DefaultCPUAllocator: not enough memory: you tried to allocate 3376447488 bytes."
    client = await aiohttp_client(app[0])
    doc = await (await client.post("/memprobe/explain", data=line)).json()
    assert doc["failure"]["kind"] == "system-ram" and doc["verdict"]["title"].startswith("Out of system RAM")
    assert doc["suggestions"] and doc["suggestions"][0]["saves_bytes"] is not None


async def test_the_shareable_report_and_a_utf16_body(aiohttp_client, app):
    client = await aiohttp_client(app[0])
    body = "\ufeff" + (FIXTURES / "logs" / "commit1455_portable_chinese.log").read_text(encoding="utf-8")
    response = await client.post("/memprobe/explain?format=md", data=body.encode("utf-16-le"))
    assert response.status == 200 and response.content_type == "text/markdown"
    report = await response.text()
    assert report.startswith("# Memory Probe: explanation of a ComfyUI log") and "commit-limit" in report
    assert "ComfyUI_windows_portable" not in report


@pytest.mark.parametrize(
    "body, query, reason",
    [
        (b"", "", "the text of a ComfyUI log"),
        (b"  \n\t\n", "", "the text of a ComfyUI log"),
        (b"got prompt\n", "?format=pdf", "format must be json or md"),
    ],
)
async def test_bad_requests_say_why(aiohttp_client, app, body, query, reason):
    client = await aiohttp_client(app[0])
    response = await client.post(f"/memprobe/explain{query}", data=body)
    assert response.status == 400 and reason in (await response.json())["error"]


async def test_a_log_over_the_limit_is_refused_declared_or_streamed(aiohttp_client, app, monkeypatch):
    application, routes_mod = app
    monkeypatch.setattr(routes_mod, "EXPLAIN_MAX_BYTES", 4096)
    client = await aiohttp_client(application)
    declared = await client.post("/memprobe/explain", data=b"x" * 5000)
    assert declared.status == 413 and "last part" in (await declared.json())["error"]

    async def chunks():  # no Content-Length: the limit holds while reading
        for _ in range(10):
            yield b"y" * 1000

    streamed = await client.post("/memprobe/explain", data=chunks())
    assert streamed.status == 413
    fits = await client.post("/memprobe/explain", data=b"got prompt\n" * 300)
    assert fits.status == 200 and (await fits.json())["failure"]["kind"] == "abrupt"
