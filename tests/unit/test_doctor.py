"""memprobe doctor: findings over machines as their readings come in, and the live machine."""

from __future__ import annotations

import json

import pytest
from helpers import FIXTURES

from memprobe.cli import main
from memprobe.judging.doctor import diagnose, suggest_pagefile
from memprobe.output.text import doctor_text as render_text
from memprobe.sensing.machine import gather_machine, machine_from_snapshot
from memprobe.sensing.snapshot import GpuMemory, Snapshot, SystemMemory
from memprobe.sensing.system import linux, windows

GIB = 1024**3
MIB = 1024**2


def machine(
    system: str,
    *,
    ram_gb: float | None,
    vram_gb: float | None,
    swap: dict,
    commit=None,
    limit=None,
    peak=None,
    overcommit=None,
    available_gb=None,
    unreadable=None,
):
    gpus = (
        ()
        if vram_gb is None
        else (
            GpuMemory(
                0,
                "cuda",
                "NVIDIA GeForce RTX",
                device_total_bytes=int(vram_gb * GIB),
                device_used_bytes=int(0.05 * vram_gb * GIB),
                driver_version="572.60",
            ),
        )
    )
    snap = Snapshot(
        0,
        0,
        gpus=gpus,
        system=SystemMemory(
            ram_total_bytes=int(ram_gb * GIB) if ram_gb else None,
            ram_available_bytes=int((available_gb or ram_gb * 0.6) * GIB) if ram_gb else None,
            commit_bytes=commit,
            commit_limit_bytes=limit,
            commit_peak_bytes=peak,
            overcommit_mode=overcommit,
        ),
    )
    return machine_from_snapshot(snap, swap, unreadable, system=system)


def win_swap(entries: list[str], *, free_gb=200, total_gb=1000, drive_type="fixed", rotational=False):
    areas = []
    for s in windows.parse_paging_files(entries):
        areas.append(
            {
                "path": s.path,
                "kind": "pagefile",
                "system_managed": s.system_managed,
                "all_drives": s.all_drives,
                "initial_bytes": s.initial_mb * MIB if s.initial_mb is not None else None,
                "maximum_bytes": s.maximum_mb * MIB if s.maximum_mb is not None else None,
                "drive": s.drive,
                "system_drive": s.drive == "C:",
                "volume": {"path": f"{s.drive}\\", "free_bytes": free_gb * GIB, "total_bytes": total_gb * GIB},
                "drive_type": drive_type,
                "rotational": rotational,
            }
        )
    return {"source": "registry", "areas": areas, "system_drive": "C:"}


def ids(findings):
    return [f.id for f in findings]


def test_the_32gb_machine_of_comfyui_impact_pack_1069_system_managed_pagefile():
    # "Memory Size: 32768 MB", "Page File Settings: 0 MB Initial, 0 MB Maximum", RTX 4070 Ti SUPER 16 GB
    doc = machine(
        "Windows",
        ram_gb=32,
        vram_gb=16,
        swap=win_swap(["C:\\pagefile.sys 0 0"]),
        commit=20 * GIB,
        limit=34 * GIB,
        peak=25 * GIB,
    )
    findings = diagnose(doc)
    managed = next(f for f in findings if f.id == "pagefile-system-managed")
    assert managed.severity == "warning" and "32 GB" in managed.action and "initial = maximum" in managed.action
    assert "C:\\pagefile.sys" in managed.evidence
    assert "commit-peak-high" not in ids(findings)


def test_no_pagefile_is_critical_and_listed_first():
    doc = machine("Windows", ram_gb=16, vram_gb=8, swap=win_swap([]), commit=10 * GIB, limit=16 * GIB, peak=15 * GIB)
    findings = diagnose(doc)
    assert findings[0].id == "pagefile-none" and findings[0].severity == "critical"
    assert "64 GB" in findings[0].action  # 16 GB RAM with 8 GB VRAM leans to 64 GB
    assert "commit-peak-high" in ids(findings)


