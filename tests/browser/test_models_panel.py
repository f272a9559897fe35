"""The model picture in the Memory sidebar, in the real ComfyUI frontend (1.27.10 and 1.58.1): the
model line of a node row and, for a live run, the offloaded series and ComfyUI's model log lines."""

from __future__ import annotations

import time

from frontend_server import open_panel
from helpers import load_json
from panel_page import open_timeline

ROWS = "[data-testid=memprobe-table] tbody tr"


def test_a_recorded_run_says_which_node_loaded_which_model(comfy):
    page, server, version, errors = comfy
    doc = load_json("runs/txt2img_models.json")
    server.import_run(doc)
    page.evaluate("() => window.__memprobe.store.refreshRuns()")
    open_panel(page, doc["id"])
    assert page.locator(f"{ROWS}[data-node='3'] .mp-models").inner_text() == "loaded BaseModel (169 MiB in RAM)"
    assert page.locator(f"{ROWS}[data-node='5'] .mp-models").count() == 0
    title = page.locator(f"{ROWS}[data-node='9'] td").first.get_attribute("title")
    assert title.startswith("Models held: ") and "SD1ClipModel" in title
    open_timeline(page)
    assert "model_offloaded_bytes" not in page.evaluate(
        "() => window.__memprobe.timeline.chart.state.specs.map(s => s.key)"
    )
    assert [e for e in errors if e.startswith("pageerror")] == []


def test_a_live_partial_load_draws_the_offloaded_series_and_marks_the_node(comfy):
    page, server, version, errors = comfy
    open_panel(page)
    open_timeline(page)
    # the real ModelPatcher partial load recorded on CPU tensors, as it reads on a GPU
    steps = {
        s["step"]: [{**m, "device": "cuda:0"} for m in s["models"]]
        for s in load_json("residency/partial_load_cpu.json")["steps"]
    }
    changes = [
        {**c, "device": "cuda:0"}
        for s in load_json("residency/partial_load_cpu.json")["steps"]
        if s["step"] == "partial load"
        for c in s["changes"]
    ]
    run_id = "live-models-1"
    server.broadcast(
        "memprobe.run_start", {"id": run_id, "status": "running", "started_at": time.time(), "context": {}}
    )
    page.wait_for_function("id => window.__memprobe.store.doc && window.__memprobe.store.doc.id === id", arg=run_id)
    node = {
        "run_id": run_id,
        "seq": 1,
        "node_id": "3",
        "class_type": "KSampler",
        "title": "KSampler",
        "stage": "sampling",
        "start_s": 0.0,
        "before": {},
        "peaks": {},
        "fallbacks": [],
    }
    server.broadcast(
        "memprobe.node",
        {**node, "status": "running", "end_s": None, "after": None, "models": steps["start"], "model_changes": []},
    )
    server.broadcast(
        "memprobe.samples",
        {
            "run_id": run_id,
            "t": [round(i * 0.1, 1) for i in range(20)],
            "series": {"process_rss_bytes": [2 * 1024**3] * 20},
        },
    )
    page.wait_for_function("() => window.__memprobe.timeline.chart.pointCount() === 20")
    server.broadcast(
        "memprobe.model",
        {
            "run_id": run_id,
            "t_s": 0.5,
            "kind": "model-partially-loaded",
            "node_id": "3",
            "message": "loaded partially 67.5870418548584 67.57447814941406 0",
            "data": {"loaded_bytes": 70856976, "usable_bytes": 70870150, "count": 0},
        },
    )
    server.broadcast(
        "memprobe.node",
        {
            **node,
            "status": "ran",
            "end_s": 1.0,
            "after": {},
            "models": steps["partial load"],
            "models_before": steps["start"],
            "model_changes": changes,
        },
    )
    page.wait_for_function(
        "() => window.__memprobe.timeline.chart.state.specs.some(s => s.key === 'model_offloaded_bytes')"
    )
    series = page.evaluate("() => window.__memprobe.timeline.chart.state.timeline.series.model_offloaded_bytes")
    offloaded = next(m for m in steps["partial load"] if m["class"] == "BaseModel")["offloaded_bytes"]
    assert series[:10] == [0] * 10 and series[10:] == [offloaded] * 10  # from the sampler's end on
    line = page.locator(f"{ROWS}[data-node='3'] .mp-models.mp-partial")
    assert line.inner_text() == "loaded BaseModel partially: 68 MiB on GPU, 101 MiB offloaded to RAM"
    kinds = page.evaluate("() => window.__memprobe.store.live.events.map(e => e.kind)")
    assert kinds == ["model-partially-loaded"]
    assert [e for e in errors if e.startswith("pageerror")] == []
