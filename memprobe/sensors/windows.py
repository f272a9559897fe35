"""Windows readings: commit charge (``GetPerformanceInfo``), the pagefile set-up (registry),
drive kinds, and shared GPU memory (the "GPU Adapter Memory" performance counters).

Every OS call sits in a small ``read_*``/``query_*`` function that only runs on Windows; the
parsing and arithmetic around them are pure and tested with recorded values on any OS.
"""

from __future__ import annotations

import ctypes
import re
import sys
from dataclasses import dataclass

__all__ = [
    "PerformanceInformation",
    "ProcessMemoryCounters",
    "process_fields",
    "read_process_memory_counters",
    "PagefileSetting",
    "GpuAdapterMemory",
    "system_fields",
    "parse_paging_files",
    "parse_adapter_instance",
    "match_adapters",
    "read_performance_information",
    "read_paging_files",
    "drive_type",
    "incurs_seek_penalty",
    "query_gpu_adapter_memory",
]

IS_WINDOWS = sys.platform == "win32"
_MIB = 1024**2


class PerformanceInformation(ctypes.Structure):
    """``PERFORMANCE_INFORMATION`` (psapi.h). Counts are in pages of ``PageSize`` bytes."""

    _fields_ = [
        ("cb", ctypes.c_uint32),
        ("CommitTotal", ctypes.c_size_t),
        ("CommitLimit", ctypes.c_size_t),
        ("CommitPeak", ctypes.c_size_t),
        ("PhysicalTotal", ctypes.c_size_t),
        ("PhysicalAvailable", ctypes.c_size_t),
        ("SystemCache", ctypes.c_size_t),
        ("KernelTotal", ctypes.c_size_t),
        ("KernelPaged", ctypes.c_size_t),
        ("KernelNonpaged", ctypes.c_size_t),
        ("PageSize", ctypes.c_size_t),
        ("HandleCount", ctypes.c_uint32),
        ("ProcessCount", ctypes.c_uint32),
        ("ThreadCount", ctypes.c_uint32),
    ]


def system_fields(
    perf: PerformanceInformation,
    *,
    swap_total_bytes: int | None,
    swap_used_bytes: int | None,
    process_rss_bytes: int | None,
    process_private_bytes: int | None,
) -> dict[str, int | None]:
    """The :class:`~memprobe.snapshot.SystemMemory` fields from one ``GetPerformanceInfo`` call."""
    page = int(perf.PageSize)
    return {
        "ram_total_bytes": perf.PhysicalTotal * page,
        "ram_available_bytes": perf.PhysicalAvailable * page,
        "commit_bytes": perf.CommitTotal * page,
        "commit_limit_bytes": perf.CommitLimit * page,
        "commit_peak_bytes": perf.CommitPeak * page or None,  # 0: not kept (Wine)
        "overcommit_mode": None,
        "swap_total_bytes": swap_total_bytes,
        "swap_used_bytes": swap_used_bytes,
        "process_rss_bytes": process_rss_bytes,
        "process_private_bytes": process_private_bytes,
    }


def read_performance_information() -> PerformanceInformation:
    """Call ``K32GetPerformanceInfo`` (kernel32; Windows 7 and later)."""
    info = PerformanceInformation()
    info.cb = ctypes.sizeof(info)
    if not ctypes.windll.kernel32.K32GetPerformanceInfo(ctypes.byref(info), info.cb):  # type: ignore[attr-defined]
        raise ctypes.WinError()  # type: ignore[attr-defined]
    return info


