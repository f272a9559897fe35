"""Windows readings: commit charge and RAM (``GetPerformanceInfo``, ``GlobalMemoryStatusEx``),
this process's memory (``GetProcessMemoryInfo``), the pagefile set-up (registry), drive kinds, and
shared GPU memory (the "GPU Adapter Memory" performance counters).

Every OS call sits in a small ``read_*``/``query_*`` function that only runs on Windows and raises
``OSError`` (with the Windows error) when the call fails; the parsing and arithmetic around them
are pure and tested with recorded values on any OS. The calls go through private ``WinDLL``
instances with declared argument and result types, so nothing here changes ``ctypes.windll``
for other code in the process. Structure layouts follow the Microsoft documentation cited at
each class; the test tier ``tests/windows`` checks them under a real Windows CPython.
"""

from __future__ import annotations

import ctypes
import functools
import re
import sys
from dataclasses import dataclass
from typing import Any

__all__ = [
    "PerformanceInformation",
    "MemoryStatusEx",
    "ProcessMemoryCountersEx",
    "PagefileSetting",
    "GpuAdapterMemory",
    "PdhError",
    "memory_fields",
    "system_fields",
    "parse_paging_files",
    "parse_adapter_instance",
    "match_adapters",
    "read_performance_information",
    "read_memory_status",
    "read_process_memory",
    "process_fields",
    "read_paging_files",
    "drive_type",
    "incurs_seek_penalty",
    "query_gpu_adapter_memory",
]

IS_WINDOWS = sys.platform == "win32"
_MIB = 1024**2

_BOOL = ctypes.c_int
_DWORD = ctypes.c_uint32
_HANDLE = ctypes.c_void_p
_INVALID_HANDLE = ctypes.c_void_p(-1).value


class PerformanceInformation(ctypes.Structure):
    """``PERFORMANCE_INFORMATION`` (psapi.h). Counts are in pages of ``PageSize`` bytes.
    https://learn.microsoft.com/windows/win32/api/psapi/ns-psapi-performance_information"""

    _fields_ = [
        ("cb", _DWORD),
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
        ("HandleCount", _DWORD),
        ("ProcessCount", _DWORD),
        ("ThreadCount", _DWORD),
    ]


class MemoryStatusEx(ctypes.Structure):
    """``MEMORYSTATUSEX`` (sysinfoapi.h), in bytes. ``ullTotalPageFile`` is the commit limit and
    ``ullAvailPageFile`` what is left of it (not the pagefile alone, despite the names).
    https://learn.microsoft.com/windows/win32/api/sysinfoapi/ns-sysinfoapi-memorystatusex"""

    _fields_ = [
        ("dwLength", _DWORD),
        ("dwMemoryLoad", _DWORD),
        ("ullTotalPhys", ctypes.c_uint64),
        ("ullAvailPhys", ctypes.c_uint64),
        ("ullTotalPageFile", ctypes.c_uint64),
        ("ullAvailPageFile", ctypes.c_uint64),
        ("ullTotalVirtual", ctypes.c_uint64),
        ("ullAvailVirtual", ctypes.c_uint64),
        ("ullAvailExtendedVirtual", ctypes.c_uint64),
    ]


