"""The JSON API behind the panel (also served under ``/api/...`` by ComfyUI).

=================================  ==============================================================
``GET /memprobe/runs``             newest first; ``?limit=1..500&offset=N&server=all|this|<id>`` (servers
                                   of one install share the ledger; ``this``: this server's runs)
``GET /memprobe/runs/{id}``        the run: nodes, marks, failure, events, suggestions, timeline
                                   (``?max_points=10..50000``, default 2000)
``GET /memprobe/runs/{id}/samples`` ``?start=S&end=S&max_points=N``: a window of the timeline
``DELETE /memprobe/runs/{id}``     forget a run
``GET /memprobe/runs/{id}/report`` the shareable report (``?format=md|json``)
``GET /memprobe/runs/{id}/export`` the whole run as a file, for ``memprobe report`` / ``compare``
``GET /memprobe/compare``          ``?a={id}&b={id}``: what changed between two runs and what it did
``GET /memprobe/live``             the run executing now (``run: null`` between runs) and its
                                   ``verdict`` so far, tracing status, the ``models`` ComfyUI's model
                                   manager holds now
``GET /memprobe/vocabulary``       the words runs are judged with (failure kinds, statuses, stages,
                                   metrics and labels, severities, tones, thresholds, event names)
``GET /memprobe/system``           the doctor's data for this machine (with ComfyUI's folders)
``GET /memprobe/config``           the server-side settings; ``POST`` changes them
``GET /memprobe/metrics``          Prometheus metrics (``web/metrics.py``)
``POST /memprobe/explain``         body: the text of a ComfyUI log (at most 32 MiB); the
                                   explanation (``?format=md``: the shareable report)
``POST /memprobe/forecast``        body: ``{"prompt": <API graph>, "machine": {...}?}``: the per-stage
                                   forecast before the run (``web/forecast.py``)
``GET /memprobe/static/...``       the vendored chart library (uPlot)
=================================  ==============================================================

Bad parameters answer 400 with a message, unknown ids 404; no route reads a user-given path.
The handlers know nothing of ComfyUI: they are given the tracker, ledger and friends.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..memprobe.config import Config, ConfigError
from ..memprobe.judging.compare import compare_runs
from ..memprobe.judging.run_view import enrich, live_verdict
from ..memprobe.logs.explain import explain_log
from ..memprobe.output.markdown import comparison_md, explain_md
from ..memprobe.output.report import report
from ..memprobe.recording.ledger import Ledger, LedgerError
from ..memprobe.recording.timeline import downsample
from ..memprobe.recording.tracker import Tracker
from ..memprobe.vocabulary import vocabulary_document
from .forecast import ForecastRoute
from .metrics import MetricsRoute
from .threads import off_loop
from .threads import start as start_threads

if TYPE_CHECKING:
    from ..memprobe.output.prometheus import MetricsExporter

__all__ = ["Services", "MemProbeRoutes", "BadRequest", "EXPLAIN_MAX_BYTES"]

logger = logging.getLogger("memprobe")

VOCABULARY = vocabulary_document()
EXPLAIN_MAX_BYTES = 32 * 1024**2
"""The largest log ``POST /memprobe/explain`` reads (the end of a log holds the failure)."""
_RUN_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,200}$")
_SERVER = re.compile(r"^[A-Za-z0-9_.:\-\[\]]{1,300}$")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadRequest(ValueError):
    pass


@dataclass
class Services:
    """What the routes read and act on; built by the runtime (or by a test)."""

    tracker: Tracker
    ledger: Ledger | None
    machine: Callable[[], dict[str, Any]]
    config: Callable[[], Config]
    set_config: Callable[[Config], None]
    status: Callable[[], dict[str, Any]] = field(default=lambda: {})
    advice_machine: Callable[[], dict[str, Any] | None] = field(default=lambda: None)
    """The doctor's machine document the advice reads disks and the pagefile from (may be cached)."""
    metrics: MetricsExporter | None = None
    """What ``GET /memprobe/metrics`` serves; ``None`` when it could not be set up."""
    metrics_unavailable: str | None = "not set up"
    models: Callable[[], list[dict[str, Any]] | None] = field(default=lambda: None)
    """The models ComfyUI's model manager holds now (``None``: unknown)."""
    forecast: Callable[[Any, Any], dict[str, Any]] | None = None
    """``forecast(prompt, what_if)``: the forecast of a graph (``memprobe.forecast.service``)."""
    forecast_unavailable: str | None = "not set up"
    server_id: str | None = None
    """This ComfyUI server's id (``context.server.id``): servers started from one install share the ledger."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), default=str, allow_nan=False)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=_dumps)


def _error(status: int, message: str) -> web.Response:
    return _json({"error": message}, status)


def _int(request: web.Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be an integer, got {raw[:40]!r}") from None
    if not low <= value <= high:
        raise BadRequest(f"{name} must be between {low} and {high}, got {value}")
    return value


def _float(request: web.Request, name: str) -> float | None:
    raw = request.query.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = float(raw)
    except ValueError:
        raise BadRequest(f"{name} must be a number of seconds, got {raw[:40]!r}") from None
    if not math.isfinite(value):
        raise BadRequest(f"{name} must be a finite number")
    return value


def _run_id(request: web.Request) -> str:
    run_id = request.match_info.get("run_id", "")
    if not _RUN_ID.match(run_id):
        raise BadRequest("a run id is 1-200 characters of letters, digits and ._:-")
    return run_id


class MemProbeRoutes:
    def __init__(self, services: Services) -> None:
        self.s = services

    def add_routes(self, routes: web.RouteTableDef, static_dir: Path | None = None) -> None:
        start_threads()  # the routes' threads, now: the server's thread count does not creep up under polling
        routes.get("/memprobe/runs")(self._guard(self.list_runs))
        routes.get("/memprobe/runs/{run_id}")(self._guard(self.get_run))
        routes.get("/memprobe/runs/{run_id}/samples")(self._guard(self.get_samples))
        routes.delete("/memprobe/runs/{run_id}")(self._guard(self.delete_run))
        routes.get("/memprobe/runs/{run_id}/report")(self._guard(self.get_report))
        routes.get("/memprobe/runs/{run_id}/export")(self._guard(self.export_run))
        routes.get("/memprobe/compare")(self._guard(self.compare))
        routes.get("/memprobe/live")(self._guard(self.live))
        routes.get("/memprobe/vocabulary")(self._guard(self.vocabulary))
        routes.get("/memprobe/system")(self._guard(self.system))
        routes.get("/memprobe/config")(self._guard(self.get_config))
        routes.post("/memprobe/config")(self._guard(self.post_config))
        MetricsRoute(self.s.metrics, self.s.config, self.s.metrics_unavailable).add_routes(routes)
        routes.post("/memprobe/explain")(self._guard(self.explain))
        ForecastRoute(self.s.forecast, self.s.forecast_unavailable).add_routes(routes, self._guard)
        if static_dir is not None and static_dir.is_dir():  # aiohttp fails at start-up on a missing folder
            routes.static("/memprobe/static", static_dir)

    def _guard(self, handler: Handler) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            try:
                return await handler(request)
            except BadRequest as exc:
                return _error(400, str(exc))
            except LedgerError as exc:  # the ledger's own words say it all: no traceback
                logger.warning("Memory Probe: %s %s: %s", request.method, request.path, exc)
                return _error(503, str(exc))
            except web.HTTPException:
                raise
            except Exception as exc:  # the panel gets a reason, ComfyUI stays up
                logger.warning("Memory Probe: %s %s failed", request.method, request.path, exc_info=True)
                return _error(503, f"Memory Probe could not answer: {type(exc).__name__}: {exc}")

        guarded.__name__ = handler.__name__
        return guarded

    def _ledger(self) -> Ledger:
        if self.s.ledger is None:
            raise LedgerError("the run ledger is not available (see the ComfyUI log)")
        return self.s.ledger

    async def _run_doc(self, run_id: str, max_points: int) -> dict[str, Any] | None:
        live = self.s.tracker.current
        if live is not None and live.id == run_id:
            doc = self.s.tracker.live() or {}
            doc["timeline"] = downsample(doc.get("timeline") or {"t": [], "series": {}}, max_points)
            return doc
        last = self.s.tracker.last
        in_memory = last is not None and last.id == run_id
        try:
            doc = await off_loop(self._ledger().get_run, run_id, max_points=max_points)
        except LedgerError:
            if not in_memory:  # the ledger cannot answer, but the last run is still in memory
                raise
            doc = None
        if in_memory and (doc is None or doc.get("status") == "running"):
            # not saved yet, or saved as it started and the writer has not caught up with its end
            return last.to_dict(timeline=downsample(last.samples.to_timeline(), max_points))
        return doc

    # ------------------------------------------------------------------ handlers
    async def list_runs(self, request: web.Request) -> web.Response:
        """The ledger's runs (with those it keeps in memory when it cannot write), and the run
        executing now and the last one even when the ledger has neither."""
        limit = _int(request, "limit", 50, 1, 500)
        offset = _int(request, "offset", 0, 0, 10**9)
        which = request.query.get("server", "all")
        if which not in ("all", "this") and not _SERVER.match(which):
            raise BadRequest("server must be all, this or a server's id (host:port)")
        server = self.s.server_id if which == "this" else None if which == "all" else which
        if self.s.ledger is not None:
            data = await off_loop(self.s.ledger.list_runs, limit=limit, offset=offset, server=server)
        else:
            data = {
                "runs": [],
                "total": 0,
                "limit": limit,
                "offset": offset,
                "servers": [],
                "error": "the run ledger is not available (see the ComfyUI log)",
            }
        if offset == 0:
            known = {r["id"]: i for i, r in enumerate(data["runs"])}
            last = self.s.tracker.last
            if last is not None and last.id in known and data["runs"][known[last.id]].get("status") == "running":
                # the run has ended but the ledger's writer has not caught up yet: the tracker knows better
                entry = data["runs"][known[last.id]]
                data["runs"][known[last.id]] = {**entry, **last.header(), "node_count": len(last.nodes)}
            for run in (last, self.s.tracker.current):  # both are this server's
                if run is not None and run.id not in known and which != "all" and server != self.s.server_id:
                    continue
                if run is not None and run.id not in known:
                    data["runs"].insert(0, {**run.header(), "node_count": len(run.nodes), "saved": False})
                    data["total"] += 1
                    known[run.id] = -1
            data["runs"].sort(key=lambda r: -(r.get("started_at") or 0))
            del data["runs"][limit:]
        data["server"] = self.s.server_id
        return _json(data)

    async def get_run(self, request: web.Request) -> web.Response:
        run_id = _run_id(request)
        max_points = _int(request, "max_points", 2000, 10, 50_000)
        doc = await self._run_doc(run_id, max_points)
        if doc is None:
            return _error(404, f"no run {run_id}")
        return _json(await off_loop(enrich, doc, self.s.advice_machine()))

    async def get_samples(self, request: web.Request) -> web.Response:
        run_id = _run_id(request)
        start, end = _float(request, "start"), _float(request, "end")
        if start is not None and end is not None and end < start:
            raise BadRequest("end must not be before start")
        max_points = _int(request, "max_points", 2000, 10, 50_000)
        ledger = self._ledger()
        data = await off_loop(ledger.samples, run_id, start=start, end=end, max_points=max_points)
        if data is None:
            return _error(404, f"no run {run_id}")
        return _json({"run_id": run_id, **data})

    async def delete_run(self, request: web.Request) -> web.Response:
        run_id = _run_id(request)
        live = self.s.tracker.current
        if live is not None and live.id == run_id:
            return _error(409, "this run is executing; delete it when it has ended")
        if not await off_loop(self._ledger().delete_run, run_id):
            return _error(404, f"no run {run_id}")
        return _json({"deleted": run_id})

    async def get_report(self, request: web.Request) -> web.Response:
        run_id = _run_id(request)
        fmt = request.query.get("format", "md")
        if fmt not in ("md", "json"):
            raise BadRequest("format must be md or json")
        doc = await self._run_doc(run_id, 2000)
        if doc is None:
            return _error(404, f"no run {run_id}")
        text = await off_loop(report, doc, fmt, self.s.advice_machine())
        if fmt == "json":
            return web.Response(text=text, content_type="application/json")
        return web.Response(text=text, content_type="text/markdown", charset="utf-8")

    async def export_run(self, request: web.Request) -> web.Response:
        """The whole run (timeline up to 50,000 points) as a file for ``memprobe report``/``compare``.
        Unlike the report it is not sanitized: it is for you, not for sharing."""
        run_id = _run_id(request)
        doc = await self._run_doc(run_id, 50_000)
        if doc is None:
            return _error(404, f"no run {run_id}")
        response = _json(doc)
        response.headers["Content-Disposition"] = f'attachment; filename="memprobe-run-{run_id}.json"'
        return response

    async def compare(self, request: web.Request) -> web.Response:
        ids = []
        for name in ("a", "b"):
            value = request.query.get(name, "")
            if not _RUN_ID.match(value):
                raise BadRequest(f"{name} must be a run id (1-200 characters of letters, digits and ._:-)")
            ids.append(value)
        docs = []
        for run_id in ids:
            doc = await self._run_doc(run_id, 500)
            if doc is None:
                return _error(404, f"no run {run_id}")
            docs.append(doc)
        comparison = await off_loop(compare_runs, *docs)
        return _json({"comparison": comparison, "markdown": comparison_md(comparison)})

    async def live(self, request: web.Request) -> web.Response:
        doc = self.s.tracker.live()
        if doc is not None:
            doc["timeline"] = downsample(doc["timeline"], _int(request, "max_points", 2000, 10, 50_000))
        last = self.s.tracker.last
        verdict = live_verdict(doc) if doc is not None else None
        return _json(
            {
                "run": doc,
                "verdict": verdict,
                "last_run_id": last.id if last else None,
                "status": self.s.status(),
                "models": self.s.models(),
            }
        )

    async def vocabulary(self, request: web.Request) -> web.Response:
        return _json(VOCABULARY)

    async def system(self, request: web.Request) -> web.Response:
        return _json(await off_loop(self.s.machine))

    async def get_config(self, request: web.Request) -> web.Response:
        return _json(self.s.config().to_dict())

    async def post_config(self, request: web.Request) -> web.Response:
        try:
            changes = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BadRequest("the body must be a JSON object of settings") from None
        try:
            config = self.s.config().updated(changes)
        except ConfigError as exc:
            raise BadRequest(str(exc)) from None
        self.s.set_config(config)
        return _json(config.to_dict())

    async def explain(self, request: web.Request) -> web.Response:
        """Explain a failure from the text of a ComfyUI log (no run of this server needed)."""
        fmt = request.query.get("format", "json")
        if fmt not in ("json", "md"):
            raise BadRequest("format must be json or md")
        too_big = _error(
            413,
            f"the log is larger than {EXPLAIN_MAX_BYTES // 1024**2} MiB: send its last part "
            "(the end of a log holds the failure)",
        )
        if (request.content_length or 0) > EXPLAIN_MAX_BYTES:
            return too_big
        body = bytearray()
        while chunk := await request.content.read(1 << 20):
            body += chunk
            if len(body) > EXPLAIN_MAX_BYTES:
                return too_big
        data = bytes(body)
        del body
        if not data.strip():
            raise BadRequest(
                "the body must be the text of a ComfyUI log (console output, comfyui.log or an error report)"
            )
        doc = await off_loop(explain_log, data)
        if fmt == "md":
            text = await off_loop(explain_md, doc)
            return web.Response(text=text, content_type="text/markdown", charset="utf-8")
        return _json(doc)
