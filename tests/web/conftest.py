"""A fresh aiohttp application with Memory Probe's routes, as the web tests drive them."""

from __future__ import annotations

import importlib

import pytest
from aiohttp import web
from helpers import FakeClock, ScriptedSensors


@pytest.fixture
def routes_app(pack):
    """``routes_app(**services)``: (the application, the routes module), with no ledger and the
    services given (``forecast=...``)."""

    def make(**services):
        routes_mod = importlib.import_module("memory_probe_pack.web.routes")
        tracker_mod = importlib.import_module("memory_probe_pack.memprobe.recording.tracker")
        config_mod = importlib.import_module("memory_probe_pack.memprobe.config")
        clock = FakeClock(0.0)
        wired = routes_mod.Services(
            tracker=tracker_mod.Tracker(ScriptedSensors(clock), clock=clock),
            ledger=None,
            machine=dict,
            config=config_mod.Config,
            set_config=lambda c: None,
            **services,
        )
        table = web.RouteTableDef()
        routes_mod.MemProbeRoutes(wired).add_routes(table)
        application = web.Application()
        application.add_routes(table)
        return application, routes_mod

    return make
