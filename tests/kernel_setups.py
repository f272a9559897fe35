"""Kernel set-ups for the integration tier, made as root and undone afterwards: a memory cgroup
with a limit (v1 or v2, whichever holds the memory controller here) and a small tmpfs.

Both need root. Without it a test skips with the reason, except where ``MEMPROBE_REQUIRE_COMFYUI=1``
(CI, which runs as root): there a set-up that cannot be made is a failure, with the reason."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from memprobe.sensing.system.cgroup import locate

REQUIRED = os.environ.get("MEMPROBE_REQUIRE_COMFYUI") == "1"


def need_root(what: str) -> None:
    if os.geteuid() == 0:
        return
    if REQUIRED:
        pytest.fail(f"{what} needs root, and CI runs as root: run the integration tier as root")
    pytest.skip(f"{what} needs root")


def cannot(what: str, exc: BaseException) -> None:
    """A set-up that root could not make: a failure, never a silent skip."""
    pytest.fail(f"could not {what} as root: {type(exc).__name__}: {exc}")


@dataclass
class MemoryCgroup:
    version: int
    directory: Path
    limit_bytes: int

    @property
    def procs(self) -> Path:
        return self.directory / "cgroup.procs"

    def enter(self) -> Callable[[], None]:
        """A ``preexec_fn`` that moves the child (before it runs ComfyUI) into this cgroup."""
        procs = str(self.procs)

        def move() -> None:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))

        return move

    def read(self, name: str) -> str:
        return (self.directory / name).read_text()

    def remove(self, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not self.procs.read_text().strip():
                break
            time.sleep(0.2)
        self.directory.rmdir()


def make_memory_cgroup(limit_bytes: int) -> MemoryCgroup:
    """A new memory cgroup with ``limit_bytes``: on v1 a child of this process's own memory cgroup
    (so whatever accounts for this process still does), on v2 a child of the hierarchy's root."""
    need_root("a memory cgroup")
    location = locate(Path("/proc/self/cgroup").read_text(), Path("/proc/self/mountinfo").read_text())
    if location is None:
        cannot("find a memory cgroup hierarchy", FileNotFoundError("/proc/self/cgroup names no memory cgroup"))
    name = f"memprobe-test-{uuid.uuid4().hex[:8]}"
    try:
        if location.version == 1:
            directory = Path(location.directory) / name
            directory.mkdir()
            (directory / "memory.limit_in_bytes").write_text(str(limit_bytes))
        else:
            top = Path(location.top)
            controllers = (top / "cgroup.subtree_control").read_text().split()
            if "memory" not in controllers:
                (top / "cgroup.subtree_control").write_text("+memory")
            directory = top / name
            directory.mkdir()
            (directory / "memory.max").write_text(str(limit_bytes))
            if (directory / "memory.swap.max").exists():
                (directory / "memory.swap.max").write_text("0")
    except OSError as exc:
        cannot(f"create a memory cgroup under {location.directory}", exc)
    return MemoryCgroup(location.version, directory, limit_bytes)


@dataclass
class Tmpfs:
    path: Path
    size_bytes: int

    def fill(self) -> Path:
        """Fill the volume to the last byte with one file; returns it (delete it to free space)."""
        filler = self.path / "filler.bin"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            block = b"\0" * 65536
            while True:
                try:
                    os.write(fd, block)
                except OSError:
                    if len(block) == 1:
                        break
                    block = block[: len(block) // 2]
        finally:
            os.close(fd)
        return filler

    def free_bytes(self) -> int:
        stat = os.statvfs(self.path)
        return stat.f_bavail * stat.f_frsize

    def unmount(self) -> None:
        subprocess.run(["umount", str(self.path)], check=True)


def mount_tmpfs(path: Path, size_bytes: int) -> Tmpfs:
    need_root("mounting a tmpfs")
    path.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size_bytes}", "tmpfs", str(path)],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        cannot(f"mount a tmpfs at {path}", exc)
    return Tmpfs(path, size_bytes)