# --------------------------------------------------------------------------- this process
class ProcessMemoryCounters(ctypes.Structure):
    """``PROCESS_MEMORY_COUNTERS_EX`` (psapi.h): this process's working set and commit, and
    their peaks since the process started (Windows keeps them; they cannot be reset)."""

    _fields_ = [
        ("cb", ctypes.c_uint32),
        ("PageFaultCount", ctypes.c_uint32),
        ("PeakWorkingSetSize", ctypes.c_size_t),
        ("WorkingSetSize", ctypes.c_size_t),
        ("QuotaPeakPagedPoolUsage", ctypes.c_size_t),
        ("QuotaPagedPoolUsage", ctypes.c_size_t),
        ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t),
        ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
        ("PagefileUsage", ctypes.c_size_t),
        ("PeakPagefileUsage", ctypes.c_size_t),
        ("PrivateUsage", ctypes.c_size_t),
    ]


def process_fields(counters: ProcessMemoryCounters) -> dict[str, int | None]:
    """The process's :class:`~memprobe.snapshot.SystemMemory` fields from one
    ``GetProcessMemoryInfo`` call. ``PagefileUsage`` is the process's private commit ("Private
    Bytes"), so ``PeakPagefileUsage`` is the peak of ``process_private_bytes``."""
    return {
        "process_rss_bytes": int(counters.WorkingSetSize),
        "process_private_bytes": int(counters.PrivateUsage or counters.PagefileUsage),
        "process_peak_rss_bytes": int(counters.PeakWorkingSetSize) or None,
        "process_peak_private_bytes": int(counters.PeakPagefileUsage) or None,
    }


_get_process_memory_info = None


def read_process_memory_counters() -> ProcessMemoryCounters:
    """Call ``K32GetProcessMemoryInfo`` (kernel32; Windows 7 and later) for this process."""
    global _get_process_memory_info
    if _get_process_memory_info is None:
        function = ctypes.WinDLL("kernel32", use_last_error=True).K32GetProcessMemoryInfo  # type: ignore[attr-defined]
        function.argtypes = [ctypes.c_void_p, ctypes.POINTER(ProcessMemoryCounters), ctypes.c_uint32]
        function.restype = ctypes.c_int
        _get_process_memory_info = function
    counters = ProcessMemoryCounters()
    counters.cb = ctypes.sizeof(counters)
    current_process = ctypes.c_void_p(-1)  # GetCurrentProcess()'s pseudo-handle
    if not _get_process_memory_info(current_process, ctypes.byref(counters), counters.cb):
        raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]
    return counters


# --------------------------------------------------------------------------- pagefile set-up
@dataclass(frozen=True, slots=True)
class PagefileSetting:
    """One entry of the registry value ``PagingFiles``."""

    path: str
    """``C:\\pagefile.sys``; ``?:\\pagefile.sys`` when Windows manages every drive."""
    initial_mb: int | None
    maximum_mb: int | None
    system_managed: bool
    all_drives: bool = False

    @property
    def drive(self) -> str | None:
        """``C:`` (``None`` for the all-drives entry)."""
        if self.all_drives or len(self.path) < 2 or self.path[1] != ":":
            return None
        return self.path[:2].upper()

    @property
    def fixed_size(self) -> bool:
        return not self.system_managed and self.initial_mb is not None and self.initial_mb == self.maximum_mb


_PAGING_ENTRY = re.compile(r"^\s*(?P<path>.+?\.sys)(?:\s+(?P<initial>\d+)\s+(?P<maximum>\d+))?\s*$", re.IGNORECASE)


def parse_paging_files(entries: list[str]) -> list[PagefileSetting]:
    """Parse ``HKLM\\...\\Memory Management\\PagingFiles`` (REG_MULTI_SZ).

    ``C:\\pagefile.sys 16384 16384`` is a custom size in MB; ``C:\\pagefile.sys 0 0`` or a bare
    path is "system managed size"; ``?:\\pagefile.sys`` is "automatically manage paging file size
    for all drives". An empty list means no pagefile at all.
    """
    settings: list[PagefileSetting] = []
    for entry in entries:
        match = _PAGING_ENTRY.match(entry)
        if not match:
            continue
        path = match["path"]
        all_drives = path.startswith("?:")
        initial = int(match["initial"]) if match["initial"] is not None else None
        maximum = int(match["maximum"]) if match["maximum"] is not None else None
        system_managed = all_drives or initial is None or (initial == 0 and maximum == 0)
        settings.append(
            PagefileSetting(
                path=path,
                initial_mb=None if system_managed else initial,
                maximum_mb=None if system_managed else maximum,
                system_managed=system_managed,
                all_drives=all_drives,
            )
        )
    return settings


