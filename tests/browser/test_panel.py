"""The Memory sidebar in the real ComfyUI frontend (1.27.10 and 1.58.1), in headless Chromium."""

from __future__ import annotations

import copy
import json
import time

import pytest
from helpers import load_json

TAB = ".memprobe-tab-button, [data-testid='memprobe-tab-button']"


def ours(errors: list[str]) -> list[str]:
    """Browser errors that come from Memory Probe (the stand-in server's 404s for files a real
    ComfyUI serves are not the extension's)."""
    return [e for e in errors if e.startswith("pageerror") or "memprobe" in e.lower() or "memory-probe" in e]


def open_panel(page, run_id: str | None = None):
    page.locator(TAB).first.click()
    page.wait_for_selector("[data-testid=memprobe-panel]")
    page.wait_for_function("window.__memprobe.panel.chart")
    if run_id:
        page.select_option(".mp-runs", run_id)
        page.wait_for_function("id => window.__memprobe.store.doc && window.__memprobe.store.doc.id === id", arg=run_id)


def load_prompt(page, prompt: dict, name: str = "txt2img"):
    page.evaluate("([p, n]) => window.app.loadApiJson(p, n)", [prompt, name])
    page.wait_for_function("() => (window.app.rootGraph ?? window.app.graph).getNodeById(8)")


GRAPH = "(window.app.rootGraph ?? window.app.graph)"


def store_runs(page, server, *docs: dict) -> None:
    """Put recorded runs into the server's ledger and let the panel list them."""
    for doc in docs:
        server.import_run(doc)
    page.evaluate("() => window.__memprobe.store.refreshRuns()")


def recorded_txt2img(page, server) -> dict:
    """The recorded txt2img run, stored, with its workflow open on the canvas (same node ids)."""
    doc = load_json("runs/txt2img.json")
    load_prompt(page, doc["prompt"])
    store_runs(page, server, doc)
    return doc


def decode_state(page, graph_expr: str = GRAPH) -> dict:
    """Every VAE decode node of a graph and where its links come from and go to."""
    return page.evaluate(
        """(expr) => {
            const graph = eval(expr);
            const link = (id) => { const l = graph.getLink ? graph.getLink(id) : graph.links[id]; return l ? [String(l.origin_id), l.origin_slot, String(l.target_id), l.target_slot] : null; };
            return graph._nodes.filter(n => n.type.startsWith("VAEDecode")).map(n => ({
                id: n.id, type: n.type,
                inputs: Object.fromEntries(n.inputs.map(i => [i.name, link(i.link)])),
                outputs: (n.outputs[0].links || []).map(link),
                widgets: Object.fromEntries((n.widgets || []).map(w => [w.name, w.value])),
            }));
        }""",
        graph_expr,
    )


def test_a_stored_run_shows_its_chart_table_suggestion_and_badges(comfy):
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    open_panel(page, doc["id"])
    points = page.evaluate("() => window.__memprobe.panel.chart.pointCount()")
    assert points == len(doc["timeline"]["t"]) > 100
    bands = page.evaluate("() => window.__memprobe.panel.chart.state.bands.map(b => b.stage)")
    assert "vae-decode" in bands and "sampling" in bands
    rows = page.locator("[data-testid=memprobe-table] tbody tr")
    assert rows.count() == len(doc["nodes"])
    assert page.locator("[data-suggestion=tiled-decode] button[data-action=swap]").is_enabled()
    badges = page.evaluate(f"() => {GRAPH}._nodes.flatMap(n => (n.badges || []).map(b => typeof b === 'function' ? b() : b)).map(b => b.text).filter(t => t && t.startsWith('RAM'))")
    assert badges and any(b.startswith("RAM 2.") for b in badges)
    page.locator("[data-testid=memprobe-table] th[data-key='process_rss_bytes:peak']").click()
    first = page.locator("[data-testid=memprobe-table] tbody tr").first.get_attribute("data-node")
    assert first == "8"  # sorted by RAM peak, highest first: the decode
    # a run recorded before peak counters: every peak is sampled, marked ≥, and the note says why
    decode_rss = page.locator("[data-testid=memprobe-table] tbody tr[data-node='8'] td").nth(3)
    assert decode_rss.inner_text().startswith("≥ ") and "sampled" in decode_rss.get_attribute("title")
    assert "≥ marks a sampled peak" in page.locator("[data-testid=memprobe-table] caption").inner_text()
    page.locator("[data-testid=memprobe-table] tbody tr[data-node='3']").click()
    assert page.evaluate("() => Object.keys(window.app.canvas.selected_nodes || {}).map(String)") == ["3"]
    assert ours(errors) == []


