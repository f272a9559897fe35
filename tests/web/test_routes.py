"""The /memprobe routes, mounted on a fresh aiohttp app (pytest-aiohttp) with a real tracker and
a real ledger: inputs are validated, unknown ids are 404, nothing answers 500."""

from __future__ import annotations

import importlib

import pytest
from aiohttp import web
from helpers import FakeClock, ScriptedSensors, judged_by

GIB = 1024**3


def profile(t):
    return {
        "ram_total_bytes": 16 * GIB,
        "ram_available_bytes": 8 * GIB,
        "commit_bytes": 9 * GIB,
        "commit_limit_bytes": 20 * GIB,
        "process_rss_bytes": 2 * GIB,
    }


@pytest.fixture
def app_parts(pack, tmp_path):
    routes_mod = importlib.import_module("memory_probe_pack.web.routes")
    tracker_mod = importlib.import_module("memory_probe_pack.memprobe.recording.tracker")
    ledger_mod = importlib.import_module("memory_probe_pack.memprobe.recording.ledger")
    clock = FakeClock(10.0)
    tracker = tracker_mod.Tracker(ScriptedSensors(clock, profile), clock=clock)
    ledger = ledger_mod.Ledger(tmp_path / "ledger.sqlite3")
    ledger.open()
    ledger.start()
    tracker.subscribe(ledger.listener)
    Config = importlib.import_module("memory_probe_pack.memprobe.config").Config
    state = {"config": Config()}
    stats = importlib.import_module("memory_probe_pack.memprobe.recording.runstats").RunStats()
    tracker.subscribe(stats)
    judge = judged_by(tracker, stats, package="memory_probe_pack.memprobe")
    ledger.judge = judge
    prometheus = importlib.import_module("memory_probe_pack.memprobe.output.prometheus")
    exporter = prometheus.MetricsExporter(
        stats,
        latest=lambda: (1_800_000_000.0, {"process_rss_bytes": 2 * GIB}),
        facts=lambda: prometheus.MachineFacts("linux"),
    )
    services = routes_mod.Services(
        tracker=tracker,
        ledger=ledger,
        machine=lambda: {"memory": {"ram_total_bytes": 1}},
        config=lambda: state["config"],
        set_config=lambda c: state.update(config=c),
        status=lambda: {"tracing": {"available": True}},
        metrics=exporter,
    )
    app = web.Application()
    table = web.RouteTableDef()
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "x.js").write_text("export const x = 1;")
    routes_mod.MemProbeRoutes(services).add_routes(table, static_dir=tmp_path / "vendor")
    app.add_routes(table)
    yield app, tracker, ledger, clock, state
    ledger.stop()


def record_run(tracker, ledger, clock, run_id, samples=50):
    tracker.begin_run(run_id, prompt={"3": {"class_type": "KSampler", "inputs": {}}})
    node = tracker.node_begin(run_id, "3", "KSampler")
    for _ in range(samples):
        clock.t += 0.02
        tracker.on_sample(clock.t, {"process_rss_bytes": 2 * GIB})
    tracker.node_end(node)
    tracker.end_run(run_id, "success")
    ledger.flush()
    if getattr(ledger, "judge", None) is not None:
        assert ledger.judge.flush()


async def test_list_get_samples_and_delete(aiohttp_client, app_parts):
    app, tracker, ledger, clock, _ = app_parts
    record_run(tracker, ledger, clock, "aaa-1")
    clock.t += 5
    record_run(tracker, ledger, clock, "bbb-2", samples=3000)
    client = await aiohttp_client(app)

    listing = await (await client.get("/memprobe/runs?limit=1")).json()
    assert listing["total"] == 2 and [r["id"] for r in listing["runs"]] == ["bbb-2"]
    run = await (await client.get("/memprobe/runs/bbb-2?max_points=100")).json()
    assert run["nodes"][0]["class_type"] == "KSampler" and len(run["timeline"]["t"]) == 100
    assert run["sample_count"] == 3000
    samples = await (await client.get("/memprobe/runs/bbb-2/samples?start=1&end=2&max_points=10")).json()
    assert len(samples["t"]) == 10 and all(1 <= t <= 2 for t in samples["t"])

    assert (await client.delete("/memprobe/runs/aaa-1")).status == 200
    assert (await client.get("/memprobe/runs/aaa-1")).status == 404
    assert (await client.delete("/memprobe/runs/aaa-1")).status == 404