class ProcessMemoryCountersEx(ctypes.Structure):
    """``PROCESS_MEMORY_COUNTERS_EX`` (psapi.h), in bytes. ``WorkingSetSize`` is the resident set,
    ``PrivateUsage`` the process's commit charge ("Private Bytes").
    https://learn.microsoft.com/windows/win32/api/psapi/ns-psapi-process_memory_counters_ex"""

    _fields_ = [
        ("cb", _DWORD),
        ("PageFaultCount", _DWORD),
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


def memory_fields(perf: PerformanceInformation | None, status: MemoryStatusEx | None = None) -> dict[str, int | None]:
    """RAM, commit and pagefile size (bytes) from ``GetPerformanceInfo``, or from
    ``GlobalMemoryStatusEx`` where that call failed (``perf`` is ``None``); ``None`` for what
    neither gives. A commit peak of 0 (a system that does not keep it) is ``None``.

    The pagefile size is the commit limit minus RAM, as psutil's ``swap_memory().total``.
    """
    out: dict[str, int | None] = dict.fromkeys(
        (
            "ram_total_bytes",
            "ram_available_bytes",
            "commit_bytes",
            "commit_limit_bytes",
            "commit_peak_bytes",
            "swap_total_bytes",
        )
    )
    if perf is not None:
        page = int(perf.PageSize)
        out.update(
            ram_total_bytes=perf.PhysicalTotal * page,
            ram_available_bytes=perf.PhysicalAvailable * page,
            commit_bytes=perf.CommitTotal * page,
            commit_limit_bytes=perf.CommitLimit * page,
            commit_peak_bytes=perf.CommitPeak * page or None,
        )
    elif status is not None:
        out.update(
            ram_total_bytes=int(status.ullTotalPhys),
            ram_available_bytes=int(status.ullAvailPhys),
            commit_bytes=int(status.ullTotalPageFile - status.ullAvailPageFile),
            commit_limit_bytes=int(status.ullTotalPageFile),
        )
    if out["ram_total_bytes"] is not None and out["commit_limit_bytes"] is not None:
        out["swap_total_bytes"] = max(0, out["commit_limit_bytes"] - out["ram_total_bytes"])
    return out


def system_fields(
    perf: PerformanceInformation | None,
    *,
    status: MemoryStatusEx | None = None,
    swap_total_bytes: int | None = None,
    swap_used_bytes: int | None = None,
    process_rss_bytes: int | None = None,
    process_private_bytes: int | None = None,
) -> dict[str, int | None]:
    """The :class:`~memprobe.sensing.snapshot.SystemMemory` fields from one ``GetPerformanceInfo`` call
    (or ``GlobalMemoryStatusEx``, see :func:`memory_fields`) and the other readings."""
    fields = memory_fields(perf, status)
    return {
        **fields,
        "overcommit_mode": None,
        "swap_total_bytes": swap_total_bytes if swap_total_bytes is not None else fields["swap_total_bytes"],
        "swap_used_bytes": swap_used_bytes,
        "process_rss_bytes": process_rss_bytes,
        "process_private_bytes": process_private_bytes,
    }


def process_fields(counters: ProcessMemoryCountersEx) -> dict[str, int | None]:
    """``process_rss_bytes`` (the working set) and ``process_private_bytes`` (the commit charge)
    from one ``GetProcessMemoryInfo`` call. ``PrivateUsage`` and ``PagefileUsage`` are the same
    value on Windows 8 and later; Windows 7 leaves ``PagefileUsage`` at 0, and a system that fills
    only the basic ``PROCESS_MEMORY_COUNTERS`` (Wine sets ``cb`` to 72) leaves ``PrivateUsage`` at 0.

    And their peaks since the process started, which Windows keeps and nothing can restart:
    ``PeakWorkingSetSize`` (``process_peak_rss_bytes``) and ``PeakPagefileUsage``, the peak of the
    commit charge (``process_peak_private_bytes``)."""
    return {
        "process_rss_bytes": int(counters.WorkingSetSize),
        "process_private_bytes": int(counters.PrivateUsage or counters.PagefileUsage) or None,
        "process_peak_rss_bytes": int(counters.PeakWorkingSetSize) or None,
        "process_peak_private_bytes": int(counters.PeakPagefileUsage) or None,
    }


@functools.cache
def _kernel32() -> Any:
    """kernel32 with the prototypes used here (a private instance: ``ctypes.windll`` is shared)."""
    k = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    protos: dict[str, tuple[Any, list[Any]]] = {
        "K32GetPerformanceInfo": (_BOOL, [ctypes.POINTER(PerformanceInformation), _DWORD]),
        "GlobalMemoryStatusEx": (_BOOL, [ctypes.POINTER(MemoryStatusEx)]),
        "K32GetProcessMemoryInfo": (_BOOL, [_HANDLE, ctypes.POINTER(ProcessMemoryCountersEx), _DWORD]),
        "GetCurrentProcess": (_HANDLE, []),
        "GetDriveTypeW": (ctypes.c_uint, [ctypes.c_wchar_p]),
        "CreateFileW": (_HANDLE, [ctypes.c_wchar_p, _DWORD, _DWORD, ctypes.c_void_p, _DWORD, _DWORD, _HANDLE]),
        "DeviceIoControl": (
            _BOOL,
            [
                _HANDLE,
                _DWORD,
                ctypes.c_void_p,
                _DWORD,
                ctypes.c_void_p,
                _DWORD,
                ctypes.POINTER(_DWORD),
                ctypes.c_void_p,
            ],
        ),
        "CloseHandle": (_BOOL, [_HANDLE]),
    }
    for name, (restype, argtypes) in protos.items():
        fn = getattr(k, name)
        fn.restype, fn.argtypes = restype, argtypes
    return k


def _last_error(call: str) -> OSError:
    error: OSError = ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]
    error.strerror = f"{call}: {error.strerror}"
    return error


