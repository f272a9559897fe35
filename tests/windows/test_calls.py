"""Each Windows call of ``memprobe.sensing.system.windows``, made for real. Under Wine the values are
Wine's: the tests check structure layouts, types, units and how each failure surfaces, and say
"Wine" where they expect Wine's own answer."""

from __future__ import annotations

import ctypes

import psutil
import pytest

from memprobe.sensing.gpu import TorchDevice
from memprobe.sensing.gpu import gpu_sensor as GpuSensor
from memprobe.sensing.sensors import Sensors, pagefile_volumes, windows

GIB = 1024**3


@pytest.mark.parametrize(
    ("structure", "size", "offsets"),
    [  # x64 layouts from psapi.h, sysinfoapi.h, winioctl.h and pdh.h (see each class's docstring)
        (windows.PerformanceInformation, 104, {"CommitTotal": 8, "PageSize": 80, "HandleCount": 88, "ThreadCount": 96}),
        (windows.MemoryStatusEx, 64, {"ullTotalPhys": 8, "ullAvailPageFile": 32, "ullAvailExtendedVirtual": 56}),
        (windows.ProcessMemoryCountersEx, 80, {"PeakWorkingSetSize": 8, "PagefileUsage": 56, "PrivateUsage": 72}),
        (windows.PdhFmtCounterValueItem, 24, {"szName": 0, "FmtValue": 8}),
        (windows.SeekPenaltyDescriptor, 12, {"IncursSeekPenalty": 8}),
        (windows.StoragePropertyQuery, 12, {"QueryType": 4, "AdditionalParameters": 8}),
    ],
)
def test_structures_have_the_documented_x64_sizes_and_offsets(structure, size, offsets):
    assert ctypes.sizeof(ctypes.c_void_p) == 8  # the 64-bit CPython every ComfyUI package ships
    assert ctypes.sizeof(structure) == size
    assert {name: getattr(structure, name).offset for name in offsets} == offsets


def test_get_performance_info_answers_in_pages(wine):
    perf = windows.read_performance_information()
    assert perf.cb == 104 and perf.PageSize == 4096
    assert 0 < perf.PhysicalAvailable <= perf.PhysicalTotal
    assert 0 < perf.CommitTotal <= perf.CommitLimit
    assert perf.PhysicalTotal <= perf.CommitLimit  # the commit limit is RAM + pagefiles
    fields = windows.memory_fields(perf)
    assert all(isinstance(v, int) for k, v in fields.items() if k != "commit_peak_bytes")
    assert fields["ram_total_bytes"] == perf.PhysicalTotal * 4096
    if wine:  # Wine keeps no peak: 0 means "unknown", never "nothing was ever committed"
        assert perf.CommitPeak == 0 and fields["commit_peak_bytes"] is None


def test_global_memory_status_agrees_with_get_performance_info_and_psutil():
    status = windows.read_memory_status()
    perf = windows.read_performance_information()
    assert status.dwLength == 64 and 0 <= status.dwMemoryLoad <= 100
    assert abs(status.ullTotalPhys - perf.PhysicalTotal * perf.PageSize) <= 0.01 * status.ullTotalPhys
    assert status.ullTotalPageFile >= status.ullTotalPhys  # "total page file" is the commit limit
    assert psutil.virtual_memory().total == status.ullTotalPhys  # psutil's Windows wheel asks the same call
    fallback = windows.memory_fields(None, status)
    assert fallback["ram_total_bytes"] == status.ullTotalPhys and fallback["commit_peak_bytes"] is None


def test_get_process_memory_info_describes_this_process():
    counters = windows.read_process_memory()
    assert counters.cb in (72, 80)  # Wine fills only PROCESS_MEMORY_COUNTERS and says so (72)
    assert counters.WorkingSetSize > 4 * 1024**2 and counters.PeakWorkingSetSize >= counters.WorkingSetSize
    fields = windows.process_fields(counters)
    assert isinstance(fields["process_rss_bytes"], int)
    assert isinstance(fields["process_private_bytes"], int) and fields["process_private_bytes"] > 0
    assert abs(psutil.Process().memory_info().rss - fields["process_rss_bytes"]) < 256 * 1024**2


def test_psutil_windows_wheel_and_its_swap_reading(wine):
    assert psutil.WINDOWS and psutil.virtual_memory().total > GIB
    assert psutil.disk_usage("C:\\").total > 0
    try:
        swap = psutil.swap_memory()
    except RuntimeError as exc:  # performance counters unavailable: Wine, or Windows with them disabled
        assert "PdhAddEnglishCounterW failed" in str(exc)
        assert wine or "disabled" in str(exc)
    else:
        assert swap.total >= 0 and 0 <= swap.used <= max(swap.total, 0)


