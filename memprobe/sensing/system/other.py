"""macOS and other systems: what psutil offers (no commit accounting there)."""

from __future__ import annotations

from typing import Any

from ..snapshot import Metrics

__all__ = ["PsutilSystemReader"]


class PsutilSystemReader:
    rss_peak_reset = None
    heap_free = None

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.unreadable: dict[str, str] = {}
        self._process: Any = None

    def fields(self, max_age_s: float = 0.0) -> dict[str, int | None]:
        import psutil

        if self._process is None:
            self._process = psutil.Process()
        vm = psutil.virtual_memory()
        swap = psutil.swap_memory()
        mem = self._process.memory_info()
        return {
            "ram_total_bytes": int(vm.total),
            "ram_available_bytes": int(vm.available),
            "swap_total_bytes": int(swap.total),
            "swap_used_bytes": int(swap.used),
            "process_rss_bytes": int(mem.rss),
        }

    def sample(self) -> Metrics:
        from ..snapshot import metrics_of

        return metrics_of((), totals=False, **self.fields())

    def cgroup(self) -> None:
        return None

    def oom_kills(self) -> dict[str, int | str | None]:
        return {}