def read_paging_files() -> list[str]:
    """The raw ``PagingFiles`` strings from the registry."""
    import winreg  # Windows only

    key_path = r"SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management"
    with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, key_path) as key:  # type: ignore[attr-defined]
        value, _ = winreg.QueryValueEx(key, "PagingFiles")  # type: ignore[attr-defined]
    if isinstance(value, str):
        return [value] if value else []
    return [v for v in value if v]


DRIVE_TYPES = {0: "unknown", 1: "no-root", 2: "removable", 3: "fixed", 4: "network", 5: "cdrom", 6: "ramdisk"}


def drive_type(drive: str) -> str:
    """``fixed``, ``removable``, ``network`` ... for ``C:``."""
    code = ctypes.windll.kernel32.GetDriveTypeW(f"{drive[:2]}\\")  # type: ignore[attr-defined]
    return DRIVE_TYPES.get(int(code), "unknown")


class _StoragePropertyQuery(ctypes.Structure):
    _fields_ = [("PropertyId", ctypes.c_int), ("QueryType", ctypes.c_int), ("AdditionalParameters", ctypes.c_byte * 1)]


class _SeekPenaltyDescriptor(ctypes.Structure):
    _fields_ = [("Version", ctypes.c_uint32), ("Size", ctypes.c_uint32), ("IncursSeekPenalty", ctypes.c_ubyte)]


def incurs_seek_penalty(drive: str) -> bool | None:
    """``True`` for a spinning disk, ``False`` for an SSD, ``None`` when Windows does not say."""
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    kernel32.CreateFileW.restype = ctypes.c_void_p
    handle = kernel32.CreateFileW(f"\\\\.\\{drive[:2]}", 0, 3, None, 3, 0, None)  # no access rights needed
    if handle in (None, ctypes.c_void_p(-1).value):
        return None
    try:
        query = _StoragePropertyQuery(7, 0)  # StorageDeviceSeekPenaltyProperty, PropertyStandardQuery
        out = _SeekPenaltyDescriptor()
        returned = ctypes.c_uint32()
        ok = kernel32.DeviceIoControl(
            ctypes.c_void_p(handle), 0x2D1400, ctypes.byref(query), ctypes.sizeof(query),
            ctypes.byref(out), ctypes.sizeof(out), ctypes.byref(returned), None,
        )  # IOCTL_STORAGE_QUERY_PROPERTY
        return bool(out.IncursSeekPenalty) if ok else None
    finally:
        kernel32.CloseHandle(ctypes.c_void_p(handle))


# --------------------------------------------------------------------------- shared GPU memory
@dataclass(frozen=True, slots=True)
class GpuAdapterMemory:
    """One adapter of the "GPU Adapter Memory" counter set."""

    luid: str
    dedicated_bytes: int
    shared_bytes: int


_ADAPTER_INSTANCE = re.compile(r"luid_(0x[0-9a-f]+)_(0x[0-9a-f]+)_phys_(\d+)", re.IGNORECASE)


def parse_adapter_instance(name: str) -> str | None:
    """``luid_0x00000000_0x0000D1F5_phys_0`` -> ``0x00000000_0x0000d1f5`` (the adapter's LUID)."""
    match = _ADAPTER_INSTANCE.search(name)
    return f"{match[1]}_{match[2]}".lower() if match else None


