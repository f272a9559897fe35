"""The Memory sidebar in the real ComfyUI frontend (1.27.10 and 1.58.1), in headless Chromium: the
headline, suggestions and nodes, workflow identity, and the tiled-decode swap as one undoable step.
Live runs, the bottom-panel timeline and keyboard use are in test_panel_live.py."""

from __future__ import annotations

import copy
import json
import time

import pytest
from frontend_server import open_panel, wait_for_doc
from helpers import load_json
from panel_page import (
    GRAPH,
    OTHER_ID,
    OWN_ID,
    decode_state,
    open_workflow,
    our_badges,
    ours,
    press_shortcut,
    recorded_txt2img,
    run_doc,
    selected_ids,
    store_runs,
    toasts,
)

from memprobe.judging.workflow import graph_signature


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
    assert (
        headline.locator("button[data-action=swap]").inner_text().strip() == "Use VAE Decode (Tiled)"
    )  # says what it changes
    # the same memory drives the table's default sort and the badges
    first = page.locator("[data-testid=memprobe-table] tbody tr").first
    assert first.get_attribute("data-node") == "8"
    assert (
        page.locator(f"[data-testid=memprobe-table] th[data-key='{served['metric']}:peak']").get_attribute("aria-sort")
        == "descending"
    )
    badges = our_badges(page)
    assert badges and all(text.startswith(label) for text, _ in badges)
    assert {bg for _, bg in badges} == {"#4a4f57"}, "a run far from its limit gets neutral badges"
    # the table fits the sidebar: no horizontal scrolling
    widths = page.evaluate(
        "() => { const t = document.querySelector('[data-testid=memprobe-table]'); return [t.scrollWidth, t.parentElement.clientWidth]; }"
    )
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
    assert (
        page.locator("[data-testid=memprobe-headline] .mp-hl-title").inner_text()
        == "Out of system RAM at VAE Decode (vae-decode)"
    )
    assert ours(errors) == []


def test_the_empty_panel_says_what_to_do_and_offers_nothing_to_act_on(comfy):
    page, server, version, errors = comfy
    # the chart's library arrives late (as on a loaded machine): held until the checks below have run
    held = []
    page.route("**/uPlot.esm.js", lambda route: held.append(route))
    open_panel(page)
    assert page.locator("[data-testid=memprobe-headline] .mp-hl-title").inner_text() == "No run yet"
    assert page.locator("[data-action=export]").is_disabled()
    assert page.locator(".mp-compare-pick").is_disabled() and page.locator(".mp-runs").is_disabled()
    page.locator("[data-action=timeline]").click()
    page.wait_for_selector("[data-testid=memprobe-timeline]")
    # the empty timeline says so at once, not only once its chart's library has loaded (it was hidden until
    # then: a race this test lost once, under load)
    assert page.locator(".mp-tl-empty").is_visible()
    for route in held:
        route.continue_()
    page.wait_for_function("() => !!window.__memprobe.timeline.chart")
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
    result = page.evaluate(
        "() => window.__memprobe.panel.apply(window.__memprobe.store.doc.suggestions.find(s => s.id === 'tiled-decode'))"
    )
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
    assert [after[0]["inputs"][k][:2] for k in ("samples", "vae")] == [
        before[0]["inputs"][k][:2] for k in ("samples", "vae")
    ]
    assert sorted(o[2:] for o in after[0]["outputs"]) == sorted(o[2:] for o in before[0]["outputs"])
    press_shortcut(page, "z", f"() => {subgraph}._nodes.some(n => n.type === 'VAEDecode')")
    assert [d["type"] for d in decode_state(page, subgraph)] == ["VAEDecode"]
    assert ours(errors) == []


