"""Two ComfyUIs of one install share the run ledger: in the real frontend (1.27.10 and 1.58.1) the
panel lists this server's runs, offers the other's when there are some, and labels them by port."""

from __future__ import annotations

from frontend_server import SERVER_ID, open_panel
from panel_page import ours, run_doc, store_runs


def test_the_panel_lists_this_servers_runs_and_both_when_asked(comfy):
    page, server, version, errors = comfy
    mine = run_doc("txt2img", run_id="run-here", started_at=1_800_000_000.0)
    mine["context"]["server"] = {"id": SERVER_ID}
    other = run_doc("txt2img", run_id="run-there", started_at=1_800_000_100.0)
    other["context"]["server"] = {"id": "test-host:8189"}
    store_runs(page, server, mine, other)
    open_panel(page)
    options = lambda: page.locator(".mp-runs option").all_text_contents()  # noqa: E731
    page.wait_for_function("() => window.__memprobe.store.runs.length === 1")
    assert any("run-he" in o for o in options()) and not any("run-th" in o for o in options())
    toggle = page.locator("[data-action=all-servers]")
    assert toggle.is_visible()
    toggle.check()
    page.wait_for_function("() => window.__memprobe.store.runs.length === 2")
    there = next(o for o in options() if "run-th" in o)
    assert there.endswith("· port 8189") and not next(o for o in options() if "run-he" in o).endswith("8188")
    assert not ours(errors), errors
