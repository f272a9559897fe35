"""Gather the facts of this machine's memory set-up: GPUs, RAM, commit, the pagefile or swap
configuration and the drives it lives on. The verdict on them is :mod:`memprobe.judging.doctor`'s job.

The result is a plain dict (the ``memprobe doctor --json`` format, documented in the README).
Each reading that failed leaves its value ``null`` and an entry in ``unreadable``: which value
(its place in the document), what it is in words, and why it could not be read.
"""

from __future__ import annotations

import importlib
import os
import platform
import shutil
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import __version__
from .._log import warn_once
from ..judging.limits import system_limits
from .sensors import Sensors
from .snapshot import Snapshot
from .system import linux, windows
from .system.cgroup import CgroupMemory

__all__ = ["gather_machine", "machine_from_snapshot", "MEMORY_LABELS", "default_disk_paths", "find_comfyui"]

MEMORY_LABELS = {
    "ram_total_bytes": "installed RAM",
    "ram_available_bytes": "available RAM",
    "commit_bytes": "commit charge",
    "commit_limit_bytes": "commit limit",
    "commit_peak_bytes": "peak commit since start-up",
    "overcommit_mode": "overcommit mode",
    "swap_total_bytes": "pagefile/swap size",
    "swap_used_bytes": "pagefile/swap in use",
}
"""The ``memory`` values of the machine document, in words."""


def _unreadable(value: str, label: str, reason: str) -> dict[str, str]:
    return {"value": value, "label": label, "reason": reason}


def gather_machine(
    disk_paths: Mapping[str, str] | None = None, *, sensors: Sensors | None = None, allow_cuda_init: bool = True
) -> dict[str, Any]:
    """Read this machine now. ``disk_paths`` (role -> folder) adds the free space of those volumes."""
    if sensors is None:
        _import_torch_quietly()
        sensors = Sensors(disk_paths, allow_cuda_init=allow_cuda_init)
    elif disk_paths:
        sensors.set_disk_paths(disk_paths)
    snap = sensors.snapshot()
    unreadable = [
        _unreadable(f"memory.{key}", MEMORY_LABELS[key], reason)
        for key, reason in sensors.unreadable.items()
        if key in MEMORY_LABELS
    ]
    for i, g in enumerate(snap.gpus):
        if g.shared_used_bytes is None and sensors.gpu.shared_error:
            unreadable.append(
                _unreadable(
                    f"gpus[{i}].shared_used_bytes", f"shared GPU memory of GPU {g.index}", sensors.gpu.shared_error
                )
            )
    for i, d in enumerate(snap.disks):
        if d.role in sensors.disk_errors:
            unreadable.append(
                _unreadable(f"disks[{i}].free_bytes", f"free space of {d.path}", sensors.disk_errors[d.role])
            )
    swap: dict[str, Any]
    if sys.platform == "win32":
        swap = _windows_pagefiles(unreadable)
    elif sys.platform.startswith("linux"):
        swap = _linux_swaps(unreadable)
    else:
        swap = {"source": "psutil", "areas": [], "note": "macOS sizes its swap files itself"}
    return machine_from_snapshot(snap, swap, unreadable, cgroup=sensors.cgroup())


def machine_from_snapshot(
    snap: Snapshot,
    swap: dict[str, Any],
    unreadable: list[dict[str, str]] | None = None,
    *,
    cgroup: CgroupMemory | None = None,
    system: str | None = None,
) -> dict[str, Any]:
    """Assemble the machine document from a snapshot, the swap/pagefile facts, what could not be
    read and ComfyUI's (or this process's) memory cgroup. ``memory.limit_*`` name the limit the OS
    enforces on system memory (see :mod:`memprobe.judging.limits`)."""
    s = snap.system
    system = system or platform.system()
    limit = system_limits(
        system,
        overcommit_mode=s.overcommit_mode,
        ram_total=s.ram_total_bytes,
        swap_total=s.swap_total_bytes,
        commit_limit=s.commit_limit_bytes,
        cgroup_limit=cgroup.limit_bytes if cgroup else None,
    )[0]
    metrics = snap.metrics()
    if cgroup is not None and cgroup.used_bytes is not None:
        metrics.setdefault("cgroup_used_bytes", cgroup.used_bytes)
    return {
        "memprobe_version": __version__,
        "platform": {
            "system": system,
            "release": platform.release(),
            "machine": platform.machine(),
            "python": platform.python_version(),
        },
        "gpus": [
            {
                "index": g.index,
                "backend": g.backend,
                "name": g.name,
                "driver_version": g.driver_version,
                "vram_total_bytes": g.device_total_bytes,
                "vram_used_bytes": g.device_used_bytes,
                "shared_used_bytes": g.shared_used_bytes,
                "pci_bus_id": g.pci_bus_id,
            }
            for g in snap.gpus
        ],
        "memory": {
            "ram_total_bytes": s.ram_total_bytes,
            "ram_available_bytes": s.ram_available_bytes,
            "commit_bytes": s.commit_bytes,
            "commit_limit_bytes": s.commit_limit_bytes,
            "commit_peak_bytes": s.commit_peak_bytes,
            "overcommit_mode": s.overcommit_mode,
            "swap_total_bytes": s.swap_total_bytes,
            "swap_used_bytes": s.swap_used_bytes,
            "limit_name": limit.name,
            "limit_enforced": limit.enforced,
            "limit_bytes": limit.limit_bytes,
            "limit_used_bytes": limit.used(metrics),
        },
        "cgroup": cgroup.to_dict() if cgroup is not None else None,
        "swap": swap,
        "disks": [
            {"role": d.role, "path": d.path, "free_bytes": d.free_bytes, "total_bytes": d.total_bytes}
            for d in snap.disks
        ],
        "unreadable": list(unreadable or []),
    }


