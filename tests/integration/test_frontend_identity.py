"""The real frontend (1.27.10 as ComfyUI 0.3.64 serves it, 1.58.1 through ``--front-end-root``)
queues a prompt to a real ComfyUI with Memory Probe: the workflow's id reaches the run, and the
panel treats the open workflow as the run's own."""

from __future__ import annotations

import json
import time

import pytest
from comfy_server import load_workflow
from frontend_server import (
    FRONTENDS,
    SETTINGS,
    Unavailable,
    chromium_missing,
    frontend_static,
    launch_chromium,
    unavailable,
)

from memprobe.judging.workflow import graph_signature

GRAPH = "(window.app.rootGraph ?? window.app.graph)"


@pytest.fixture(scope="module")
def chromium():
    if reason := chromium_missing():
        unavailable(reason)
    with launch_chromium() as browser:
        yield browser


@pytest.mark.parametrize("version", FRONTENDS)
def test_the_frontends_workflow_id_reaches_the_run(make_server, chromium, version):
    try:
        static = frontend_static(version)
    except Unavailable as exc:
        unavailable(str(exc))
    server = make_server(f"frontend-{version}", start=False, args=["--front-end-root", str(static)])
    settings = server.base_dir / "user" / "default" / "comfy.settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(SETTINGS))
    server.start()
    page = chromium.new_page(viewport={"width": 1600, "height": 1000})
    try:
        page.goto(server.url)
        page.wait_for_function(
            "window.app && window.app.extensionManager && window.__memprobe && window.app.canvas", timeout=120_000
        )
        assert page.evaluate("() => window.__COMFYUI_FRONTEND_VERSION__") == version
        # GIVEN a workflow opened from a file (it has an id), here the integration tier's txt2img
        prompt = load_workflow("txt2img", **{"5.width": 256, "5.height": 256})
        page.evaluate("([p]) => window.app.loadApiJson(p, 'txt2img-api')", [prompt])
        page.wait_for_function(
            "() => window.app.extensionManager.workflow.activeWorkflow?.path?.endsWith('txt2img-api.json')"
        )
        page.evaluate(
            f"async () => {{ const w = {GRAPH}.serialize(); delete w.id; await window.app.loadGraphData(w, true, true, 'txt2img'); }}"
        )
        workflow_id = page.evaluate(f"() => {GRAPH}.id")
        assert workflow_id and workflow_id != "00000000-0000-0000-0000-000000000000"
        # WHEN the frontend queues it (its Queue action)
        page.evaluate("() => window.app.queuePrompt(0, 1)")
        deadline = time.monotonic() + 240
        run = None
        while time.monotonic() < deadline:
            runs = server.get("/memprobe/runs")["runs"]
            if runs and runs[0]["status"] not in ("running",):
                run = runs[0]
                break
            time.sleep(0.5)
        assert run is not None, server.log_tail()
        doc = server.memprobe_run(run["id"])
        # THEN the run knows its workflow: the frontend's id and the signature of the executed graph
        assert doc["status"] == "success"
        assert doc["workflow"] == {"id": workflow_id, "graph": graph_signature(doc["prompt"])}
        assert run["workflow"] == doc["workflow"]
        # AND the panel, following the run, treats the open workflow as the run's own
        page.wait_for_function(
            "id => window.__memprobe.store.doc?.id === id && window.__memprobe.store.doc.status === 'success'",
            arg=run["id"],
        )
        target = page.evaluate("() => window.__memprobe.panel.target(window.__memprobe.store.doc).state")
        assert target == "same"
    finally:
        page.close()
        server.stop()