def adapters_from_counters(dedicated: dict[str, int], shared: dict[str, int]) -> list[GpuAdapterMemory]:
    """Merge the per-instance "Dedicated Usage" and "Shared Usage" values into adapters."""
    merged: dict[str, list[int]] = {}
    for source, slot in ((dedicated, 0), (shared, 1)):
        for instance, value in source.items():
            luid = parse_adapter_instance(instance)
            if luid is not None:
                merged.setdefault(luid, [0, 0])[slot] += int(value)
    return [GpuAdapterMemory(luid, d, s) for luid, (d, s) in sorted(merged.items())]


def match_adapters(device_used: dict[int, int], adapters: list[GpuAdapterMemory]) -> dict[int, GpuAdapterMemory]:
    """Pair each GPU (torch index -> NVML "used" bytes) with the counter adapter that is most
    likely the same card: the one whose dedicated usage is closest to what NVML reports.

    Neither NVML nor torch gives the adapter's LUID, so this is a match by evidence; with one
    discrete card beside an integrated GPU (the usual case) the gap is gigabytes. Each adapter
    is used at most once.
    """
    result: dict[int, GpuAdapterMemory] = {}
    free = list(adapters)
    for index, used in sorted(device_used.items(), key=lambda item: -item[1]):
        if not free:
            break
        best = min(free, key=lambda a: abs(a.dedicated_bytes - used))
        result[index] = best
        free.remove(best)
    return result


class _PdhFmtCounterValueItem(ctypes.Structure):
    class _Value(ctypes.Structure):
        _fields_ = [("CStatus", ctypes.c_uint32), ("largeValue", ctypes.c_longlong)]

    _fields_ = [("szName", ctypes.c_wchar_p), ("FmtValue", _Value)]


class _PdhQuery:
    """A PDH query for the two "GPU Adapter Memory" counters, opened once and reused."""

    PDH_FMT_LARGE = 0x400
    PDH_MORE_DATA = 0x800007D2

    def __init__(self) -> None:
        self.pdh = ctypes.windll.pdh  # type: ignore[attr-defined]
        self.query = ctypes.c_void_p()
        if self.pdh.PdhOpenQueryW(None, None, ctypes.byref(self.query)) != 0:
            raise OSError("PdhOpenQueryW failed")
        self.counters = {}
        for name in ("Dedicated Usage", "Shared Usage"):
            handle = ctypes.c_void_p()
            path = f"\\GPU Adapter Memory(*)\\{name}"
            if self.pdh.PdhAddEnglishCounterW(self.query, path, None, ctypes.byref(handle)) != 0:
                raise OSError(f"the counter {path} is not available")
            self.counters[name] = handle

    def read(self) -> list[GpuAdapterMemory]:
        if self.pdh.PdhCollectQueryData(self.query) != 0:
            raise OSError("PdhCollectQueryData failed")
        values = {name: self._array(handle) for name, handle in self.counters.items()}
        return adapters_from_counters(values["Dedicated Usage"], values["Shared Usage"])

    def _array(self, handle: ctypes.c_void_p) -> dict[str, int]:
        size, count = ctypes.c_uint32(0), ctypes.c_uint32(0)
        status = self.pdh.PdhGetFormattedCounterArrayW(handle, self.PDH_FMT_LARGE, ctypes.byref(size), ctypes.byref(count), None)
        if status & 0xFFFFFFFF != self.PDH_MORE_DATA:
            return {}
        buffer = (ctypes.c_byte * size.value)()
        status = self.pdh.PdhGetFormattedCounterArrayW(handle, self.PDH_FMT_LARGE, ctypes.byref(size), ctypes.byref(count), buffer)
        if status != 0:
            return {}
        items = ctypes.cast(buffer, ctypes.POINTER(_PdhFmtCounterValueItem))
        return {items[i].szName: int(items[i].FmtValue.largeValue) for i in range(count.value)}


_pdh_query: _PdhQuery | None = None


def query_gpu_adapter_memory() -> list[GpuAdapterMemory]:
    """Dedicated and shared usage of every GPU adapter, from the Windows performance counters."""
    global _pdh_query
    if _pdh_query is None:
        _pdh_query = _PdhQuery()
    return _pdh_query.read()
