"""Windows commit, pagefile and shared-GPU-memory parsing, with values laid out as Windows gives
them. These run on any OS; the calls themselves run in tests/windows (a Windows CPython under
Wine), which cannot show Windows' own answers (real pagefiles, the GPU counters, the SSD/HDD
answer): those are tested here, each layout after the Microsoft documentation cited in
memprobe/sensing/system/windows.py."""

from __future__ import annotations

import ctypes
import struct

import pytest
from helpers import load_json

from memprobe.sensing.system import windows

PAGE = 4096


def _struct_bytes(values: dict) -> bytes:
    """The documented x64 layout: DWORD cb; 4 bytes padding; ten SIZE_T; three DWORDs; padding."""
    names = [
        "CommitTotal",
        "CommitLimit",
        "CommitPeak",
        "PhysicalTotal",
        "PhysicalAvailable",
        "SystemCache",
        "KernelTotal",
        "KernelPaged",
        "KernelNonpaged",
        "PageSize",
    ]
    return struct.pack(
        "<I4x10Q3I4x",
        values["cb"],
        *(values[n] for n in names),
        values["HandleCount"],
        values["ProcessCount"],
        values["ThreadCount"],
    )


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_size_t) != 8, reason="the x64 layout")
def test_performance_information_struct_matches_the_x64_layout_and_converts_pages_to_bytes():
    values = load_json("windows/performance_information_32gb.json")
    raw = _struct_bytes(values)
    assert ctypes.sizeof(windows.PerformanceInformation) == len(raw) == 104
    perf = windows.PerformanceInformation.from_buffer_copy(raw)
    fields = windows.system_fields(
        perf, swap_total_bytes=2 * 1024**3, swap_used_bytes=1024**3, process_rss_bytes=123, process_private_bytes=456
    )
    assert fields["commit_bytes"] == values["CommitTotal"] * PAGE
    assert fields["commit_limit_bytes"] == values["CommitLimit"] * PAGE == 34 * 1024**3
    assert fields["commit_peak_bytes"] == values["CommitPeak"] * PAGE
    assert fields["ram_total_bytes"] == 32 * 1024**3
    assert fields["ram_available_bytes"] == values["PhysicalAvailable"] * PAGE
    assert fields["overcommit_mode"] is None
    assert (fields["process_rss_bytes"], fields["process_private_bytes"]) == (123, 456)


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_size_t) != 8, reason="the x64 layout")
def test_process_memory_counters_struct_matches_the_x64_layout_and_gives_the_process_and_its_peaks():
    # GIVEN PROCESS_MEMORY_COUNTERS_EX as Windows x64 fills it: two DWORDs, then nine SIZE_T
    values = load_json("windows/process_memory_counters_pycharm.json")
    assert ctypes.sizeof(windows.ProcessMemoryCountersEx) == values["cb"] == 80
    # WHEN it is read THEN the working set is the RSS, private usage the private bytes, and the
    # peaks Windows keeps since the process started are those metrics' peak counters
    fields = windows.process_fields(_process_counters(values))
    assert fields == {
        "process_rss_bytes": 2726322176,
        "process_private_bytes": 3319754752,
        "process_peak_rss_bytes": 4399738880,
        "process_peak_private_bytes": 4161921024,
    }


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("automatic_all_drives", [("?:\\pagefile.sys", None, None, True, True, None)]),
        ("system_managed_c", [("C:\\pagefile.sys", None, None, True, False, "C:")]),
        ("system_managed_bare", [("c:\\pagefile.sys", None, None, True, False, "C:")]),
        ("custom_fixed_d", [("D:\\pagefile.sys", 32768, 32768, False, False, "D:")]),
        (
            "custom_growing_c_and_fixed_e",
            [
                ("C:\\pagefile.sys", 4096, 8192, False, False, "C:"),
                ("E:\\pagefile.sys", 16384, 16384, False, False, "E:"),
            ],
        ),
        ("none", []),
    ],
)
def test_paging_files_registry_values(case, expected):
    settings = windows.parse_paging_files(load_json("windows/paging_files.json")[case])
    assert [(s.path, s.initial_mb, s.maximum_mb, s.system_managed, s.all_drives, s.drive) for s in settings] == expected


def test_fixed_size_means_initial_equals_maximum():
    growing, fixed = windows.parse_paging_files(load_json("windows/paging_files.json")["custom_growing_c_and_fixed_e"])
    assert not growing.fixed_size and fixed.fixed_size


