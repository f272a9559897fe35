"""The Memory panel as the browser tests drive it: recorded runs served to the real frontend,
workflows opened under a given id, the graph's VAE decodes, selection, shortcuts, badges, toasts."""

from __future__ import annotations

import copy

from helpers import load_json

from memprobe.judging.workflow import graph_signature

GRAPH = "(window.app.rootGraph ?? window.app.graph)"
OWN_ID = "4b1f0c2e-6a7d-4e1b-9c3a-2f5e8d7a9b01"  # the workflow a recorded run came from
OTHER_ID = "9d3e2a1b-5c4f-4a8e-8b7d-6e0f1a2c3b04"  # another workflow with the same nodes and links


def ours(errors: list[str]) -> list[str]:
    """Browser errors that come from Memory Probe (the stand-in server's 404s for files a real
    ComfyUI serves are not the extension's)."""
    return [e for e in errors if e.startswith("pageerror") or "memprobe" in e.lower() or "memory-probe" in e]


def open_workflow(page, prompt: dict, workflow_id: str, name: str) -> None:
    """A new workflow tab holding the prompt's graph under `workflow_id`, as a saved workflow file
    carries its id (LiteGraph keeps the id of the JSON it loads)."""
    page.evaluate("([p, n]) => window.app.loadApiJson(p, n)", [prompt, f"{name}-api"])
    page.wait_for_function(
        "n => window.app.extensionManager.workflow.activeWorkflow?.path?.endsWith(n)", arg=f"{name}-api.json"
    )
    page.evaluate(
        f"""async ([id, name]) => {{
        const w = {GRAPH}.serialize(); w.id = id;
        await window.app.loadGraphData(w, true, true, name);
    }}""",
        [workflow_id, name],
    )
    page.wait_for_function(f"id => {GRAPH}.id === id && {GRAPH}.getNodeById(8)", arg=workflow_id)


def run_doc(
    name: str, *, workflow_id: str | None = OWN_ID, run_id: str | None = None, started_at: float | None = None
) -> dict:
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
    return page.evaluate(
        f"""colors => {GRAPH}._nodes.flatMap(n => (n.badges || []).map(b => typeof b === 'function' ? b() : b))
        .filter(b => colors.includes(b.bgColor)).map(b => [b.text, b.bgColor])""",
        OUR_BADGE_COLORS,
    )


def toasts(page) -> list[dict]:
    return page.evaluate("() => window.__memprobe.toasts")


def open_timeline(page) -> None:
    """Open the bottom panel's memory timeline and wait until its chart exists: the view mounts at once but creates
    its chart only once the chart's library has loaded, so a chart read (or a sample broadcast) before then races it."""
    page.locator("[data-action=timeline]").click()
    page.wait_for_selector("[data-testid=memprobe-timeline]")
    page.wait_for_function("() => !!window.__memprobe.timeline.chart")
