"""Linux readings from recorded /proc texts (see tests/fixtures/linux/SOURCES.md), and live."""

from __future__ import annotations

import ctypes
import mmap
import platform
import sys

import pytest
from helpers import FIXTURES

from memprobe.sensing.sensors import Sensors
from memprobe.sensing.snapshot import metrics_of
from memprobe.sensing.system.linux import (
    HeapFree,
    RssPeakReset,
    is_rotational,
    parse_kb_fields,
    parse_swaps,
    sample_fields,
    system_fields,
)

LINUX = FIXTURES / "linux"
KIB = 1024
MIB = 1024**2


def text(name: str) -> str:
    return (LINUX / name).read_text()


def test_idle_machine_without_swap():
    fields = system_fields(text("meminfo_idle_24g_noswap.txt"), text("status_python_idle.txt"), 0)
    assert fields["ram_total_bytes"] == 24684084 * KIB
    assert fields["ram_available_bytes"] == 24160548 * KIB
    assert fields["commit_bytes"] == 47044 * KIB
    assert fields["commit_limit_bytes"] == 12342040 * KIB
    assert fields["swap_total_bytes"] == 0 and fields["swap_used_bytes"] == 0
    assert fields["overcommit_mode"] == 0
    # GIVEN /proc/self/status of a python process THEN RSS and private (RssAnon + VmSwap) come from it
    status = parse_kb_fields(text("status_python_idle.txt"))
    assert fields["process_rss_bytes"] == status["VmRSS"]
    assert fields["process_private_bytes"] == status["RssAnon"] + status["VmSwap"]


def test_comfyui_while_sampling():
    fields = system_fields(text("meminfo_comfyui_sampling.txt"), text("status_comfyui_sampling.txt"), 0)
    assert fields["process_rss_bytes"] == 1423992 * KIB
    assert fields["process_private_bytes"] == 1268480 * KIB
    assert fields["commit_bytes"] == 1345164 * KIB
    assert fields["ram_total_bytes"] - fields["ram_available_bytes"] > fields["process_rss_bytes"] // 2


def test_swap_in_use_and_commit_above_limit():
    # GIVEN a 4 GiB desktop whose commitments exceed CommitLimit (heuristic overcommit allows it)
    fields = system_fields(text("meminfo_4g_swap_overcommitted.txt"), None, 0)
    assert fields["swap_total_bytes"] == 2097148 * KIB
    assert fields["swap_used_bytes"] == (2097148 - 2092284) * KIB
    assert fields["commit_bytes"] > fields["commit_limit_bytes"]
    assert fields["process_rss_bytes"] is None  # no status text given: not guessed


def test_old_kernel_without_memavailable_is_estimated_from_free_buffers_cached():
    fields = system_fields(text("meminfo_kernel_2.6.10_no_memavailable.txt"), None, None)
    assert fields["ram_available_bytes"] == (5304 + 6808 + 123708) * KIB
    assert fields["commit_limit_bytes"] == 2175920 * KIB
    assert fields["overcommit_mode"] is None


def test_units_only_apply_to_kb_values():
    parsed = parse_kb_fields("MemTotal: 10 kB\nHugePages_Total: 3\nbroken line\nName:\tpython\n")
    assert parsed == {"MemTotal": 10 * KIB, "HugePages_Total": 3}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("swaps_none.txt", []),
        ("swaps_64g_file.txt", [("/swapfile", "file", 67108860 * KIB, 0, False)]),
        (
            "swaps_zram_and_file.txt",
            [
                ("/var/swapfile", "file", 67108860 * KIB, 1048576 * KIB, False),
                ("/dev/zram0", "partition", 15245728 * KIB, 14000000 * KIB, True),
            ],
        ),
    ],
)
def test_proc_swaps(name, expected):
    areas = parse_swaps(text(name))
    assert [(a.path, a.kind, a.size_bytes, a.used_bytes, a.is_zram) for a in areas] == expected


def test_proc_swaps_with_several_partitions_and_escaped_spaces():
    areas = parse_swaps(text("swaps_nas_partitions.txt") + "/mnt/my\\040disk/swap file 1024 0 -6\n")
    assert [a.path for a in areas] == [
        "/dev/md321",
        "/dev/md256",
        "/dev/md322",
        "/share/CACHEDEV1_DATA/.swap/qnap_swap",
        "/mnt/my disk/swap",
    ]
    assert areas[0].priority == -2