def test_gpu_adapter_counters_are_merged_per_luid_and_matched_to_the_nvidia_card():
    recorded = load_json("windows/gpu_adapter_memory.json")
    adapters = windows.adapters_from_counters(recorded["dedicated"], recorded["shared"])
    assert {a.luid for a in adapters} == {"0x00000000_0x0000d1f5", "0x00000000_0x0000b9c2"}
    # GIVEN NVML says cuda:0 uses 9.9 GB THEN the adapter with ~10.5 GB dedicated is that card
    matched = windows.match_adapters({0: 9_900_000_000}, adapters)
    assert matched[0].luid == "0x00000000_0x0000d1f5"
    assert matched[0].shared_bytes == 2147483648


def test_adapter_instance_names_that_are_not_adapters_are_ignored():
    assert windows.parse_adapter_instance("_Total") is None
    assert windows.adapters_from_counters({"_Total": 5}, {}) == []
    assert windows.match_adapters({0: 1}, []) == {}


def test_the_pagefile_volumes_are_read_from_the_registry_on_windows_only(monkeypatch):
    from memprobe.sensing.sensors import Sensors, pagefile_volumes

    monkeypatch.setattr(windows, "read_paging_files", lambda: ["C:\\pagefile.sys 0 0", "E:\\pagefile.sys 16384 16384"])
    assert pagefile_volumes("win32") == {"pagefile": "C:\\", "pagefile E:": "E:\\"}
    assert pagefile_volumes("linux") == {}
    sensors = Sensors({"models": "/m"}, platform="win32")
    assert sensors._disk_paths == {"pagefile": "C:\\", "pagefile E:": "E:\\", "models": "/m"}


# --------------------------------------------------------------------------- recorded under Wine
WINE = load_json("windows/wine8_readings.json")


def _memory_status(values: dict) -> windows.MemoryStatusEx:
    """MEMORYSTATUSEX as documented: two DWORDs, then seven DWORDLONGs (64 bytes on every platform)."""
    names = [n for n, _ in windows.MemoryStatusEx._fields_]
    raw = struct.pack("<II7Q", *(values[n] for n in names))
    assert ctypes.sizeof(windows.MemoryStatusEx) == len(raw) == 64
    return windows.MemoryStatusEx.from_buffer_copy(raw)


def _process_counters(values: dict) -> windows.ProcessMemoryCountersEx:
    """PROCESS_MEMORY_COUNTERS_EX on x64: two DWORDs, then nine SIZE_Ts (80 bytes)."""
    names = [n for n, _ in windows.ProcessMemoryCountersEx._fields_]
    return windows.ProcessMemoryCountersEx.from_buffer_copy(struct.pack("<II9Q", *(values[n] for n in names)))


def _perf(values: dict) -> windows.PerformanceInformation:
    return windows.PerformanceInformation.from_buffer_copy(_struct_bytes(values))


def test_commit_and_ram_come_from_global_memory_status_when_get_performance_info_fails():
    status = _memory_status(WINE["GlobalMemoryStatusEx"])
    fields = windows.memory_fields(None, status)
    assert fields["ram_total_bytes"] == 25276510208 and fields["ram_available_bytes"] == 24001716224
    assert fields["commit_limit_bytes"] == 25276518400  # ullTotalPageFile is the commit limit
    assert fields["commit_bytes"] == 25276518400 - 24001716224
    assert fields["commit_peak_bytes"] is None  # only GetPerformanceInfo keeps a peak
    assert fields["swap_total_bytes"] == 8192  # commit limit - RAM, psutil's swap total on Windows


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_size_t) != 8, reason="the x64 layout")
def test_a_commit_peak_of_zero_is_unknown_not_zero():
    # Wine leaves CommitPeak at 0; a real Windows peak is never below the current commit
    fields = windows.memory_fields(_perf(WINE["GetPerformanceInfo"]))
    assert fields["commit_peak_bytes"] is None
    assert fields["commit_bytes"] == 311231 * PAGE and fields["ram_total_bytes"] == 6171023 * PAGE
    assert windows.memory_fields(None, None) == dict.fromkeys(fields)


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_size_t) != 8, reason="the x64 layout")
def test_process_memory_counters_layout_and_the_private_bytes_fallbacks():
    assert ctypes.sizeof(windows.ProcessMemoryCountersEx) == 80
    wine = _process_counters(WINE["GetProcessMemoryInfo"])  # cb 72: only PROCESS_MEMORY_COUNTERS filled
    assert windows.process_fields(wine) == {
        "process_rss_bytes": 31805440,
        "process_private_bytes": 17879040,
        "process_peak_rss_bytes": 31805440,
        "process_peak_private_bytes": 17879040,
    }
    windows_10 = _process_counters({**WINE["GetProcessMemoryInfo"], "cb": 80, "PrivateUsage": 17879040})
    assert windows.process_fields(windows_10)["process_private_bytes"] == 17879040
    # Windows 7: "PagefileUsage is always zero. Check PrivateUsage instead." (PROCESS_MEMORY_COUNTERS_EX docs)
    windows_7 = _process_counters({**WINE["GetProcessMemoryInfo"], "cb": 80, "PagefileUsage": 0, "PrivateUsage": 5})
    assert windows.process_fields(windows_7)["process_private_bytes"] == 5


