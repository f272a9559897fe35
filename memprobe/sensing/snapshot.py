"""The immutable memory snapshot: every reading in bytes, ``None`` where this machine cannot tell.

A snapshot also flattens into *metrics*, a flat ``{name: bytes}`` mapping that the sampler, the
tracker and the ledger carry around. Metric names say what they measure and end in ``_bytes``:

================================  ===========================================================
``gpu{i}_used_bytes``             device memory in use on GPU *i* (NVML/driver: every process)
``gpu{i}_total_bytes``            device memory of GPU *i*
``gpu{i}_reserved_bytes``         memory torch's caching allocator holds on GPU *i*
``gpu{i}_allocated_bytes``        memory in live torch tensors on GPU *i*
``gpu{i}_shared_bytes``           shared GPU memory (system RAM lent to the card; Windows)
``ram_used_bytes``                RAM in use by the whole machine (total - available)
``commit_bytes``                  system commit charge (Windows) / ``Committed_AS`` (Linux)
``commit_limit_bytes``            RAM + pagefile (Windows) / ``CommitLimit`` (Linux)
``swap_used_bytes``               pagefile / swap in use
``cgroup_used_bytes``             memory charged to ComfyUI's cgroup, without reclaimable file
                                  cache (Linux in a container; see :mod:`.sensors.cgroup`)
``cgroup_limit_bytes``            that cgroup's memory limit (only when one is set)
``process_rss_bytes``             this process's resident memory
``process_private_bytes``         this process's private memory (see ``SystemMemory``)
================================  ===========================================================

Some of these have a *peak counter* kept by the operating system or torch, which a node's peak
is read from instead of the sampler (see :meth:`Snapshot.peak_counters`): torch's allocated and
reserved peaks per device; Linux's ``VmHWM`` for ``process_rss_bytes``; Windows' peak working
set, peak private bytes and system commit peak. NVML keeps no peak of device memory in use, and
Linux none of machine RAM, commit or swap: those peaks are the sampler's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "GpuMemory",
    "SystemMemory",
    "DiskSpace",
    "Snapshot",
    "Metrics",
    "metrics_of",
    "snapshot_from_dict",
    "PEAK_COUNTERS",
    "HEAP_FREE_METRIC",
]

Metrics = dict[str, int]


@dataclass(frozen=True, slots=True)
class GpuMemory:
    """One accelerator that torch (and so ComfyUI) can use."""

    index: int
    """torch device index (``cuda:0`` is 0); the NVML index when torch is not loaded."""
    backend: str
    """``cuda``, ``rocm``, ``mps`` or ``xpu``."""
    name: str | None = None
    torch_allocated_bytes: int | None = None
    torch_reserved_bytes: int | None = None
    torch_peak_allocated_bytes: int | None = None
    """torch's peak of allocated memory since its peak counters were last reset."""
    torch_peak_reserved_bytes: int | None = None
    device_used_bytes: int | None = None
    device_total_bytes: int | None = None
    shared_used_bytes: int | None = None
    driver_version: str | None = None
    pci_bus_id: str | None = None


@dataclass(frozen=True, slots=True)
class SystemMemory:
    """RAM, commit and swap of the machine, and this process's share.

    ``process_private_bytes`` is the process's commit ("Private Bytes") on Windows and macOS;
    on Linux, which has no per-process commit, it is anonymous resident + swapped-out memory
    (``RssAnon + VmSwap``): the memory that belongs to this process alone.
    """

    ram_total_bytes: int | None = None
    ram_available_bytes: int | None = None
    commit_bytes: int | None = None
    commit_limit_bytes: int | None = None
    commit_peak_bytes: int | None = None
    overcommit_mode: int | None = None
    """Linux ``vm.overcommit_memory``: 0 heuristic, 1 always, 2 strict (only 2 enforces the limit)."""
    swap_total_bytes: int | None = None
    swap_used_bytes: int | None = None
    process_rss_bytes: int | None = None
    process_private_bytes: int | None = None
    process_peak_rss_bytes: int | None = None
    """The OS's own peak of ``process_rss_bytes``: Linux ``VmHWM`` (since the last reset, see
    :class:`~memprobe.sensing.system.linux.RssPeakReset`), Windows ``PeakWorkingSetSize`` (since the
    process started)."""
    process_peak_private_bytes: int | None = None
    """Windows ``PeakPagefileUsage``: the peak of the process's private commit since it started."""
    cgroup_limit_bytes: int | None = None
    """The memory limit of ComfyUI's Linux cgroup (a container's limit); ``None`` when none is set."""
    cgroup_used_bytes: int | None = None
    """Memory charged to that cgroup, without the file cache the kernel drops before killing."""

    @property
    def ram_used_bytes(self) -> int | None:
        if self.ram_total_bytes is None or self.ram_available_bytes is None:
            return None
        return self.ram_total_bytes - self.ram_available_bytes


