"""``memprobe doctor``: a verdict on a machine's memory set-up, with the reasons.

Pure functions over the document :func:`memprobe.sensing.machine.gather_machine` builds, so every rule
is tested with recorded machines. Each finding says what was read (``evidence``) and exactly
what to do (``action``); where the doctor cannot tell, it says so rather than guess: the
``not-checked`` finding names each check that a value in the document's ``unreadable`` list kept
from running, and why that value could not be read.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from ..format import GIB, fmt_bytes, fmt_pair
from ..vocabulary import FINDING_SEVERITIES
from .limits import CGROUP, NEAR_LIMIT, disk_is_low

__all__ = ["Finding", "PagefileAdvice", "examine", "diagnose", "suggest_pagefile", "largest_vram"]

PAGEFILE_FLOOR_BYTES = 32 * GIB
"""The smallest pagefile the table suggests for any machine (every row starts at 32 GB), so a
fixed pagefile below it is small whatever the RAM; below 1 GiB it is as good as none."""


@dataclass(frozen=True, slots=True)
class Finding:
    id: str
    severity: str
    title: str
    evidence: str
    action: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class PagefileAdvice:
    """A fixed pagefile size from the RAM/VRAM table (README, `memprobe doctor`). Sizes in bytes."""

    low_bytes: int
    high_bytes: int
    recommended_bytes: int
    basis: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_ROWS = (  # domain table: (RAM GB, low, high, leans to 64 GB with small VRAM/video, text)
    (8, 32, 64, False, "32 GB or more, but adding RAM helps more"),
    (16, 32, 64, True, "32-64 GB"),
    (32, 32, 64, True, "32-64 GB"),
    (64, 32, 32, False, "32 GB as a safety net"),
)


def suggest_pagefile(
    ram_bytes: int | None, vram_bytes: int | None, *, peak_commit_bytes: int | None = None, video: bool = False
) -> PagefileAdvice | None:
    """The seed size for a fixed pagefile, from installed RAM and the largest GPU's VRAM.

    The table's row is the one that matches the machine's RAM (within 10 %: an OS reports a
    little less than what is installed); RAM between two rows says so and takes the lower row's
    size. ``basis`` names the real RAM and the row(s) used.

    With a measured peak commit (from a traced run) the size is raised to cover that peak plus
    25% headroom: the workflow's own peak is the reference, the table only the starting point.
    """
    if not ram_bytes:
        return None
    ram_gb = ram_bytes / GIB
    small_vram = vram_bytes is not None and vram_bytes <= 8.5 * GIB
    matching = [row for row in _ROWS if 0.9 * row[0] <= ram_gb <= 1.1 * row[0]]
    if matching or ram_gb < _ROWS[0][0] or ram_gb > _ROWS[-1][0]:
        rows = matching[:1] or [_ROWS[0] if ram_gb < _ROWS[0][0] else _ROWS[-1]]
    else:
        rows = [
            max((r for r in _ROWS if r[0] < ram_gb), key=lambda r: r[0]),
            min((r for r in _ROWS if r[0] > ram_gb), key=lambda r: r[0]),
        ]
    row = rows[0]
    low, high = row[1], max(r[2] for r in rows)
    rec = 64 if row[3] and (small_vram or video) else row[1]
    lean = " (64 GB with 6-8 GB VRAM or video)" if rec == 64 else ""
    names = [f"{r[0]} GB{' or more' if r is _ROWS[-1] else ''}" for r in rows]
    if len(rows) == 1:
        basis = f"{fmt_bytes(ram_bytes)} RAM, the table's {names[0]} row: {row[4]}{lean}"
    else:
        sizes = f"both {row[4]}" if rows[0][4] == rows[1][4] else f"{rows[0][4]} / {rows[1][4]}"
        basis = f"{fmt_bytes(ram_bytes)} RAM, between the table's {names[0]} and {names[1]} rows ({sizes}){lean}"
    advice = PagefileAdvice(low * GIB, high * GIB, rec * GIB, basis)
    if peak_commit_bytes is not None:
        needed = int(peak_commit_bytes * 1.25) - ram_bytes
        if needed > advice.recommended_bytes:
            rounded = -(-needed // (8 * GIB)) * 8 * GIB  # up to the next 8 GB
            advice = PagefileAdvice(
                advice.low_bytes,
                max(advice.high_bytes, rounded),
                rounded,
                f"this workflow's peak commit {fmt_bytes(peak_commit_bytes)} + 25% headroom, "
                f"minus {fmt_bytes(ram_bytes)} RAM",
            )
    return advice


def largest_vram(machine: dict[str, Any]) -> int | None:
    totals = [g["vram_total_bytes"] for g in machine.get("gpus", []) if g.get("vram_total_bytes")]
    return max(totals) if totals else None


def diagnose(machine: dict[str, Any]) -> list[Finding]:
    """Every finding for the machine, most severe first."""
    system = (machine.get("platform") or {}).get("system", "")
    findings: list[Finding] = []
    findings += _gpu_findings(machine)
    if system == "Windows":
        findings += _windows_findings(machine)
    elif system == "Linux":
        findings += _linux_findings(machine)
    elif system == "Darwin":
        findings.append(
            Finding(
                "swap-dynamic",
                "info",
                "macOS manages swap itself",
                "macOS creates swap files on demand; there is no pagefile to size",
                "Keep 20 GB or more free on the system volume so swap can grow.",
            )
        )
    findings += _ram_findings(machine)
    findings += _disk_findings(machine)
    not_checked = _not_checked(machine)
    if not_checked is not None:
        findings.append(not_checked)
    if not any(f.severity in ("critical", "warning") for f in findings):
        passed = (
            "every check that could run passed (see above for those that could not)"
            if not_checked
            else "all checks above passed"
        )
        findings.append(
            Finding(
                "ok",
                "ok",
                "No memory set-up problem found",
                passed,
                "Nothing to change. Run a workflow with Memory Probe to see its real peaks.",
            )
        )
    return sorted(findings, key=lambda f: list(FINDING_SEVERITIES).index(f.severity))


_CHECKS = {  # an unreadable value (list indices removed) -> the check it keeps from running
    "memory.ram_total_bytes": "the pagefile/swap size against the RAM table (the 32 GB floor still applies)",
    "memory.ram_available_bytes": "whether RAM is low now",
    "memory.commit_bytes": "whether commit is near its limit now",
    "memory.commit_limit_bytes": "whether commit is near its limit now",
    "memory.commit_peak_bytes": "whether commit came close to its limit since start-up",
    "swap.areas.volume": "free space where the pagefile/swap lives",
    "disks.free_bytes": "free disk space",
}  # the pagefile settings and the disk kind have findings of their own


def _not_checked(machine: dict[str, Any]) -> Finding | None:
    skipped: dict[str, list[str]] = {}
    for entry in machine.get("unreadable") or []:
        check = _CHECKS.get(re.sub(r"\[\d+\]", "", entry.get("value", "")))
        if check is not None:
            skipped.setdefault(check, []).append(f"{entry.get('label')}: {entry.get('reason')}")
    if not skipped:
        return None
    return Finding(
        "not-checked",
        "info",
        f"{len(skipped)} check{'s' if len(skipped) > 1 else ''} could not run",
        "could not read " + "; ".join(dict.fromkeys(r for reasons in skipped.values() for r in reasons)),
        "Not checked: " + "; ".join(skipped) + ". The findings above stand on what could be read.",
    )


def _gpu_findings(machine: dict[str, Any]) -> list[Finding]:
    gpus = machine.get("gpus") or []
    if not gpus:
        return [
            Finding(
                "gpu-none",
                "info",
                "No GPU found",
                "neither torch nor NVML reported a GPU",
                "ComfyUI will run on the CPU: slow, and every model lives in RAM, so RAM and the "
                "pagefile/swap are the memory that can run out.",
            )
        ]
    out = []
    for g in gpus:
        total, used = g.get("vram_total_bytes"), g.get("vram_used_bytes")
        label = f"GPU {g['index']} ({g.get('name') or 'unknown'})"
        if total and total <= 8.5 * GIB:
            out.append(
                Finding(
                    "vram-small",
                    "info",
                    f"{label} has {fmt_bytes(total)} of VRAM",
                    f"{label}: VRAM {fmt_pair(used, total)}",
                    "ComfyUI will offload model parts to RAM: size RAM + pagefile for that "
                    "(the pagefile advice below already leans to the larger size).",
                )
            )
        if total and used is not None and used >= 0.25 * total and used >= 1 * GIB:
            out.append(
                Finding(
                    "vram-in-use",
                    "info",
                    f"{fmt_bytes(used)} of {label}'s VRAM is already in use",
                    f"{label}: VRAM {fmt_pair(used, total)} now (all processes)",
                    "Close what else uses the card (games, browsers with hardware acceleration, "
                    "another ComfyUI) before a heavy workflow, or account for it.",
                )
            )
    return out


def _pagefile_advice(machine: dict[str, Any]) -> PagefileAdvice | None:
    return suggest_pagefile(machine["memory"].get("ram_total_bytes"), largest_vram(machine))


def examine(machine: dict[str, Any]) -> tuple[dict[str, Any], list[Finding]]:
    """The doctor's whole answer for a gathered machine document (``machine.gather_machine``): the
    document with ``findings`` and ``suggested_pagefile`` added (what ``memprobe doctor --json``
    prints and ``GET /memprobe/system`` serves), and the findings themselves."""
    findings = diagnose(machine)
    advice = _pagefile_advice(machine)
    machine["findings"] = [f.to_dict() for f in findings]
    machine["suggested_pagefile"] = advice.to_dict() if advice else None
    return machine, findings


def _windows_findings(machine: dict[str, Any]) -> list[Finding]:
    swap = machine.get("swap") or {}
    mem = machine["memory"]
    advice = _pagefile_advice(machine)
    size_text = f"{advice.recommended_bytes // GIB} GB" if advice else f"{PAGEFILE_FLOOR_BYTES // GIB} GB"
    basis = f" ({advice.basis})" if advice else " (the smallest size for any machine; RAM could not be read)"
    out: list[Finding] = []
    if swap.get("error"):
        out.append(
            Finding(
                "pagefile-unknown",
                "info",
                "The pagefile settings could not be read",
                f"registry: {swap['error']}",
                "Check them in System > Advanced system settings > Performance > Advanced > Virtual memory.",
            )
        )
        return out + _commit_findings(mem, windows=True)
    areas = swap.get("areas") or []
    if not areas:
        out.append(
            Finding(
                "pagefile-none",
                "critical",
                "There is no pagefile",
                "registry PagingFiles is empty: the commit limit is the RAM alone "
                f"({fmt_bytes(mem.get('commit_limit_bytes'))})",
                f"Create a fixed pagefile of {size_text}{basis} (initial = maximum) on a non-system "
                "SSD with free space. Without one, ComfyUI fails or is closed as soon as RAM is full.",
            )
        )
    for area in areas:
        where = area.get("drive") or "every drive"
        if area.get("system_managed"):
            out.append(
                Finding(
                    "pagefile-system-managed",
                    "warning",
                    f"The pagefile on {where} is system managed",
                    f"registry PagingFiles: {area['path']} with no fixed size",
                    f"Set a fixed size instead: initial = maximum = {size_text}{basis}. A growing "
                    "pagefile stalls while it grows and can fail to grow in time.",
                )
            )
            continue
        initial, maximum = area.get("initial_bytes"), area.get("maximum_bytes")
        if initial is not None and maximum is not None and initial < maximum:
            out.append(
                Finding(
                    "pagefile-not-fixed",
                    "info",
                    f"The pagefile on {where} can grow",
                    f"initial {fmt_bytes(initial)} < maximum {fmt_bytes(maximum)}",
                    f"Set initial = maximum ({fmt_bytes(maximum)}) to avoid resize stalls.",
                )
            )
    size = _pagefile_size_findings(machine, areas, advice, size_text, basis)
    if size:  # its action already says "fixed (initial = maximum)" at the right size
        out = [f for f in out if f.id != "pagefile-not-fixed"] + size
    reasons = {u.get("value"): u.get("reason") for u in machine.get("unreadable") or []}
    out += _pagefile_drive_findings(areas, advice, reasons)
    return out + _commit_findings(mem, windows=True)


def _pagefile_size_findings(
    machine: dict[str, Any], areas: list[dict[str, Any]], advice: PagefileAdvice | None, size_text: str, basis: str
) -> list[Finding]:
    """Fixed pagefiles whose maxima add up to less than the table's low end (32 GB for every RAM
    size, so this is judged even when RAM could not be read)."""
    if not areas or any(a.get("system_managed") or a.get("maximum_bytes") is None for a in areas):
        return []  # a system-managed pagefile grows: its size is not the registry's to tell
    total = _total_fixed(areas)
    if total >= (advice.low_bytes if advice else PAGEFILE_FLOOR_BYTES):
        return []
    tiny = total < GIB
    mem = machine["memory"]
    sizes = ", ".join(
        f"{a['path']} {fmt_bytes(a.get('initial_bytes'))} initial, {fmt_bytes(a.get('maximum_bytes'))} maximum"
        for a in areas
    )
    ram = fmt_bytes(mem.get("ram_total_bytes")) if mem.get("ram_total_bytes") else "could not be read"
    title = f"The pagefile ({fmt_bytes(total)} at most) is " + ("as good as none" if tiny else "small for this machine")
    action = f"Raise it to {size_text}{basis}, fixed (initial = maximum)."
    if tiny:
        action += (
            " Under 1 GB of pagefile leaves the commit limit at about the RAM alone: ComfyUI fails or is "
            "closed as soon as RAM is full."
        )
    return [
        Finding(
            "pagefile-too-small",
            "critical" if tiny else "warning",
            title,
            f"registry: {sizes}; RAM {ram}, largest VRAM {fmt_bytes(largest_vram(machine))}",
            action,
        )
    ]


def _total_fixed(areas: list[dict[str, Any]]) -> int:
    return sum(a.get("maximum_bytes") or 0 for a in areas)


def _pagefile_drive_findings(
    areas: list[dict[str, Any]], advice: PagefileAdvice | None, reasons: dict[str, str] | None = None
) -> list[Finding]:
    out = []
    for i, area in enumerate(areas):
        drive = area.get("drive")
        if not drive:
            continue
        if area.get("drive_type") == "removable":
            out.append(
                Finding(
                    "pagefile-removable",
                    "warning",
                    f"The pagefile is on removable drive {drive}",
                    f"{drive} is reported as a removable drive",
                    "Move it to an internal SSD: a USB drive is slow and can disappear.",
                )
            )
        if area.get("rotational") is True:
            out.append(
                Finding(
                    "pagefile-hdd",
                    "warning",
                    f"The pagefile is on a hard disk ({drive})",
                    f"{drive} reports a seek penalty (a spinning disk)",
                    "Move it to an SSD: paging to an HDD makes offloaded workflows crawl.",
                )
            )
        elif area.get("rotational") is None and area.get("drive_type") == "fixed":
            reason = (reasons or {}).get(f"swap.areas[{i}].rotational")
            out.append(
                Finding(
                    "pagefile-disk-kind-unknown",
                    "info",
                    f"Could not tell whether {drive} is an SSD",
                    f"{drive} did not answer the seek-penalty query" + (f" ({reason})" if reason else ""),
                    "Prefer an SSD for the pagefile.",
                )
            )
        volume = area.get("volume") or {}
        free, total = volume.get("free_bytes"), volume.get("total_bytes")
        if free is not None and total:
            need = advice.recommended_bytes if advice and area.get("system_managed") else 0
            if free < 0.1 * total or free < need:
                where = f"{drive} (the system drive)" if area.get("system_drive") else drive
                out.append(
                    Finding(
                        "pagefile-drive-low",
                        "warning",
                        f"Little free space where the pagefile lives: {where}",
                        f"{drive}: {fmt_bytes(free)} free of {fmt_bytes(total)}",
                        "Free space there (keep 10% or more free), or move the pagefile to a non-system "
                        "SSD with room. Deleting old outputs frees disk, not VRAM.",
                    )
                )
    return out


def _commit_findings(mem: dict[str, Any], *, windows: bool) -> list[Finding]:
    out = []
    commit, limit, peak = mem.get("commit_bytes"), mem.get("commit_limit_bytes"), mem.get("commit_peak_bytes")
    if windows and peak is not None and limit and peak >= NEAR_LIMIT * limit:
        out.append(
            Finding(
                "commit-peak-high",
                "warning",
                "Commit came close to its limit since the last restart",
                f"peak commit {fmt_pair(peak, limit)}",
                "RAM + pagefile nearly ran out at some point: a larger fixed pagefile or fewer "
                "programs at once keeps ComfyUI from being closed by Windows.",
            )
        )
    if commit is not None and limit and commit >= NEAR_LIMIT * limit and (windows or mem.get("overcommit_mode") == 2):
        out.append(
            Finding(
                "commit-high",
                "critical",
                "Commit is near its limit right now",
                f"commit {fmt_pair(commit, limit)}",
                "Close programs before running ComfyUI, or enlarge the pagefile/swap.",
            )
        )
    return out


def _linux_findings(machine: dict[str, Any]) -> list[Finding]:
    mem = machine["memory"]
    areas = (machine.get("swap") or {}).get("areas") or []
    ram = mem.get("ram_total_bytes") or 0
    advice = _pagefile_advice(machine)
    size_text = f"{advice.recommended_bytes // GIB} GB" if advice else "32 GB"
    out: list[Finding] = []
    disk_swap = [a for a in areas if a.get("kind") != "zram"]
    contained = mem.get("limit_name") == CGROUP
    if not areas and contained:
        out.append(
            Finding(
                "swap-none",
                "info",
                "There is no swap (the container's limit comes first)",
                f"/proc/swaps lists no swap area; RAM {fmt_bytes(ram)}, but this process's cgroup is "
                f"limited to {fmt_bytes(mem.get('limit_bytes'))}",
                "In a container the limit that ends ComfyUI is the container's: size that (see above) "
                "rather than the host's swap.",
            )
        )
    elif not areas:
        severity = "warning" if ram < 32 * GIB else "info"
        out.append(
            Finding(
                "swap-none",
                severity,
                "There is no swap",
                f"/proc/swaps lists no swap area; RAM {fmt_bytes(ram)}",
                f"Add a swap file of {size_text} on an SSD (fallocate, mkswap, swapon, /etc/fstab). "
                "Without swap, the kernel's OOM killer ends ComfyUI the moment RAM is full.",
            )
        )
    elif not disk_swap:
        out.append(
            Finding(
                "swap-zram-only",
                "info",
                "Swap is compressed RAM (zram) only",
                "/proc/swaps lists only /dev/zram devices",
                "zram stretches RAM but adds no disk-backed headroom; add a swap file on an SSD if "
                "large models still get ComfyUI killed.",
            )
        )
    for area in disk_swap:
        if area.get("rotational") is True:
            out.append(
                Finding(
                    "swap-hdd",
                    "info",
                    f"Swap {area['path']} is on a spinning disk",
                    "the kernel reports its disk as rotational",
                    "Prefer a swap file on an SSD; paging to an HDD makes offloaded workflows crawl. "
                    "(Virtual disks often report rotational; ignore this there.)",
                )
            )
    mode = mem.get("overcommit_mode")
    if mode == 2:
        out.append(
            Finding(
                "overcommit-strict",
                "info",
                "Strict overcommit (vm.overcommit_memory = 2)",
                f"CommitLimit {fmt_bytes(mem.get('commit_limit_bytes'))}, committed now "
                f"{fmt_bytes(mem.get('commit_bytes'))}",
                "Allocations beyond CommitLimit fail with 'Cannot allocate memory' even with RAM free; "
                "more swap or vm.overcommit_ratio raises the limit.",
            )
        )
    return _cgroup_findings(machine) + out + _commit_findings(mem, windows=False)


def _cgroup_findings(machine: dict[str, Any]) -> list[Finding]:
    """A memory cgroup with a limit below RAM (a container): that limit ends ComfyUI, and its
    OOM-kill counter tells whether it already did."""
    cgroup, mem = machine.get("cgroup") or {}, machine["memory"]
    limit, ram = cgroup.get("limit_bytes"), mem.get("ram_total_bytes")
    if not limit:
        return []
    where = f"cgroup v{cgroup.get('version')} {cgroup.get('path')}"
    used = cgroup.get("used_bytes")
    figures = (
        f"{where}: limit {fmt_bytes(limit)}, in use {fmt_pair(used, limit)} (without reclaimable file "
        f"cache), peak {fmt_bytes(cgroup.get('peak_bytes'))}; RAM {fmt_bytes(ram)}"
    )
    out = []
    if ram and limit >= ram:
        out.append(
            Finding(
                "cgroup-limit",
                "info",
                "A cgroup memory limit is set, above RAM",
                figures,
                "Nothing to change: RAM runs out before this limit.",
            )
        )
        return out
    near = used is not None and used >= NEAR_LIMIT * limit
    out.append(
        Finding(
            "cgroup-limit",
            "warning" if near else "info",
            f"ComfyUI runs in a container limited to {fmt_bytes(limit)} of memory",
            figures,
            "This limit, not the machine's RAM, is what ends ComfyUI (the kernel's OOM killer acts when "
            "the container's memory reaches it). Size it for your workflows' peaks: docker run --memory, "
            "compose mem_limit, Kubernetes resources.limits.memory.",
        )
    )
    kills = cgroup.get("oom_kills")
    if kills:
        out.append(
            Finding(
                "cgroup-oom-kills",
                "warning",
                f"The OOM killer has ended {kills} process(es) in this container",
                f"{where}: oom_kill {kills} (memory.events / memory.oom_control), limit reached "
                f"{cgroup.get('limit_hits')} time(s)",
                "Raise the container's memory limit or run smaller workflows; Memory Probe records which "
                "run and node it was.",
            )
        )
    return out


def _ram_findings(machine: dict[str, Any]) -> list[Finding]:
    mem = machine["memory"]
    total, available = mem.get("ram_total_bytes"), mem.get("ram_available_bytes")
    if total and available is not None and available < 0.1 * total:
        return [
            Finding(
                "ram-low",
                "warning",
                "Little RAM is available now",
                f"{fmt_bytes(available)} available of {fmt_bytes(total)}",
                "Close other programs before a heavy workflow; ComfyUI's offloaded weights need RAM.",
            )
        ]
    return []


def _disk_findings(machine: dict[str, Any]) -> list[Finding]:
    out = []
    for disk in machine.get("disks") or []:
        free, total = disk.get("free_bytes"), disk.get("total_bytes")
        if disk_is_low(free, total):
            out.append(
                Finding(
                    f"disk-low-{disk['role']}",
                    "warning",
                    f"Little free disk for {disk['role']}",
                    f"{disk['path']}: {fmt_bytes(free)} free of {fmt_bytes(total)}",
                    "Free disk there: writes fail when it is full. Deleting outputs frees disk, not VRAM.",
                )
            )
    return out
