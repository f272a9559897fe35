"""The Windows tier: Memory Probe's Windows code run by a real Windows CPython.

CI runs it under Wine (``.ci/windows``). Wine is not Windows: its answers are Wine's (no real
pagefile, no PDH counters, no seek-penalty answer, a commit peak of 0), so these tests check
types, structure layouts, units and the handling of each failure, and name Wine where they
expect Wine's answer. What Wine cannot show is covered by the recorded-layout tests in
``tests/unit/test_sensors_windows.py``.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import string
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

if sys.platform != "win32":  # tests/conftest.py keeps this folder out of other runs
    raise pytest.UsageError("tests/windows needs a Windows Python: run .ci/windows (Wine) or pytest on Windows")


def _under_wine() -> bool:
    try:
        return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")
    except OSError:
        return False


WINE = _under_wine()
MEMORY_MANAGEMENT = r"SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management"
WINE_PAGING_FILES = ["C:\\pagefile.sys 27 77"]  # Wine 8's fixed default (REG_SZ), not a real pagefile


@pytest.fixture(scope="session")
def wine() -> bool:
    """Whether this Windows is Wine (its ntdll exports ``wine_get_version``)."""
    return WINE


@pytest.fixture(scope="session")
def wine_paging_files() -> list[str]:
    """Wine 8's fixed registry default for PagingFiles (a REG_SZ), not a real pagefile."""
    return list(WINE_PAGING_FILES)


@pytest.fixture
def free_drive() -> str:
    """A drive letter nothing is mapped to, e.g. ``Y:``."""
    return next(f"{c}:" for c in reversed(string.ascii_uppercase) if not os.path.exists(f"{c}:\\"))


@pytest.fixture
def paging_files() -> Iterator[Callable[[list[str] | None], None]]:
    """Set ``HKLM\\...\\Memory Management\\PagingFiles`` (REG_MULTI_SZ, as Windows writes it;
    ``None`` deletes it) for one test, and put the old value back afterwards. Only inside a Wine
    prefix: a real machine's pagefile settings are never touched."""
    if not WINE:
        pytest.skip("writes HKLM PagingFiles: only inside a Wine prefix, never on a real Windows machine")
    import winreg

    key = winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, MEMORY_MANAGEMENT, 0, winreg.KEY_QUERY_VALUE | winreg.KEY_SET_VALUE)
    try:
        old: tuple[object, int] | None = winreg.QueryValueEx(key, "PagingFiles")
    except FileNotFoundError:
        old = None

    def set_value(entries: list[str] | None) -> None:
        if entries is None:
            try:
                winreg.DeleteValue(key, "PagingFiles")
            except FileNotFoundError:
                pass
        else:
            winreg.SetValueEx(key, "PagingFiles", 0, winreg.REG_MULTI_SZ, entries)

    try:
        yield set_value
    finally:
        if old is None:
            set_value(None)
        else:
            winreg.SetValueEx(key, "PagingFiles", 0, old[1], old[0])
        key.Close()


@pytest.fixture(scope="session")
def memprobe_exe() -> Path:
    """The ``memprobe.exe`` launcher pip made from the wheel's console-script entry point."""
    exe = Path(sysconfig.get_path("scripts")) / "memprobe.exe"
    assert exe.is_file(), f"{exe} is missing: install the wheel first (.ci/windows does)"
    return exe


def _run(args: list[str | os.PathLike[str]], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
        **kwargs,
    )  # type: ignore[call-overload]


@pytest.fixture(scope="session")
def run() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run a Windows program (``run([exe, *args], cwd=..., env=...)``); its output comes back as text."""
    return _run


def _copy_embedded_python(target: Path) -> Path:
    source = Path(sys.executable).parent
    target.mkdir(parents=True)
    for item in source.iterdir():
        if item.is_file():
            shutil.copy2(item, target / item.name)
    return target / "python.exe"


@pytest.fixture(scope="session")
def copy_embedded_python() -> Callable[[Path], Path]:
    """Copy this CPython's own files (the python.org embeddable build, the one the portable
    package ships as ``python_embeded``) into a folder; gives the copy's ``python.exe``."""
    return _copy_embedded_python
