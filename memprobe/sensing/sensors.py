"""One call, one :class:`~memprobe.sensing.snapshot.Snapshot` of every memory that matters.

>>> from memprobe.sensing.sensors import Sensors
>>> snap = Sensors().snapshot()
>>> snap.system.ram_total_bytes > 0
True

A sensor that fails yields ``None`` for its fields and logs one warning per cause; the caller
never sees an exception. On Windows each OS call is tried on its own, so one failing call costs
only the values it gives; :attr:`Sensors.unreadable` says which and why. Platform code lives in
:mod:`.linux`, :mod:`.windows`, :mod:`.gpu`.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .._log import warn_once
from .gpu import GpuSensor
from .snapshot import DiskSpace, GpuMemory, Metrics, Snapshot, SystemMemory, metrics_of
from .system import linux, windows
from .system.cgroup import CgroupMemory, CgroupReader, read_vmstat_oom_kills

__all__ = ["Sensors", "pagefile_volumes"]

T = TypeVar("T")
_SYSTEM_FIELDS = tuple(f.name for f in dataclasses.fields(SystemMemory))


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
    except Exception as exc:  # OSError from the registry; a sensor never raises
        warn_once("pagefile-volumes", "Memory Probe: cannot read the pagefile settings (%s)", exc)
        return {}
    return {("pagefile" if i == 0 else f"pagefile {d}"): f"{d}\\" for i, d in enumerate(dict.fromkeys(drives))}


class Sensors:
    """Takes snapshots. Thread-safe; cheap enough to call on every sampler tick.

    ``disk_paths`` maps a role (``models``, ``output``, ``temp``, ``pagefile``) to a folder whose
    volume's free space is reported; the caller passes real paths, nothing is guessed.
    """

    DISK_REFRESH_S = 2.0
    OVERCOMMIT_REFRESH_S = 10.0
    RETRY_S = 60.0
    """A failed OS call (e.g. psutil's swap reading with performance counters disabled) is tried
    again after this long, not at every sample."""

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
        self._cgroup: CgroupReader | None = None
        self._cgroup_limit: int | None = None
        self._unreadable: dict[str, str] = {}
        self.disk_errors: dict[str, str] = {}
        """Role -> why the free space of its volume could not be read (latest reading)."""
        self._failed: dict[str, tuple[float, str]] = {}
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
                self._refresh_settings()
                if self._cgroup_limit is not None:  # only a limited cgroup bounds ComfyUI: sample its use then
                    _put(row, "cgroup_used_bytes", self._cgroup_reader().working_set())
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
        started. See :meth:`~memprobe.sensing.snapshot.Snapshot.peak_counters`."""
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

    @property
    def unreadable(self) -> dict[str, str]:
        """:class:`~memprobe.sensing.snapshot.SystemMemory` field -> why the latest reading could not give
        it (a failed call's error). Empty when every value this platform offers was read."""
        return dict(self._unreadable)

    def _system_fields(self) -> dict[str, int | None]:
        try:
            if self.platform.startswith("linux"):
                fields = self._linux_fields()
            elif self.platform == "win32":
                return self._windows_fields()
            else:
                fields = self._psutil_fields()
            self._unreadable = {}
            return fields
        except Exception as exc:  # a sensor never raises to its caller
            warn_once(f"system-{self.platform}", "Memory Probe: system memory readings failed (%s)", exc)
            self._unreadable = dict.fromkeys(_SYSTEM_FIELDS, _reason("system memory readings", exc))
            return {}

    def cgroup(self) -> CgroupMemory | None:
        """ComfyUI's own memory cgroup, read in full (limit, use, peak, OOM kills); ``None`` off
        Linux or without a memory cgroup."""
        if not self.platform.startswith("linux"):
            return None
        try:
            return self._cgroup_reader().read()
        except Exception as exc:  # a sensor never raises to its caller
            warn_once("cgroup-read", "Memory Probe: cannot read the memory cgroup (%s)", exc)
            return None

    def oom_kills(self) -> dict[str, int | str | None]:
        """The kernel's OOM-kill counters now: machine-wide since boot (``/proc/vmstat``) and in
        ComfyUI's cgroup, with the boot id that tells whether two readings can be compared."""
        if not self.platform.startswith("linux"):
            return {}
        out: dict[str, int | str | None] = {"boot_id": None, "system": None, "cgroup": None, "cgroup_path": None}
        try:
            out["boot_id"] = linux.read_text("/proc/sys/kernel/random/boot_id").strip() or None
            out["system"] = read_vmstat_oom_kills(linux.read_text("/proc/vmstat"))
        except OSError as exc:
            warn_once("proc-vmstat", "Memory Probe: cannot read the OOM-kill counter (%s)", exc)
        cgroup = self.cgroup()
        if cgroup is not None:
            out["cgroup"], out["cgroup_path"] = cgroup.oom_kills, cgroup.path
        return out

    def _cgroup_reader(self) -> CgroupReader:
        if self._cgroup is None:
            self._cgroup = CgroupReader()
        return self._cgroup

    def _call(self, name: str, fn: Callable[[], T]) -> tuple[T | None, str | None]:
        """``(fn(), None)``, or ``(None, reason)`` when it fails: logged once, tried again only
        after :attr:`RETRY_S`."""
        now = time.monotonic()
        failed = self._failed.get(name)
        if failed is not None and now - failed[0] < self.RETRY_S:
            return None, failed[1]
        try:
            result = fn()
        except Exception as exc:
            reason = _reason(name, exc)
            warn_once(f"call-{name}", "Memory Probe: %s; the values it gives are left out", reason)
            self._failed[name] = (now, reason)
            return None, reason
        self._failed.pop(name, None)
        return result, None

    def disks(self) -> tuple[DiskSpace, ...]:
        now = time.monotonic()
        with self._lock:
            if now - self._disks_read_at < self.DISK_REFRESH_S:
                return self._disks
            self._disks_read_at = now
            paths = dict(self._disk_paths)
        result = []
        errors = {}
        for role, path in paths.items():
            try:
                usage = shutil.disk_usage(path)
                result.append(DiskSpace(role, path, usage.free, usage.total))
            except OSError as exc:
                warn_once(f"disk-{role}", "Memory Probe: cannot read free space of %s (%s)", path, exc)
                result.append(DiskSpace(role, path))
                errors[role] = str(exc)
        self._disks = tuple(result)
        self.disk_errors = errors
        return self._disks

    # ------------------------------------------------------------------ platforms
    def _linux_fields(self) -> dict[str, int | None]:
        meminfo = self._meminfo.read()
        raw_status = self._status_bytes()
        status = raw_status.decode("ascii", "replace") if raw_status is not None else None
        self._refresh_settings()
        fields = linux.system_fields(meminfo, status, self._overcommit)
        if self._cgroup_limit is not None:  # only a limited cgroup bounds ComfyUI: sample its use then
            fields["cgroup_limit_bytes"] = self._cgroup_limit
            fields["cgroup_used_bytes"] = self._cgroup_reader().working_set()
        return fields

    def _refresh_settings(self) -> None:
        """Linux settings an administrator changes (overcommit mode, the cgroup's limit): re-read
        at most every :attr:`OVERCOMMIT_REFRESH_S`."""
        now = time.monotonic()
        if now - self._overcommit_read_at > self.OVERCOMMIT_REFRESH_S:
            self._overcommit = linux.read_overcommit_mode()
            self._overcommit_read_at = now
            cgroup = self.cgroup()
            self._cgroup_limit = cgroup.limit_bytes if cgroup is not None else None

    def _proc(self):
        if self._process is None:
            import psutil

            self._process = psutil.Process()
        return self._process

    def _windows_fields(self) -> dict[str, int | None]:
        """RAM and commit from ``GetPerformanceInfo`` (``GlobalMemoryStatusEx`` if that fails),
        pagefile use from psutil (a performance counter), this process from
        ``GetProcessMemoryInfo``: each call on its own."""
        unreadable: dict[str, str] = {}
        perf, perf_error = self._call("GetPerformanceInfo", windows.read_performance_information)
        status, status_error = None, None
        if perf is None:
            status, status_error = self._call("GlobalMemoryStatusEx", windows.read_memory_status)
        fields = windows.memory_fields(perf, status)
        for key, value in fields.items():
            if value is None:
                unreadable[key] = "; ".join(r for r in (perf_error, status_error) if r) or (
                    "GetPerformanceInfo gave CommitPeak = 0 (this system does not keep the peak)")
        swap, swap_error = self._call("psutil.swap_memory()", _psutil_swap)  # a PDH counter: Paging File % Usage
        if swap is None:
            unreadable["swap_used_bytes"] = swap_error or ""
        elif fields["swap_total_bytes"] is None:
            fields["swap_total_bytes"] = int(swap.total)
            unreadable.pop("swap_total_bytes", None)
        counters, process_error = self._call("GetProcessMemoryInfo", windows.read_process_memory)
        process = windows.process_fields(counters) if counters is not None else {}
        for key in ("process_rss_bytes", "process_private_bytes"):
            if process.get(key) is None:
                unreadable[key] = process_error or "GetProcessMemoryInfo gave no commit charge for this process"
        self._unreadable = unreadable
        return {
            **windows.system_fields(
                perf, status=status, swap_total_bytes=fields["swap_total_bytes"],
                swap_used_bytes=int(swap.used) if swap is not None else None,
                process_rss_bytes=process.get("process_rss_bytes"),
                process_private_bytes=process.get("process_private_bytes"),
            ),
            "process_peak_rss_bytes": process.get("process_peak_rss_bytes"),
            "process_peak_private_bytes": process.get("process_peak_private_bytes"),
        }

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


def _put(row: Metrics, key: str, value: int | None) -> None:
    if value is not None:
        row[key] = value


def _psutil_swap() -> Any:
    import psutil

    return psutil.swap_memory()


def _reason(call: str, exc: BaseException) -> str:
    """``[WinError 50] ...`` for an OS error (its text names the call), else ``call failed: text``."""
    if isinstance(exc, OSError):
        return str(exc)
    return f"{call} failed: {type(exc).__name__}: {exc}"