def test_a_live_run_streams_into_the_chart(comfy):
    page, server, version, errors = comfy
    open_panel(page)
    run_id = "live-run-1"
    server.broadcast("memprobe.run_start", {"id": run_id, "status": "running", "started_at": time.time(), "context": {}})
    page.wait_for_function("id => window.__memprobe.store.doc && window.__memprobe.store.doc.id === id", arg=run_id)
    server.broadcast("memprobe.node", {"run_id": run_id, "seq": 1, "node_id": "3", "class_type": "KSampler", "title": "KSampler",
                                       "stage": "sampling", "status": "running", "start_s": 0.0, "end_s": None,
                                       "before": {}, "after": None, "peaks": {}, "fallbacks": []})
    for batch in range(5):
        t = [round(batch * 0.25 + i * 0.02, 3) for i in range(12)]
        server.broadcast("memprobe.samples", {"run_id": run_id, "t": t, "series": {
            "process_rss_bytes": [2 * 1024**3 + i * 10**7 for i in range(12)], "commit_bytes": [3 * 1024**3] * 12}})
    page.wait_for_function("() => window.__memprobe.panel.chart.pointCount() === 60")
    assert "Running" in page.locator(".mp-status").inner_text()
    assert page.locator("[data-testid=memprobe-table] tbody tr").count() == 1
    # the node ends with an exact RSS peak (from the OS's counter) and a sampled commit peak
    server.broadcast("memprobe.node", {"run_id": run_id, "seq": 1, "node_id": "3", "class_type": "KSampler", "title": "KSampler",
                                       "stage": "sampling", "status": "ran", "start_s": 0.0, "end_s": 1.1, "duration_s": 1.1,
                                       "before": {"process_rss_bytes": 2 * 1024**3, "commit_bytes": 3 * 1024**3},
                                       "after": {"process_rss_bytes": 2 * 1024**3, "commit_bytes": 3 * 1024**3},
                                       "peaks": {"process_rss_bytes": 3 * 1024**3, "commit_bytes": 3 * 1024**3},
                                       "exact_peaks": ["process_rss_bytes"], "fallbacks": []})
    page.wait_for_function("() => document.querySelector('[data-testid=memprobe-table] tbody tr td:nth-child(4)')"
                           "?.textContent.startsWith('3.0 GiB')")
    cells = page.locator("[data-testid=memprobe-table] tbody tr td")
    assert cells.nth(3).inner_text().startswith("3.0 GiB") and cells.nth(4).inner_text().startswith("≥ 3.0 GiB")
    server.broadcast("memprobe.run_end", {"id": run_id, "status": "success", "duration_s": 1.2, "suggestions": [
        {"id": "tiled-decode", "severity": "info", "title": "Decode in tiles", "why": "w", "try": "t", "action": None}]})
    page.wait_for_selector("[data-suggestion=tiled-decode]")
    assert "Idle" in page.locator(".mp-status").inner_text()
    assert ours(errors) == []