def test_pdh_errors_name_their_status():
    error = windows.PdhError("PdhAddEnglishCounterW(x)", -1073738823)  # 0xC0000BB9 read as a signed LONG
    assert error.status == 0xC0000BB9 and "0xC0000BB9 (PDH_CSTATUS_NO_COUNTER)" in str(error)
    assert isinstance(error, OSError)


# --------------------------------------------------------------------------- each call on its own
PSUTIL_PDH_ERROR = RuntimeError("PdhAddEnglishCounterW failed. Performance counters may be disabled.")


class _Calls:
    """Stand-ins for the Windows calls, answering with the Wine recording or failing."""

    def __init__(self, monkeypatch, *, perf=True, status=True, swap=True, process=True):
        import memprobe.sensing.system.windows_reader as windows_reader

        self.count: dict[str, int] = {}

        def call(name, ok, value, error):
            def fn():
                self.count[name] = self.count.get(name, 0) + 1
                if not ok:
                    raise error
                return value()

            return fn

        denied = OSError(22, "GetPerformanceInfo: Access is denied.", None, 5)
        monkeypatch.setattr(
            windows,
            "read_performance_information",
            call("perf", perf, lambda: _perf(WINE["GetPerformanceInfo"]), denied),
        )
        monkeypatch.setattr(
            windows,
            "read_memory_status",
            call(
                "status",
                status,
                lambda: _memory_status(WINE["GlobalMemoryStatusEx"]),
                OSError(22, "GlobalMemoryStatusEx: The parameter is incorrect.", None, 87),
            ),
        )
        monkeypatch.setattr(
            windows,
            "read_process_memory",
            call(
                "process",
                process,
                lambda: _process_counters(WINE["GetProcessMemoryInfo"]),
                OSError(22, "GetProcessMemoryInfo: Access is denied.", None, 5),
            ),
        )
        monkeypatch.setattr(windows, "read_paging_files", lambda: list(WINE["PagingFiles"]))
        swap_value = type("sswap", (), {"total": 8192, "used": 4096})
        monkeypatch.setattr(windows_reader, "_psutil_swap", call("swap", swap, lambda: swap_value, PSUTIL_PDH_ERROR))


def _windows_sensors():
    from memprobe.sensing.sensors import Sensors

    return Sensors(platform="win32", use_nvml=False)


x64 = pytest.mark.skipif(ctypes.sizeof(ctypes.c_size_t) != 8, reason="the x64 layout")


@x64
def test_a_failing_psutil_swap_costs_the_pagefile_use_only_and_is_not_retried_at_every_sample(monkeypatch):
    calls = _Calls(monkeypatch, swap=False)
    sensors = _windows_sensors()
    first, second = sensors.system(), sensors.system()
    assert first == second
    assert first.ram_total_bytes == 6171023 * PAGE and first.commit_bytes == 311231 * PAGE
    assert first.swap_total_bytes == 2 * PAGE and first.swap_used_bytes is None
    assert first.process_rss_bytes == 31805440 and first.process_private_bytes == 17879040
    assert sensors.unreadable == {
        "swap_used_bytes": "psutil.swap_memory() failed: RuntimeError: PdhAddEnglishCounterW failed. "
        "Performance counters may be disabled.",
        "commit_peak_bytes": "GetPerformanceInfo gave CommitPeak = 0 (this system does not keep the peak)",
    }
    assert calls.count["swap"] == 1 and calls.count["perf"] == 2 and "status" not in calls.count