@pytest.mark.parametrize(
    "path",
    [
        "/memprobe/runs?limit=0",
        "/memprobe/runs?limit=abc",
        "/memprobe/runs?offset=-1",
        "/memprobe/runs?limit=501",
        "/memprobe/runs/bad%20id",
        "/memprobe/runs/" + "x" * 201,
        "/memprobe/runs/a/samples?start=nan",
        "/memprobe/runs/a/samples?start=5&end=1",
        "/memprobe/runs/a/samples?max_points=1",
        "/memprobe/runs/a?max_points=x",
        "/memprobe/runs/..%2F..%2Fetc%2Fpasswd",
    ],
)
async def test_bad_parameters_are_400_with_a_message(aiohttp_client, app_parts, path):
    client = await aiohttp_client(app_parts[0])
    response = await client.get(path)
    assert response.status in (400, 404)
    body = await response.json()
    assert body["error"]


async def test_unknown_ids_are_404(aiohttp_client, app_parts):
    client = await aiohttp_client(app_parts[0])
    for path in ("/memprobe/runs/nope", "/memprobe/runs/nope/samples"):
        response = await client.get(path)
        assert response.status == 404 and "nope" in (await response.json())["error"]


async def test_live_shows_the_executing_run_and_status(aiohttp_client, app_parts):
    app, tracker, ledger, clock, _ = app_parts
    client = await aiohttp_client(app)
    idle = await (await client.get("/memprobe/live")).json()
    assert idle["run"] is None and idle["status"]["tracing"]["available"]
    tracker.begin_run("live-1")
    tracker.node_begin("live-1", "3", "KSampler")
    live = await (await client.get("/memprobe/live")).json()
    assert live["run"]["id"] == "live-1" and live["run"]["nodes"][0]["status"] == "running"
    assert (await client.get("/memprobe/runs/live-1")).status == 200  # served from memory, not yet stored
    assert (await client.delete("/memprobe/runs/live-1")).status == 409


async def test_config_round_trip_and_validation(aiohttp_client, app_parts):
    app, *_, state = app_parts
    client = await aiohttp_client(app)
    assert (await (await client.get("/memprobe/config")).json())["sample_hz"] == 0.0  # automatic
    ok = await client.post("/memprobe/config", json={"sample_hz": 25})
    assert ok.status == 200 and state["config"].sample_hz == 25.0
    for body in ({"sample_hz": 1000}, {"nope": 1}, [1, 2]):
        response = await client.post("/memprobe/config", json=body)
        assert response.status == 400 and (await response.json())["error"]
    response = await client.post("/memprobe/config", data=b"{broken")
    assert response.status == 400


async def test_system_and_static_files(aiohttp_client, app_parts):
    client = await aiohttp_client(app_parts[0])
    assert (await (await client.get("/memprobe/system")).json())["memory"]["ram_total_bytes"] == 1
    assert (await client.get("/memprobe/static/x.js")).status == 200
    assert (await client.get("/memprobe/static/../ledger.sqlite3")).status in (403, 404)


async def test_without_a_ledger_the_routes_say_why(aiohttp_client, pack):
    routes_mod = importlib.import_module("memory_probe_pack.web.routes")
    tracker_mod = importlib.import_module("memory_probe_pack.memprobe.recording.tracker")
    Config = importlib.import_module("memory_probe_pack.memprobe.config").Config
    clock = FakeClock()
    services = routes_mod.Services(
        tracker=tracker_mod.Tracker(ScriptedSensors(clock, profile), clock=clock),
        ledger=None,
        machine=dict,
        config=Config,
        set_config=lambda c: None,
    )
    app = web.Application()
    table = web.RouteTableDef()
    routes_mod.MemProbeRoutes(services).add_routes(table, static_dir=None)
    app.add_routes(table)
    client = await aiohttp_client(app)
    # GIVEN no ledger and no run yet: the list is empty and says why
    response = await client.get("/memprobe/runs")
    body = await response.json()
    assert response.status == 200 and body["runs"] == [] and "ledger is not available" in body["error"]
    # WHEN a run executes and ends, THEN it is listed and served from memory
    tracker = services.tracker
    tracker.begin_run("r-mem", prompt={"3": {"class_type": "KSampler", "inputs": {}}})
    listed = await (await client.get("/memprobe/runs")).json()
    assert [(r["id"], r["status"], r["saved"]) for r in listed["runs"]] == [("r-mem", "running", False)]
    tracker.node_end(tracker.node_begin("r-mem", "3", "KSampler"))
    tracker.end_run("r-mem", "success")
    listed = await (await client.get("/memprobe/runs")).json()
    assert [(r["id"], r["status"], r["node_count"]) for r in listed["runs"]] == [("r-mem", "success", 1)]
    doc = await (await client.get("/memprobe/runs/r-mem")).json()
    assert doc["status"] == "success" and doc["nodes"][0]["class_type"] == "KSampler" and "suggestions" in doc
    # AND an older run, which only the ledger could have, is a 503 with the reason (no traceback)
    response = await client.get("/memprobe/runs/older")
    assert response.status == 503 and "ledger is not available" in (await response.json())["error"]


