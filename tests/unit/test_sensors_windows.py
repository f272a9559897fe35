"""Windows commit, pagefile and shared-GPU-memory parsing, with values laid out as Windows gives
them (this suite runs on Linux: the OS calls themselves are tried on Windows by hand)."""

from __future__ import annotations

import ctypes
import struct

import pytest
from helpers import load_json

from memprobe.sensors import windows

PAGE = 4096


def _struct_bytes(values: dict) -> bytes:
    """The documented x64 layout: DWORD cb; 4 bytes padding; ten SIZE_T; three DWORDs; padding."""
    names = ["CommitTotal", "CommitLimit", "CommitPeak", "PhysicalTotal", "PhysicalAvailable", "SystemCache",
             "KernelTotal", "KernelPaged", "KernelNonpaged", "PageSize"]
    return struct.pack("<I4x10Q3I4x", values["cb"], *(values[n] for n in names),
                       values["HandleCount"], values["ProcessCount"], values["ThreadCount"])


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_size_t) != 8, reason="the x64 layout")
def test_performance_information_struct_matches_the_x64_layout_and_converts_pages_to_bytes():
    values = load_json("windows/performance_information_32gb.json")
    raw = _struct_bytes(values)
    assert ctypes.sizeof(windows.PerformanceInformation) == len(raw) == 104
    perf = windows.PerformanceInformation.from_buffer_copy(raw)
    fields = windows.system_fields(perf, swap_total_bytes=2 * 1024**3, swap_used_bytes=1024**3,
                                   process_rss_bytes=123, process_private_bytes=456)
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
    names = [name for name, _ in windows.ProcessMemoryCounters._fields_]
    raw = struct.pack("<II9Q", *(values[n] for n in names))
    assert ctypes.sizeof(windows.ProcessMemoryCounters) == len(raw) == values["cb"] == 80
    # WHEN it is read THEN the working set is the RSS, private usage the private bytes, and the
    # peaks Windows keeps since the process started are those metrics' peak counters
    fields = windows.process_fields(windows.ProcessMemoryCounters.from_buffer_copy(raw))
    assert fields == {"process_rss_bytes": 2726322176, "process_private_bytes": 3319754752,
                      "process_peak_rss_bytes": 4399738880, "process_peak_private_bytes": 4161921024}


def test_a_commit_peak_of_zero_is_not_a_reading():
    # GIVEN GetPerformanceInfo without a commit peak (Wine fills 0 there) THEN there is none
    perf = windows.PerformanceInformation(CommitTotal=10, CommitLimit=20, CommitPeak=0, PageSize=PAGE)
    fields = windows.system_fields(perf, swap_total_bytes=None, swap_used_bytes=None, process_rss_bytes=None,
                                   process_private_bytes=None)
    assert fields["commit_peak_bytes"] is None and fields["commit_bytes"] == 10 * PAGE


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("automatic_all_drives", [("?:\\pagefile.sys", None, None, True, True, None)]),
        ("system_managed_c", [("C:\\pagefile.sys", None, None, True, False, "C:")]),
        ("system_managed_bare", [("c:\\pagefile.sys", None, None, True, False, "C:")]),
        ("custom_fixed_d", [("D:\\pagefile.sys", 32768, 32768, False, False, "D:")]),
        ("custom_growing_c_and_fixed_e", [("C:\\pagefile.sys", 4096, 8192, False, False, "C:"),
                                          ("E:\\pagefile.sys", 16384, 16384, False, False, "E:")]),
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
    from memprobe.sensors import Sensors, pagefile_volumes

    monkeypatch.setattr(windows, "read_paging_files", lambda: ["C:\\pagefile.sys 0 0", "E:\\pagefile.sys 16384 16384"])
    assert pagefile_volumes("win32") == {"pagefile": "C:\\", "pagefile E:": "E:\\"}
    assert pagefile_volumes("linux") == {}
    sensors = Sensors({"models": "/m"}, platform="win32")
    assert sensors._disk_paths == {"pagefile": "C:\\", "pagefile E:": "E:\\", "models": "/m"}
