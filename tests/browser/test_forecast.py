"""The forecast in the real ComfyUI frontend (1.27.10 and 1.58.1): the panel's "Before you run" line
for the open workflow follows an edit of its resolution, and queuing a workflow whose forecast says
it won't fit shows a toast with the one change — and queues it all the same. After a run, its
forecast beside what it measured, and the sidebar's compact timeline that opens the wide one."""

from __future__ import annotations

import json

from frontend_server import open_panel
from helpers import load_json
from panel_page import GRAPH, OWN_ID, open_workflow, ours, run_doc, store_runs, toasts

from memprobe.forecast.service import run_summary
from memprobe.judging.run_view import enrich

LINE = "[data-testid=memprobe-forecast-line]"


def edit_resolution(page, node_id: int, width: int, height: int) -> None:
    """Set the latent's size as a user does: its widgets change, then the frontend notices the edit
    when the pointer is released over the canvas (its change tracker fires ``graphChanged``)."""
    page.evaluate(
        f"""([id, w, h]) => {{
        const node = {GRAPH}.getNodeById(id);
        for (const [name, value] of [["width", w], ["height", h]]) {{
            const widget = node.widgets.find((x) => x.name === name);
            widget.value = value;
            widget.callback?.(value);
        }}
    }}""",
        [node_id, width, height],
    )
    box = page.locator("canvas#graph-canvas, canvas.graph-canvas-container, canvas").first.bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + box["height"] - 5)


def test_before_you_run_follows_the_resolution_and_a_wont_fit_queue_toasts_and_still_queues(comfy):
    page, server, version, errors = comfy
    prompt = load_json("comfyui-0.3.64/api-workflows/txt2img.json")
    open_workflow(page, prompt, OWN_ID, "forecast")
    open_panel(page)
    # GIVEN the open workflow at 512², THEN the line says it fits, its peak at the VAE decode
    page.wait_for_function("s => document.querySelector(s)?.textContent.startsWith('Fits: peak')", arg=LINE)
    fits = page.locator(LINE).text_content()
    assert "at VAEDecode (node 8, vae-decode)" in fits and "RAM" in fits
    # WHEN the user makes the latent 1920², THEN the line follows: the decode won't fit, with the change
    edit_resolution(page, 5, 1920, 1920)
    page.wait_for_function(
        's => document.querySelector(s)?.textContent.startsWith("Won\'t fit at vae-decode")', arg=LINE
    )
    section = page.locator("[data-testid=memprobe-forecast]")
    assert section.get_attribute("data-verdict") == "won't fit"
    assert "Decode in tiles" in section.locator(".mp-fc-try").text_content()
    # AND queuing it shows the toast with the one change, and the prompt is queued all the same
    page.evaluate("() => window.app.queuePrompt(0, 1)")
    page.wait_for_function("() => window.__memprobe.toasts.some((t) => t.summary.startsWith('Forecast:'))")
    toast = next(t for t in toasts(page) if t["summary"].startswith("Forecast:"))
    assert toast["summary"] == "Forecast: won't fit at VAEDecode (vae-decode)" and toast["severity"] == "warn"
    assert "Try: Decode in tiles" in toast["detail"] and toast["detail"].endswith("It was queued anyway.")
    assert len(server.queued) == 1 and server.queued[0]["prompt"]["5"]["inputs"]["width"] == 1920
    # AND the one-click change from the line tiles the decode in the open graph
    section.locator("[data-action=forecast-apply]").click()
    page.wait_for_function(f"() => {GRAPH}.nodes.some((n) => n.type === 'VAEDecodeTiled')")
    assert not ours(errors), errors


def test_a_run_shows_forecast_vs_measured_and_a_compact_timeline_that_opens_the_wide_one(comfy):
    page, server, version, errors = comfy
    doc = run_doc("txt2img")
    summary = run_summary(server.forecasts.for_run(doc), enrich(json.loads(json.dumps(doc))))
    open_workflow(page, doc["prompt"], OWN_ID, "txt2img")
    store_runs(page, server, doc)
    server.ledger.save_forecast(doc["id"], doc["started_at"], summary, [])
    server.ledger.flush()
    open_panel(page, doc["id"])
    # THEN the run's forecast is shown beside what it measured, stage by stage
    table = page.locator("[data-testid=memprobe-forecast-compare]")
    table.locator("tr[data-stage=vae-decode]").wait_for()
    row = table.locator("tr[data-stage=vae-decode] td").all_text_contents()
    assert row[0] == "vae-decode" and row[1].endswith("iB") and row[2].endswith("iB") and row[3].endswith("%")
    # AND the sidebar's compact timeline: the bounding memory, its limit, the stages, the forecast dashed
    mini = page.locator("[data-testid=memprobe-mini-timeline]")
    assert mini.locator("polyline.mp-mini-line").count() == 1 and mini.locator("line.mp-mini-limit").count() == 1
    assert mini.locator("rect[data-stage=vae-decode]").count() >= 1
    assert mini.locator("line.mp-mini-forecast").count() >= 1 and "dashed: the forecast" in mini.text_content()
    # AND a click opens the wide timeline in the bottom panel
    mini.click()
    page.wait_for_selector("[data-testid=memprobe-timeline]")
    assert not ours(errors), errors
