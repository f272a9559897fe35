"""A stand-in ComfyUI server for the browser tests: it serves the **real** frontend from a
``comfyui-frontend-package`` wheel, answers the frontend's boot requests from the recorded
ComfyUI 0.3.64 fixtures, mounts Memory Probe's real routes (real tracker, real ledger) and its
``js/`` folder as an extension, and pushes websocket events like ComfyUI's ``send_sync`` does.
It runs on loopback in a background thread."""

from __future__ import annotations

import asyncio
import copy
import importlib
import json
import os
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from helpers import FIXTURES, ROOT, FakeClock, ScriptedSensors, load_pack

CHROMIUM = os.environ.get("MEMPROBE_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("MEMPROBE_REQUIRE_BROWSER") == "1"
FRONTENDS = ["1.27.10", "1.58.1"]  # what ComfyUI 0.3.64 pins, and the newest the registry serves
CACHE = Path(os.environ.get("MEMPROBE_TEST_CACHE", Path.home() / ".cache" / "memprobe-tests"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


class Unavailable(RuntimeError):
    """A part the browser tests need is missing (Chromium, Playwright, a frontend wheel)."""


def frontend_static(version: str) -> Path:
    """The built frontend of ``comfyui-frontend-package==version``: the installed one when it is
    that version, else the wheel, fetched once with pip into the test cache."""
    try:
        from importlib.metadata import version as installed_version

        import comfyui_frontend_package

        if installed_version("comfyui-frontend-package") == version:
            return Path(comfyui_frontend_package.__file__).parent / "static"
    except Exception:  # not installed: use the cache
        pass
    target = CACHE / f"frontend-{version}"
    static = target / "comfyui_frontend_package" / "static"
    if static.is_dir():
        return static
    wheels = CACHE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = list(wheels.glob(f"comfyui_frontend_package-{version}-*.whl"))
    if not found:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "-d",
                str(wheels),
                f"comfyui-frontend-package=={version}",
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        found = list(wheels.glob(f"comfyui_frontend_package-{version}-*.whl"))
        if proc.returncode or not found:
            raise Unavailable(f"comfyui-frontend-package {version} could not be fetched: {proc.stderr.strip()[-300:]}")
    with zipfile.ZipFile(found[0]) as wheel:
        members = [m for m in wheel.namelist() if m.startswith("comfyui_frontend_package/static/")]
        wheel.extractall(target, members)
    return static


SETTINGS = {
    "Comfy.TutorialCompleted": True,
    "Comfy.InstalledVersion": "99.0.0",
    "Comfy.Release.Version": "99.0.0",
    "Comfy.Release.Timestamp": 4102444800000,
    "Comfy.Workflow.ShowMissingModelsWarning": False,
    "Comfy.Workflow.ShowMissingNodesWarning": False,
    "Comfy.Validation.Workflows": False,
    "Comfy.UseNewMenu": "Top",
    "Comfy.Sidebar.Location": "left",
    "Comfy.NodeBadge.NodeIdBadgeMode": "None",
    "Comfy.Canvas.NavigationMode": "legacy",
    "Comfy.Canvas.LeftMouseClickBehavior": "panning",
    "Comfy.Canvas.MouseWheelScroll": "zoom",
}


SERVER_ID = "test-host:8188"
"""The stand-in's own server id (servers of one install share a ledger; the panel lists this one's runs)."""


class FrontendServer:
    def __init__(
        self, static_dir: Path, data_dir: Path, *, with_extension: bool = True, nodes: dict[str, Any] | None = None
    ) -> None:
        """``nodes``: node classes ``/object_info`` lists beside ComfyUI 0.3.64's own (a custom node's definition)."""
        load_pack()
        self.nodes = nodes or {}
        mp = {
            name: importlib.import_module(f"memory_probe_pack.{name}")
            for name in (
                "memprobe.recording.tracker",
                "memprobe.recording.ledger",
                "memprobe.config",
                "web.routes",
                "memprobe.judging.run_view",
                "web.events",
            )
        }
        self._enrich = mp["memprobe.judging.run_view"].enrich
        self._run_end_keys = mp["web.events"].RUN_END_KEYS
        self.static_dir = static_dir
        self.with_extension = with_extension
        self.clock = FakeClock(0.0)
        self.tracker = mp["memprobe.recording.tracker"].Tracker(
            ScriptedSensors(self.clock, lambda t: {}), clock=self.clock
        )
        self.ledger = mp["memprobe.recording.ledger"].Ledger(data_dir / "ledger.sqlite3")
        self.ledger.open()
        self.ledger.start()
        self.config = mp["memprobe.config"].Config()
        self.free_calls: list[dict[str, Any]] = []
        self.config_posts: list[dict[str, Any]] = []
        self.unknown: list[str] = []
        self.sockets: set[web.WebSocketResponse] = set()
        self.settings = dict(SETTINGS)
        routes_mod = mp["web.routes"]
        self.forecasts = _forecast_service(self.ledger)
        self.queued: list[dict[str, Any]] = []
        self.queue_check = importlib.import_module("memory_probe_pack.web.forecast").QueueCheck(
            self.forecasts.now, lambda event, data, sid: self.broadcast(event, data)
        )
        self.services = routes_mod.Services(
            tracker=self.tracker,
            ledger=self.ledger,
            machine=lambda: {"memory": {}},
            config=lambda: self.config,
            set_config=self._set_config,
            status=self._status,
            forecast=self.forecasts.now,
            forecast_unavailable=None,
            server_id=SERVER_ID,
        )
        self.memprobe_routes = routes_mod.MemProbeRoutes(self.services)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.port = 0
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ app
    def _set_config(self, config: Any) -> None:
        self.config = config
        self.config_posts.append(config.to_dict())

    def _status(self) -> dict[str, Any]:
        return {"tracing": {"available": True, "enabled": self.config.tracing, "reason": None}}

    def app(self) -> web.Application:
        app = web.Application()
        table = web.RouteTableDef()
        self.memprobe_routes.add_routes(table, static_dir=ROOT / "vendor")
        api = web.RouteTableDef()
        for route in table:  # ComfyUI mirrors every route under /api
            if isinstance(route, web.RouteDef):
                api.route(route.method, "/api" + route.path)(route.handler)
        app.add_routes(api)
        app.add_routes(table)
        fixtures = FIXTURES / "comfyui-0.3.64"
        object_info = (fixtures / "object_info.json").read_bytes()
        if self.nodes:
            object_info = json.dumps({**json.loads(object_info), **self.nodes}).encode()
        system_stats = (fixtures / "system_stats.json").read_bytes()

        def raw(body: bytes):
            async def handler(request: web.Request) -> web.Response:
                return web.Response(body=body, content_type="application/json")

            return handler

        def data(value: Any):
            async def handler(request: web.Request) -> web.Response:
                return web.json_response(value)

            return handler

        async def settings(request: web.Request) -> web.Response:
            return web.json_response(self.settings)

        async def set_setting(request: web.Request) -> web.Response:
            self.settings[request.match_info["id"]] = await request.json()
            return web.json_response({})

        async def set_settings(request: web.Request) -> web.Response:
            self.settings.update(await request.json())
            return web.json_response({})

        async def extensions(request: web.Request) -> web.Response:
            files = sorted(p.name for p in (ROOT / "js").glob("*.js")) if self.with_extension else []
            return web.json_response([f"/extensions/memory-probe/{name}" for name in files])

        async def free(request: web.Request) -> web.Response:
            self.free_calls.append(await request.json())
            return web.json_response({})

        async def ws(request: web.Request) -> web.WebSocketResponse:
            sock = web.WebSocketResponse()
            await sock.prepare(request)
            await sock.send_json(
                {"type": "status", "data": {"status": {"exec_info": {"queue_remaining": 0}}, "sid": "test-client"}}
            )
            self.sockets.add(sock)
            try:
                async for msg in sock:
                    if msg.type == WSMsgType.ERROR:
                        break
            finally:
                self.sockets.discard(sock)
            return sock

        async def prompt(request: web.Request) -> web.Response:
            """ComfyUI's POST /prompt: its on_prompt handlers (Memory Probe's queue check), then the queue."""
            body = self.queue_check(await request.json())
            self.queued.append(body)
            return web.json_response(
                {"prompt_id": f"queued-{len(self.queued)}", "number": len(self.queued), "node_errors": {}}
            )

        async def css(request: web.Request) -> web.Response:
            return web.Response(text="", content_type="text/css")

        async def index(request: web.Request) -> web.FileResponse:
            return web.FileResponse(self.static_dir / "index.html")

        async def unknown_api(request: web.Request) -> web.Response:
            self.unknown.append(f"{request.method} {request.path}")
            return web.json_response({"error": "not in the test server"}, status=404)

        for prefix in ("", "/api"):
            app.router.add_get(prefix + "/system_stats", raw(system_stats))
            app.router.add_get(prefix + "/object_info", raw(object_info))
            app.router.add_get(prefix + "/users", data({"storage": "server", "migrated": True}))
            app.router.add_get(prefix + "/i18n", data({}))
            app.router.add_get(prefix + "/settings", settings)
            app.router.add_post(prefix + "/settings", set_settings)
            app.router.add_post(prefix + "/settings/{id}", set_setting)
            app.router.add_get(prefix + "/extensions", extensions)
            app.router.add_get(prefix + "/queue", data({"queue_running": [], "queue_pending": []}))
            app.router.add_get(prefix + "/history", data({}))
            app.router.add_get(prefix + "/experiment/models", data([]))
            app.router.add_get(prefix + "/embeddings", data([]))
            app.router.add_get(prefix + "/userdata", data([]))
            app.router.add_get(prefix + "/v2/userdata", data([]))
            app.router.add_get(prefix + "/prompt", data({"exec_info": {"queue_remaining": 0}}))
            app.router.add_get(prefix + "/features", data({}))
            app.router.add_get(prefix + "/global_subgraphs", data({}))
            app.router.add_get(
                prefix + "/jobs",
                data({"jobs": [], "pagination": {"total": 0, "offset": 0, "limit": 200, "has_more": False}}),
            )
            app.router.add_get(prefix + "/userdata/user.css", css)
            app.router.add_post(prefix + "/free", free)
            app.router.add_post(prefix + "/prompt", prompt)
        app.router.add_get("/ws", ws)
        app.router.add_get("/", index)
        app.router.add_static("/extensions/memory-probe", ROOT / "js")
        app.router.add_route("*", "/api/{tail:.*}", unknown_api)
        app.router.add_static("/", self.static_dir)
        return app

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> str:
        def run() -> None:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            self._runner = web.AppRunner(self.app())
            self.loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            self.loop.run_until_complete(site.start())
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            self._ready.set()
            self.loop.run_forever()
            self.loop.run_until_complete(self._runner.cleanup())

        self._thread = threading.Thread(target=run, name="frontend-server", daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the test server did not start"
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self.ledger.stop()

    def broadcast(self, event: str, data: dict[str, Any]) -> None:
        """What ComfyUI's ``send_sync(event, data)`` with no client id does."""
        message = json.dumps({"type": event, "data": data})

        async def send() -> None:
            for sock in list(self.sockets):
                await sock.send_str(message)

        assert self.loop is not None
        asyncio.run_coroutine_threadsafe(send(), self.loop).result(5)

    def end_run(self, doc: dict[str, Any]) -> None:
        """Send ``memprobe.run_end`` for a recorded run as the server does once it has judged it:
        the header, and the verdict, suggestions, stage summary, memory and prompt."""
        judged = self._enrich(copy.deepcopy(doc))
        header = importlib.import_module("memory_probe_pack.memprobe.documents").HEADER_KEYS
        self.broadcast(
            "memprobe.run_end", {**{k: doc.get(k) for k in header}, **{k: judged.get(k) for k in self._run_end_keys}}
        )

    def import_run(self, doc: dict[str, Any]) -> None:
        """Put a recorded run document into the ledger, as if it had been traced here."""
        self.ledger.import_run(doc)
        self.ledger.flush()


def _forecast_service(ledger: Any) -> Any:
    """The forecast as the real server has it, on the real CPU ComfyUI's recorded machine and readings
    (tests/fixtures/runs/forecast_sizes_cpu.json), its checkpoints' headers the tiny SD1.5's."""
    service_mod = importlib.import_module("memory_probe_pack.memprobe.forecast.service")
    models_mod = importlib.import_module("memory_probe_pack.memprobe.forecast.models")
    run = json.loads((FIXTURES / "runs" / "forecast_sizes_cpu.json").read_text(encoding="utf-8"))["512"]

    def lookup(ref: Any) -> Any:
        return (
            models_mod.read_model(FIXTURES / "models" / "tiny_sd15.safetensors")
            if ref.folder == "checkpoints"
            else None
        )

    return service_mod.ForecastService(
        lookup,
        context=lambda: run["context"],
        readings=lambda: run["start_metrics"],
        taught=lambda device, before: ledger.observations(device, before=before),
    )


@contextmanager
def boot(browser, server: FrontendServer, *, ready: str = "window.app && window.app.extensionManager") -> Iterator:
    """Start ``server``, open the frontend in a fresh browser context; yields (page, errors)."""
    url = server.start()
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda msg: (
            errors.append(f"console.{msg.type}: {msg.text}")
            if msg.type == "error" and not msg.text.startswith("Failed to load resource")
            else None
        ),
    )
    # a failed request is named by its path (the console's "Failed to load resource" does not say which)
    page.on(
        "response",
        lambda resp: errors.append(f"http {resp.status}: {urlsplit(resp.url).path}") if resp.status >= 400 else None,
    )
    try:
        page.goto(url)
        page.wait_for_function(ready, timeout=60_000)
        page.wait_for_function("window.LiteGraph && window.app.canvas", timeout=30_000)
        yield page, errors
    finally:
        context.close()
        server.stop()


# ---------------------------------------------------------------- the Memory panel, as a test drives it
PANEL_TAB = ".memprobe-tab-button, [data-testid='memprobe-tab-button']"


def wait_for_doc(page, run_id: str) -> None:
    """Wait until the panel shows run `run_id`."""
    page.wait_for_function("id => window.__memprobe.store.doc && window.__memprobe.store.doc.id === id", arg=run_id)


def open_panel(page, run_id: str | None = None) -> None:
    """Open the Memory sidebar tab (and pick run `run_id` in it)."""
    page.locator(PANEL_TAB).first.click()
    page.wait_for_selector("[data-testid=memprobe-panel]")
    if run_id:
        page.select_option(".mp-runs", run_id)
        wait_for_doc(page, run_id)


# ---------------------------------------------------------------- the browser
def unavailable(reason: str) -> None:
    """Skip the test with the reason; with MEMPROBE_REQUIRE_BROWSER=1 (CI), fail it instead."""
    import pytest

    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason)


def chromium_missing() -> str | None:
    """Why Debian's Chromium under Playwright cannot run here (with the fix), or None."""
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """Headless Chromium (Debian's, never a Playwright download). Playwright's sync API holds an
    event loop on the main thread while it is open: close it before asyncio-based tests run."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
