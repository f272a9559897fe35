"""The rooms keep their doors: the pure core and the server never import ComfyUI (ruff's banned
imports, as CI runs it), the glue may; the core imports torch and aiohttp only inside functions."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from helpers import ROOT


def ruff(path: str, source: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff") or f"{sys.executable} -m ruff"
    return subprocess.run(
        [*exe.split(), "check", "--no-cache", "--stdin-filename", path, "-"],
        input=source,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.mark.parametrize("path", ["memprobe/judging/x.py", "web/x.py"])
def test_comfyui_is_banned_in_the_core_and_the_server(path):
    result = ruff(path, "import comfy.model_management\nfrom server import PromptServer\n")
    assert result.returncode == 1 and "TID251" in result.stdout, result.stdout


def test_the_glue_may_import_comfyui():
    assert "TID251" not in ruff("glue/x.py", "import comfy.model_management\n").stdout


def test_the_core_imports_torch_only_inside_functions():
    assert "TID253" in ruff("memprobe/sensing/x.py", "import torch\n").stdout
    assert "TID253" not in ruff("web/x.py", "import aiohttp\n").stdout
