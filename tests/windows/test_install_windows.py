"""Install-type detection with real Windows paths and launchers: the portable package's embedded
Python started from its ``.bat`` line through ``cmd.exe``, and the Desktop app's folder layout.
The launch-option wording for the portable package is followed literally: the flag goes at the
end of the ``python_embeded`` line, and ComfyUI's ``main.py`` must receive it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import memprobe
from memprobe.sensing.install_type import LAUNCH_OPTION_PLACES, detect_install_type

STUB_MAIN = """\
import json, os, sys
sys.path.insert(0, os.environ["MEMPROBE_SITE"])
from memprobe.sensing.install_type import detect_install_type
comfy_dir = os.path.dirname(os.path.abspath(__file__))
print(json.dumps({"executable": sys.executable, "argv": sys.argv, "comfy_dir": comfy_dir,
                  "install": detect_install_type(sys.executable, sys.argv, comfy_dir)}))
"""
"""Stands in for ComfyUI's main.py: reports what the glue would see (``sys.executable``,
``sys.argv``, the folder of ``__main__``) and the install type it detects."""


def _env() -> dict[str, str]:
    return {**os.environ, "MEMPROBE_SITE": str(Path(memprobe.__file__).parent.parent)}


def _answer(stdout: str) -> dict:
    return json.loads(next(line for line in stdout.splitlines() if line.startswith("{")))


def test_the_portable_package_started_from_its_bat_line_with_a_flag_added_as_advised(
    tmp_path, run, copy_embedded_python
):
    root = tmp_path / "ComfyUI_windows_portable"
    copy_embedded_python(root / "python_embeded")
    (root / "ComfyUI").mkdir()
    (root / "ComfyUI" / "main.py").write_text(STUB_MAIN, encoding="utf-8")
    # ComfyUI's .ci/windows_nvidia_base_files/run_nvidia_gpu.bat starts with this line (0.3.x; later
    # releases append --enable-manager); the advice says: add the flag to the end of it
    shipped = ".\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build"
    edited = f"{shipped} --reserve-vram 1.5"
    assert edited in LAUNCH_OPTION_PLACES["portable"].format(flag="--reserve-vram 1.5")
    (root / "run_nvidia_gpu.bat").write_text(edited + "\r\n", encoding="ascii")

    result = run(["cmd", "/c", "run_nvidia_gpu.bat"], cwd=root, env=_env())
    assert result.returncode == 0, result.stderr
    seen = _answer(result.stdout)
    assert Path(seen["executable"]) == root / "python_embeded" / "python.exe"
    assert seen["argv"][1:] == ["--windows-standalone-build", "--reserve-vram", "1.5"]
    assert Path(seen["comfy_dir"]) == root / "ComfyUI"
    assert seen["install"]["type"] == "portable"


def test_the_desktop_app_layout_with_its_real_arguments(tmp_path, run, copy_embedded_python):
    # where ComfyUI Desktop keeps ComfyUI and its venv, and how it starts main.py (the arguments of
    # Comfy-Org/ComfyUI issue #8065: "C:\Users\Administrator\AppData\Local\Programs\
    # @comfyorgcomfyui-electron\resources\ComfyUI\main.py --user-directory ... --base-directory ...")
    comfy = tmp_path / "AppData" / "Local" / "Programs" / "@comfyorgcomfyui-electron" / "resources" / "ComfyUI"
    comfy.mkdir(parents=True)
    (comfy / "main.py").write_text(STUB_MAIN, encoding="utf-8")
    base = tmp_path / "Documents" / "ComfyUI"
    python = copy_embedded_python(base / ".venv" / "Scripts")
    args = [
        "--user-directory",
        base / "user",
        "--front-end-root",
        comfy / "web_custom_versions" / "desktop_app",
        "--base-directory",
        base,
        "--log-stdout",
        "--listen",
        "127.0.0.1",
        "--port",
        "8000",
    ]
    result = run([python, comfy / "main.py", *args], env=_env())
    assert result.returncode == 0, result.stderr
    seen = _answer(result.stdout)
    assert seen["install"]["type"] == "desktop" and Path(seen["comfy_dir"]) == comfy
    assert "Server-Config" in LAUNCH_OPTION_PLACES["desktop"]


def test_this_python_is_a_manual_install():
    assert detect_install_type(sys.executable, sys.argv, os.getcwd())["type"] == "manual"
