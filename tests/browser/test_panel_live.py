"""The Memory panel while runs execute, in the real ComfyUI frontend (1.27.10 and 1.58.1): a live
run streaming into the headline and the timeline, following and pinning, a failure announced,
the bottom-panel timeline, and the legend, sort headers and rows from the keyboard."""

from __future__ import annotations

import time

import pytest
from frontend_server import open_panel, wait_for_doc
from panel_page import open_timeline, ours, recorded_txt2img, run_doc, selected_ids, store_runs, toasts


# ---------------------------------------------------------------------------------- live runs
def node_event(run_id: str, seq: int, node_id: str, cls: str, stage: str, start: float, end: float | None) -> dict:
    return {
        "run_id": run_id,
        "seq": seq,
        "node_id": node_id,
        "class_type": cls,
        "title": cls,
        "stage": stage,
        "status": "running" if end is None else "ran",
        "start_s": start,
        "end_s": end,
        "before": {"ram_used_bytes": 2 * 1024**3},
        "after": None,
        "peaks": {},
        "fallbacks": [],
    }


def samples(run_id: str, batch: int) -> dict:
    t = [round(batch * 0.25 + i * 0.02, 3) for i in range(12)]
    return {
        "run_id": run_id,
        "t": t,
        "series": {
            "ram_used_bytes": [2 * 1024**3 + (batch * 12 + i) * 10**7 for i in range(12)],
            "process_rss_bytes": [1024**3] * 12,
            "commit_bytes": [3 * 1024**3] * 12,
        },
    }


def test_a_live_run_streams_into_the_headline_and_the_timeline(comfy):
    page, server, version, errors = comfy
    open_panel(page)
    open_timeline(page)
    run_id = "live-run-1"
    server.broadcast(
        "memprobe.run_start",
        {
            "id": run_id,
            "status": "running",
            "started_at": time.time(),
            "context": {"compute_device": "cpu", "ram_total_bytes": 16 * 1024**3},
        },
    )
    wait_for_doc(page, run_id)  # followed by default
    server.broadcast("memprobe.node", node_event(run_id, 1, "3", "KSampler", "sampling", 0.0, None))
    ends = []
    for batch in range(5):
        server.broadcast("memprobe.samples", samples(run_id, batch))
        page.wait_for_function("n => window.__memprobe.timeline.chart.pointCount() === n", arg=12 * (batch + 1))
        ends.append(page.evaluate("() => window.__memprobe.timeline.chart.state.bands[0].end"))
    assert ends == sorted(ends) and ends[-1] == pytest.approx(4 * 0.25 + 11 * 0.02), "the running node's band grows"
    assert page.locator(".mp-status").inner_text().startswith("● Running")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=memprobe-headline]').innerText.includes('Running KSampler (sampling)')"
    )
    legend = page.locator("[data-testid=memprobe-timeline] .mp-legend [data-series]")
    assert legend.count() == 3  # a legend while live
    assert page.locator("[data-testid=memprobe-table] tbody tr").count() == 1
    # the node ends with an exact RAM peak (from the OS's counter) and a sampled commit peak
    server.broadcast(
        "memprobe.node",
        {
            **node_event(run_id, 1, "3", "KSampler", "sampling", 0.0, 1.1),
            "before": {"ram_used_bytes": 2 * 1024**3, "commit_bytes": 3 * 1024**3},
            "peaks": {"ram_used_bytes": 3 * 1024**3, "commit_bytes": 3 * 1024**3},
            "exact_peaks": ["ram_used_bytes"],
            "duration_s": 1.1,
        },
    )
    peak = page.locator("[data-testid=memprobe-table] tbody tr td.mp-peak")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=memprobe-table] td.mp-peak')?.textContent.startsWith('3.0 GiB')"
    )
    assert peak.inner_text().startswith("3.0 GiB") and "+1.0 GiB" in peak.inner_text()
    page.locator("[data-metric=commit_bytes]").click()
    assert peak.inner_text().startswith("≥ 3.0 GiB")
    server.broadcast(
        "memprobe.run_end",
        {
            "id": run_id,
            "status": "success",
            "duration_s": 1.2,
            "memory": {
                "metric": "ram_used_bytes",
                "limit_bytes": 16 * 1024**3,
                "limit_name": "RAM",
                "limit_enforced": True,
            },
            "suggestions": [
                {
                    "id": "tiled-decode",
                    "severity": "info",
                    "title": "Decode in tiles",
                    "why": "w",
                    "try": "t",
                    "action": None,
                }
            ],
        },
    )
    page.wait_for_selector("[data-suggestion=tiled-decode]")
    assert page.locator(".mp-status").inner_text() == "Latest run"
    assert ours(errors) == []


