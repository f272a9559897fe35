"""``GET /memprobe/metrics``: Memory Probe's figures for Prometheus (see ``memprobe/prometheus.py``).

Read-only and cheap: it serves the latest readings and the counts, takes no reading and changes
nothing. With the ``metrics`` setting off it answers 404; when the exporter could not be set up
(``prometheus-client`` missing), 503 with the reason.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiohttp import web

from ..memprobe.config import Config
from .threads import off_loop

if TYPE_CHECKING:  # the exporter needs prometheus-client; the other routes must work without it
    from ..memprobe.output.prometheus import MetricsExporter

__all__ = ["MetricsRoute"]

logger = logging.getLogger("memprobe")


class MetricsRoute:
    def __init__(
        self, exporter: MetricsExporter | None, config: Callable[[], Config], unavailable: str | None = None
    ) -> None:
        self.exporter = exporter
        self.config = config
        self.unavailable = unavailable

    def add_routes(self, routes: web.RouteTableDef) -> None:
        routes.get("/memprobe/metrics")(self.metrics)

    async def metrics(self, request: web.Request) -> web.Response:
        if not self.config().metrics:
            return web.Response(
                status=404,
                text="Memory Probe's metrics are turned off (setting MemProbe.Metrics, "
                'or POST /memprobe/config {"metrics": true})\n',
            )
        if self.exporter is None:
            return web.Response(status=503, text=f"Memory Probe's metrics are unavailable: {self.unavailable}\n")
        try:
            # a few milliseconds of encoding: off the event loop, so ComfyUI's other requests go on
            body, content_type = await off_loop(self.exporter.exposition, request.headers.get("Accept"))
        except Exception as exc:  # a scrape failure must not touch ComfyUI
            logger.warning("Memory Probe: GET /memprobe/metrics failed", exc_info=True)
            return web.Response(status=503, text=f"Memory Probe could not answer: {type(exc).__name__}: {exc}\n")
        return web.Response(body=body, headers={"Content-Type": content_type})
