"""The panel in headless Debian Chromium against the real frontend: redraw time of the timeline
with 30,000 points, and the delay from a memprobe.samples event leaving the server to the chart
showing it (websocket, store, chart, next frame)."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

REDRAW_JS = """async (n) => {
    const chart = window.__memprobe.panel.chart;
    const t = Array.from({length: n}, (_, i) => i * 0.02);
    const wave = (k) => t.map((x, i) => Math.round((2 + k + Math.sin(x / 7 + k) + (i % 50 === 0 ? 0.5 : 0)) * 2 ** 30));
    const doc = {id: "bench", status: "success", nodes: Array.from({length: 60}, (_, i) => ({node_id: String(i), seq: i,
        stage: ["load", "sampling", "vae-decode"][i % 3], status: "ran", start_s: i * 10, end_s: i * 10 + 9, class_type: "X"})),
        timeline: {t, series: {gpu0_used_bytes: wave(0), gpu0_reserved_bytes: wave(1), gpu0_allocated_bytes: wave(2),
        process_rss_bytes: wave(3), commit_bytes: wave(4), commit_limit_bytes: t.map(() => 12 * 2 ** 30)}},
        start_metrics: {gpu0_total_bytes: 8 * 2 ** 30}};
    chart.setDoc(doc);
    const u = chart.plot;
    const times = [];
    for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        u.setData(u.data);                 // new data: every path rebuilt, scales and axes recomputed
        await new Promise((r) => queueMicrotask(r));
        times.push(performance.now() - t0);
    }

    const zoom = [];
    for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        u.setScale("x", {min: i * 10, max: 300 + i * 10});
        await new Promise((r) => queueMicrotask(r));
        zoom.push(performance.now() - t0);
    }
    return {points: u.data[0].length, series: u.series.length - 1, redraw: times, zoom};
}"""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run() -> dict[str, Any]:
    from frontend_server import CHROMIUM, CHROMIUM_ARGS, FrontendServer, boot, frontend_static
    from playwright.sync_api import sync_playwright

    static = frontend_static("1.27.10")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        server = FrontendServer(static, Path(tmp))
        with boot(browser, server, ready="window.app && window.__memprobe") as (page, errors):
            page.locator(".memprobe-tab-button, [data-testid='memprobe-tab-button']").first.click()
            page.wait_for_function("window.__memprobe.panel.chart")
            redraw = page.evaluate(REDRAW_JS, 30_000)
            # event-to-screen: stamp each batch as it leaves the server, read the clock at the next frame
            page.evaluate("""() => {
                window.__delays = [];
                window.comfyAPI.api.api.addEventListener("memprobe.samples", ({detail}) =>
                    requestAnimationFrame(() => window.__delays.push(performance.timeOrigin + performance.now() - detail.sent_ms)));
            }""")
            server.broadcast(
                "memprobe.run_start", {"id": "live", "status": "running", "started_at": time.time(), "context": {}}
            )
            page.wait_for_function("() => window.__memprobe.store.doc && window.__memprobe.store.doc.id === 'live'")
            for batch in range(40):
                t = [round(batch * 0.25 + i * 0.02, 3) for i in range(12)]
                server.broadcast(
                    "memprobe.samples",
                    {
                        "run_id": "live",
                        "t": t,
                        "sent_ms": time.time() * 1000,
                        "series": {
                            "process_rss_bytes": [2 * 1024**3 + i * 10**6 for i in range(12)],
                            "commit_bytes": [3 * 1024**3] * 12,
                        },
                    },
                )
                time.sleep(0.25)
            page.wait_for_function("() => window.__delays.length >= 40")
            delays = page.evaluate("() => window.__delays")
        browser.close()
    return {
        "panel_points": redraw["points"],
        "panel_series": redraw["series"],
        "panel_redraw_ms_median": round(statistics.median(redraw["redraw"]), 2),
        "panel_redraw_ms_p95": round(_percentile(redraw["redraw"], 0.95), 2),
        "panel_zoom_ms_median": round(statistics.median(redraw["zoom"]), 2),
        "panel_event_to_screen_ms_median": round(statistics.median(delays), 1),
        "panel_event_to_screen_ms_p95": round(_percentile(delays, 0.95), 1),
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:34} {value}")
