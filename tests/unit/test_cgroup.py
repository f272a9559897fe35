"""Memory cgroups from recorded files (tests/fixtures/linux/cgroup, see SOURCES.md): where
ComfyUI's cgroup is, its limit, its memory in use, its OOM kills; and the live reader."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES

from memprobe.sensing.sensors import Sensors
from memprobe.sensing.system.cgroup import (
    V1_FILES,
    V2_FILES,
    CgroupReader,
    inactive_file,
    locate,
    memory_from_files,
    parse_limit,
    parse_mountinfo,
    parse_proc_cgroup,
)

CGROUP = FIXTURES / "linux" / "cgroup"
MIB = 1024**2


def files(folder: Path, names: tuple[str, ...]) -> dict[str, str | None]:
    return {name: (folder / name).read_text() if (folder / name).exists() else None for name in names}


def test_v1_cgroup_before_and_after_the_oom_killer_ended_a_process_in_it():
    # GIVEN the files of a 200 MiB v1 cgroup recorded before and after a process in it was OOM-killed
    before = memory_from_files(1, "/ci/session/memprobe-rec", files(CGROUP / "v1_killed" / "before", V1_FILES))
    after = memory_from_files(1, "/ci/session/memprobe-rec", files(CGROUP / "v1_killed" / "after", V1_FILES))
    assert before.limit_bytes == after.limit_bytes == 200 * MIB
    assert (before.oom_kills, before.limit_hits) == (0, 0)
    # THEN the kill is counted, the limit was reached 71 times, and the peak is the limit to the byte
    assert (after.oom_kills, after.limit_hits, after.peak_bytes) == (1, 71, 200 * MIB)
    assert after.usage_bytes == after.used_bytes == 155648  # the killed process took its memory with it


def test_v1_limit_set_on_a_parent_and_page_cache_that_does_not_count():
    # GIVEN a production v1 job cgroup (Galaxy): no limit of its own, 7.3 GiB on its parent, 97 MiB of
    # inactive file cache in its 98.6 MiB of usage
    memory = memory_from_files(1, "/job", files(CGROUP / "v1_galaxy", V1_FILES))
    assert memory.limit_bytes == 7853834240  # hierarchical_memory_limit
    assert memory.usage_bytes == 103391232
    assert memory.used_bytes == 103391232 - 101662720  # the working set: cache the kernel drops first is out
    assert memory.oom_kills is None  # a kernel before 4.13 has no oom_kill line: unknown, not zero


def test_v2_without_a_limit_and_v2_limited_after_a_kill():
    unlimited = memory_from_files(2, "/job", files(CGROUP / "v2_galaxy", V2_FILES))
    assert unlimited.limit_bytes is None and unlimited.usage_bytes == 139350016
    assert unlimited.used_bytes == 139350016 - 51507200 and unlimited.peak_bytes == 339906560
    assert (unlimited.oom_kills, unlimited.limit_hits) == (0, 0)
    # GIVEN only memory.max, memory.events and memory.peak of a 100 MiB cgroup after a kill
    killed = memory_from_files(2, "/oomlab", files(CGROUP / "v2_oomlab", V2_FILES))
    assert (killed.limit_bytes, killed.oom_kills, killed.limit_hits, killed.peak_bytes) == (100 * MIB, 1, 35, 100 * MIB)
    assert killed.usage_bytes is None and killed.used_bytes is None  # files not recorded: unknown


def test_a_v2_parent_limit_bounds_a_child_without_one():
    child = memory_from_files(
        2,
        "/pod/app",
        {"memory.max": "max\n", "memory.current": "1000\n"},
        ancestor_limits=("2147483648\n", "max\n", None),
    )
    assert child.limit_bytes == 2 * 1024**3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("max\n", None),
        ("9223372036854771712\n", None),
        ("209715200\n", 200 * MIB),
        ("", None),
        (None, None),
        ("garbage", None),
    ],
)
def test_limit_texts(text, expected):
    assert parse_limit(text) == expected


def test_the_recorded_v1_process_is_found_in_its_memory_hierarchy():
    # GIVEN /proc/self/cgroup and /proc/self/mountinfo of a process in the recorded v1 cgroup
    proc = (CGROUP / "v1_killed" / "proc_self_cgroup.txt").read_text()
    mounts = (CGROUP / "v1_killed" / "mountinfo.txt").read_text()
    assert parse_proc_cgroup(proc) == {"memory": "/ci/session/memprobe-rec", "unified": "/"}
    assert parse_mountinfo(mounts) == {
        "memory": ("/", "/sys/fs/cgroup/memory"),
        "unified": ("/", "/sys/fs/cgroup/unified"),
    }
    # THEN the v1 memory controller wins over the unified hierarchy mounted beside it without memory
    location = locate(proc, mounts, has_memory=lambda folder, version: False)
    assert (location.version, location.path, location.directory, location.top) == (
        1,
        "/ci/session/memprobe-rec",
        "/sys/fs/cgroup/memory/ci/session/memprobe-rec",
        "/sys/fs/cgroup/memory",
    )


# mountinfo lines as Docker containers show them (cgroup v2, own namespace / the host's namespace)
DOCKER_V2 = "570 569 0:29 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw,nsdelegate\n"
HOST_NS_V2 = (
    "1234 1233 0:28 /system.slice/docker-abc.scope /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw\n"
)


def test_v2_in_a_container_with_its_own_namespace_and_with_the_hosts():
    own = locate("0::/\n", DOCKER_V2, has_memory=lambda folder, version: True)
    assert (own.version, own.directory) == (2, "/sys/fs/cgroup")
    # the host's namespace: /proc/self/cgroup names the host path, the mount shows only that subtree
    host = locate("0::/system.slice/docker-abc.scope\n", HOST_NS_V2, has_memory=lambda folder, version: True)
    assert host.directory == "/sys/fs/cgroup"
    nested = locate("0::/system.slice/docker-abc.scope/app\n", HOST_NS_V2, has_memory=lambda f, v: True)
    assert nested.directory == "/sys/fs/cgroup/app"
    # without a memory controller there, and with no cgroup file system at all, there is nothing to read
    assert locate("0::/user.slice\n", DOCKER_V2, has_memory=lambda folder, version: False) is None
    assert locate("0::/\n", "") is None


def test_inactive_file_is_found_in_both_layouts():
    assert inactive_file(1, (CGROUP / "v1_galaxy" / "memory.stat").read_text()) == 101662720
    assert inactive_file(2, (CGROUP / "v2_galaxy" / "memory.stat").read_text()) == 51507200
    assert inactive_file(2, "anon 1\n") is None


def test_the_reader_reads_a_cgroup_tree_of_recorded_files(tmp_path):
    # GIVEN a v2 tree: a parent limited to 100 MiB (recorded), a child with the recorded usage files
    top = tmp_path / "cgroup"
    parent, child = top / "oomlab", top / "oomlab" / "job"
    shutil.copytree(CGROUP / "v2_oomlab", parent)
    shutil.copytree(CGROUP / "v2_galaxy", child)
    (tmp_path / "cgroup.txt").write_text("0::/oomlab/job\n")
    (tmp_path / "mountinfo.txt").write_text(f"35 25 0:31 / {top} rw,relatime - cgroup2 cgroup2 rw\n")
    reader = CgroupReader(str(tmp_path / "cgroup.txt"), str(tmp_path / "mountinfo.txt"))
    memory = reader.read()
    assert (memory.version, memory.path, memory.limit_bytes) == (2, "/oomlab/job", 100 * MIB)
    assert memory.oom_kills == 0 and memory.used_bytes == 139350016 - 51507200
    assert reader.working_set() == 139350016 - 51507200
    # WHEN the usage changes, THEN the hot path sees it at once (the cache figure is re-read every 0.5 s)
    (child / "memory.current").write_text("239350016\n")
    assert reader.working_set() == 239350016 - 51507200


def test_a_reader_without_a_cgroup_answers_none(tmp_path):
    reader = CgroupReader(str(tmp_path / "missing"), str(tmp_path / "missing"))
    assert reader.location is None and reader.read() is None and reader.working_set() is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this Linux machine's own cgroup")
def test_this_machine_has_a_memory_cgroup_and_the_sensors_report_it():
    sensors = Sensors()
    memory = sensors.cgroup()
    assert memory is not None and memory.version in (1, 2) and memory.path.startswith("/")
    assert memory.usage_bytes is None or memory.usage_bytes > 0
    kills = sensors.oom_kills()
    assert kills["boot_id"] and kills["system"] is not None and kills["cgroup_path"] == memory.path
    system = sensors.system()
    # a limited cgroup is sampled; an unlimited one is not (it bounds nothing)
    assert (system.cgroup_limit_bytes is None) == (memory.limit_bytes is None)
    assert Sensors(platform="darwin").cgroup() is None and Sensors(platform="darwin").oom_kills() == {}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sampler's Linux reading path")
def test_the_samplers_reading_carries_the_limited_cgroups_use(tmp_path):
    # GIVEN ComfyUI in a cgroup limited to 100 MiB (the recorded tree above)
    top = tmp_path / "cgroup"
    shutil.copytree(CGROUP / "v2_oomlab", top / "oomlab")
    shutil.copytree(CGROUP / "v2_galaxy", top / "oomlab" / "job")
    (tmp_path / "cgroup.txt").write_text("0::/oomlab/job\n")
    (tmp_path / "mountinfo.txt").write_text(f"35 25 0:31 / {top} rw,relatime - cgroup2 cgroup2 rw\n")
    sensors = Sensors()
    sensors.reader._cgroup = CgroupReader(str(tmp_path / "cgroup.txt"), str(tmp_path / "mountinfo.txt"))
    # WHEN the sampler reads (its own lean path, not a snapshot) THEN the cgroup's use is in the row,
    # and its limit, a total, only in the snapshot's metrics
    row = sensors.sample()
    assert row["cgroup_used_bytes"] == 139350016 - 51507200 and "cgroup_limit_bytes" not in row
    assert sensors.snapshot(disks=False).metrics()["cgroup_limit_bytes"] == 100 * MIB