def test_apply_swaps_in_the_tiled_decode_as_one_undoable_step(comfy):
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    before = decode_state(page)
    assert [d["type"] for d in before] == ["VAEDecode"]
    open_panel(page, doc["id"])
    page.locator("[data-suggestion=tiled-decode] button[data-action=swap]").click()
    after = decode_state(page)
    assert [d["type"] for d in after] == ["VAEDecodeTiled"]
    tiled, old = after[0], before[0]
    assert tiled["inputs"]["samples"][:2] == old["inputs"]["samples"][:2] == ["3", 0]  # from the KSampler
    assert tiled["inputs"]["vae"][:2] == old["inputs"]["vae"][:2] == ["4", 2]  # from the checkpoint's VAE
    assert [o[2:] for o in tiled["outputs"]] == [o[2:] for o in old["outputs"]] == [["9", 0]]  # into Save Image
    assert tiled["widgets"] == {"tile_size": 512, "overlap": 64, "temporal_size": 64, "temporal_overlap": 8}
    page.wait_for_selector("text=VAE Decode (Tiled) in place")
    press_on_canvas(page, "Control+z", f"() => {GRAPH}._nodes.some(n => n.type === 'VAEDecode')")
    restored = decode_state(page)
    assert [d["type"] for d in restored] == ["VAEDecode"]
    assert restored[0]["inputs"] == old["inputs"] and [o[2:] for o in restored[0]["outputs"]] == [["9", 0]]
    press_on_canvas(page, "Control+y", f"() => {GRAPH}._nodes.some(n => n.type === 'VAEDecodeTiled')")
    assert ours(errors) == []


# The frontend's change tracker restores an undo/redo step with an awaited loadGraphData: the graph
# shows the restored node before the tracker has recorded it as its active state. A key pressed in
# that window is applied against the wrong state (and the next check empties the redo queue), so
# each press waits until no restore is in progress.
TRACKER_IDLE = """() => {
  const tracker = window.app?.extensionManager?.workflow?.activeWorkflow?.changeTracker;
  return !!tracker && !tracker._restoringState;
}"""


def press_on_canvas(page, keys: str, until: str) -> None:
    """Press a shortcut with the canvas focused (undo reloads the graph and can take the focus
    away, so focus it before each try), once the change tracker is idle."""
    for _ in range(3):
        page.wait_for_function(TRACKER_IDLE, timeout=10_000)
        page.evaluate("() => document.querySelector('#graph-canvas, canvas.graph-canvas')?.focus()")
        page.keyboard.press(keys)
        try:
            page.wait_for_function(until, timeout=5_000)
            page.wait_for_function(TRACKER_IDLE, timeout=10_000)
            return
        except Exception:  # the key went elsewhere: focus and press again
            continue
    page.wait_for_function(until, timeout=5_000)


def test_the_apply_button_says_so_when_the_node_is_gone(comfy):
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    page.evaluate(f"() => {{ const g = {GRAPH}; g.remove(g.getNodeById(8)); }}")
    open_panel(page, doc["id"])
    card = page.locator("[data-suggestion=tiled-decode]")
    assert "no longer in this workflow" in card.inner_text()
    assert card.locator("button[data-action=swap]").count() == 0
    assert ours(errors) == []


SUBGRAPH_TEMPLATES = [
    "image_qwen_image_instantx_controlnet.json",  # decode wired to nodes inside the subgraph
    "video_wan2_2_14B_animate.json",  # vae from the subgraph's input, IMAGE to its outputs (-10 / -20)
]


