"""What Memory Probe reads of the ComfyUI it runs in: folders, versions, install type, device.

Every read is guarded: another ComfyUI version (or no ComfyUI, in a test) gives ``None`` values,
never an exception.
"""

from __future__ import annotations

import importlib
import os
import platform
import socket
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from ..memprobe import __version__
from ..memprobe.sensing.install_type import detect_install_type
from ..memprobe.sensing.sensors import Sensors

__all__ = [
    "import_optional",
    "comfy_folders",
    "user_data_dir",
    "compute_device",
    "static_context",
    "model_management_state",
    "server_identity",
]


def import_optional(name: str) -> Any | None:
    """The module ``name``, or ``None`` outside ComfyUI or in a version without it."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    try:
        return importlib.import_module(name)
    except Exception:  # not inside ComfyUI, or another version of it
        return None


def comfy_folders() -> dict[str, str]:
    """ComfyUI's models, output and temp folders that exist (the disks that matter)."""
    folder_paths = import_optional("folder_paths")
    if folder_paths is None:
        return {}
    roles = {
        "models": getattr(folder_paths, "models_dir", None),
        "output": folder_paths.get_output_directory(),
        "temp": folder_paths.get_temp_directory(),
    }
    return {role: path for role, path in roles.items() if path and os.path.isdir(path)}


def user_data_dir() -> Path | None:
    """``<ComfyUI user directory>/memprobe``, or ``None`` outside ComfyUI."""
    folder_paths = import_optional("folder_paths")
    if folder_paths is None:
        return None
    return Path(folder_paths.get_user_directory()) / "memprobe"


def compute_device() -> str | None:
    """ComfyUI's torch device type (``cuda``, ``cpu``, ``mps``...), or ``None``."""
    mm = import_optional("comfy.model_management")
    try:
        return mm.get_torch_device().type if mm is not None else None
    except Exception:  # the device is only context; carry on without it
        return None


def static_context(sensors: Sensors, device: str | None) -> dict[str, Any]:
    """The facts about this ComfyUI that do not change while it runs (stored with every run)."""
    version = import_optional("comfyui_version")
    try:
        frontend = metadata.version("comfyui-frontend-package")
    except metadata.PackageNotFoundError:
        frontend = None
    torch = sys.modules.get("torch")
    snap = sensors.snapshot(disks=False)
    cgroup = sensors.cgroup()
    main = sys.modules.get("__main__")
    comfy_dir = str(Path(main.__file__).parent) if getattr(main, "__file__", None) else ""
    return {
        "memprobe_version": __version__,
        "comfyui_version": getattr(version, "__version__", None),
        "frontend_version": frontend,
        "torch_version": getattr(torch, "__version__", None),
        "python_version": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "argv": sys.argv[1:],
        "install": detect_install_type(sys.executable, sys.argv, comfy_dir),
        "compute_device": device,
        "server": server_identity(),
        "gpus": [
            {
                "index": g.index,
                "name": g.name,
                "backend": g.backend,
                "vram_total_bytes": g.device_total_bytes,
                "driver_version": g.driver_version,
            }
            for g in snap.gpus
        ],
        "ram_total_bytes": snap.system.ram_total_bytes,
        "commit_limit_bytes": snap.system.commit_limit_bytes,
        "swap_total_bytes": snap.system.swap_total_bytes,
        "overcommit_mode": snap.system.overcommit_mode,
        "cgroup": (
            {"version": cgroup.version, "path": cgroup.path, "limit_bytes": cgroup.limit_bytes}
            if cgroup is not None
            else None
        ),
        **model_management_state(),
    }


def server_identity() -> dict[str, Any]:
    """Which server this is among ComfyUIs started from one install (they share its user folder and so
    the ledger): the host and the port it listens on, and its process."""
    args = getattr(import_optional("comfy.cli_args"), "args", None)
    port = getattr(args, "port", None)
    host = socket.gethostname()
    return {
        "id": f"{host}:{port}" if port else f"{host}:pid{os.getpid()}",
        "host": host,
        "port": port,
        "pid": os.getpid(),
    }


def model_management_state() -> dict[str, Any]:
    """How ComfyUI manages model memory: ``vram_state`` (``NORMAL_VRAM``, ``LOW_VRAM`` with
    ``--lowvram``, ``NO_VRAM``, ``HIGH_VRAM``, ``DISABLED`` on a CPU) and ``dynamic_vram`` (current
    ComfyUI's comfy-aimdo weight streaming; ``None`` where this ComfyUI has none)."""
    mm = sys.modules.get("comfy.model_management")
    memory = sys.modules.get("comfy.memory_management")
    state = getattr(mm, "vram_state", None)
    dynamic = getattr(memory, "aimdo_enabled", None)
    return {
        "vram_state": getattr(state, "name", None) if state is not None else None,
        "dynamic_vram": dynamic if isinstance(dynamic, bool) else None,
    }
