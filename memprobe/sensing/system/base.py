"""What a system reader is: one per operating system, chosen once (:func:`memprobe.sensing.system.
system_reader`). It reads the machine's RAM, swap/pagefile and commit, this process's memory, and
where the OS has them, the memory cgroup and the kernel's OOM-kill counters."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ..._log import warn_once
from ..snapshot import Metrics

__all__ = ["SystemReader", "Calls", "reason"]

T = TypeVar("T")


class SystemReader(Protocol):
    platform: str
    unreadable: dict[str, str]
    """Field -> why the latest reading could not give it (empty when everything was read)."""
    rss_peak_reset: Any
    """Restarts the process's peak-RSS counter at a node's start (Linux), or ``None``."""
    heap_free: Any
    """Reads the C library's free heap in this process (Linux, glibc), or ``None``."""

    def fields(self, max_age_s: float = 0.0) -> dict[str, int | None]:
        """Every :class:`~memprobe.sensing.snapshot.SystemMemory` field this OS gives (and
        ``process_peak_*`` where it keeps peaks)."""
        ...

    def sample(self) -> Metrics:
        """The sampler's row: only what moves, as cheaply as this OS allows."""
        ...

    def cgroup(self) -> Any:
        """The process's memory cgroup (Linux), or ``None``."""
        ...

    def oom_kills(self) -> dict[str, int | str | None]:
        """The kernel's OOM-kill counters now (Linux), or ``{}``."""
        ...


def reason(call: str, exc: BaseException) -> str:
    """``[WinError 50] ...`` for an OS error (its text names the call), else ``call failed: text``."""
    if isinstance(exc, OSError):
        return str(exc)
    return f"{call} failed: {type(exc).__name__}: {exc}"


class Calls:
    """OS calls each tried on its own: a failing one is logged once and tried again only after
    :attr:`RETRY_S` (e.g. psutil's swap reading with performance counters disabled)."""

    RETRY_S = 60.0

    def __init__(self) -> None:
        self._failed: dict[str, tuple[float, str]] = {}

    def __call__(self, name: str, fn: Callable[[], T]) -> tuple[T | None, str | None]:
        """``(fn(), None)``, or ``(None, reason)`` when it fails."""
        now = time.monotonic()
        failed = self._failed.get(name)
        if failed is not None and now - failed[0] < self.RETRY_S:
            return None, failed[1]
        try:
            result = fn()
        except Exception as exc:
            text = reason(name, exc)
            warn_once(f"call-{name}", "Memory Probe: %s; the values it gives are left out", text)
            self._failed[name] = (now, text)
            return None, text
        self._failed.pop(name, None)
        return result, None
