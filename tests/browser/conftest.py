"""Browser tests: the real ComfyUI frontend (two versions) in headless Debian Chromium, driven by
Playwright. Chromium is /usr/bin/chromium (Debian's package), never a Playwright download.

Outside CI a missing browser, Playwright or frontend wheel skips these tests with the reason;
with MEMPROBE_REQUIRE_BROWSER=1 (CI) it fails them instead."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("MEMPROBE_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("MEMPROBE_REQUIRE_BROWSER") == "1"
FRONTENDS = ["1.27.10", "1.58.1"]  # what ComfyUI 0.3.64 pins, and the newest the registry serves
CACHE = Path(os.environ.get("MEMPROBE_TEST_CACHE", Path.home() / ".cache" / "memprobe-tests"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(reason)
    pytest.skip(reason)


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
        proc = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(wheels),
                               f"comfyui-frontend-package=={version}"], capture_output=True, text=True, timeout=600)
        found = list(wheels.glob(f"comfyui_frontend_package-{version}-*.whl"))
        if proc.returncode or not found:
            unavailable(f"comfyui-frontend-package {version} could not be fetched: {proc.stderr.strip()[-300:]}")
    with zipfile.ZipFile(found[0]) as wheel:
        members = [m for m in wheel.namelist() if m.startswith("comfyui_frontend_package/static/")]
        wheel.extractall(target, members)
    return static


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
    return request.param, frontend_static(request.param)


@pytest.fixture
def comfy(frontend, browser, tmp_path):
    """A booted frontend with Memory Probe loaded: (page, server, version, errors)."""
    from frontend_server import FrontendServer, boot

    version, static = frontend
    server = FrontendServer(static, tmp_path)
    with boot(browser, server, ready="window.app && window.app.extensionManager && window.__memprobe") as (page, errors):
        yield page, server, version, errors