def test_a_pinned_run_stays_and_a_new_failure_is_announced(comfy):
    page, server, version, errors = comfy
    old, newer = run_doc("txt2img", workflow_id=None), run_doc("txt2img_tiled", workflow_id=None)
    store_runs(page, server, old, newer)
    open_panel(page)
    wait_for_doc(page, newer["id"])  # follows the newest
    # GIVEN the user looks at an older run: it is pinned, visibly
    page.select_option(".mp-runs", old["id"])
    wait_for_doc(page, old["id"])
    assert "Pinned" in page.locator(".mp-status").inner_text()
    assert page.locator("[data-action=follow]").is_visible()
    # WHEN a new run starts, the pinned run stays on screen and the panel says a run is executing
    failed = run_doc("error_runtime", workflow_id=None, run_id="new-failed-run", started_at=time.time())
    server.broadcast(
        "memprobe.run_start",
        {"id": failed["id"], "status": "running", "started_at": failed["started_at"], "context": failed["context"]},
    )
    page.wait_for_selector(".mp-news:not([hidden])")
    assert page.evaluate("() => window.__memprobe.store.doc.id") == old["id"]
    # AND when it fails, a toast says so even though another run is on screen
    server.import_run(failed)
    server.end_run(failed)
    page.wait_for_function("() => window.__memprobe.toasts.some(t => t.summary.startsWith('Run failed'))")
    toast = next(t for t in toasts(page) if t["summary"].startswith("Run failed"))
    assert toast["summary"].startswith("Run failed: Not a memory error:") and toast["severity"] == "error"
    assert toast["detail"].endswith("Open the Memory panel to see it.") and ". Open the Memory panel" in toast["detail"]
    page.get_by_text("Run failed: Not a memory error", exact=False).first.wait_for()
    assert page.evaluate("() => window.__memprobe.store.doc.id") == old["id"]
    # WHEN the user follows live again, the newest run (the failure) is on screen
    page.locator("[data-action=follow]").click()
    wait_for_doc(page, failed["id"])
    assert page.locator("[data-testid=memprobe-headline] .mp-hl-title").inner_text().startswith("Not a memory error")
    assert page.locator("[data-action=follow]").is_hidden()
    assert ours(errors) == []


