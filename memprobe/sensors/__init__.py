"""One call, one :class:`~memprobe.snapshot.Snapshot` of every memory that matters.

>>> from memprobe.sensors import Sensors
>>> snap = Sensors().snapshot()
>>> snap.system.ram_total_bytes > 0
True

A sensor that fails yields ``None`` for its fields and logs one warning per cause; the caller
never sees an exception. Platform code lives in :mod:`.linux`, :mod:`.windows`, :mod:`.gpu`.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Mapping

from .._log import warn_once
from ..snapshot import DiskSpace, GpuMemory, Metrics, Snapshot, SystemMemory, metrics_of
from . import linux, windows
from .gpu import GpuSensor

__all__ = ["Sensors", "pagefile_volumes"]


class _ProcFile:
    """A ``/proc`` file kept open and re-read with ``pread`` (no open/close per reading)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._pid = -1

    def read(self) -> str:
        return self.read_bytes().decode("ascii", "replace")

    def read_bytes(self) -> bytes:
        pid = os.getpid()
        if self._fd is None or self._pid != pid:  # after a fork, /proc/self is another process
            self._fd = os.open(self.path, os.O_RDONLY)
            self._pid = pid
        return os.pread(self._fd, 65536, 0)


def pagefile_volumes(platform: str = sys.platform) -> dict[str, str]:
    """On Windows, ``{"pagefile" (or "pagefile D:"): "D:\\"}`` for each drive the registry puts
    a pagefile on; elsewhere (and when the registry cannot be read) nothing."""
    if platform != "win32":
        return {}
    try:
        drives = [s.drive for s in windows.parse_paging_files(windows.read_paging_files()) if s.drive]
    except OSError as exc:
        warn_once("pagefile-volumes", "Memory Probe: cannot read the pagefile settings (%s)", exc)
        return {}
    return {("pagefile" if i == 0 else f"pagefile {d}"): f"{d}\\" for i, d in enumerate(dict.fromkeys(drives))}