def test_a_small_growing_pagefile_on_a_full_removable_hard_disk():
    doc = machine(
        "Windows",
        ram_gb=16,
        vram_gb=12,
        commit=5 * GIB,
        limit=20 * GIB,
        peak=6 * GIB,
        swap=win_swap(["E:\\pagefile.sys 2048 4096"], free_gb=3, total_gb=500, drive_type="removable", rotational=True),
    )
    found = ids(diagnose(doc))
    assert {"pagefile-too-small", "pagefile-removable", "pagefile-hdd", "pagefile-drive-low"} <= set(found)
    assert "pagefile-not-fixed" not in found  # "raise it to 64 GB, fixed (initial = maximum)" says it already


def test_a_well_set_up_windows_machine_passes():
    doc = machine(
        "Windows",
        ram_gb=32,
        vram_gb=16,
        swap=win_swap(["D:\\pagefile.sys 32768 32768"]),
        commit=12 * GIB,
        limit=64 * GIB,
        peak=30 * GIB,
    )
    findings = diagnose(doc)
    assert ids(findings) == ["ok"]


def test_commit_at_its_limit_now_is_critical():
    doc = machine(
        "Windows",
        ram_gb=32,
        vram_gb=16,
        swap=win_swap(["D:\\pagefile.sys 32768 32768"]),
        commit=62 * GIB,
        limit=64 * GIB,
        peak=63 * GIB,
    )
    assert {"commit-high", "commit-peak-high"} <= set(ids(diagnose(doc)))


def linux_swap(name: str):
    areas = [
        {
            "path": a.path,
            "kind": "zram" if a.is_zram else a.kind,
            "size_bytes": a.size_bytes,
            "used_bytes": a.used_bytes,
            "rotational": None if a.is_zram else False,
        }
        for a in linux.parse_swaps((FIXTURES / "linux" / name).read_text())
    ]
    return {"source": "/proc/swaps", "areas": areas}


def test_linux_machine_of_this_project_without_swap():
    fields = linux.system_fields((FIXTURES / "linux" / "meminfo_idle_24g_noswap.txt").read_text(), None, 0)
    doc = machine_from_snapshot(
        Snapshot(0, 0, system=SystemMemory(**fields)), linux_swap("swaps_none.txt"), system="Linux"
    )
    findings = diagnose(doc)
    swap = next(f for f in findings if f.id == "swap-none")
    assert swap.severity == "warning" and "OOM killer" in swap.action and "32 GB" in swap.action
    assert "gpu-none" in ids(findings)


def test_linux_zram_only_and_strict_overcommit_near_its_limit():
    doc = machine("Linux", ram_gb=16, vram_gb=None, swap=linux_swap("swaps_zram_and_file.txt"))
    assert "swap-zram-only" not in ids(diagnose(doc))  # a swap file is there too
    doc = machine(
        "Linux",
        ram_gb=16,
        vram_gb=12,
        swap={
            "source": "/proc/swaps",
            "areas": [{"path": "/dev/zram0", "kind": "zram", "size_bytes": 8 * GIB, "used_bytes": 0}],
        },
        commit=19 * GIB,
        limit=20 * GIB,
        overcommit=2,
    )
    assert {"swap-zram-only", "overcommit-strict", "commit-high"} <= set(ids(diagnose(doc)))


def test_low_ram_and_full_disks_are_reported():
    doc = machine("Linux", ram_gb=16, vram_gb=None, swap=linux_swap("swaps_64g_file.txt"), available_gb=1)
    doc["disks"] = [{"role": "output", "path": "/data/out", "free_bytes": 2 * GIB, "total_bytes": 1000 * GIB}]
    found = ids(diagnose(doc))
    assert "ram-low" in found and "disk-low-output" in found


def test_macos_says_swap_is_managed_by_the_system():
    assert "swap-dynamic" in ids(diagnose(machine("Darwin", ram_gb=32, vram_gb=None, swap={"areas": []})))


@pytest.mark.parametrize(
    ("ram", "vram", "recommended"),
    [(8, 4, 32), (16, 16, 32), (16, 8, 64), (32, 24, 32), (32, 6, 64), (64, 24, 32), (128, 80, 32)],
)
def test_pagefile_table(ram, vram, recommended):
    # the OS reports a little less than the nominal size
    advice = suggest_pagefile(int(ram * 0.97 * GIB), vram * GIB)
    assert advice.recommended_bytes == recommended * GIB


def test_a_measured_peak_commit_raises_the_suggestion():
    advice = suggest_pagefile(32 * GIB, 24 * GIB, peak_commit_bytes=80 * GIB)
    assert advice.recommended_bytes == 72 * GIB and "peak commit" in advice.basis
    assert suggest_pagefile(None, None) is None