@pytest.mark.parametrize("template", SUBGRAPH_TEMPLATES)
def test_the_command_lines_subgraph_expansion_is_the_frontends(comfy, template):
    """`memprobe forecast` expands a saved workflow's subgraphs itself: the same nodes, ids ("106:92"), classes,
    links and widget values as the real frontend's own API prompt of that workflow (``graphToPrompt``), from the
    template's file and from the workflow as this frontend saves it, also once the instances' own values changed."""
    from pathlib import Path

    import comfyui_workflow_templates

    from memprobe.forecast.workflow import to_api

    page, _, _, errors = comfy
    workflow = json.loads((Path(comfyui_workflow_templates.__file__).parent / "templates" / template).read_text())
    page.evaluate("w => window.app.loadGraphData(w)", copy.deepcopy(workflow))

    def same_as_the_frontends(*uis):
        prompt = page.evaluate("async () => (await window.app.graphToPrompt()).output")
        assert any(":" in node_id for node_id in prompt)
        for ui in uis or (page.evaluate("() => window.app.graph.serialize()"),):
            expanded = to_api(ui)
            assert set(expanded) == set(prompt)
            for node_id, node in prompt.items():
                if node["class_type"] is None:  # a custom node this ComfyUI lacks: its links still match
                    links = {k: v for k, v in expanded[node_id]["inputs"].items() if isinstance(v, list)}
                    assert links == {k: v for k, v in node["inputs"].items() if isinstance(v, list)}, node_id
                else:
                    assert (expanded[node_id]["class_type"], expanded[node_id]["inputs"]) == (
                        node["class_type"],
                        node["inputs"],
                    ), node_id

    same_as_the_frontends(workflow, page.evaluate("() => window.app.graph.serialize()"))
    # a user's own values on each instance (its widgets, the subgraph's inputs): they win over the nodes' inside
    edited = page.evaluate("""() => { let edited = 0;
        for (const n of window.app.graph._nodes) if (n.subgraph) for (const w of n.widgets || [])
            if (typeof w.value === 'number') { w.value += 3; edited++; }
        return edited; }""")
    assert edited >= 1
    same_as_the_frontends()
    assert ours(errors) == []


AV_PREPROCESSOR = {  # comfyui-art-venture's AV_ControlNetPreprocessor (modules/controlnet/__init__.py): its inputs
    "input": {
        "required": {"image": ["IMAGE"], "preprocessor": [["None", "canny", "mlsd"]], "sd_version": [["sd15", "sdxl"]]},
        "optional": {
            "resolution": ["INT", {"default": 512, "min": 64, "max": 2048, "step": 64}],
            "preprocessor_override": ["STRING", {"default": "None"}],
        },
    },
    "input_order": {"required": ["image", "preprocessor", "sd_version"], "optional": ["resolution", "preprocessor_override"]},
    "output": ["IMAGE", "STRING"],
    "output_is_list": [False, False],
    "output_name": ["IMAGE", "CNET_NAME"],
    "name": "AV_ControlNetPreprocessor",
    "display_name": "ControlNet Preprocessor",
    "description": "",
    "python_module": "custom_nodes.comfyui-art-venture",
    "category": "Art Venture/Loaders",
    "output_node": False,
}  # fmt: skip


def test_the_command_lines_group_node_expansion_is_the_frontends(frontend, browser, tmp_path):
    """`memprobe forecast` expands a legacy group node (``workflow>ControlNet_Group`` of a real workflow, nine nodes
    and a custom one) as the real frontend queues it: the same classes, values and links (1.27.10 queues the group
    node itself, ids "23:5"; 1.58.1 turns it into a subgraph as it loads, with ids of its own)."""
    from frontend_server import FrontendServer, boot
    from helpers import FIXTURES

    from memprobe.forecast.workflow import to_api
    from memprobe.judging.stages import node_specs

    version, static = frontend
    workflow = json.loads(
        (FIXTURES / "workflows" / "skarlekar_comfyui-workflows_basic-sdxl-controlnet.json").read_text()
    )
    server = FrontendServer(static, tmp_path, nodes={"AV_ControlNetPreprocessor": AV_PREPROCESSOR})
    with boot(browser, server, ready="window.app && window.app.extensionManager && window.__memprobe") as (
        page,
        errors,
    ):
        page.evaluate("w => window.app.loadGraphData(w)", copy.deepcopy(workflow))
        prompt = page.evaluate("async () => (await window.app.graphToPrompt()).output")
    expanded = to_api(workflow)

    def canonical(graph: dict, values_of) -> dict:
        """Each node by its class and values (unique here), its links by the same names: ids left out."""
        name = {nid: (n["class_type"], json.dumps(values_of(n), sort_keys=True)) for nid, n in graph.items()}
        assert len(set(name.values())) == len(graph)
        return {
            name[nid]: {k: (name[v[0]], v[1]) for k, v in n["inputs"].items() if isinstance(v, list)}
            for nid, n in graph.items()
        }

    def values(n: dict) -> list:  # the widget values, in order; a custom node's are unnamed in ours
        if n["class_type"] in node_specs():
            return [v for v in n["inputs"].values() if not isinstance(v, list)]
        return n.get("_meta", {}).get("widgets_values") or [v for v in n["inputs"].values() if not isinstance(v, list)]

    assert canonical(expanded, values) == canonical(prompt, values)
    assert any(
        n["class_type"] == "AV_ControlNetPreprocessor" and "mlsd" in n["inputs"].values() for n in prompt.values()
    )
    if version == "1.27.10":
        assert set(expanded) == set(prompt)  # the group node's own ids: "23:0" ... "23:8"
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