class Sensors:
    """Takes snapshots. Thread-safe; cheap enough to call at 50 Hz.

    ``disk_paths`` maps a role (``models``, ``output``, ``temp``, ``pagefile``) to a folder whose
    volume's free space is reported; the caller passes real paths, nothing is guessed.
    """

    DISK_REFRESH_S = 2.0
    OVERCOMMIT_REFRESH_S = 10.0

    def __init__(
        self,
        disk_paths: Mapping[str, str] | None = None,
        *,
        allow_cuda_init: bool = False,
        use_nvml: bool = True,
        platform: str = sys.platform,
    ) -> None:
        self.platform = platform
        self.gpu = GpuSensor(allow_cuda_init=allow_cuda_init, use_nvml=use_nvml)
        self._disk_paths: dict[str, str] = {**pagefile_volumes(platform), **(disk_paths or {})}
        self._disks: tuple[DiskSpace, ...] = ()
        self._disks_read_at = -1e9
        self._overcommit: int | None = None
        self._overcommit_read_at = -1e9
        self._lock = threading.Lock()
        self._meminfo = _ProcFile("/proc/meminfo")
        self._status = _ProcFile("/proc/self/status")
        self._process = None
        self.rss_peak_reset = linux.RssPeakReset() if platform.startswith("linux") else None
        """Linux: restarts ``VmHWM`` at each node start (see :meth:`reset_peaks`); ``None`` elsewhere."""

    # ------------------------------------------------------------------ public
    def snapshot(self, *, disks: bool = True) -> Snapshot:
        """All readings now. ``disks=False`` skips the (slow-changing) disk volumes."""
        gpus = self.gpus()
        system = self.system()
        return Snapshot(
            monotonic_s=time.monotonic(),
            wall_time_s=time.time(),
            gpus=gpus,
            system=system,
            disks=self.disks() if disks else (),
        )

    def sample(self) -> Metrics:
        """What the sampler records on each tick: the metrics that move, straight from the
        readings (no snapshot records, no disks, no totals). On Linux without a GPU this is two
        ``pread`` calls and two regular-expression scans."""
        gpus = () if self.gpu.none_found else self.gpu.read()
        if self.platform.startswith("linux"):
            try:
                row = linux.sample_fields(self._meminfo.read_bytes(), self._status_bytes())
            except Exception as exc:  # a sensor never raises to its caller
                warn_once("system-sample", "Memory Probe: system memory readings failed (%s)", exc)
                row = {}
            return {**metrics_of(gpus, totals=False), **row} if gpus else row
        return metrics_of(gpus, totals=False, **self._system_fields())

    def _status_bytes(self) -> bytes | None:
        try:
            return self._status.read_bytes()
        except OSError as exc:
            warn_once("proc-self-status", "Memory Probe: cannot read /proc/self/status (%s)", exc)
            return None

    def gpus(self) -> tuple[GpuMemory, ...]:
        return self.gpu.read()

    def reset_peaks(self, *, rss: bool = True) -> frozenset[str]:
        """Restart the peak counters that can be restarted, at a node's start: torch's per device
        and, on Linux (unless ``rss=False``), the process's peak RSS. Returns the metrics whose
        counters now count from this moment; the others that a snapshot carries (Windows' peak
        working set, peak private bytes and commit peak) count since the process or the system
        started. See :meth:`~memprobe.snapshot.Snapshot.peak_counters`."""
        reset = set(self.gpu.reset_peaks())
        if rss and self.rss_peak_reset is not None and self.rss_peak_reset.reset():
            reset.add("process_rss_bytes")
        return frozenset(reset)

    def set_disk_paths(self, disk_paths: Mapping[str, str]) -> None:
        with self._lock:
            self._disk_paths = {**pagefile_volumes(self.platform), **disk_paths}
            self._disks_read_at = -1e9

    def system(self) -> SystemMemory:
        return SystemMemory(**self._system_fields())

    def _system_fields(self) -> dict[str, int | None]:
        try:
            if self.platform.startswith("linux"):
                return self._linux_fields()
            if self.platform == "win32":
                return self._windows_fields()
            return self._psutil_fields()
        except Exception as exc:  # a sensor never raises to its caller
            warn_once(f"system-{self.platform}", "Memory Probe: system memory readings failed (%s)", exc)
            return {}

    def disks(self) -> tuple[DiskSpace, ...]:
        now = time.monotonic()
        with self._lock:
            if now - self._disks_read_at < self.DISK_REFRESH_S:
                return self._disks
            self._disks_read_at = now
            paths = dict(self._disk_paths)
        result = []
        for role, path in paths.items():
            try:
                usage = shutil.disk_usage(path)
                result.append(DiskSpace(role, path, usage.free, usage.total))
            except OSError as exc:
                warn_once(f"disk-{role}", "Memory Probe: cannot read free space of %s (%s)", path, exc)
                result.append(DiskSpace(role, path))
        self._disks = tuple(result)
        return self._disks

    # ------------------------------------------------------------------ platforms
    def _linux_fields(self) -> dict[str, int | None]:
        meminfo = self._meminfo.read()
        raw_status = self._status_bytes()
        status = raw_status.decode("ascii", "replace") if raw_status is not None else None
        now = time.monotonic()
        if now - self._overcommit_read_at > self.OVERCOMMIT_REFRESH_S:
            self._overcommit = linux.read_overcommit_mode()
            self._overcommit_read_at = now
        return linux.system_fields(meminfo, status, self._overcommit)

    def _proc(self):
        if self._process is None:
            import psutil

            self._process = psutil.Process()
        return self._process

    def _windows_fields(self) -> dict[str, int | None]:
        import psutil

        perf = windows.read_performance_information()
        try:
            swap = psutil.swap_memory()  # on Windows: pagefile size and use, not commit
            swap_total, swap_used = int(swap.total), int(swap.used)
        except Exception as exc:  # psutil reads it through performance counters, which can be disabled
            warn_once("windows-swap", "Memory Probe: cannot read the pagefile use (%s)", exc)
            swap_total = swap_used = None
        fields = windows.system_fields(perf, swap_total_bytes=swap_total, swap_used_bytes=swap_used,
                                       process_rss_bytes=None, process_private_bytes=None)
        try:
            fields.update(windows.process_fields(windows.read_process_memory_counters()))
        except OSError as exc:
            warn_once("windows-process-memory", "Memory Probe: GetProcessMemoryInfo failed (%s)", exc)
        return fields

    def _psutil_fields(self) -> dict[str, int | None]:
        """macOS and other systems: what psutil offers (no commit accounting there)."""
        import psutil

        vm = psutil.virtual_memory()
        swap = psutil.swap_memory()
        mem = self._proc().memory_info()
        return {
            "ram_total_bytes": int(vm.total),
            "ram_available_bytes": int(vm.available),
            "swap_total_bytes": int(swap.total),
            "swap_used_bytes": int(swap.used),
            "process_rss_bytes": int(mem.rss),
        }
