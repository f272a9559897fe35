"""Browser tests: the real ComfyUI frontend (two versions) in headless Debian Chromium, driven by
Playwright. Chromium is /usr/bin/chromium (Debian's package), never a Playwright download.

Outside CI a missing browser, Playwright or frontend wheel skips these tests with the reason;
with MEMPROBE_REQUIRE_BROWSER=1 (CI) it fails them instead."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from frontend_server import CHROMIUM, CHROMIUM_ARGS, FRONTENDS, REQUIRED, frontend_static


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module. (Playwright's sync API holds an event loop on the main
    thread while it is open, so it must be closed before the asyncio-based tests run.)"""
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


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
    with boot(browser, server, ready="window.app && window.app.extensionManager && window.__memprobe") as (page, errors):
        yield page, server, version, errors
