"""Windows: RAM and commit from ``GetPerformanceInfo`` (``GlobalMemoryStatusEx`` if that fails),
pagefile use from psutil (a performance counter), this process from ``GetProcessMemoryInfo``:
each call on its own, so one failing call costs only the values it gives."""

from __future__ import annotations

from typing import Any

from ..snapshot import Metrics
from . import windows
from .base import Calls

__all__ = ["WindowsSystemReader"]


def _psutil_swap() -> Any:
    import psutil

    return psutil.swap_memory()


class WindowsSystemReader:
    platform = "win32"
    rss_peak_reset = None  # Windows' peak counters count since the process started: nothing to restart
    heap_free = None

    def __init__(self) -> None:
        self.calls = Calls()
        self.unreadable: dict[str, str] = {}

    def fields(self, max_age_s: float = 0.0) -> dict[str, int | None]:
        unreadable: dict[str, str] = {}
        perf, perf_error = self.calls("GetPerformanceInfo", windows.read_performance_information)
        status, status_error = None, None
        if perf is None:
            status, status_error = self.calls("GlobalMemoryStatusEx", windows.read_memory_status)
        fields = windows.memory_fields(perf, status)
        for key, value in fields.items():
            if value is None:
                unreadable[key] = "; ".join(r for r in (perf_error, status_error) if r) or (
                    "GetPerformanceInfo gave CommitPeak = 0 (this system does not keep the peak)"
                )
        swap, swap_error = self.calls("psutil.swap_memory()", _psutil_swap)  # a PDH counter: Paging File % Usage
        if swap is None:
            unreadable["swap_used_bytes"] = swap_error or ""
        elif fields["swap_total_bytes"] is None:
            fields["swap_total_bytes"] = int(swap.total)
            unreadable.pop("swap_total_bytes", None)
        counters, process_error = self.calls("GetProcessMemoryInfo", windows.read_process_memory)
        process = windows.process_fields(counters) if counters is not None else {}
        for key in ("process_rss_bytes", "process_private_bytes"):
            if process.get(key) is None:
                unreadable[key] = process_error or "GetProcessMemoryInfo gave no commit charge for this process"
        self.unreadable = unreadable
        return {
            **windows.system_fields(
                perf,
                status=status,
                swap_total_bytes=fields["swap_total_bytes"],
                swap_used_bytes=int(swap.used) if swap is not None else None,
                process_rss_bytes=process.get("process_rss_bytes"),
                process_private_bytes=process.get("process_private_bytes"),
            ),
            "process_peak_rss_bytes": process.get("process_peak_rss_bytes"),
            "process_peak_private_bytes": process.get("process_peak_private_bytes"),
        }

    def sample(self) -> Metrics:
        from ..snapshot import metrics_of

        return metrics_of((), totals=False, **self.fields())

    def cgroup(self) -> None:
        return None

    def oom_kills(self) -> dict[str, int | str | None]:
        return {}