@x64
def test_a_failing_get_performance_info_falls_back_to_global_memory_status(monkeypatch):
    _Calls(monkeypatch, perf=False)
    sensors = _windows_sensors()
    system = sensors.system()
    assert system.ram_total_bytes == 25276510208 and system.commit_limit_bytes == 25276518400
    assert system.swap_used_bytes == 4096 and system.swap_total_bytes == 8192
    assert list(sensors.unreadable) == ["commit_peak_bytes"]  # "[WinError 5] ..." on Windows, "[Errno 22] ..." here
    assert sensors.unreadable["commit_peak_bytes"].endswith("] GetPerformanceInfo: Access is denied.")


@x64
def test_when_every_memory_call_fails_the_process_is_still_read_and_each_value_says_why(monkeypatch):
    _Calls(monkeypatch, perf=False, status=False, swap=False)
    sensors = _windows_sensors()
    system = sensors.system()
    assert (system.ram_total_bytes, system.commit_bytes, system.swap_used_bytes) == (None, None, None)
    assert system.process_rss_bytes == 31805440
    reasons = sensors.unreadable
    assert set(reasons) == {
        "ram_total_bytes",
        "ram_available_bytes",
        "commit_bytes",
        "commit_limit_bytes",
        "commit_peak_bytes",
        "swap_total_bytes",
        "swap_used_bytes",
    }
    perf_error, status_error = reasons["ram_total_bytes"].split("; ")
    assert perf_error.endswith("] GetPerformanceInfo: Access is denied.")
    assert status_error.endswith("] GlobalMemoryStatusEx: The parameter is incorrect.")
    assert sensors.sample()["process_rss_bytes"] == 31805440  # the sampler's path too


@x64
def test_a_failed_call_is_tried_again_after_the_retry_interval(monkeypatch):
    calls = _Calls(monkeypatch, process=False)
    sensors = _windows_sensors()
    sensors.system()
    assert "process_rss_bytes" in sensors.unreadable
    sensors.system()
    assert calls.count["process"] == 1
    sensors.reader.calls.RETRY_S = 0.0
    sensors.system()
    assert calls.count["process"] == 2


# --------------------------------------------------------------------------- what Wine cannot answer
@pytest.mark.parametrize(
    ("raw", "returned", "expected"),
    [
        (
            struct.pack("<IIB3x", 12, 12, 0),
            12,
            False,
        ),  # an SSD: DEVICE_SEEK_PENALTY_DESCRIPTOR, IncursSeekPenalty FALSE
        (struct.pack("<IIB3x", 12, 12, 1), 12, True),  # a spinning disk
        (struct.pack("<IIB3x", 12, 12, 1), 9, True),  # 9 bytes returned hold the BOOLEAN at offset 8
    ],
)
def test_the_seek_penalty_descriptor_as_windows_returns_it(raw, returned, expected):
    assert windows.seek_penalty(windows.SeekPenaltyDescriptor.from_buffer_copy(raw), returned) is expected


def test_a_seek_penalty_answer_too_short_to_hold_the_flag_is_an_error():
    with pytest.raises(OSError, match="answered 8 bytes"):
        windows.seek_penalty(windows.SeekPenaltyDescriptor(), 8)


def test_gpu_counter_items_as_pdh_fills_them_and_invalid_ones_left_out():
    # PDH_FMT_COUNTERVALUE_ITEM_W {LPWSTR szName; PDH_FMT_COUNTERVALUE {DWORD CStatus; union {..., LONGLONG
    # largeValue}}}: "Always check the CStatus member ... to ensure the returned data is valid" (PDH error codes)
    recorded = load_json("windows/gpu_adapter_memory.json")["shared"]
    rows = [(name, 0, value) for name, value in recorded.items()] + [("luid_0x0_0x1_phys_0", 0xC0000BBA, 5)]
    items = (windows.PdhFmtCounterValueItem * len(rows))()
    for item, (name, status, value) in zip(items, rows, strict=True):
        item.szName, item.FmtValue.CStatus, item.FmtValue.largeValue = name, status, value
    assert windows.counter_values(items, len(rows)) == recorded  # PDH_CSTATUS_INVALID_DATA is dropped
