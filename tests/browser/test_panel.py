"""The Memory panel in the real ComfyUI frontend (1.27.10 and 1.58.1), in headless Chromium: the
sidebar (headline, suggestions, nodes), the bottom-panel timeline, workflow identity, following
live runs, keyboard use, and the tiled-decode swap as one undoable step."""

from __future__ import annotations

import copy
import json
import time

import pytest
from frontend_server import open_panel, wait_for_doc
from helpers import load_json

from memprobe.workflow import graph_signature

GRAPH = "(window.app.rootGraph ?? window.app.graph)"
OWN_ID = "4b1f0c2e-6a7d-4e1b-9c3a-2f5e8d7a9b01"  # the workflow a recorded run came from
OTHER_ID = "9d3e2a1b-5c4f-4a8e-8b7d-6e0f1a2c3b04"  # another workflow with the same nodes and links


def ours(errors: list[str]) -> list[str]:
    """Browser errors that come from Memory Probe (the stand-in server's 404s for files a real
    ComfyUI serves are not the extension's)."""
    return [e for e in errors if e.startswith("pageerror") or "memprobe" in e.lower() or "memory-probe" in e]


# ---------------------------------------------------------------------------------- helpers
def open_workflow(page, prompt: dict, workflow_id: str, name: str) -> None:
    """A new workflow tab holding the prompt's graph under `workflow_id`, as a saved workflow file
    carries its id (LiteGraph keeps the id of the JSON it loads)."""
    page.evaluate("([p, n]) => window.app.loadApiJson(p, n)", [prompt, f"{name}-api"])
    page.wait_for_function("n => window.app.extensionManager.workflow.activeWorkflow?.path?.endsWith(n)", arg=f"{name}-api.json")
    page.evaluate(f"""async ([id, name]) => {{
        const w = {GRAPH}.serialize(); w.id = id;
        await window.app.loadGraphData(w, true, true, name);
    }}""", [workflow_id, name])
    page.wait_for_function(f"id => {GRAPH}.id === id && {GRAPH}.getNodeById(8)", arg=workflow_id)


def run_doc(name: str, *, workflow_id: str | None = OWN_ID, run_id: str | None = None, started_at: float | None = None) -> dict:
    """A recorded run, with the workflow identity the server records (id from the frontend, graph
    signature of its prompt)."""
    doc = copy.deepcopy(load_json(f"runs/{name}.json"))
    doc["workflow"] = {"id": workflow_id, "graph": graph_signature(doc["prompt"])}
    if run_id:
        doc["id"] = run_id
    if started_at:
        doc["started_at"] = started_at
    return doc


def store_runs(page, server, *docs: dict) -> None:
    """Put recorded runs into the server's ledger; the panel lists them and follows the newest."""
    for doc in docs:
        server.import_run(doc)
    page.evaluate("() => window.__memprobe.store.refreshRuns().then(() => window.__memprobe.store.followLive())")


def recorded_txt2img(page, server, workflow_id: str | None = OWN_ID) -> dict:
    """The recorded txt2img run, stored, with its own workflow open on the canvas."""
    doc = run_doc("txt2img", workflow_id=workflow_id)
    open_workflow(page, doc["prompt"], workflow_id or OTHER_ID, "txt2img")
    store_runs(page, server, doc)
    return doc


def decode_state(page, graph_expr: str = GRAPH) -> list[dict]:
    """Every VAE decode node of a graph and where its links come from and go to (read through the
    link table and getInputLink, not the deprecated slot fields)."""
    return page.evaluate(
        """(expr) => {
            const graph = eval(expr);
            const rec = (l) => l ? [String(l.origin_id), l.origin_slot, String(l.target_id), l.target_slot] : null;
            const links = [...graph.links.values()];
            return graph._nodes.filter(n => n.type.startsWith("VAEDecode")).map(n => ({
                id: n.id, type: n.type,
                inputs: Object.fromEntries(n.inputs.map((inp, i) => [inp.name, rec(n.getInputLink(i))])),
                outputs: links.filter(l => String(l.origin_id) === String(n.id) && l.origin_slot === 0).map(rec),
                widgets: Object.fromEntries((n.widgets || []).map(w => [w.name, w.value])),
            }));
        }""",
        graph_expr,
    )


def selected_ids(page) -> list[str]:
    return page.evaluate("() => [...(window.app.canvas.selectedItems ?? [])].map(n => String(n.id))")


