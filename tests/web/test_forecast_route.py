"""POST /memprobe/forecast on a fresh aiohttp app, and the check of each queued prompt (ComfyUI's
``on_prompt`` handler): a graph in, its per-stage forecast out in the documented shape; a what-if
machine; bad bodies are clear 400s; a queued prompt that won't fit sends ``memprobe.forecast`` to
its client and is returned untouched."""

from __future__ import annotations

import copy
import importlib
import json

import pytest
from helpers import FIXTURES

RUNS = json.loads((FIXTURES / "runs" / "forecast_sizes_cpu.json").read_text(encoding="utf-8"))
RUN = RUNS["512"]


def lookup(ref):
    from memprobe.forecast.models import read_model

    path = FIXTURES / "models" / ref.file
    return read_model(path) if path.exists() else None


@pytest.fixture
def service(pack):
    service_mod = importlib.import_module("memory_probe_pack.memprobe.forecast.service")
    return service_mod.ForecastService(
        lookup, context=lambda: RUN["context"], readings=lambda: RUN["start_metrics"], models=lambda: []
    )


@pytest.fixture
def app(routes_app, service):
    return routes_app(forecast=service.now, forecast_unavailable=None)[0]


async def test_a_graph_gets_its_forecast_in_the_documented_shape(aiohttp_client, app):
    client = await aiohttp_client(app)
    response = await client.post("/memprobe/forecast", json={"prompt": RUN["prompt"]})
    assert response.status == 200
    doc = await response.json()
    assert {"stages", "peak", "suggestions", "verdict", "unknown", "nodes", "machine"} <= set(doc)
    stage = next(s for s in doc["stages"] if s["stage"] == "vae-decode")
    assert {"stage", "node_ids", "metric", "peak_bytes", "system_bytes", "offloaded_bytes", "verdict"} <= set(stage)
    assert stage["metric"] == "process_rss_bytes" and stage["node_ids"] == ["8"]
    assert set(doc["peak"]) >= {
        "stage",
        "node_id",
        "class_type",
        "metric",
        "bytes",
        "limit_bytes",
        "limit_name",
        "verdict",
    }
    assert doc["peak"]["stage"] == "vae-decode" and doc["peak"]["class_type"] == "VAEDecode"


async def test_a_what_if_machine_answers_would_it_run_on_another_card(aiohttp_client, app):
    client = await aiohttp_client(app)
    body = {"prompt": RUN["prompt"], "machine": {"device": "cuda", "vram_total_bytes": 8 * 1024**3, "os": "windows"}}
    doc = await (await client.post("/memprobe/forecast", json=body)).json()
    assert doc["metric"] == "gpu0_used_bytes" and doc["machine"]["vram_total_bytes"] == 8 * 1024**3
    assert doc["machine"]["os"] == "Windows" and doc["peak"]["limit_name"] == "VRAM"


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (b"not json", "must be JSON"),
        (json.dumps({"graph": {}}).encode(), '{"prompt"'),
        (json.dumps({"prompt": {}}).encode(), "non-empty object"),
        (json.dumps({"prompt": {"1": {"inputs": {}}}}).encode(), "no node with a class_type"),
        (json.dumps({"prompt": RUN["prompt"], "machine": {"device": "tpu"}}).encode(), "machine.device"),
        (json.dumps({"prompt": RUN["prompt"], "machine": {"vram_total_bytes": -1}}).encode(), "positive number"),
        (json.dumps({"prompt": RUN["prompt"], "machine": {"gpus": 2}}).encode(), "unknown keys: gpus"),
    ],
)
async def test_a_bad_body_is_a_clear_400(aiohttp_client, app, body, needle):
    client = await aiohttp_client(app)
    response = await client.post("/memprobe/forecast", data=body, headers={"Content-Type": "application/json"})
    assert response.status == 400 and needle in (await response.json())["error"]


def test_a_queued_prompt_that_wont_fit_tells_its_client_and_is_queued_untouched(pack, service):
    forecast_mod = importlib.import_module("memory_probe_pack.web.forecast")
    sent = []
    check = forecast_mod.QueueCheck(service.now, lambda event, data, sid: sent.append((event, data, sid)))
    big = copy.deepcopy(RUN["prompt"])
    big["5"]["inputs"].update(width=1920, height=1920)  # a decode ComfyUI estimates at 30 GiB on this 24 GiB machine
    request = {"prompt": big, "client_id": "abc"}
    small = {"prompt": copy.deepcopy(RUN["prompt"]), "client_id": "xyz"}
    assert check(request) is request and check(small) is small and check({"number": 1}) == {"number": 1}
    assert check.flush()
    assert [(event, sid) for event, _, sid in sent] == [("memprobe.forecast", "abc")]
    toast = sent[0][1]
    assert toast["verdict"] == "won't fit" and toast["stage"] == "vae-decode" and toast["class_type"] == "VAEDecode"
    assert toast["change"]["id"] == "tiled-decode" and toast["change"]["action"]["type"] == "swap_vae_decode"
    assert request["prompt"] is big and big["5"]["inputs"]["width"] == 1920  # never changed


def test_the_queue_check_can_be_turned_off_and_never_raises(pack, service):
    forecast_mod = importlib.import_module("memory_probe_pack.web.forecast")
    sent = []
    off = forecast_mod.QueueCheck(service.now, lambda *a: sent.append(a), enabled=lambda: False)
    broken = forecast_mod.QueueCheck(service.now, lambda *a: sent.append(a), enabled=lambda: 1 / 0)
    assert off({"prompt": RUN["prompt"]}) and broken({"prompt": RUN["prompt"]}) and off.flush() and sent == []