def test_rotational_flag_of_an_unknown_path_is_unknown():
    assert is_rotational("/no/such/file") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this Linux machine's /proc")
def test_live_snapshot_on_this_machine():
    snap = Sensors({"root": "/"}).snapshot()
    s = snap.system
    assert s.ram_total_bytes and 0 < s.ram_available_bytes <= s.ram_total_bytes
    assert s.commit_bytes and s.commit_limit_bytes
    assert s.process_rss_bytes and s.process_private_bytes and s.process_private_bytes <= s.process_rss_bytes * 2
    assert s.overcommit_mode in (0, 1, 2)
    assert snap.disks[0].role == "root" and snap.disks[0].free_bytes > 0
    assert isinstance(is_rotational("/"), bool | None)


def test_a_failing_platform_reader_yields_none_fields_and_one_warning(caplog, monkeypatch):
    from memprobe._log import reset_warnings

    reset_warnings()
    sensors = Sensors(platform="linux")
    monkeypatch.setattr(sensors.reader, "fields", lambda: (_ for _ in ()).throw(OSError("proc gone")))
    first, second = sensors.system(), sensors.system()
    assert first.ram_total_bytes is None and second.commit_bytes is None
    assert sum("system memory readings failed" in r.message for r in caplog.records) == 1


def test_the_samplers_reading_has_the_snapshots_moving_metrics():
    sensors = Sensors()
    sample, snapshot = sensors.sample(), sensors.snapshot().metrics(totals=False)
    assert set(sample) == set(snapshot) and "ram_total_bytes" not in sample
    assert set(sensors.snapshot().metrics()) - set(sample) == {"ram_total_bytes"}


@pytest.mark.parametrize(
    ("meminfo", "status"),
    [
        ("meminfo_idle_24g_noswap.txt", "status_python_idle.txt"),
        ("meminfo_comfyui_sampling.txt", "status_comfyui_sampling.txt"),
        ("meminfo_4g_swap_overcommitted.txt", None),
        ("meminfo_kernel_2.6.10_no_memavailable.txt", None),
    ],
)
def test_the_samplers_fast_parser_gives_the_same_figures_as_the_snapshots(meminfo, status):
    # GIVEN recorded /proc texts WHEN the sampler's row is parsed from the raw bytes
    raw_status = text(status).encode() if status else None
    row = sample_fields(text(meminfo).encode(), raw_status)
    # THEN it holds the same figures as the snapshot's metrics (totals aside)
    fields = system_fields(text(meminfo), text(status) if status else None, 0)
    expected = metrics_of((), totals=False, **fields)
    assert row == expected and row


def test_the_process_peak_rss_is_vmhwm():
    fields = system_fields(text("meminfo_comfyui_sampling.txt"), text("status_comfyui_sampling.txt"), 0)
    status = parse_kb_fields(text("status_comfyui_sampling.txt"))
    assert fields["process_peak_rss_bytes"] == status["VmHWM"] >= fields["process_rss_bytes"]


def _allocate(size: int) -> mmap.mmap:
    block = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    page = b"\x01" * mmap.PAGESIZE
    for _ in range(size // mmap.PAGESIZE):  # touch every page (no temporary of the whole size)
        block.write(page)
    return block


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="this Linux kernel's /proc/self/clear_refs")
def test_restarting_the_peak_rss_counter_catches_a_spike_between_two_readings():
    sensors = Sensors()
    # GIVEN a spike of 200 MiB that came and went
    _allocate(200 * MIB).close()
    assert sensors.system().process_peak_rss_bytes >= sensors.system().process_rss_bytes + 190 * MIB
    # WHEN the counter is restarted THEN it starts from the RSS of now
    assert sensors.reset_peaks() == {"process_rss_bytes"}
    restarted = sensors.system()
    assert restarted.process_peak_rss_bytes < restarted.process_rss_bytes + 10 * MIB
    # AND a 160 MiB spike after it, freed before anyone looked, is in the counter (the kernel's
    # per-CPU RSS counters make both figures approximate by a few dozen pages)
    block = _allocate(160 * MIB)
    top = sensors.system().process_rss_bytes
    block.close()
    after = sensors.system()
    assert after.process_rss_bytes < top - 150 * MIB
    assert abs(after.process_peak_rss_bytes - top) < MIB
    # AND with rss=False the counter is left alone
    assert sensors.reset_peaks(rss=False) == frozenset()
    assert sensors.system().process_peak_rss_bytes > top - MIB


