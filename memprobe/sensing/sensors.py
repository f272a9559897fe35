"""One call, one :class:`~memprobe.sensing.snapshot.Snapshot` of every memory that matters.

>>> from memprobe.sensing.sensors import Sensors
>>> snap = Sensors().snapshot()
>>> snap.system.ram_total_bytes > 0
True

A sensor that fails yields ``None`` for its fields and logs one warning per cause; the caller
never sees an exception. On Windows each OS call is tried on its own, so one failing call costs
only the values it gives; :attr:`Sensors.unreadable` says which and why. The readers live in
:mod:`.system` (one per OS) and :mod:`.gpu` (torch's allocators and the drivers' views).
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any, TypeVar

from .._log import warn_once
from .gpu import gpu_sensor
from .snapshot import DiskSpace, GpuMemory, Metrics, Snapshot, SystemMemory, metrics_of
from .system import system_reader, windows
from .system.base import reason
from .system.cgroup import CgroupMemory

__all__ = ["Sensors", "pagefile_volumes"]

T = TypeVar("T")
_SYSTEM_FIELDS = tuple(f.name for f in dataclasses.fields(SystemMemory))


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
    volume's free space is reported; the caller passes real paths, nothing is guessed. The readers
    are chosen once: the GPU sensor's (:mod:`.gpu`) and this OS's system reader (:mod:`.system`).
    """

    DISK_REFRESH_S = 2.0

    def __init__(
        self,
        disk_paths: Mapping[str, str] | None = None,
        *,
        allow_cuda_init: bool = False,
        use_nvml: bool = True,
        platform: str = sys.platform,
    ) -> None:
        self.platform = platform
        self.gpu = gpu_sensor(allow_cuda_init=allow_cuda_init, use_nvml=use_nvml)
        self.reader = system_reader(platform)
        """This OS's system reader (RAM, commit, swap, this process, the cgroup)."""
        self._disk_paths: dict[str, str] = {**pagefile_volumes(platform), **(disk_paths or {})}
        self._disks: tuple[DiskSpace, ...] = ()
        self._disks_read_at = -1e9
        self._lock = threading.Lock()
        self._unreadable: dict[str, str] = {}
        self.disk_errors: dict[str, str] = {}
        """Role -> why the free space of its volume could not be read (latest reading)."""

    @property
    def rss_peak_reset(self) -> Any:
        """Linux: restarts ``VmHWM`` at each node start (see :meth:`reset_peaks`); ``None`` elsewhere."""
        return self.reader.rss_peak_reset

    # ------------------------------------------------------------------ public
    def snapshot(self, *, disks: bool = True, system_max_age_s: float = 0.0) -> Snapshot:
        """All readings now. ``disks=False`` skips the (slow-changing) disk volumes;
        ``system_max_age_s`` lets a system-wide reading that recent stand where the platform can
        split it from the process's own (Linux)."""
        gpus = self.gpus()
        system = self.system(system_max_age_s)
        return Snapshot(
            monotonic_s=time.monotonic(),
            wall_time_s=time.time(),
            gpus=gpus,
            system=system,
            disks=self.disks() if disks else (),
        )

    def sample(self) -> Metrics:
        """What the sampler records on each tick: the metrics that move, straight from the
        readers (no snapshot records, no disks, no totals)."""
        gpus = () if self.gpu.none_found else self.gpu.read()
        try:
            row = self.reader.sample()
        except Exception as exc:  # a sensor never raises to its caller
            warn_once("system-sample", "Memory Probe: system memory readings failed (%s)", exc)
            row = {}
        return {**metrics_of(gpus, totals=False), **row} if gpus else row

    def gpus(self) -> tuple[GpuMemory, ...]:
        return self.gpu.read()

    def heap_free_bytes(self) -> int | None:
        """What the C library's ``malloc`` holds free for reuse in this process (Linux, glibc: see
        :class:`~memprobe.sensing.system.linux.HeapFree`), or ``None``."""
        return self.reader.heap_free.read() if self.reader.heap_free is not None else None

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

    def system(self, max_age_s: float = 0.0) -> SystemMemory:
        return SystemMemory(**self._system_fields(max_age_s))

    @property
    def unreadable(self) -> dict[str, str]:
        """:class:`~memprobe.sensing.snapshot.SystemMemory` field -> why the latest reading could not give
        it (a failed call's error). Empty when every value this platform offers was read."""
        return dict(self._unreadable)

    def _system_fields(self, max_age_s: float = 0.0) -> dict[str, int | None]:
        try:
            fields = self.reader.fields(max_age_s)
            self._unreadable = dict(self.reader.unreadable)
            return fields
        except Exception as exc:  # a sensor never raises to its caller
            warn_once(f"system-{self.platform}", "Memory Probe: system memory readings failed (%s)", exc)
            self._unreadable = dict.fromkeys(_SYSTEM_FIELDS, reason("system memory readings", exc))
            return {}

    def cgroup(self) -> CgroupMemory | None:
        """ComfyUI's own memory cgroup, read in full (limit, use, peak, OOM kills); ``None`` off
        Linux or without a memory cgroup."""
        return self.reader.cgroup()  # type: ignore[no-any-return]

    def oom_kills(self) -> dict[str, int | str | None]:
        """The kernel's OOM-kill counters now: machine-wide since boot (``/proc/vmstat``) and in
        ComfyUI's cgroup, with the boot id that tells whether two readings can be compared."""
        return self.reader.oom_kills()

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