def test_the_text_report_shows_what_was_read_and_what_to_do():
    doc = machine(
        "Windows",
        ram_gb=32,
        vram_gb=16,
        swap=win_swap(["C:\\pagefile.sys 0 0"]),
        commit=20 * GIB,
        limit=34 * GIB,
        peak=25 * GIB,
    )
    text = render_text(doc, diagnose(doc))
    assert "GPU 0" in text and "driver 572.60" in text and "system managed" in text
    assert "read:" in text and "do:" in text


def test_live_gather_on_this_machine():
    doc = gather_machine({"tmp": str(FIXTURES)}, allow_cuda_init=False)
    assert doc["memory"]["ram_total_bytes"] > 0 and [d["role"] for d in doc["disks"]][-1] == "tmp"
    assert isinstance(doc["swap"]["areas"], list)
    for entry in doc["unreadable"]:  # whatever this machine could not read is null and says why
        assert set(entry) == {"value", "label", "reason"} and entry["reason"]


def test_a_folder_whose_free_space_cannot_be_read_is_listed_with_the_reason():
    missing = str(FIXTURES / "no such folder")
    doc = gather_machine({"models": missing}, allow_cuda_init=False)
    index = [d["role"] for d in doc["disks"]].index("models")
    assert doc["disks"][index]["free_bytes"] is None
    entry = next(u for u in doc["unreadable"] if u["value"] == f"disks[{index}].free_bytes")
    assert entry["label"] == f"free space of {missing}"
    assert entry["reason"].startswith(("[Errno 2]", "[WinError 2]"))  # the OS error, as Python words it


# ------------------------------------------------------------------ readings that are missing
WINE_PAGING_FILES = [
    "C:\\pagefile.sys 27 77"
]  # Wine's fixed registry default (tests/fixtures/windows/wine8_readings.json)
PSUTIL_SWAP = (
    "psutil.swap_memory() failed: RuntimeError: PdhAddEnglishCounterW failed. Performance counters may be disabled."
)


def test_issue_12_a_77_mib_pagefile_is_flagged_even_with_ram_unknown():
    # what psutil's failing swap reading once cost: RAM and commit unknown, the registry still read
    memory_values = ("ram_total_bytes", "ram_available_bytes", "commit_bytes", "commit_limit_bytes", "swap_used_bytes")
    doc = machine(
        "Windows",
        ram_gb=None,
        vram_gb=None,
        swap=win_swap(WINE_PAGING_FILES),
        unreadable=[{"value": f"memory.{k}", "label": k, "reason": PSUTIL_SWAP} for k in memory_values],
    )
    findings = diagnose(doc)
    tiny = findings[0]
    assert (tiny.id, tiny.severity) == ("pagefile-too-small", "critical")
    assert "77.0 MiB at most" in tiny.title and "as good as none" in tiny.title
    assert "RAM could not be read" in tiny.evidence and "32 GB" in tiny.action
    assert "ok" not in ids(findings)
    skipped = next(f for f in findings if f.id == "not-checked")
    assert "whether commit is near its limit now" in skipped.action and "whether RAM is low now" in skipped.action
    assert "the pagefile/swap size against the RAM table" in skipped.action
    assert PSUTIL_SWAP in skipped.evidence


def test_a_fixed_16_gb_pagefile_is_small_whatever_the_ram():
    doc = machine("Windows", ram_gb=None, vram_gb=12, swap=win_swap(["D:\\pagefile.sys 16384 16384"]))
    small = next(f for f in diagnose(doc) if f.id == "pagefile-too-small")
    assert small.severity == "warning" and "the smallest size for any machine" in small.action


def test_two_small_fixed_pagefiles_make_one_finding_with_both():
    doc = machine(
        "Windows", ram_gb=32, vram_gb=8, swap=win_swap(["C:\\pagefile.sys 4096 4096", "E:\\pagefile.sys 8192 8192"])
    )
    small = [f for f in diagnose(doc) if f.id == "pagefile-too-small"]
    assert len(small) == 1 and "12.0 GiB at most" in small[0].title
    assert "C:\\pagefile.sys" in small[0].evidence and "E:\\pagefile.sys" in small[0].evidence


