"""How ComfyUI was installed: launch options live in a different place for each.

>>> detect_install_type(r"C:\\ComfyUI_windows_portable\\python_embeded\\python.exe", ["main.py"], "")["type"]
'portable'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["detect_install_type", "LAUNCH_OPTION_PLACES"]

LAUNCH_OPTION_PLACES = {
    "manual": "add it to the command you start ComfyUI with: python main.py {flag}",
    "portable": "add it to the end of the python_embeded line in run_nvidia_gpu.bat (or run_cpu.bat), "
    "e.g. .\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build {flag}",
    "desktop": "ComfyUI Desktop: Settings > Server-Config holds the launch options; set {flag} there and restart",
    "unknown": "add {flag} to the options your launcher passes to ComfyUI's main.py",
}


def detect_install_type(executable: str, argv: Sequence[str], comfy_path: str) -> dict[str, Any]:
    """``{"type": manual|portable|desktop, "evidence": "..."}`` from where Python and ComfyUI live."""
    exe = executable.replace("\\", "/").lower()
    path = comfy_path.replace("\\", "/").lower()
    if "python_embeded" in exe or "--windows-standalone-build" in argv:
        return {"type": "portable", "evidence": "the embedded Python of the portable package runs ComfyUI"}
    if "comfyui-electron" in path or "/resources/comfyui" in path:
        return {"type": "desktop", "evidence": "ComfyUI runs from the Desktop app's resources folder"}
    return {"type": "manual", "evidence": "ComfyUI runs from a regular checkout with its own Python"}