def test_a_missing_static_folder_is_skipped_rather_than_breaking_comfyuis_start(pack, tmp_path):
    routes_mod = importlib.import_module("memory_probe_pack.web.routes")
    Config = importlib.import_module("memory_probe_pack.memprobe.config").Config
    table = web.RouteTableDef()
    services = routes_mod.Services(
        tracker=None,
        ledger=None,
        machine=dict,
        config=Config,  # type: ignore[arg-type]
        set_config=lambda c: None,
    )
    routes_mod.MemProbeRoutes(services).add_routes(table, static_dir=tmp_path / "missing")
    web.Application().add_routes(table)  # would raise on a missing folder
    assert not [r for r in table if isinstance(r, web.StaticDef)]


async def test_report_export_and_compare(aiohttp_client, app_parts):
    app, tracker, ledger, clock, _ = app_parts
    record_run(tracker, ledger, clock, "run-a")
    clock.t += 5
    record_run(tracker, ledger, clock, "run-b")
    client = await aiohttp_client(app)
    md = await client.get("/memprobe/runs/run-a/report")
    assert md.status == 200 and md.content_type == "text/markdown" and "# Memory Probe report" in await md.text()
    js = await client.get("/memprobe/runs/run-a/report?format=json")
    assert (await js.json())["run"]["status"] == "success"
    assert (await client.get("/memprobe/runs/run-a/report?format=pdf")).status == 400
    export = await client.get("/memprobe/runs/run-a/export")
    assert export.status == 200 and "attachment" in export.headers["Content-Disposition"]
    assert (await export.json())["sample_count"] == 50
    cmp = await (await client.get("/memprobe/compare?a=run-a&b=run-b")).json()
    assert cmp["comparison"]["changes"] == [] and "run-a vs run-b" in cmp["markdown"]
    assert (await client.get("/memprobe/compare?a=run-a")).status == 400
    assert (await client.get("/memprobe/compare?a=run-a&b=nope")).status == 404


async def test_a_run_is_served_with_its_suggestions_and_stage_summary(aiohttp_client, app_parts):
    app, tracker, ledger, clock, _ = app_parts
    record_run(tracker, ledger, clock, "run-s")
    client = await aiohttp_client(app)
    doc = await (await client.get("/memprobe/runs/run-s")).json()
    assert isinstance(doc["suggestions"], list) and doc["stages"]["sampling"]["nodes"] == ["3"]
    assert doc["memory"]["metric"] == "ram_used_bytes"


async def test_metrics_are_served_read_only_and_the_setting_turns_them_off(aiohttp_client, app_parts):
    app, tracker, ledger, clock, state = app_parts
    record_run(tracker, ledger, clock, "run-m")
    client = await aiohttp_client(app)
    response = await client.get("/memprobe/metrics")
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    text = await response.text()
    assert (
        'memprobe_runs_total{status="success"} 1.0' in text
        and "memprobe_process_resident_bytes 2.147483648e+09" in text
    )
    assert "run-m" not in text
    openmetrics = await client.get(
        "/memprobe/metrics", headers={"Accept": "application/openmetrics-text;version=1.0.0"}
    )
    assert openmetrics.headers["Content-Type"].startswith("application/openmetrics-text")
    assert (await client.post("/memprobe/metrics")).status == 405
    assert (await client.post("/memprobe/config", json={"metrics": False})).status == 200
    off = await client.get("/memprobe/metrics")
    assert off.status == 404 and "turned off" in await off.text()
    assert (await client.post("/memprobe/config", json={"metrics": True})).status == 200
    assert (await client.get("/memprobe/metrics")).status == 200