@dataclass(frozen=True, slots=True)
class DiskSpace:
    """Free space of the volume that holds ``path``; ``role`` says why it matters."""

    role: str
    """``models``, ``output``, ``temp``, ``pagefile`` ..."""
    path: str
    free_bytes: int | None = None
    total_bytes: int | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    monotonic_s: float
    """``time.monotonic()`` when the readings were taken."""
    wall_time_s: float
    """``time.time()`` at the same moment."""
    gpus: tuple[GpuMemory, ...] = ()
    system: SystemMemory = field(default_factory=SystemMemory)
    disks: tuple[DiskSpace, ...] = ()

    def metrics(self, *, totals: bool = True) -> Metrics:
        """The flat metric mapping (see the module docstring); missing readings are left out.
        ``totals=False`` leaves out the sizes that do not change (RAM and VRAM totals), as the
        sampler's rows do; the commit limit stays, since a growing pagefile moves it. A cgroup's
        limit is a total: it changes only when an administrator changes it."""
        s = self.system
        return metrics_of(
            self.gpus,
            ram_total_bytes=s.ram_total_bytes,
            ram_available_bytes=s.ram_available_bytes,
            commit_bytes=s.commit_bytes,
            commit_limit_bytes=s.commit_limit_bytes,
            swap_used_bytes=s.swap_used_bytes,
            process_rss_bytes=s.process_rss_bytes,
            process_private_bytes=s.process_private_bytes,
            cgroup_used_bytes=s.cgroup_used_bytes,
            cgroup_limit_bytes=s.cgroup_limit_bytes,
            totals=totals,
        )

    def peak_counters(self) -> Metrics:
        """The peak counters this snapshot carries, keyed by the metric each is the peak of
        (``{"process_rss_bytes": VmHWM, "gpu0_allocated_bytes": torch's peak, ...}``)."""
        out: Metrics = {}
        for field_name, metric in PEAK_COUNTERS.items():
            _put(out, metric, getattr(self.system, field_name))
        for gpu in self.gpus:
            _put(out, f"gpu{gpu.index}_allocated_bytes", gpu.torch_peak_allocated_bytes)
            _put(out, f"gpu{gpu.index}_reserved_bytes", gpu.torch_peak_reserved_bytes)
        return out

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


PEAK_COUNTERS = {
    "process_peak_rss_bytes": "process_rss_bytes",
    "process_peak_private_bytes": "process_private_bytes",
    "commit_peak_bytes": "commit_bytes",
}
""":class:`SystemMemory` peak fields -> the metric each is the peak of."""

HEAP_FREE_METRIC = "process_heap_free_bytes"
"""What the C library's ``malloc`` held free in ComfyUI's process (Linux, glibc; ``Sensors.heap_free_bytes``):
not a metric the snapshots carry, but a reading added where a forecast starts from (a run's start readings,
the live readings of a forecast)."""


def metrics_of(gpus: tuple[GpuMemory, ...], *, totals: bool = True, **system: Any) -> Metrics:
    """The metric mapping from GPU readings and :class:`SystemMemory` field values; the sampler
    calls it straight from the sensors' fields, without building a snapshot."""
    out: Metrics = {}
    for gpu in gpus:
        i = gpu.index
        _put(out, f"gpu{i}_used_bytes", gpu.device_used_bytes)
        if totals:
            _put(out, f"gpu{i}_total_bytes", gpu.device_total_bytes)
        _put(out, f"gpu{i}_reserved_bytes", gpu.torch_reserved_bytes)
        _put(out, f"gpu{i}_allocated_bytes", gpu.torch_allocated_bytes)
        _put(out, f"gpu{i}_shared_bytes", gpu.shared_used_bytes)
    total, available = system.get("ram_total_bytes"), system.get("ram_available_bytes")
    _put(out, "ram_used_bytes", total - available if total is not None and available is not None else None)
    if totals:
        _put(out, "ram_total_bytes", total)
        _put(out, "cgroup_limit_bytes", system.get("cgroup_limit_bytes"))
    for key in (
        "commit_bytes",
        "commit_limit_bytes",
        "swap_used_bytes",
        "process_rss_bytes",
        "process_private_bytes",
        "cgroup_used_bytes",
    ):
        _put(out, key, system.get(key))
    return out


def _put(out: Metrics, key: str, value: int | None) -> None:
    if value is not None:
        out[key] = value


def snapshot_from_dict(data: dict[str, Any]) -> Snapshot:
    """Inverse of :meth:`Snapshot.to_dict` (for stored and exported runs)."""
    return Snapshot(
        monotonic_s=float(data.get("monotonic_s", 0.0)),
        wall_time_s=float(data.get("wall_time_s", 0.0)),
        gpus=tuple(GpuMemory(**g) for g in data.get("gpus", ())),
        system=SystemMemory(**data.get("system", {})),
        disks=tuple(DiskSpace(**d) for d in data.get("disks", ())),
    )