TRACKER_IDLE = """() => {
  const tracker = window.app?.extensionManager?.workflow?.activeWorkflow?.changeTracker;
  return !!tracker && !tracker._restoringState;
}"""


def press_shortcut(page, key: str, until: str) -> None:
    """Ctrl+<key> on the canvas, with both keys held down until the edit has happened.

    The race this avoids (frontend 1.27.10, about one Ctrl+Y in seven): the change tracker learns
    that a key-down was a lone modifier only in the next animation frame, and on the next key-up it
    then records a "state check". keyboard.press("Control+y") sends Control-down, y-down, y-up,
    Control-up within a few milliseconds; when a frame fell between Control-down and y-down, the
    y-up ran that check *before* the frame that performs the redo. Right after an undo the graph
    can serialise differently from the state the tracker restored (a VAE Decode built from an API
    prompt has no widgets_values, the reloaded one has []), so the check recorded a new step and
    emptied the redo queue: Ctrl+Y did nothing. Measured on 1.27.10, a fresh graph per try: 2 of 25
    with press("Control+y"), 22 of 25 with a frame forced between the key-downs, 0 of 25 holding
    both keys until the edit happened. (1.58.1 flags modifiers at once and chains its restores.)"""
    page.wait_for_function(TRACKER_IDLE, timeout=10_000)
    page.evaluate("() => document.querySelector('#graph-canvas, canvas.graph-canvas')?.focus()")
    page.keyboard.down("Control")
    page.keyboard.down(key)
    try:
        page.wait_for_function(until, timeout=10_000)
    finally:
        page.keyboard.up(key)
        page.keyboard.up("Control")
    page.wait_for_function(TRACKER_IDLE, timeout=10_000)


OUR_BADGE_COLORS = ["#4a4f57", "#f59f00", "#c92a2a"]


def our_badges(page) -> list[list[str]]:
    """[text, background] of Memory Probe's badges (the frontend puts its own on nodes too)."""
    return page.evaluate(f"""colors => {GRAPH}._nodes.flatMap(n => (n.badges || []).map(b => typeof b === 'function' ? b() : b))
        .filter(b => colors.includes(b.bgColor)).map(b => [b.text, b.bgColor])""", OUR_BADGE_COLORS)


def toasts(page) -> list[dict]:
    return page.evaluate("() => window.__memprobe.toasts")


# ---------------------------------------------------------------------------------- the sidebar
def test_the_headline_names_the_peak_its_limit_the_node_and_the_change_to_try(comfy):
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    open_panel(page, doc["id"])
    served = page.evaluate("() => window.__memprobe.store.doc.memory")
    label = {"ram_used_bytes": "RAM in use", "gpu0_used_bytes": "VRAM"}[served["metric"]]
    headline = page.locator("[data-testid=memprobe-headline]")
    title = headline.locator(".mp-hl-title").inner_text()
    assert title.startswith(f"Peak: {label} ") and title.endswith("at VAE Decode (vae-decode)"), title
    assert "% of " in title  # how close to the limit the OS enforces
    first_suggestion = page.evaluate("() => window.__memprobe.store.doc.suggestions[0]")
    assert first_suggestion["id"] == "tiled-decode" and first_suggestion["title"] in headline.inner_text()
    assert headline.locator("button[data-action=swap]").is_enabled()
    assert headline.locator("button[data-action=swap]").inner_text().strip() == "Use VAE Decode (Tiled)"  # says what it changes
    # the same memory drives the table's default sort and the badges
    first = page.locator("[data-testid=memprobe-table] tbody tr").first
    assert first.get_attribute("data-node") == "8"
    assert page.locator(f"[data-testid=memprobe-table] th[data-key='{served['metric']}:peak']").get_attribute("aria-sort") == "descending"
    badges = our_badges(page)
    assert badges and all(text.startswith(label) for text, _ in badges)
    assert {bg for _, bg in badges} == {"#4a4f57"}, "a run far from its limit gets neutral badges"
    # the table fits the sidebar: no horizontal scrolling
    widths = page.evaluate("() => { const t = document.querySelector('[data-testid=memprobe-table]'); return [t.scrollWidth, t.parentElement.clientWidth]; }")
    assert widths[0] <= widths[1]
    # "added while running" is peak − before, not after − before
    decode = next(n for n in doc["nodes"] if n["node_id"] == "8")
    added = decode["peaks"][served["metric"]] - decode["before"][served["metric"]]
    cell = first.locator("td").nth(2).inner_text()
    assert f"+{round(added / 1024**2)} MiB" in cell or f"+{added / 1024**3:.1f} GiB" in cell, cell
    # a run recorded before peak counters: every peak is sampled, marked ≥, and the note says why
    assert cell.startswith("≥ ") and "sampled" in first.locator("td").nth(2).get_attribute("title")
    assert "≥ marks a sampled peak" in page.locator("[data-testid=memprobe-table] caption").inner_text()
    assert ours(errors) == []