def test_a_system_managed_pagefile_beside_a_fixed_one_is_not_judged_by_its_registry_size():
    doc = machine(
        "Windows", ram_gb=32, vram_gb=8, swap=win_swap(["C:\\pagefile.sys 0 0", "E:\\pagefile.sys 1024 1024"])
    )
    found = ids(diagnose(doc))
    assert "pagefile-system-managed" in found and "pagefile-too-small" not in found


def test_what_could_not_be_read_is_said_and_the_rest_still_passes():
    unreadable = [
        {
            "value": "memory.commit_peak_bytes",
            "label": "peak commit since start-up",
            "reason": "GetPerformanceInfo gave CommitPeak = 0 (this system does not keep the peak)",
        },
        {"value": "memory.swap_used_bytes", "label": "pagefile/swap in use", "reason": PSUTIL_SWAP},
        {
            "value": "swap.areas[0].rotational",
            "label": "whether D: is an SSD or a hard disk",
            "reason": "[WinError 50] the seek-penalty query (DeviceIoControl): Request not supported.",
        },
    ]
    swap = win_swap(["D:\\pagefile.sys 32768 32768"], rotational=None)
    doc = machine("Windows", ram_gb=32, vram_gb=16, swap=swap, commit=12 * GIB, limit=64 * GIB, unreadable=unreadable)
    findings = diagnose(doc)
    assert ids(findings) == ["pagefile-disk-kind-unknown", "not-checked", "ok"]
    assert "[WinError 50]" in findings[0].evidence
    assert findings[1].title == "1 check could not run"
    assert findings[1].action.startswith("Not checked: whether commit came close to its limit since start-up.")
    assert "every check that could run passed" in findings[2].evidence
    text = render_text(doc, findings)
    assert "Could not read\n   peak commit since start-up (memory.commit_peak_bytes): GetPerformanceInfo gave" in text
    assert f"pagefile/swap in use (memory.swap_used_bytes): {PSUTIL_SWAP}" in text
    assert "\nPagefile n/a (registry)\n" in text  # Windows calls it the pagefile