@pytest.mark.parametrize("template", SUBGRAPH_TEMPLATES)
def test_apply_works_inside_a_subgraph_of_a_real_template(comfy, template):
    from pathlib import Path

    import comfyui_workflow_templates

    page, server, version, errors = comfy
    workflow = json.loads((Path(comfyui_workflow_templates.__file__).parent / "templates" / template).read_text())
    page.evaluate("w => window.app.loadGraphData(w)", workflow)
    inner = page.evaluate(f"""() => {{
        const out = [];
        for (const n of {GRAPH}._nodes) if (n.subgraph) for (const m of n.subgraph._nodes) if (m.type === 'VAEDecode') out.push(`${{n.id}}:${{m.id}}`);
        return out; }}""")
    assert inner, "the template has a VAE Decode inside a subgraph"
    execution_id = inner[0]
    doc = copy.deepcopy(load_json("runs/decode_oom_cpu.json"))
    doc["id"] = "subgraph-run"
    for node in doc["nodes"]:
        if node["node_id"] == "8":
            node["node_id"] = node["real_node_id"] = node["display_node_id"] = execution_id
    doc["failure"]["node_id"] = execution_id
    store_runs(page, server, doc)
    open_panel(page, "subgraph-run")
    subgraph = f"{GRAPH}.getNodeById({execution_id.split(':')[0]}).subgraph"
    # a click on the node's row opens its subgraph and selects it there
    page.locator(f"[data-testid=memprobe-table] tbody tr[data-node='{execution_id}']").click()
    page.wait_for_function(f"() => window.app.canvas.graph === {subgraph}")
    selected = page.evaluate("() => Object.values(window.app.canvas.selected_nodes || {}).map(n => String(n.id))")
    assert selected == [execution_id.split(":")[1]]
    before = decode_state(page, subgraph)
    page.locator("[data-suggestion=tiled-decode] button[data-action=swap]").click()
    after = decode_state(page, subgraph)
    assert [d["type"] for d in before] == ["VAEDecode"] and [d["type"] for d in after] == ["VAEDecodeTiled"]
    assert [after[0]["inputs"][k][:2] for k in ("samples", "vae")] == [before[0]["inputs"][k][:2] for k in ("samples", "vae")]
    assert sorted(o[2:] for o in after[0]["outputs"]) == sorted(o[2:] for o in before[0]["outputs"])
    press_on_canvas(page, "Control+z", f"() => {subgraph}._nodes.some(n => n.type === 'VAEDecode')")
    assert [d["type"] for d in decode_state(page, subgraph)] == ["VAEDecode"]
    assert ours(errors) == []


def test_free_memory_export_compare_and_settings(comfy):
    page, server, version, errors = comfy
    a, b = load_json("runs/txt2img.json"), load_json("runs/txt2img_tiled.json")
    store_runs(page, server, a, b)
    open_panel(page, a["id"])
    page.get_by_text("Free memory", exact=True).click()
    page.wait_for_function("() => true")
    deadline = time.time() + 5
    while not server.free_calls and time.time() < deadline:
        time.sleep(0.05)
    assert server.free_calls == [{"unload_models": True, "free_memory": True}]
    with page.expect_download() as download:
        page.get_by_text("Export report", exact=True).click()
    report = open(download.value.path()).read()
    assert report.startswith("# Memory Probe report") and "a watercolor painting" not in report
    page.select_option(".mp-compare-pick", b["id"])
    page.wait_for_selector(".mp-compare >> text=decode node")
    page.evaluate("() => window.app.extensionManager.setting.set('MemProbe.SampleRate', 20)")
    deadline = time.time() + 5
    while not any(p["sample_hz"] == 20.0 for p in server.config_posts) and time.time() < deadline:
        time.sleep(0.05)
    assert server.config.sample_hz == 20.0
    assert ours(errors) == []


def test_the_extension_adds_no_browser_error(frontend, browser, tmp_path):
    """Boot the same frontend with and without Memory Probe: the errors must be the same (the
    stand-in server's 404s for files a real ComfyUI serves are there in both)."""
    from frontend_server import FrontendServer, boot

    seen = {}
    for with_extension in (False, True):
        server = FrontendServer(frontend[1], tmp_path / str(with_extension), with_extension=with_extension)
        server.import_run(load_json("runs/txt2img.json"))  # so the panel has a run to draw at start
        with boot(browser, server) as (page, errors):
            if with_extension:
                open_panel(page, load_json("runs/txt2img.json")["id"])
            page.wait_for_timeout(1000)
            seen[with_extension] = set(errors)  # how often the frontend retries one missing file varies
    assert seen[True] == seen[False]