def test_a_failed_run_reads_plainly(comfy):
    page, server, version, errors = comfy
    doc = run_doc("error_runtime", workflow_id=None)
    store_runs(page, server, doc)
    open_panel(page, doc["id"])
    title = page.locator("[data-testid=memprobe-headline] .mp-hl-title").inner_text()
    assert title.startswith("Not a memory error: ") and "failed" in title
    assert "RuntimeError" in page.locator("[data-testid=memprobe-headline]").inner_text()
    oom = run_doc("decode_oom_cpu", workflow_id=None)
    store_runs(page, server, oom)
    page.select_option(".mp-runs", oom["id"])
    wait_for_doc(page, oom["id"])
    assert page.locator("[data-testid=memprobe-headline] .mp-hl-title").inner_text() == "Out of system RAM at VAE Decode (vae-decode)"
    assert ours(errors) == []


def test_the_empty_panel_says_what_to_do_and_offers_nothing_to_act_on(comfy):
    page, server, version, errors = comfy
    open_panel(page)
    assert page.locator("[data-testid=memprobe-headline] .mp-hl-title").inner_text() == "No run yet"
    assert page.locator("[data-action=export]").is_disabled()
    assert page.locator(".mp-compare-pick").is_disabled() and page.locator(".mp-runs").is_disabled()
    page.locator("[data-action=timeline]").click()
    page.wait_for_selector("[data-testid=memprobe-timeline]")
    assert page.locator(".mp-tl-empty").is_visible()
    assert ours(errors) == []


# ---------------------------------------------------------------------------------- identity
def test_apply_with_another_workflow_open_changes_nothing_and_offers_the_runs_own(comfy):
    page, server, version, errors = comfy
    doc = run_doc("txt2img", workflow_id=OWN_ID)
    open_workflow(page, doc["prompt"], OWN_ID, "txt2img")
    # GIVEN another workflow with the same node 8 (same class, same links) is the one open
    open_workflow(page, doc["prompt"], OTHER_ID, "other")
    store_runs(page, server, doc)
    open_panel(page, doc["id"])
    before = decode_state(page)
    # THEN nothing offers to change it: the banner says whose run this is and offers to open it
    banner = page.locator("[data-testid=memprobe-identity]")
    assert "came from “txt2img”" in banner.inner_text() and "not from “other”" in banner.inner_text()
    assert page.locator("button[data-action=swap]").count() == 0
    card = page.locator("[data-suggestion=tiled-decode]")
    assert "open it to apply this" in card.inner_text()
    assert our_badges(page) == []
    # AND a row click does not select the other workflow's node 8
    page.locator("[data-testid=memprobe-table] tbody tr[data-node='8']").click()
    assert selected_ids(page) == []
    assert any("not the one open" in (t["detail"] or "") for t in toasts(page))
    # AND even a direct call refuses
    result = page.evaluate("() => window.__memprobe.panel.apply(window.__memprobe.store.doc.suggestions.find(s => s.id === 'tiled-decode'))")
    assert result["ok"] is False
    assert decode_state(page) == before
    # WHEN the user opens the run's own workflow, Apply works there
    card.locator("button[data-action=open-workflow]").click()
    page.wait_for_function(f"id => {GRAPH}.id === id", arg=OWN_ID)
    page.wait_for_selector("[data-suggestion=tiled-decode] button[data-action=swap]")
    assert page.locator("[data-testid=memprobe-identity]").is_hidden()
    page.locator("[data-suggestion=tiled-decode] button[data-action=swap]").click()
    assert [d["type"] for d in decode_state(page)] == ["VAEDecodeTiled"]
    # AND the other workflow is still untouched
    page.evaluate("""async () => { const wf = window.app.extensionManager.workflow.openWorkflows.find(w => w.path.endsWith('other.json'));
        await window.app.loadGraphData(JSON.parse(JSON.stringify(wf.activeState)), true, true, wf); }""")
    page.wait_for_function(f"id => {GRAPH}.id === id", arg=OTHER_ID)
    assert decode_state(page) == before
    assert ours(errors) == []


