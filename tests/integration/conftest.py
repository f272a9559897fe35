"""The integration tier: Memory Probe inside a real ComfyUI server (see ``tests/comfy_server.py``).

Run it with ``pytest tests/integration`` where a ComfyUI is installed (``MEMPROBE_COMFYUI``,
``MEMPROBE_COMFYUI_PYTHON``). Without one these tests skip with the reason; with
``MEMPROBE_REQUIRE_COMFYUI=1`` (CI) a missing ComfyUI fails them instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from comfy_server import ComfyInstall, ComfyServer, find_comfyui, install_requirements

REQUIRED = os.environ.get("MEMPROBE_REQUIRE_COMFYUI") == "1"


@pytest.fixture(scope="session")
def comfy_install() -> ComfyInstall:
    found = find_comfyui()
    if isinstance(found, str):
        if REQUIRED:
            pytest.fail(found)
        pytest.skip(found)
    install_requirements(found)
    return found


@pytest.fixture(scope="session")
def make_server(
    comfy_install: ComfyInstall, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., ComfyServer]]:
    """``make_server(**options)``: a started ComfyUI with Memory Probe, stopped at the end of the session."""
    servers: list[ComfyServer] = []

    def make(name: str = "comfy", *, start: bool = True, **options) -> ComfyServer:
        server = ComfyServer(comfy_install, tmp_path_factory.mktemp(name), **options)
        servers.append(server)
        return server.start() if start else server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def server(make_server: Callable[..., ComfyServer]) -> ComfyServer:
    """One ComfyUI with Memory Probe shared by a test module."""
    return make_server()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.integration)