def read_performance_information() -> PerformanceInformation:
    """Call ``K32GetPerformanceInfo`` (kernel32; Windows 7 and later)."""
    info = PerformanceInformation()
    info.cb = ctypes.sizeof(info)
    if not _kernel32().K32GetPerformanceInfo(ctypes.byref(info), info.cb):
        raise _last_error("GetPerformanceInfo")
    return info


def read_memory_status() -> MemoryStatusEx:
    """Call ``GlobalMemoryStatusEx`` (kernel32)."""
    status = MemoryStatusEx()
    status.dwLength = ctypes.sizeof(status)
    if not _kernel32().GlobalMemoryStatusEx(ctypes.byref(status)):
        raise _last_error("GlobalMemoryStatusEx")
    return status


def read_process_memory(process: int | None = None) -> ProcessMemoryCountersEx:
    """Call ``K32GetProcessMemoryInfo`` for ``process`` (a handle; this process by default)."""
    k = _kernel32()
    counters = ProcessMemoryCountersEx()
    counters.cb = ctypes.sizeof(counters)
    handle = process if process is not None else k.GetCurrentProcess()
    if not k.K32GetProcessMemoryInfo(handle, ctypes.byref(counters), counters.cb):
        raise _last_error("GetProcessMemoryInfo")
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
"""``GetDriveTypeW`` results (https://learn.microsoft.com/windows/win32/api/fileapi/nf-fileapi-getdrivetypew)."""


def drive_type(drive: str) -> str:
    """``fixed``, ``removable``, ``network`` ... for ``C:`` (``unknown`` when Windows cannot tell)."""
    return DRIVE_TYPES.get(int(_kernel32().GetDriveTypeW(f"{drive[:2]}\\")), "unknown")


class StoragePropertyQuery(ctypes.Structure):
    """``STORAGE_PROPERTY_QUERY`` (winioctl.h).
    https://learn.microsoft.com/windows/win32/api/winioctl/ns-winioctl-storage_property_query"""

    _fields_ = [("PropertyId", ctypes.c_int), ("QueryType", ctypes.c_int), ("AdditionalParameters", ctypes.c_byte * 1)]


class SeekPenaltyDescriptor(ctypes.Structure):
    """``DEVICE_SEEK_PENALTY_DESCRIPTOR`` (winioctl.h): ``IncursSeekPenalty`` is a BOOLEAN.
    https://learn.microsoft.com/windows/win32/api/winioctl/ns-winioctl-device_seek_penalty_descriptor"""

    _fields_ = [("Version", _DWORD), ("Size", _DWORD), ("IncursSeekPenalty", ctypes.c_ubyte)]


_IOCTL_STORAGE_QUERY_PROPERTY = 0x2D1400
_STORAGE_DEVICE_SEEK_PENALTY_PROPERTY = 7
_PROPERTY_STANDARD_QUERY = 0