def test_the_registry_pagefile_value_is_read_and_parsed(wine, wine_paging_files):
    raw = windows.read_paging_files()
    assert isinstance(raw, list) and all(isinstance(entry, str) for entry in raw)
    settings = windows.parse_paging_files(raw)
    assert len(settings) == len(raw)
    if wine:  # a REG_SZ in Wine, REG_MULTI_SZ on Windows: both come back as a list
        assert raw == wine_paging_files
        assert (settings[0].drive, settings[0].initial_mb, settings[0].maximum_mb) == ("C:", 27, 77)
    assert pagefile_volumes() == {
        ("pagefile" if i == 0 else f"pagefile {d}"): f"{d}\\"
        for i, d in enumerate(dict.fromkeys(s.drive for s in settings if s.drive))
    }


def test_a_multi_string_value_as_windows_writes_it(paging_files):
    paging_files(["C:\\pagefile.sys 16384 16384", "D:\\pagefile.sys 0 0", "?:\\pagefile.sys"])
    raw = windows.read_paging_files()
    assert raw == ["C:\\pagefile.sys 16384 16384", "D:\\pagefile.sys 0 0", "?:\\pagefile.sys"]
    fixed, managed, automatic = windows.parse_paging_files(raw)
    assert fixed.fixed_size and managed.system_managed and automatic.all_drives and automatic.drive is None
    paging_files([])  # "No paging file": an empty REG_MULTI_SZ
    assert windows.read_paging_files() == []
    paging_files(None)
    with pytest.raises(FileNotFoundError):
        windows.read_paging_files()
    assert pagefile_volumes() == {}  # logged, not raised


def test_drive_types_of_the_system_drive_wine_z_and_a_missing_letter(wine, free_drive):
    assert windows.drive_type("C:") == "fixed"
    assert windows.drive_type("c:\\") == "fixed"  # the letter is what counts
    assert windows.drive_type(free_drive) == "no-root"
    if wine:
        assert windows.drive_type("Z:") == "fixed"  # Wine's view of the Linux root


def test_the_seek_penalty_query_answers_or_raises_a_windows_error(wine, free_drive):
    try:
        assert isinstance(windows.incurs_seek_penalty("C:"), bool)
    except OSError as exc:
        assert exc.winerror and "seek-penalty query" in str(exc)
        if wine:
            assert exc.winerror == 50  # ERROR_NOT_SUPPORTED: Wine has no storage properties
    with pytest.raises(FileNotFoundError) as missing:
        windows.incurs_seek_penalty(free_drive)
    assert missing.value.winerror == 2 and "CreateFileW" in str(missing.value)


def test_the_gpu_counters_answer_or_fail_once_with_their_pdh_status(wine):
    try:
        adapters = windows.query_gpu_adapter_memory()
    except windows.PdhError as exc:
        assert exc.status & 0xC0000000
        if wine:
            assert exc.status == 0xC0000BB9 and "PDH_CSTATUS_NO_COUNTER" in str(exc)
        with pytest.raises(windows.PdhError) as again:  # not retried: the counters do not appear later
            windows.query_gpu_adapter_memory()
        assert again.value is exc
    else:
        assert all(isinstance(a, windows.GpuAdapterMemory) and a.shared_bytes >= 0 for a in adapters)


def test_shared_gpu_memory_that_cannot_be_read_keeps_its_reason(wine):
    sensor = GpuSensor(use_nvml=False)
    card = TorchDevice(0, "cuda", "NVIDIA GeForce RTX 3060", "0000:01:00", None, 12 * GIB)
    assert sensor._shared_usage([card]) == {}  # no NVML pairing: nothing to match, nothing raised
    if wine:
        assert "PDH_CSTATUS_NO_COUNTER" in sensor.shared_error


def test_nvml_without_an_nvidia_driver_gives_no_gpu_and_no_error(wine):
    import pynvml  # nvidia-ml-py, a dependency: its Windows path looks for nvml.dll

    assert pynvml.__name__ == "pynvml"
    gpus = GpuSensor(use_nvml=True).read()
    assert isinstance(gpus, tuple)
    if wine:
        assert gpus == ()


def test_a_snapshot_reads_every_value_windows_gives_and_says_why_for_the_rest(wine):
    sensors = Sensors(use_nvml=False)
    snap = sensors.snapshot()
    system = snap.system
    assert system.ram_total_bytes > GIB and 0 < system.commit_bytes <= system.commit_limit_bytes
    assert system.process_rss_bytes > 0 and system.overcommit_mode is None
    missing = {k for k, v in system.__class__.__dataclass_fields__.items() if getattr(system, k) is None}
    linux_only = {"overcommit_mode", "cgroup_limit_bytes", "cgroup_used_bytes"}  # no such thing on Windows
    assert missing - linux_only == set(sensors.unreadable)
    if wine:
        assert set(sensors.unreadable) == {"commit_peak_bytes", "swap_used_bytes"}
        assert "PdhAddEnglishCounterW failed" in sensors.unreadable["swap_used_bytes"]
    pagefile = next(d for d in snap.disks if d.role == "pagefile")
    assert pagefile.path == "C:\\" and pagefile.free_bytes > 0
    metrics = sensors.sample()
    assert metrics["ram_used_bytes"] > 0 and all(isinstance(v, int) for v in metrics.values())
