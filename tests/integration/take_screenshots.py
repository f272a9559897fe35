"""Screenshots of the Memory panel for the README, from a real run: a real ComfyUI with Memory
Probe (tests/comfy_server.py), its real frontend in headless Chromium, the integration tier's
txt2img queued from the frontend. Writes docs/panel-1600x1000.png and docs/panel-1280x720.png.

    python tests/integration/take_screenshots.py [--frontend 1.58.1] [--out docs]

(run it under `flock /tmp/memprobe-heavy.lock` on a shared machine)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from comfy_server import ComfyServer, find_comfyui, load_workflow  # noqa: E402
from frontend_server import SETTINGS, frontend_static, launch_chromium  # noqa: E402

GRAPH = "(window.app.rootGraph ?? window.app.graph)"
SIZES = [(1600, 1000), (1280, 720)]


def boot(browser, url: str, width: int, height: int):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_function(
        "window.app && window.app.extensionManager && window.__memprobe && window.app.canvas", timeout=120_000
    )
    return page


def show_panel(page) -> None:
    page.locator(".memprobe-tab-button, [data-testid='memprobe-tab-button']").first.click()
    page.wait_for_selector("[data-testid=memprobe-headline] .mp-hl-try")
    # the graph beside the sidebar, not under it
    page.evaluate("""() => {
        const canvas = window.app.canvas, nodes = canvas.graph._nodes;
        const right = document.querySelector('[data-testid=memprobe-panel]').getBoundingClientRect().right;
        const left = canvas.canvas.getBoundingClientRect().left;
        const x = Math.min(...nodes.map(n => n.pos[0])), y = Math.min(...nodes.map(n => n.pos[1]));
        canvas.ds.scale = 0.75;
        canvas.ds.offset = [(right - left + 30) / 0.75 - x, 50 / 0.75 - y];
        canvas.setDirty(true, true);
    }""")
    page.locator("[data-action=timeline]").click()
    page.wait_for_function("() => window.__memprobe.timeline.chart?.pointCount() > 0")
    page.wait_for_timeout(500)
    chart = "window.__memprobe.timeline.chart"
    peak = page.evaluate(f"() => {chart}.state.peak")
    box = page.locator("[data-testid=memprobe-timeline-chart] .u-over").bounding_box()
    x = page.evaluate(f"t => {chart}.plot.valToPos(t, 'x')", peak["t"] - 0.8)
    page.mouse.move(box["x"] + x, box["y"] + box["height"] * 0.55)
    page.wait_for_selector("[data-testid=memprobe-timeline] .mp-tip:not([hidden])")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--frontend", default=None, help="a comfyui-frontend-package version (default: the one ComfyUI serves)"
    )
    parser.add_argument("--out", type=Path, default=HERE.parents[1] / "docs")
    args = parser.parse_args()
    install = find_comfyui()
    if isinstance(install, str):
        sys.exit(install)
    base = Path(tempfile.mkdtemp(prefix="memprobe-shots-"))
    settings = base / "user" / "default" / "comfy.settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps(SETTINGS))
    extra = ["--front-end-root", str(frontend_static(args.frontend))] if args.frontend else []
    server = ComfyServer(install, base, args=extra).start()
    try:
        with launch_chromium() as browser:
            page = boot(browser, server.url, *SIZES[0])
            prompt = load_workflow("txt2img")
            page.evaluate("([p]) => window.app.loadApiJson(p, 'txt2img-api')", [prompt])
            page.wait_for_function(
                "() => window.app.extensionManager.workflow.activeWorkflow?.path?.endsWith('txt2img-api.json')"
            )
            page.evaluate(
                f"async () => {{ const w = {GRAPH}.serialize(); delete w.id; await window.app.loadGraphData(w, true, true, 'txt2img'); }}"
            )
            page.evaluate("() => window.app.queuePrompt(0, 1)")
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                runs = server.get("/memprobe/runs")["runs"]
                if runs and runs[0]["status"] != "running":
                    break
                time.sleep(0.5)
            page.wait_for_function(
                "() => window.__memprobe.store.doc?.status === 'success' && window.__memprobe.store.doc.suggestions?.length"
            )
            show_panel(page)
            args.out.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out / f"panel-{SIZES[0][0]}x{SIZES[0][1]}.png"))
            workflow = page.evaluate(f"() => {GRAPH}.serialize()")
            for width, height in SIZES[1:]:
                small = boot(browser, server.url, width, height)
                small.evaluate("async (w) => { await window.app.loadGraphData(w, true, true, 'txt2img'); }", workflow)
                small.wait_for_function("() => window.__memprobe.store.doc?.status === 'success'")
                show_panel(small)
                small.screenshot(path=str(args.out / f"panel-{width}x{height}.png"))
    finally:
        server.stop()
    sys.stderr.write(f"screenshots in {args.out}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