def find_comfyui(candidates: list[Path]) -> Path | None:
    """The first folder among ``candidates`` (or its ``ComfyUI`` subfolder) that is a ComfyUI
    install: ``main.py``, ``folder_paths.py`` and the ``comfy`` package side by side."""
    for folder in candidates:
        for root in (folder, folder / "ComfyUI"):
            if (root / "main.py").is_file() and (root / "folder_paths.py").is_file() and (root / "comfy").is_dir():
                return root
    return None


def default_disk_paths(cwd: Path | None = None, home: Path | None = None, pack: Path | None = None) -> dict[str, str]:
    """The volumes that matter without ``--path``: the home folder's and the current folder's, and
    ComfyUI's models and output folders when a ComfyUI is found (the current folder, a ``ComfyUI``
    folder in it, or the ComfyUI this package is installed in as a custom node). Folders on the
    same volume are one entry, their roles joined (``home, current folder``)."""
    cwd = cwd or Path.cwd()
    home = home or Path.home()
    pack = pack or Path(__file__).resolve().parents[2]
    roles: dict[str, Path] = {"home": home, "current folder": cwd}
    comfy = find_comfyui([cwd, pack.parent.parent])
    if comfy is not None:
        for name in ("models", "output"):
            if (comfy / name).is_dir():
                roles[f"ComfyUI {name}"] = comfy / name
    by_volume: dict[int, tuple[list[str], str]] = {}
    for role, folder in roles.items():
        try:
            device = os.stat(folder).st_dev
        except OSError:
            continue
        entry = by_volume.setdefault(device, ([], str(folder)))
        entry[0].append(role)
    return {", ".join(names): path for names, path in by_volume.values()}


def _import_torch_quietly() -> None:
    """torch, when installed, knows the AMD/Apple/Intel GPUs that NVML does not."""
    if "torch" in sys.modules:
        return
    with warnings.catch_warnings():  # torch warns about numpy on some installs: not the doctor's business
        warnings.simplefilter("ignore")
        try:
            importlib.import_module("torch")
        except Exception:  # the doctor runs without torch too
            pass


def _volume(path: str, value: str, unreadable: list[dict[str, str]]) -> dict[str, Any]:
    try:
        usage = shutil.disk_usage(path)
        return {"path": path, "free_bytes": usage.free, "total_bytes": usage.total}
    except OSError as exc:
        unreadable.append(_unreadable(value, f"free space of {path}", str(exc)))
        return {"path": path, "free_bytes": None, "total_bytes": None}


def _linux_swaps(unreadable: list[dict[str, str]]) -> dict[str, Any]:
    try:
        areas = linux.parse_swaps(linux.read_text("/proc/swaps"))
    except OSError as exc:
        warn_once("proc-swaps", "Memory Probe: cannot read /proc/swaps (%s)", exc)
        unreadable.append(_unreadable("swap.areas", "the swap areas (/proc/swaps)", str(exc)))
        return {"source": "/proc/swaps", "areas": [], "error": str(exc)}
    out = []
    for i, area in enumerate(areas):
        entry: dict[str, Any] = {
            "path": area.path,
            "kind": "zram" if area.is_zram else area.kind,
            "size_bytes": area.size_bytes,
            "used_bytes": area.used_bytes,
            "priority": area.priority,
            "rotational": None if area.is_zram else linux.is_rotational(area.path),
        }
        if area.kind == "file":
            entry["volume"] = _volume(os.path.dirname(area.path) or "/", f"swap.areas[{i}].volume", unreadable)
        out.append(entry)
    return {"source": "/proc/swaps", "areas": out}


def _windows_pagefiles(unreadable: list[dict[str, str]]) -> dict[str, Any]:
    """The pagefile set-up from the registry, with each drive's kind, free space and disk type;
    every call on its own (the seek-penalty query fails on many virtual and network drives)."""
    system_drive = os.environ.get("SystemDrive", "C:").upper()
    try:
        settings = windows.parse_paging_files(windows.read_paging_files())
    except OSError as exc:
        warn_once("paging-files", "Memory Probe: cannot read the pagefile settings (%s)", exc)
        unreadable.append(_unreadable("swap.areas", "the pagefile settings (registry PagingFiles)", str(exc)))
        return {"source": "registry", "areas": [], "error": str(exc), "system_drive": system_drive}
    areas = []
    for i, setting in enumerate(settings):
        drive = setting.drive
        entry: dict[str, Any] = {
            "path": setting.path,
            "kind": "pagefile",
            "system_managed": setting.system_managed,
            "all_drives": setting.all_drives,
            "initial_bytes": setting.initial_mb * 1024**2 if setting.initial_mb is not None else None,
            "maximum_bytes": setting.maximum_mb * 1024**2 if setting.maximum_mb is not None else None,
            "drive": drive,
            "system_drive": drive == system_drive if drive else None,
        }
        if drive:
            entry["volume"] = _volume(drive + "\\", f"swap.areas[{i}].volume", unreadable)
            try:
                entry["drive_type"] = windows.drive_type(drive)
            except OSError as exc:
                entry["drive_type"] = None
                unreadable.append(_unreadable(f"swap.areas[{i}].drive_type", f"the kind of drive {drive}", str(exc)))
            try:
                entry["rotational"] = windows.incurs_seek_penalty(drive)
            except OSError as exc:
                entry["rotational"] = None
                warn_once(f"seek-penalty-{drive}", "Memory Probe: cannot tell whether %s is an SSD (%s)", drive, exc)
                unreadable.append(
                    _unreadable(f"swap.areas[{i}].rotational", f"whether {drive} is an SSD or a hard disk", str(exc))
                )
        areas.append(entry)
    return {"source": "registry", "areas": areas, "system_drive": system_drive}
