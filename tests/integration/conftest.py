"""The integration tier: Memory Probe inside a real ComfyUI server (see ``tests/comfy_server.py``).

Run it with ``pytest tests/integration`` where a ComfyUI is installed (``MEMPROBE_COMFYUI``,
``MEMPROBE_COMFYUI_PYTHON``). Without one these tests skip with the reason; with
``MEMPROBE_REQUIRE_COMFYUI=1`` (CI) a missing ComfyUI fails them instead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from comfy_server import ComfyInstall, ComfyServer, find_comfyui, install_requirements, load_workflow
from kernel_setups import MemoryCgroup, make_memory_cgroup

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


GIB = 1024**3
CGROUP_LIMIT = 3 * GIB
"""Room for ComfyUI with the tiny SD1.5 models (about 2.3 GiB at a 512x512 txt2img on this CPU), not for a
2048x2048 VAE decode (over 5 GB)."""


@dataclass
class CgroupKill:
    """A ComfyUI the kernel's OOM killer ended in its memory cgroup, during a decode the limit had no room for."""

    server: ComfyServer
    cgroup: MemoryCgroup
    limit: int
    prompt_id: str
    before: dict[str, Any] = field(default_factory=dict)  # before the decode: /memprobe/live, /system, the cgroup's
    returncode: int | None = None


@pytest.fixture(scope="session")
def cgroup_kill(make_server: Callable[..., ComfyServer]) -> Iterator[CgroupKill]:
    """ComfyUI started in a memory cgroup limited to :data:`CGROUP_LIMIT`, then killed by the kernel's OOM killer
    in a 2048x2048 VAE decode: the one real kill that the cgroup test and the panel's headline test each read (a kill
    takes two minutes of a CI machine's CPU)."""
    cgroup = make_memory_cgroup(CGROUP_LIMIT)
    server = make_server("cgroup", preexec=cgroup.enter())
    try:
        before = {"live": server.get("/memprobe/live")["status"], "system": server.get("/memprobe/system")}
        before["pid_in_cgroup"] = str(server.process.pid) in cgroup.read("cgroup.procs").split()
        killed = CgroupKill(server, cgroup, CGROUP_LIMIT, server.queue(load_workflow("decode_big")), before)
        deadline = time.monotonic() + 300
        while server.process is not None and server.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
        killed.returncode = server.process.returncode if server.process is not None else None
        yield killed
    finally:
        server.stop()
        cgroup.remove()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.integration)