# ---------------------------------------------------------------------------------- timeline
def test_the_bottom_panel_timeline_draws_the_whole_run(comfy):
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    open_panel(page, doc["id"])
    open_timeline(page)
    page.wait_for_function("n => window.__memprobe.timeline.chart.pointCount() === n", arg=len(doc["timeline"]["t"]))
    chart = "window.__memprobe.timeline.chart"
    width = page.evaluate(f"() => {chart}.plot.width")
    assert width > 600, "the timeline is wide"
    assert page.evaluate(f"() => {chart}.plot.scales.y.min") == 0, "the axis starts at zero"
    assert "vae-decode" in page.evaluate(f"() => {chart}.state.bands.map(b => b.stage)")
    peak = page.evaluate(f"() => {chart}.state.peak")
    served = page.evaluate("() => window.__memprobe.store.doc.memory")
    assert peak["key"] == served["metric"]
    decode = next(n for n in doc["nodes"] if n["node_id"] == "8")
    assert decode["start_s"] <= peak["t"] <= decode["end_s"], "the peak is marked during the decode"
    limits = page.evaluate(f"() => {chart}.limits")
    assert limits and limits[0]["key"] == served["metric"] and limits[0]["value"] == served["limit_bytes"]
    assert page.locator(f"[data-testid=memprobe-timeline] [data-limit='{served['metric']}']").count() == 1
    # a floating tooltip names the node under the cursor
    box = page.locator("[data-testid=memprobe-timeline-chart] .u-over").bounding_box()
    t_mid = (decode["start_s"] + decode["end_s"]) / 2
    x = page.evaluate(f"t => {chart}.plot.valToPos(t, 'x')", t_mid)
    page.mouse.move(box["x"] + x, box["y"] + box["height"] / 2)
    tip = page.locator("[data-testid=memprobe-timeline] .mp-tip")
    tip.wait_for(state="visible")
    assert "VAE Decode" in tip.inner_text() and "node 8" in tip.inner_text()
    # a click on a band selects its node
    page.mouse.click(box["x"] + x, box["y"] + box["height"] / 2)
    page.wait_for_function("() => [...(window.app.canvas.selectedItems ?? [])].some(n => String(n.id) === '8')")
    # after a redraw (a legend toggle) each band's name is still drawn from its band's left edge
    # (uPlot leaves its y axis' right alignment on the canvas it shares with the overlays)
    page.evaluate("""() => {
        window.__drawn = [];
        const fillText = CanvasRenderingContext2D.prototype.fillText;
        CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
            window.__drawn.push([String(text), this.textAlign]);
            return fillText.call(this, text, ...rest);
        };
    }""")
    page.locator("[data-testid=memprobe-timeline] .mp-legend [data-series]").first.click()
    page.wait_for_function("() => window.__drawn.some(([t]) => t === 'VAE Decode')")
    labels = set(page.evaluate(f"() => {chart}.state.bands.map(b => b.label)"))
    assert {align for text, align in page.evaluate("() => window.__drawn") if text in labels} == {"left"}
    assert ours(errors) == []


def test_legend_sort_headers_and_rows_work_from_the_keyboard(comfy):
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    open_panel(page, doc["id"])
    open_timeline(page)
    key = page.locator("[data-testid=memprobe-timeline] .mp-legend [data-series]").first
    series = key.get_attribute("data-series")
    key.focus()
    page.keyboard.press("Enter")
    assert key.get_attribute("aria-pressed") == "false"
    assert page.evaluate("k => window.__memprobe.timeline.chart.isShown(k)", series) is False
    page.keyboard.press("Space")
    assert key.get_attribute("aria-pressed") == "true"
    # sort headers are buttons; the default sort is the headline memory's peak, largest first
    table = "[data-testid=memprobe-table]"
    header = page.locator(f"{table} th[aria-sort=descending]")
    key = header.get_attribute("data-key")
    assert key.endswith(":peak")
    header.locator("button").focus()
    page.keyboard.press("Enter")
    assert page.locator(f"{table} th[data-key='{key}']").get_attribute("aria-sort") == "ascending"
    page.keyboard.press("Enter")  # the focus stayed on the header
    assert page.locator(f"{table} th[data-key='{key}']").get_attribute("aria-sort") == "descending"
    metric = key.split(":")[0]
    peaks = [n["peaks"].get(metric, 0) for n in doc["nodes"]]
    assert (
        page.locator(f"{table} tbody tr").first.get_attribute("data-node")
        == doc["nodes"][peaks.index(max(peaks))]["node_id"]
    )
    # each node's time: in its own column, or under its name where the sidebar is too narrow for one
    width = page.evaluate("""() => {
        const el = document.querySelector('[data-testid=memprobe-panel]'), cs = getComputedStyle(el);
        return el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    }""")  # the width the container query sees
    narrow = width <= 250
    assert page.locator(f"{table} th[data-key=time]").is_visible() is not narrow
    assert page.locator(f"{table} tbody tr .mp-time-inline").first.is_visible() is narrow
    # names sort A to Z first
    page.locator("[data-testid=memprobe-table] th[data-key=title] button").click()
    assert page.locator("[data-testid=memprobe-table] th[data-key=title]").get_attribute("aria-sort") == "ascending"
    names = page.locator("[data-testid=memprobe-table] tbody tr .mp-name").all_inner_texts()
    assert names == sorted(names, key=str.lower), names
    # rows are reachable with Tab and act on Enter
    page.locator(f"{table} th[data-key='{key}'] button").focus()
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.dataset?.node === '3'"):
            break
    assert page.evaluate("() => document.activeElement?.dataset?.node") == "3"
    page.keyboard.press("Enter")
    assert selected_ids(page) == ["3"]
    assert ours(errors) == []