def test_a_system_that_refuses_the_reset_falls_back_once_with_one_warning(tmp_path, caplog):
    from memprobe._log import reset_warnings

    reset_warnings()
    reset = RssPeakReset(str(tmp_path / "no-such-dir" / "clear_refs"))
    assert reset.reset() is False and reset.reset() is False and not reset.available
    assert sum("cannot restart the peak RSS counter" in r.message for r in caplog.records) == 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this machine's /proc")
def test_a_nodes_start_reuses_the_system_reading_of_the_previous_nodes_end(monkeypatch):
    # at a node boundary the system-wide /proc/meminfo of a reading a moment ago stands; the process's own
    # /proc/self/status is read again (its resident set and peak move with the node)
    from memprobe.sensing.system.linux import LinuxSystemReader

    reader = LinuxSystemReader()
    reads = {"meminfo": 0, "status": 0}
    meminfo, status = reader._meminfo.read, reader._status.read_bytes
    monkeypatch.setattr(
        reader._meminfo, "read", lambda: (reads.__setitem__("meminfo", reads["meminfo"] + 1), meminfo())[1]
    )
    monkeypatch.setattr(
        reader._status, "read_bytes", lambda: (reads.__setitem__("status", reads["status"] + 1), status())[1]
    )
    first = reader.fields()
    again = reader.fields(max_age_s=60)
    assert reads == {"meminfo": 1, "status": 2} and again["ram_total_bytes"] == first["ram_total_bytes"]
    reader.fields()
    assert reads["meminfo"] == 2  # without an age allowed, it is read anew
    # AND the OOM-kill counters of a run's start come from files kept open, not a full cgroup read
    kills = reader.oom_kills()
    assert kills["boot_id"] and isinstance(kills["system"], int | None)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's mallinfo2"
)
def test_the_heap_malloc_keeps_free_after_a_node_freed_its_work_is_read():
    sensors = Sensors()
    start = sensors.heap_free_bytes()
    assert start is not None and start >= 0
    # GIVEN 80 MiB of 8 KiB blocks (under malloc's mmap threshold: they come from its heap), every
    # other one freed, which malloc cannot give back: the process's RSS keeps them. (Measured from the heap
    # once they are allocated: they first fill the holes earlier tests left, which the count at the start holds.)
    blocks = [ctypes.create_string_buffer(8 * 1024) for _ in range(10_240)]
    filled = sensors.heap_free_bytes()
    del blocks[::2]
    held = sensors.heap_free_bytes()
    assert filled is not None and held is not None and held >= filled + 30 * MIB
    del blocks


def test_a_c_library_without_mallinfo2_gives_none_once(monkeypatch, caplog):
    from memprobe._log import reset_warnings
    from memprobe.sensing.system import linux

    reset_warnings()

    def missing():
        raise AttributeError("undefined symbol: mallinfo2")

    monkeypatch.setattr(linux, "_mallinfo2", missing)
    heap = HeapFree()
    assert heap.read() is None and heap.read() is None and not heap.available
    assert sum("free heap" in r.getMessage() for r in caplog.records) == 1


def test_a_read_slower_than_its_budget_is_the_last(monkeypatch, caplog):
    # a heap of many free chunks makes mallinfo2 walk them all (30 ms after 200,000 scattered frees here):
    # that read still counts, and the forecast does without the next ones
    import time
    from types import SimpleNamespace

    from memprobe._log import reset_warnings
    from memprobe.sensing.system import linux

    reset_warnings()

    def slow():
        time.sleep(HeapFree.MAX_READ_S * 2)
        return SimpleNamespace(fordblks=300 * MIB, keepcost=20 * MIB)

    monkeypatch.setattr(linux, "_mallinfo2", lambda: slow)
    heap = HeapFree()
    assert heap.read() == 280 * MIB and heap.read() is None and not heap.available
    assert sum("not read again" in r.getMessage() for r in caplog.records) == 1