def test_cli_doctor_json_has_stable_keys(capsys):
    assert main(["doctor", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"memprobe_version", "platform", "gpus", "memory", "swap", "disks", "findings", "suggested_pagefile"} <= set(
        doc
    )
    assert {"id", "severity", "title", "evidence", "action"} == set(doc["findings"][0])
    assert {"ram_total_bytes", "commit_bytes", "commit_limit_bytes", "swap_total_bytes"} <= set(doc["memory"])


def test_cli_doctor_text_and_a_bad_path_argument(capsys):
    assert main(["doctor", "--path", f"models={FIXTURES}"]) == 0
    out = capsys.readouterr().out
    assert "Memory Probe doctor" in out and "Findings" in out and "models" in out
    assert main(["doctor", "--path", "nonsense"]) == 2
    assert "ROLE=FOLDER" in capsys.readouterr().err


def test_the_pagefile_basis_names_the_real_ram_and_the_table_rows():
    # GIVEN the project's machine: 23.5 GiB of RAM (24 GB installed)
    advice = suggest_pagefile(25276502016, None)
    assert "16 GB RAM" not in advice.basis
    assert advice.basis.startswith("23.5 GiB RAM, between the table's 16 GB and 32 GB rows")
    assert advice.recommended_bytes == 32 * GIB
    assert suggest_pagefile(int(15.6 * GIB), 8 * GIB).basis.startswith("15.6 GiB RAM, the table's 16 GB row")
    assert "64 GB or more row" in suggest_pagefile(128 * GIB, 24 * GIB).basis


def cgroup_machine(after: bool, *, ram_gb: float = 24):
    from memprobe.sensing.system.cgroup import V1_FILES, memory_from_files

    folder = FIXTURES / "linux" / "cgroup" / "v1_killed" / ("after" if after else "before")
    memory = memory_from_files(1, "/ci/session/memprobe-rec", {n: (folder / n).read_text() for n in V1_FILES})
    fields = linux.system_fields((FIXTURES / "linux" / "meminfo_idle_24g_noswap.txt").read_text(), None, 0)
    snap = Snapshot(0, 0, system=SystemMemory(**{**fields, "ram_total_bytes": int(ram_gb * GIB)}))
    return machine_from_snapshot(snap, linux_swap("swaps_none.txt"), cgroup=memory, system="Linux")


def test_a_container_limit_is_the_limit_and_its_oom_kills_are_reported():
    # GIVEN the recorded 200 MiB v1 cgroup after the OOM killer ended a process in it
    doc = cgroup_machine(after=True)
    assert (doc["memory"]["limit_name"], doc["memory"]["limit_bytes"]) == ("container limit (cgroup)", 200 * MIB)
    assert doc["cgroup"]["oom_kills"] == 1
    findings = {f.id: f for f in diagnose(doc)}
    assert findings["cgroup-limit"].title == "ComfyUI runs in a container limited to 200.0 MiB of memory"
    assert "docker run --memory" in findings["cgroup-limit"].action
    assert findings["cgroup-oom-kills"].severity == "warning" and "oom_kill 1" in findings["cgroup-oom-kills"].evidence
    # host swap is not what to change in a container
    assert findings["swap-none"].severity == "info" and "container" in findings["swap-none"].action
    text = render_text(doc, diagnose(doc))
    assert "Limit    container limit (cgroup): " in text and "Cgroup   v1 /ci/session/memprobe-rec" in text
    # before any kill: no kill finding
    assert "cgroup-oom-kills" not in ids(diagnose(cgroup_machine(after=False)))


def test_a_cgroup_limit_above_ram_bounds_nothing():
    doc = cgroup_machine(after=False, ram_gb=0.1)  # 100 MiB of RAM, 200 MiB limit
    assert doc["memory"]["limit_name"] == "RAM"
    assert next(f for f in diagnose(doc) if f.id == "cgroup-limit").severity == "info"


def test_linux_mode_0_names_ram_as_the_limit_and_the_commit_line_as_not_enforced():
    fields = linux.system_fields((FIXTURES / "linux" / "meminfo_4g_swap_overcommitted.txt").read_text(), None, 0)
    doc = machine_from_snapshot(
        Snapshot(0, 0, system=SystemMemory(**fields)), linux_swap("swaps_64g_file.txt"), system="Linux"
    )
    assert doc["memory"]["limit_name"] == "RAM + swap" and doc["memory"]["limit_enforced"] is True
    assert doc["memory"]["commit_bytes"] > doc["memory"]["commit_limit_bytes"]  # overcommitted ...
    assert "commit-high" not in ids(diagnose(doc))  # ... which is no finding in mode 0
    text = render_text(doc, diagnose(doc))
    assert "(overcommit mode 0: not enforced)" in text and "Limit    RAM + swap: " in text


def test_without_path_the_doctor_reports_home_current_folder_and_comfyuis_folders(tmp_path):
    from memprobe.sensing.machine import default_disk_paths

    comfy = tmp_path / "ComfyUI"
    for folder in ("comfy", "models", "output", "custom_nodes/memory-probe/memprobe"):
        (comfy / folder).mkdir(parents=True)
    (comfy / "main.py").write_text("")
    (comfy / "folder_paths.py").write_text("")
    # GIVEN the doctor run from a folder above ComfyUI, all on one volume
    paths = default_disk_paths(cwd=tmp_path, home=tmp_path, pack=comfy / "custom_nodes" / "memory-probe")
    assert paths == {"home, current folder, ComfyUI models, ComfyUI output": str(tmp_path)}
    # GIVEN a package installed in ComfyUI's custom_nodes, run from elsewhere: ComfyUI is found through it
    paths = default_disk_paths(
        cwd=tmp_path / "ComfyUI" / "output", home=tmp_path, pack=comfy / "custom_nodes" / "memory-probe"
    )
    assert list(paths) == ["home, current folder, ComfyUI models, ComfyUI output"]
    # GIVEN no ComfyUI anywhere: the home and current folders only
    assert list(default_disk_paths(cwd=tmp_path / "ComfyUI" / "models", home=tmp_path, pack=tmp_path)) == [
        "home, current folder"
    ]


def test_the_cli_without_path_lists_disks(capsys):
    assert main(["doctor", "--json"]) == 0
    disks = json.loads(capsys.readouterr().out)["disks"]
    assert disks and any("home" in d["role"] for d in disks) and all(d["free_bytes"] is not None for d in disks)