def test_a_run_without_workflow_id_is_matched_by_its_graph(comfy):
    page, server, version, errors = comfy
    # GIVEN a run queued by an API client (no workflow id) and a workflow with its graph open
    doc = recorded_txt2img(page, server, workflow_id=None)
    open_panel(page, doc["id"])
    assert page.locator("[data-suggestion=tiled-decode] button[data-action=swap]").is_enabled()
    # WHEN the open graph no longer has the run's links (the sampler's latent input unplugged)
    page.evaluate(f"() => {{ const n = {GRAPH}.getNodeById(3); n.disconnectInput(n.findInputSlot('latent_image')); }}")
    page.evaluate("() => window.__memprobe.panel.onGraphChanged()")
    # THEN Apply is off and the panel offers the run's own graph
    assert page.locator("button[data-action=swap]").count() == 0
    assert "not this run's graph" in page.locator("[data-testid=memprobe-identity]").inner_text()
    page.locator("[data-testid=memprobe-identity] button[data-action=open-workflow]").click()
    page.wait_for_selector("[data-suggestion=tiled-decode] button[data-action=swap]")
    assert page.evaluate(f"() => {GRAPH}.getNodeById(3).getInputLink(3) !== null")
    assert ours(errors) == []


# ---------------------------------------------------------------------------------- apply
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
    assert any(t["summary"] == "VAE Decode (Tiled) in place" for t in toasts(page))
    # the card now says so, with an undo
    card = page.locator("[data-suggestion=tiled-decode]")
    assert "✓ Applied" in card.inner_text() and card.locator("button[data-action=undo]").is_visible()
    press_shortcut(page, "z", f"() => {GRAPH}._nodes.some(n => n.type === 'VAEDecode')")
    restored = decode_state(page)
    assert [d["type"] for d in restored] == ["VAEDecode"]
    assert restored[0]["inputs"] == old["inputs"] and [o[2:] for o in restored[0]["outputs"]] == [["9", 0]]
    press_shortcut(page, "y", f"() => {GRAPH}._nodes.some(n => n.type === 'VAEDecodeTiled')")
    # the card's own Undo does the same as Ctrl+Z, and the card offers Apply again
    page.wait_for_selector("[data-suggestion=tiled-decode] button[data-action=undo]")
    card.locator("button[data-action=undo]").click()
    page.wait_for_function(f"() => {GRAPH}._nodes.some(n => n.type === 'VAEDecode')")
    page.wait_for_selector("[data-suggestion=tiled-decode] button[data-action=swap]")
    assert ours(errors) == []


def test_the_apply_button_says_so_when_the_node_is_gone(comfy):
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    page.evaluate(f"() => {{ const g = {GRAPH}; g.remove(g.getNodeById(8)); }}")
    open_panel(page, doc["id"])
    card = page.locator("[data-suggestion=tiled-decode]")
    assert "has no node 8" in card.inner_text()
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
    # the run as the server records it: the frontend's own API prompt of this graph, its workflow id
    prompt, workflow_id = page.evaluate(f"async () => [(await window.app.graphToPrompt()).output, {GRAPH}.id]")
    executed = [i for i in inner if i in prompt]  # a decode whose image goes nowhere is not executed
    assert executed, "a VAE Decode inside a subgraph is part of the prompt"
    execution_id = executed[0]
    doc = copy.deepcopy(load_json("runs/decode_oom_cpu.json"))
    doc.update(id="subgraph-run", prompt=prompt, workflow={"id": workflow_id, "graph": graph_signature(prompt)})
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
    assert selected_ids(page) == [execution_id.split(":")[1]]
    before = decode_state(page, subgraph)
    page.locator("[data-suggestion=tiled-decode] button[data-action=swap]").click()
    after = decode_state(page, subgraph)
    assert [d["type"] for d in before] == ["VAEDecode"] and [d["type"] for d in after] == ["VAEDecodeTiled"]
    assert [after[0]["inputs"][k][:2] for k in ("samples", "vae")] == [before[0]["inputs"][k][:2] for k in ("samples", "vae")]
    assert sorted(o[2:] for o in after[0]["outputs"]) == sorted(o[2:] for o in before[0]["outputs"])
    press_shortcut(page, "z", f"() => {subgraph}._nodes.some(n => n.type === 'VAEDecode')")
    assert [d["type"] for d in decode_state(page, subgraph)] == ["VAEDecode"]
    assert ours(errors) == []


