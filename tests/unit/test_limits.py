"""Which limit ends ComfyUI on each system (domain.md, "Which limit is enforced where"), and the
memory summary the panel reads."""

from __future__ import annotations

import pytest
from helpers import load_json

from memprobe.judging.limits import MemoryLimit, os_family, system_limits
from memprobe.judging.run_view import live_limits, memory_summary

GIB = 1024**3


@pytest.mark.parametrize(
    ("system", "mode", "swap", "cgroup", "expected"),
    [
        # Windows: the commit limit (RAM + pagefiles)
        ("Windows", None, 8 * GIB, None, ("commit limit", True, "commit_bytes", 40 * GIB)),
        # Linux strict overcommit: CommitLimit
        ("Linux", 2, 0, None, ("commit limit", True, "commit_bytes", 40 * GIB)),
        # Linux heuristic (default) or always-overcommit, no swap: RAM; with swap: RAM + swap
        ("Linux", 0, 0, None, ("RAM", True, "ram_used_bytes", 24 * GIB)),
        ("Linux", 1, 8 * GIB, None, ("RAM + swap", True, "ram_used_bytes", 32 * GIB)),
        ("Linux", None, 0, None, ("RAM", True, "ram_used_bytes", 24 * GIB)),  # mode unknown: the default
        # macOS: RAM + swap
        ("Darwin", None, 2 * GIB, None, ("RAM + swap", True, "ram_used_bytes", 26 * GIB)),
        # a container's cgroup limit below RAM comes first, whatever the overcommit mode
        ("Linux", 0, 0, 3 * GIB, ("container limit (cgroup)", True, "cgroup_used_bytes", 3 * GIB)),
        ("Linux", 2, 0, 3 * GIB, ("container limit (cgroup)", True, "cgroup_used_bytes", 3 * GIB)),
        # a cgroup limit above RAM bounds nothing
        ("Linux", 0, 0, 64 * GIB, ("RAM", True, "ram_used_bytes", 24 * GIB)),
    ],
)
def test_the_enforced_limit_per_system(system, mode, swap, cgroup, expected):
    limit = system_limits(
        system, overcommit_mode=mode, ram_total=24 * GIB, swap_total=swap, commit_limit=40 * GIB, cgroup_limit=cgroup
    )[0]
    assert (limit.name, limit.enforced, limit.metric, limit.limit_bytes) == expected


def test_linux_commit_limit_in_modes_0_and_1_is_listed_as_not_enforced():
    limits = system_limits("Linux 6.18.44", overcommit_mode=0, ram_total=24 * GIB, swap_total=0, commit_limit=12 * GIB)
    assert [(lim.name, lim.enforced) for lim in limits] == [
        ("RAM", True),
        ("commit limit (not enforced: overcommit mode 0)", False),
    ]
    # a commit far above it is no pressure: an informative limit is never "near"
    assert not limits[1].near({"commit_bytes": 20 * GIB})


def test_ram_plus_swap_counts_swap_in_use_and_is_pressure_within_10_percent():
    limit = MemoryLimit("RAM + swap", True, "ram_used_bytes", 32 * GIB, plus_swap=True)
    assert limit.used({"ram_used_bytes": 23 * GIB, "swap_used_bytes": 6 * GIB}) == 29 * GIB
    assert limit.near({"ram_used_bytes": 23 * GIB, "swap_used_bytes": 6 * GIB})  # 91 %
    assert not limit.near({"ram_used_bytes": 23 * GIB})  # 72 %: RAM nearly full is fine while swap is free
    assert limit.used({}) is None and not limit.near({})


def test_os_names():
    assert [os_family(n) for n in ("Windows 11", "Linux 6.8", "Darwin 23.1", "macOS", "", None, "FreeBSD")] == [
        "Windows",
        "Linux",
        "Darwin",
        "Darwin",
        "",
        "",
        "",
    ]


def test_the_recorded_linux_run_is_judged_by_ram_and_its_commit_line_is_not_a_limit():
    # GIVEN txt2img recorded on the project's Linux machine (24 GiB, no swap, overcommit mode 0)
    summary = memory_summary(load_json("runs/txt2img.json"))
    assert {k: summary[k] for k in ("metric", "limit_name", "limit_enforced")} == {
        "metric": "ram_used_bytes",
        "limit_name": "RAM",
        "limit_enforced": True,
    }
    assert summary["limit_bytes"] == 25276502016  # MemTotal 23.5 GiB
    assert summary["system"]["limit_name"] == "RAM" and summary["system"]["peak_bytes"] == 2917236736
    assert summary["commit_limit_enforced"] is False


def test_a_gpu_run_on_windows_keeps_vram_and_names_the_commit_limit_for_system_memory(gpu_run):
    summary = memory_summary(gpu_run)
    assert (summary["metric"], summary["limit_name"], summary["limit_bytes"]) == ("gpu0_used_bytes", "VRAM", 12 * GIB)
    assert summary["system"]["limit_name"] == "commit limit" and summary["commit_limit_enforced"] is True


def test_live_limits_from_the_context_and_a_sample():
    context = {
        "os": "Linux 6.18",
        "overcommit_mode": 0,
        "ram_total_bytes": 24 * GIB,
        "swap_total_bytes": 0,
        "commit_limit_bytes": 12 * GIB,
        "compute_device": "cpu",
        "cgroup": {"version": 1, "path": "/ci/x", "limit_bytes": 3 * GIB},
    }
    live = live_limits(context, {"ram_used_bytes": 5 * GIB, "cgroup_used_bytes": 2 * GIB, "commit_bytes": 20 * GIB})
    assert (live["limit_name"], live["limit_bytes"], live["system"]["used_bytes"]) == (
        "container limit (cgroup)",
        3 * GIB,
        2 * GIB,
    )
    assert live["commit_limit_enforced"] is False


@pytest.fixture
def gpu_run():
    from helpers import gpu_scenario

    return gpu_scenario("txt2img", "txt2img", vram_gib={"3": 6.0})
