"""Gather the facts of this machine's memory set-up: GPUs, RAM, commit, the pagefile or swap
configuration and the drives it lives on. The verdict on them is :mod:`memprobe.doctor`'s job.

The result is a plain dict (the ``memprobe doctor --json`` format, documented in the README).
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

from . import __version__
from ._log import warn_once
from .limits import system_limits
from .sensors import Sensors, linux, windows
from .sensors.cgroup import CgroupMemory
from .snapshot import Snapshot

__all__ = ["gather_machine", "machine_from_snapshot", "default_disk_paths", "find_comfyui"]


def gather_machine(disk_paths: Mapping[str, str] | None = None, *, sensors: Sensors | None = None,
                   allow_cuda_init: bool = True) -> dict[str, Any]:
    """Read this machine now. ``disk_paths`` (role -> folder) adds the free space of those volumes."""
    if sensors is None:
        _import_torch_quietly()
        sensors = Sensors(disk_paths, allow_cuda_init=allow_cuda_init)
    elif disk_paths:
        sensors.set_disk_paths(disk_paths)
    snap = sensors.snapshot()
    swap: dict[str, Any]
    if sys.platform == "win32":
        swap = _windows_pagefiles()
    elif sys.platform.startswith("linux"):
        swap = _linux_swaps()
    else:
        swap = {"source": "psutil", "areas": [], "note": "macOS sizes its swap files itself"}
    return machine_from_snapshot(snap, swap, sensors.cgroup())


def machine_from_snapshot(snap: Snapshot, swap: dict[str, Any], cgroup: CgroupMemory | None = None,
                          system: str | None = None) -> dict[str, Any]:
    """Assemble the machine document from a snapshot, the swap/pagefile facts and ComfyUI's (or
    this process's) memory cgroup. ``memory.limit_*`` name the limit the OS enforces on system
    memory (see :mod:`memprobe.limits`)."""
    s = snap.system
    system = system or platform.system()
    limit = system_limits(system, overcommit_mode=s.overcommit_mode, ram_total=s.ram_total_bytes,
                          swap_total=s.swap_total_bytes, commit_limit=s.commit_limit_bytes,
                          cgroup_limit=cgroup.limit_bytes if cgroup else None)[0]
    metrics = snap.metrics()
    if cgroup is not None:
        metrics.setdefault("cgroup_used_bytes", cgroup.used_bytes)
    return {
        "memprobe_version": __version__,
        "platform": {
            "system": system, "release": platform.release(), "machine": platform.machine(),
            "python": platform.python_version(),
        },
        "gpus": [
            {
                "index": g.index, "backend": g.backend, "name": g.name, "driver_version": g.driver_version,
                "vram_total_bytes": g.device_total_bytes, "vram_used_bytes": g.device_used_bytes,
                "shared_used_bytes": g.shared_used_bytes, "pci_bus_id": g.pci_bus_id,
            }
            for g in snap.gpus
        ],
        "memory": {
            "ram_total_bytes": s.ram_total_bytes, "ram_available_bytes": s.ram_available_bytes,
            "commit_bytes": s.commit_bytes, "commit_limit_bytes": s.commit_limit_bytes,
            "commit_peak_bytes": s.commit_peak_bytes, "overcommit_mode": s.overcommit_mode,
            "swap_total_bytes": s.swap_total_bytes, "swap_used_bytes": s.swap_used_bytes,
            "limit_name": limit.name, "limit_enforced": limit.enforced, "limit_bytes": limit.limit_bytes,
            "limit_used_bytes": limit.used(metrics),
        },
        "cgroup": cgroup.to_dict() if cgroup is not None else None,
        "swap": swap,
        "disks": [{"role": d.role, "path": d.path, "free_bytes": d.free_bytes, "total_bytes": d.total_bytes}
                  for d in snap.disks],
    }


def find_comfyui(candidates: list[Path]) -> Path | None:
    """The first folder among ``candidates`` (or its ``ComfyUI`` subfolder) that is a ComfyUI
    install: ``main.py``, ``folder_paths.py`` and the ``comfy`` package side by side."""
    for folder in candidates:
        for root in (folder, folder / "ComfyUI"):
            if (root / "main.py").is_file() and (root / "folder_paths.py").is_file() and (root / "comfy").is_dir():
                return root
    return None


def default_disk_paths(cwd: Path | None = None, home: Path | None = None,
                       pack: Path | None = None) -> dict[str, str]:
    """The volumes that matter without ``--path``: the home folder's and the current folder's, and
    ComfyUI's models and output folders when a ComfyUI is found (the current folder, a ``ComfyUI``
    folder in it, or the ComfyUI this package is installed in as a custom node). Folders on the
    same volume are one entry, their roles joined (``home, current folder``)."""
    cwd = cwd or Path.cwd()
    home = home or Path.home()
    pack = pack or Path(__file__).resolve().parents[1]
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


def _volume(path: str) -> dict[str, Any]:
    try:
        usage = shutil.disk_usage(path)
        return {"path": path, "free_bytes": usage.free, "total_bytes": usage.total}
    except OSError:
        return {"path": path, "free_bytes": None, "total_bytes": None}


def _linux_swaps() -> dict[str, Any]:
    try:
        areas = linux.parse_swaps(linux.read_text("/proc/swaps"))
    except OSError as exc:
        warn_once("proc-swaps", "Memory Probe: cannot read /proc/swaps (%s)", exc)
        return {"source": "/proc/swaps", "areas": [], "error": str(exc)}
    out = []
    for area in areas:
        entry: dict[str, Any] = {
            "path": area.path, "kind": "zram" if area.is_zram else area.kind,
            "size_bytes": area.size_bytes, "used_bytes": area.used_bytes, "priority": area.priority,
            "rotational": None if area.is_zram else linux.is_rotational(area.path),
        }
        if area.kind == "file":
            entry["volume"] = _volume(os.path.dirname(area.path) or "/")
        out.append(entry)
    return {"source": "/proc/swaps", "areas": out}


def _windows_pagefiles() -> dict[str, Any]:
    system_drive = os.environ.get("SystemDrive", "C:").upper()
    try:
        settings = windows.parse_paging_files(windows.read_paging_files())
    except OSError as exc:
        warn_once("paging-files", "Memory Probe: cannot read the pagefile settings (%s)", exc)
        return {"source": "registry", "areas": [], "error": str(exc), "system_drive": system_drive}
    areas = []
    for setting in settings:
        drive = setting.drive
        entry: dict[str, Any] = {
            "path": setting.path, "kind": "pagefile", "system_managed": setting.system_managed,
            "all_drives": setting.all_drives,
            "initial_bytes": setting.initial_mb * 1024**2 if setting.initial_mb is not None else None,
            "maximum_bytes": setting.maximum_mb * 1024**2 if setting.maximum_mb is not None else None,
            "drive": drive, "system_drive": drive == system_drive if drive else None,
        }
        if drive:
            entry["volume"] = _volume(drive + "\\")
            try:
                entry["drive_type"] = windows.drive_type(drive)
                entry["rotational"] = windows.incurs_seek_penalty(drive)
            except OSError:
                entry["drive_type"], entry["rotational"] = None, None
        areas.append(entry)
    return {"source": "registry", "areas": areas, "system_drive": system_drive}