# ---------------------------------------------------------------------------------- live runs
def node_event(run_id: str, seq: int, node_id: str, cls: str, stage: str, start: float, end: float | None) -> dict:
    return {"run_id": run_id, "seq": seq, "node_id": node_id, "class_type": cls, "title": cls, "stage": stage,
            "status": "running" if end is None else "ran", "start_s": start, "end_s": end,
            "before": {"ram_used_bytes": 2 * 1024**3}, "after": None, "peaks": {}, "fallbacks": []}


def samples(run_id: str, batch: int) -> dict:
    t = [round(batch * 0.25 + i * 0.02, 3) for i in range(12)]
    return {"run_id": run_id, "t": t, "series": {"ram_used_bytes": [2 * 1024**3 + (batch * 12 + i) * 10**7 for i in range(12)],
                                                 "process_rss_bytes": [1024**3] * 12, "commit_bytes": [3 * 1024**3] * 12}}


def test_a_live_run_streams_into_the_headline_and_the_timeline(comfy):
    page, server, version, errors = comfy
    open_panel(page)
    page.locator("[data-action=timeline]").click()
    page.wait_for_selector("[data-testid=memprobe-timeline]")
    run_id = "live-run-1"
    server.broadcast("memprobe.run_start", {"id": run_id, "status": "running", "started_at": time.time(),
                                            "context": {"compute_device": "cpu", "ram_total_bytes": 16 * 1024**3}})
    wait_for_doc(page, run_id)  # followed by default
    server.broadcast("memprobe.node", node_event(run_id, 1, "3", "KSampler", "sampling", 0.0, None))
    ends = []
    for batch in range(5):
        server.broadcast("memprobe.samples", samples(run_id, batch))
        page.wait_for_function("n => window.__memprobe.timeline.chart.pointCount() === n", arg=12 * (batch + 1))
        ends.append(page.evaluate("() => window.__memprobe.timeline.chart.state.bands[0].end"))
    assert ends == sorted(ends) and ends[-1] == pytest.approx(4 * 0.25 + 11 * 0.02), "the running node's band grows"
    assert page.locator(".mp-status").inner_text().startswith("● Running")
    page.wait_for_function("() => document.querySelector('[data-testid=memprobe-headline]').innerText.includes('Running KSampler (sampling)')")
    legend = page.locator("[data-testid=memprobe-timeline] .mp-legend [data-series]")
    assert legend.count() == 3  # a legend while live
    assert page.locator("[data-testid=memprobe-table] tbody tr").count() == 1
    # the node ends with an exact RAM peak (from the OS's counter) and a sampled commit peak
    server.broadcast("memprobe.node", {**node_event(run_id, 1, "3", "KSampler", "sampling", 0.0, 1.1),
                                       "before": {"ram_used_bytes": 2 * 1024**3, "commit_bytes": 3 * 1024**3},
                                       "peaks": {"ram_used_bytes": 3 * 1024**3, "commit_bytes": 3 * 1024**3},
                                       "exact_peaks": ["ram_used_bytes"], "duration_s": 1.1})
    peak = page.locator("[data-testid=memprobe-table] tbody tr td.mp-peak")
    page.wait_for_function("() => document.querySelector('[data-testid=memprobe-table] td.mp-peak')?.textContent.startsWith('3.0 GiB')")
    assert peak.inner_text().startswith("3.0 GiB") and "+1.0 GiB" in peak.inner_text()
    page.locator("[data-metric=commit_bytes]").click()
    assert peak.inner_text().startswith("≥ 3.0 GiB")
    server.broadcast("memprobe.run_end", {"id": run_id, "status": "success", "duration_s": 1.2, "memory": {"metric": "ram_used_bytes", "limit_bytes": 16 * 1024**3, "limit_name": "RAM", "limit_enforced": True},
                                          "suggestions": [{"id": "tiled-decode", "severity": "info", "title": "Decode in tiles", "why": "w", "try": "t", "action": None}]})
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
    server.broadcast("memprobe.run_start", {"id": failed["id"], "status": "running", "started_at": failed["started_at"], "context": failed["context"]})
    page.wait_for_selector(".mp-news:not([hidden])")
    assert page.evaluate("() => window.__memprobe.store.doc.id") == old["id"]
    # AND when it fails, a toast says so even though another run is on screen
    server.import_run(failed)
    server.broadcast("memprobe.run_end", {k: failed[k] for k in ("id", "status", "started_at", "ended_at", "duration_s", "context", "error", "failure")})
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
    page.locator("[data-action=timeline]").click()
    page.wait_for_selector("[data-testid=memprobe-timeline]")
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
    page.locator("[data-action=timeline]").click()
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
    assert page.locator(f"{table} tbody tr").first.get_attribute("data-node") == doc["nodes"][peaks.index(max(peaks))]["node_id"]
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


