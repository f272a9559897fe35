"""The forecast on the web: ``POST /memprobe/forecast`` (the panel's "Before you run" line, any
client's "would this run on an 8 GB card?"), and the check of every queued prompt — when its forecast
says it won't fit, ``memprobe.forecast`` tells the browser that queued it, which shows the one change
in a toast. The check never holds the queue: ComfyUI's ``on_prompt`` handler only hands the graph to
a thread of its own and returns the request untouched.

``POST /memprobe/forecast`` body: ``{"prompt": <API graph>, "machine": {...}?}``; ``machine`` is a
what-if: ``device`` (``cuda``, ``rocm``, ``xpu``, ``mps``, ``directml``, ``cpu``), ``vram_total_bytes``,
``ram_total_bytes``, ``commit_limit_bytes``, ``os`` (``windows``, ``linux``, ``macos``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import web

from ..memprobe._log import warn_once
from ..memprobe._worker import Worker
from ..memprobe.forecast.machine import DEVICES
from ..memprobe.forecast.service import BadGraph
from ..memprobe.forecast.verdicts import WONT_FIT
from .threads import off_loop

__all__ = ["ForecastRoute", "QueueCheck", "parse_what_if", "FORECAST_MAX_BYTES"]

logger = logging.getLogger("memprobe")

FORECAST_MAX_BYTES = 8 * 1024**2
"""The largest graph ``POST /memprobe/forecast`` reads (a big API graph is a few hundred KB)."""
_WHAT_IF_SIZES = ("vram_total_bytes", "ram_total_bytes", "commit_limit_bytes")
_OSES = ("windows", "linux", "macos")

Forecast = Callable[[Any, Mapping[str, Any] | None], dict[str, Any]]


def parse_what_if(raw: Any) -> dict[str, Any] | None:
    """The what-if machine of a request, checked; :class:`ValueError` says what is wrong."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ValueError(
            "machine must be an object: {device, vram_total_bytes, ram_total_bytes, commit_limit_bytes, os}"
        )
    unknown = set(raw) - {"device", "os", *_WHAT_IF_SIZES}
    if unknown:
        raise ValueError(f"machine has unknown keys: {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {}
    if "device" in raw:
        if raw["device"] not in DEVICES:
            raise ValueError(f"machine.device must be one of {', '.join(DEVICES)}")
        out["device"] = raw["device"]
    if "os" in raw:
        if not isinstance(raw["os"], str) or raw["os"].lower() not in _OSES:
            raise ValueError(f"machine.os must be one of {', '.join(_OSES)}")
        out["os"] = raw["os"].lower()
    for key in _WHAT_IF_SIZES:
        if key in raw:
            value = raw[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 1 << 50:
                raise ValueError(f"machine.{key} must be a positive number of bytes")
            out[key] = value
    return out


class ForecastRoute:
    def __init__(self, forecast: Forecast | None, unavailable: str | None = None) -> None:
        self.forecast = forecast
        self.unavailable = unavailable

    def add_routes(self, routes: web.RouteTableDef, guard: Callable[[Any], Any]) -> None:
        routes.post("/memprobe/forecast")(guard(self.post))

    async def post(self, request: web.Request) -> web.Response:
        if self.forecast is None:
            return web.json_response({"error": f"the forecast is unavailable: {self.unavailable}"}, status=503)
        if (request.content_length or 0) > FORECAST_MAX_BYTES:
            return web.json_response({"error": "the graph is larger than 8 MiB"}, status=413)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return web.json_response(
                {"error": 'the body must be JSON: {"prompt": <API graph>, "machine": {...}}'}, status=400
            )
        if not isinstance(body, dict) or "prompt" not in body:
            return web.json_response(
                {"error": 'the body must be {"prompt": <API graph>, "machine": {...}?}'}, status=400
            )
        try:
            what_if = parse_what_if(body.get("machine"))
            doc = await off_loop(self.forecast, body["prompt"], what_if)
        except (BadGraph, ValueError) as exc:
            return web.json_response({"error": str(exc)}, status=400)
        return web.json_response(doc, dumps=lambda v: json.dumps(v, default=str))


class QueueCheck:
    """ComfyUI's ``on_prompt`` handler: forecast each queued graph on a thread of its own; when it won't
    fit, send ``memprobe.forecast`` to the client that queued it. Returns the request untouched."""

    def __init__(
        self,
        forecast: Forecast,
        send: Callable[[str, dict[str, Any], str | None], None],
        enabled: Callable[[], bool] = lambda: True,
    ) -> None:
        self.forecast = forecast
        self.send = send
        self.enabled = enabled
        self._worker: Worker[tuple[Any, str | None]] = Worker("memprobe-forecast", self._check)
        self._costs: dict[int, float] = {}
        """The CPU each queued prompt's check took, by the prompt object's identity (ComfyUI hands the
        executor the very object it gave its ``on_prompt`` handlers): the run it becomes is charged it."""

    def __call__(self, json_data: Any) -> Any:
        try:
            if self.enabled() and isinstance(json_data, dict) and isinstance(json_data.get("prompt"), dict):
                client = json_data.get("client_id")
                self._worker.put((json_data["prompt"], client if isinstance(client, str) else None))
        except Exception:  # a queued prompt is never held up by Memory Probe
            warn_once("queue-check", "Memory Probe: could not check a queued prompt", exc_info=True)
        return json_data

    def flush(self, timeout: float = 10.0) -> bool:
        return self._worker.flush(timeout)

    @property
    def cpu_s(self) -> float:
        """CPU time the check's thread has used."""
        return self._worker.cpu_s

    def _check(self, item: tuple[Any, str | None]) -> None:
        prompt, client = item
        started = time.thread_time()
        try:
            doc = self.forecast(prompt, None)
        except BadGraph:
            return
        except Exception:
            warn_once("queue-forecast", "Memory Probe: could not forecast a queued prompt", exc_info=True)
            return
        if doc.get("verdict") == WONT_FIT:
            self.send("memprobe.forecast", toast_of(doc), client)
        if len(self._costs) > 256:  # prompts that never ran (refused by validation)
            self._costs.clear()
        self._costs[id(prompt)] = round(time.thread_time() - started, 4)

    def cost_of(self, prompt: Any) -> float | None:
        """The CPU the check of this prompt took (``None``: it was not checked, or not yet)."""
        return self._costs.pop(id(prompt), None)


def toast_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """What the browser needs for its toast: the stage that won't fit, the figures, the one change."""
    stage = next((s for s in doc.get("stages") or [] if s.get("verdict") == WONT_FIT), {})
    node = next((n for n in doc.get("nodes") or [] if n.get("node_id") == stage.get("peak_node_id")), {})
    first = (doc.get("suggestions") or [None])[0]
    return {
        "verdict": doc.get("verdict"),
        "stage": stage.get("stage"),
        "node_id": stage.get("peak_node_id"),
        "class_type": node.get("class_type"),
        "metric": doc.get("metric"),
        "peak_bytes": stage.get("peak_bytes"),
        "limit_bytes": stage.get("limit_bytes"),
        "change": {k: first.get(k) for k in ("id", "title", "try", "action")} if first else None,
    }