def incurs_seek_penalty(drive: str) -> bool:
    """``True`` for a spinning disk, ``False`` for an SSD. Raises ``OSError`` when the drive does
    not answer (a virtual or network drive, an old driver, Wine: ``[WinError 50]``)."""
    k = _kernel32()
    # no access rights are needed for IOCTL_STORAGE_QUERY_PROPERTY; FILE_SHARE_READ | WRITE, OPEN_EXISTING
    handle = k.CreateFileW(f"\\\\.\\{drive[:2]}", 0, 3, None, 3, 0, None)
    if handle in (None, _INVALID_HANDLE):
        raise _last_error(f"CreateFileW(\\\\.\\{drive[:2]})")
    try:
        query = StoragePropertyQuery(_STORAGE_DEVICE_SEEK_PENALTY_PROPERTY, _PROPERTY_STANDARD_QUERY)
        out = SeekPenaltyDescriptor()
        returned = _DWORD()
        ok = k.DeviceIoControl(
            handle,
            _IOCTL_STORAGE_QUERY_PROPERTY,
            ctypes.byref(query),
            ctypes.sizeof(query),
            ctypes.byref(out),
            ctypes.sizeof(out),
            ctypes.byref(returned),
            None,
        )
        if not ok:
            raise _last_error("the seek-penalty query (DeviceIoControl)")
        return seek_penalty(out, returned.value)
    finally:
        k.CloseHandle(handle)


def seek_penalty(descriptor: SeekPenaltyDescriptor, returned: int) -> bool:
    """``IncursSeekPenalty`` of an answer of ``returned`` bytes; ``OSError`` when it is too short
    to hold it."""
    if returned < SeekPenaltyDescriptor.IncursSeekPenalty.offset + 1:
        raise OSError(f"the seek-penalty query answered {returned} bytes, too few")
    return bool(descriptor.IncursSeekPenalty)


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


class PdhFmtCounterValueItem(ctypes.Structure):
    """``PDH_FMT_COUNTERVALUE_ITEM_W`` (pdh.h) with the ``largeValue`` member of its union.
    https://learn.microsoft.com/windows/win32/api/pdh/ns-pdh-pdh_fmt_countervalue_item_w"""

    class _Value(ctypes.Structure):
        _fields_ = [("CStatus", _DWORD), ("largeValue", ctypes.c_longlong)]

    _fields_ = [("szName", ctypes.c_wchar_p), ("FmtValue", _Value)]


_PDH_STATUS_NAMES = {  # pdhmsg.h; https://learn.microsoft.com/windows/win32/perfctrs/pdh-error-codes
    0x800007D0: "PDH_CSTATUS_NO_MACHINE",
    0x800007D1: "PDH_CSTATUS_NO_INSTANCE",
    0x800007D5: "PDH_NO_DATA",
    0xC0000BB8: "PDH_CSTATUS_NO_OBJECT",
    0xC0000BB9: "PDH_CSTATUS_NO_COUNTER",
    0xC0000BBC: "PDH_INVALID_HANDLE",
    0xC0000BBD: "PDH_INVALID_ARGUMENT",
}


_PDH_CSTATUS_VALID_DATA, _PDH_CSTATUS_NEW_DATA = 0, 1


class PdhError(OSError):
    """A PDH call returned an error status (``status`` as the unsigned ``PDH_STATUS``)."""

    def __init__(self, call: str, status: int) -> None:
        self.status = status & 0xFFFFFFFF
        name = _PDH_STATUS_NAMES.get(self.status, "")
        super().__init__(f"{call} failed with 0x{self.status:08X}{f' ({name})' if name else ''}")


@functools.cache
def _pdh() -> Any:
    pdh = ctypes.WinDLL("pdh")  # type: ignore[attr-defined]
    status = ctypes.c_uint32  # PDH_STATUS is a LONG; read unsigned to compare with pdhmsg.h
    pdh.PdhOpenQueryW.restype, pdh.PdhOpenQueryW.argtypes = (
        status,
        [ctypes.c_wchar_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)],
    )
    pdh.PdhAddEnglishCounterW.restype, pdh.PdhAddEnglishCounterW.argtypes = (
        status,
        [ctypes.c_void_p, ctypes.c_wchar_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)],
    )
    pdh.PdhCollectQueryData.restype, pdh.PdhCollectQueryData.argtypes = status, [ctypes.c_void_p]
    pdh.PdhCloseQuery.restype, pdh.PdhCloseQuery.argtypes = status, [ctypes.c_void_p]
    pdh.PdhGetFormattedCounterArrayW.restype, pdh.PdhGetFormattedCounterArrayW.argtypes = (
        status,
        [ctypes.c_void_p, _DWORD, ctypes.POINTER(_DWORD), ctypes.POINTER(_DWORD), ctypes.c_void_p],
    )
    return pdh


