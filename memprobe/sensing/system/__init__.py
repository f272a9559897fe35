"""System memory, one reader per operating system (:class:`.base.SystemReader`), chosen once."""

from __future__ import annotations

from .base import SystemReader

__all__ = ["SystemReader", "system_reader"]


def system_reader(platform: str) -> SystemReader:
    """The reader for ``platform`` (``sys.platform``): Linux's ``/proc``, Windows' calls, else psutil."""
    if platform.startswith("linux"):
        from .linux import LinuxSystemReader

        return LinuxSystemReader()
    if platform == "win32":
        from .windows_reader import WindowsSystemReader

        return WindowsSystemReader()
    from .other import PsutilSystemReader

    return PsutilSystemReader(platform)