async def test_without_prometheus_client_only_the_metrics_route_says_why(aiohttp_client, pack):
    routes_mod = importlib.import_module("memory_probe_pack.web.routes")
    tracker_mod = importlib.import_module("memory_probe_pack.memprobe.recording.tracker")
    Config = importlib.import_module("memory_probe_pack.memprobe.config").Config
    clock = FakeClock()
    services = routes_mod.Services(
        tracker=tracker_mod.Tracker(ScriptedSensors(clock, profile), clock=clock),
        ledger=None,
        machine=dict,
        config=Config,
        set_config=lambda c: None,
        metrics=None,
        metrics_unavailable="prometheus-client is not installed",
    )
    app = web.Application()
    table = web.RouteTableDef()
    routes_mod.MemProbeRoutes(services).add_routes(table, static_dir=None)
    app.add_routes(table)
    client = await aiohttp_client(app)
    response = await client.get("/memprobe/metrics")
    assert response.status == 503 and "prometheus-client is not installed" in await response.text()
    assert (await client.get("/memprobe/config")).status == 200


def test_the_route_table_in_the_docstring_lists_every_route(app_parts):
    """``web/routes.py`` documents its routes in a table; a route added without a line there fails."""
    routes_mod = importlib.import_module("memory_probe_pack.web.routes")
    app = app_parts[0]
    documented = routes_mod.__doc__
    for resource in app.router.resources():
        path = resource.canonical.replace("{run_id}", "{id}")
        methods = {route.method for route in resource if route.method != "HEAD"}
        for method in methods:
            line = f"``{method} {path}" if not path.startswith("/memprobe/static") else "``GET /memprobe/static/"
            assert line in documented or (
                method == "POST" and "``POST`` changes them" in documented and path == "/memprobe/config"
            ), f"{method} {path} is not in the table"


async def test_a_run_that_ended_before_the_ledger_caught_up_is_served_as_ended(aiohttp_client, app_parts):
    """The run-end event can reach the panel before the ledger's writer has saved the run's end:
    the list and the run then come from the tracker's last run, not the ledger's "running" row."""
    app, tracker, ledger, clock, _ = app_parts
    tracker.begin_run("lagging", prompt={"3": {"class_type": "KSampler", "inputs": {}}})
    ledger.flush()  # the ledger holds the run as it started
    tracker.listeners.remove(ledger.listener)  # GIVEN a writer that has not caught up with the end
    node = tracker.node_begin("lagging", "3", "KSampler")
    tracker.node_end(node)
    tracker.end_run("lagging", "error", error={"exception_type": "RuntimeError", "exception_message": "boom"})
    client = await aiohttp_client(app)
    assert ledger.get_run("lagging")["status"] == "running"
    listed = {r["id"]: r for r in (await (await client.get("/memprobe/runs")).json())["runs"]}
    assert listed["lagging"]["status"] == "error" and listed["lagging"]["node_count"] == 1
    doc = await (await client.get("/memprobe/runs/lagging")).json()
    assert doc["status"] == "error" and doc["prompt"] == {"3": {"class_type": "KSampler", "inputs": {}}}


async def test_overlapping_requests_start_no_thread(aiohttp_client, app_parts):
    """Panels polled at once: the routes' blocking reads run on Memory Probe's two threads, all running
    from the start, so the server's thread count after start is its count for good (asyncio's default
    pool grew a thread per overlap, up to cores + 4)."""
    import asyncio
    import threading

    app, tracker, ledger, clock, _ = app_parts
    for i in range(3):
        record_run(tracker, ledger, clock, f"r{i}")
    client = await aiohttp_client(app)
    threads = threading.active_count()
    for _ in range(5):
        answers = await asyncio.gather(*(client.get(p) for p in ["/memprobe/runs?limit=100", "/memprobe/runs/r1"] * 6))
        assert [a.status for a in answers] == [200] * 12
    assert threading.active_count() == threads
    assert sum(t.name.startswith("memprobe-web") for t in threading.enumerate()) == 2