class _PdhQuery:
    """A PDH query for the two "GPU Adapter Memory" counters, opened once and reused."""

    PDH_FMT_LARGE = 0x400
    PDH_MORE_DATA = 0x800007D2
    COUNTERS = ("Dedicated Usage", "Shared Usage")

    def __init__(self) -> None:
        self.pdh = _pdh()
        self.query = ctypes.c_void_p()
        status = self.pdh.PdhOpenQueryW(None, None, ctypes.byref(self.query))
        if status != 0:
            raise PdhError("PdhOpenQueryW", status)
        self.counters: dict[str, ctypes.c_void_p] = {}
        try:
            for name in self.COUNTERS:
                handle = ctypes.c_void_p()
                path = f"\\GPU Adapter Memory(*)\\{name}"
                status = self.pdh.PdhAddEnglishCounterW(self.query, path, None, ctypes.byref(handle))
                if status != 0:
                    raise PdhError(f"PdhAddEnglishCounterW({path})", status)
                self.counters[name] = handle
        except OSError:
            self.close()
            raise

    def close(self) -> None:
        if self.query:
            self.pdh.PdhCloseQuery(self.query)
            self.query = ctypes.c_void_p()

    def read(self) -> list[GpuAdapterMemory]:
        status = self.pdh.PdhCollectQueryData(self.query)
        if status != 0:
            raise PdhError("PdhCollectQueryData", status)
        values = {name: self._array(handle) for name, handle in self.counters.items()}
        return adapters_from_counters(values["Dedicated Usage"], values["Shared Usage"])

    def _array(self, handle: ctypes.c_void_p) -> dict[str, int]:
        size, count = _DWORD(0), _DWORD(0)
        status = self.pdh.PdhGetFormattedCounterArrayW(
            handle, self.PDH_FMT_LARGE, ctypes.byref(size), ctypes.byref(count), None
        )
        if status != self.PDH_MORE_DATA:
            return {}
        buffer = (ctypes.c_byte * size.value)()
        status = self.pdh.PdhGetFormattedCounterArrayW(
            handle, self.PDH_FMT_LARGE, ctypes.byref(size), ctypes.byref(count), buffer
        )
        if status != 0:
            return {}
        return counter_values(buffer, count.value)


def counter_values(buffer: Any, count: int) -> dict[str, int]:
    """``{instance name: value}`` from the buffer ``PdhGetFormattedCounterArrayW`` fills with
    ``count`` items (``PDH_FMT_LARGE``); items whose ``CStatus`` is not valid data are left out."""
    items = ctypes.cast(buffer, ctypes.POINTER(PdhFmtCounterValueItem))
    return {
        items[i].szName: int(items[i].FmtValue.largeValue)
        for i in range(count)
        if items[i].FmtValue.CStatus in (_PDH_CSTATUS_VALID_DATA, _PDH_CSTATUS_NEW_DATA)
    }


_pdh_query: _PdhQuery | None = None
_pdh_failure: OSError | None = None


def query_gpu_adapter_memory() -> list[GpuAdapterMemory]:
    """Dedicated and shared usage of every GPU adapter, from the Windows performance counters.

    When the counters cannot be opened (Windows before 10 1709, performance counters disabled,
    Wine) the first error is kept and raised again without retrying: they do not appear later.
    """
    global _pdh_query, _pdh_failure
    if _pdh_failure is not None:
        raise _pdh_failure
    if _pdh_query is None:
        try:
            _pdh_query = _PdhQuery()
        except OSError as exc:
            _pdh_failure = exc
            raise
    return _pdh_query.read()