# ---------------------------------------------------------------------------------- the rest
def test_no_deprecated_graph_api_is_used(comfy):
    """Frontend 1.5x warns when `input.link` / `output.links` are read; the panel reads links
    through getInputLink and the graph's link table. Every read of those fields is recorded with
    its caller while the panel plans, applies, undoes, badges and focuses."""
    page, server, version, errors = comfy
    doc = recorded_txt2img(page, server)
    trapped = page.evaluate(f"""() => {{
        window.__deprecatedByUs = [];
        const node = {GRAPH}.getNodeById(8);
        let trapped = 0;
        for (const [proto, prop] of [[Object.getPrototypeOf(node.inputs[0]), 'link'], [Object.getPrototypeOf(node.outputs[0]), 'links']]) {{
            const d = Object.getOwnPropertyDescriptor(proto, prop);
            if (!d?.get) continue;
            trapped++;
            Object.defineProperty(proto, prop, {{ ...d, get() {{
                const stack = new Error().stack;
                if (stack.includes('/extensions/memory-probe/')) window.__deprecatedByUs.push(prop + ' ' + stack.split('\\n').slice(2, 4).join(' '));
                return d.get.call(this);
            }} }});
        }}
        return trapped;
    }}""")
    assert trapped == (2 if version == "1.58.1" else 0)  # 1.27.10 has plain fields: nothing deprecated there
    open_panel(page, doc["id"])
    page.locator("[data-suggestion=tiled-decode] button[data-action=swap]").click()
    press_shortcut(page, "z", f"() => {GRAPH}._nodes.some(n => n.type === 'VAEDecode')")
    page.locator("[data-testid=memprobe-table] tbody tr[data-node='3']").click()
    page.evaluate("() => window.__memprobe.panel.onGraphChanged()")
    assert page.evaluate("() => window.__deprecatedByUs") == []
    assert ours(errors) == []


def test_free_memory_export_compare_and_settings(comfy):
    page, server, version, errors = comfy
    a, b = run_doc("txt2img", workflow_id=None), run_doc("txt2img_tiled", workflow_id=None)
    store_runs(page, server, a, b)
    open_panel(page, a["id"])
    page.locator("[data-action=free]").first.click()
    deadline = time.time() + 5
    while not server.free_calls and time.time() < deadline:
        time.sleep(0.05)
    assert server.free_calls == [{"unload_models": True, "free_memory": True}]
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    report = open(download.value.path()).read()
    assert report.startswith("# Memory Probe report") and "a watercolor painting" not in report
    page.select_option(".mp-compare-pick", b["id"])
    page.wait_for_selector(".mp-compare >> text=decode node")
    text = page.locator(".mp-compare").inner_text()
    assert "null" not in text and "undefined" not in text and "[object" not in text
    page.evaluate("() => window.app.extensionManager.setting.set('MemProbe.SampleRate', 20)")
    deadline = time.time() + 5
    while not any(p["sample_hz"] == 20.0 for p in server.config_posts) and time.time() < deadline:
        time.sleep(0.05)
    assert server.config.sample_hz == 20.0
    assert ours(errors) == []


def test_another_module_can_add_an_action_button(comfy):
    page, server, version, errors = comfy
    open_panel(page)
    page.evaluate("""async () => {
        const { addPanelAction } = await import('/extensions/memory-probe/panel.js');
        window.__clicked = 0;
        addPanelAction({ id: 'extra-test', label: 'Extra', title: 't', onClick: () => window.__clicked++ });
    }""")
    page.locator("[data-action=extra-test]").click()
    assert page.evaluate("() => window.__clicked") == 1
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
                page.locator("[data-action=timeline]").click()
                page.wait_for_selector("[data-testid=memprobe-timeline]")
            page.wait_for_timeout(1000)
            seen[with_extension] = set(errors)  # how often the frontend retries one missing file varies
    assert seen[True] == seen[False]
