"""Browser tests: the real ComfyUI frontend (two versions) in headless Debian Chromium, driven by
Playwright. Chromium is /usr/bin/chromium (Debian's package), never a Playwright download.

Outside CI a missing browser, Playwright or frontend wheel skips these tests with the reason;
with MEMPROBE_REQUIRE_BROWSER=1 (CI) it fails them instead."""

from __future__ import annotations

import pytest
from frontend_server import FRONTENDS, chromium_missing, frontend_static, launch_chromium, unavailable


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module (closed before the asyncio-based tests run)."""
    if reason := chromium_missing():
        unavailable(reason)
    with launch_chromium() as chromium:
        yield chromium


@pytest.fixture(params=FRONTENDS, scope="module")
def frontend(request):
    from frontend_server import Unavailable

    try:
        return request.param, frontend_static(request.param)
    except Unavailable as exc:
        unavailable(str(exc))


@pytest.fixture
def comfy(frontend, browser, tmp_path):
    """A booted frontend with Memory Probe loaded: (page, server, version, errors)."""
    from frontend_server import FrontendServer, boot

    version, static = frontend
    server = FrontendServer(static, tmp_path)
    with boot(browser, server, ready="window.app && window.app.extensionManager && window.__memprobe") as (
        page,
        errors,
    ):
        yield page, server, version, errors
