"""Shared fixtures. Tests run with ``--import-mode=importlib``: the repository root (a ComfyUI
node pack with an ``__init__.py``) is never imported as a side effect of collecting tests."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest
from helpers import FIXTURES, load_pack

# tests/windows runs the Windows code itself: only under a Windows Python (`.ci/windows` runs it
# under Wine). Elsewhere it is not collected at all, rather than shown as skipped.
collect_ignore = [] if sys.platform == "win32" else ["windows"]


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def pack() -> ModuleType:
    return load_pack()


@pytest.fixture
def fake_comfy_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """A minimal stand-in for ComfyUI's ``comfy_api.latest`` (ComfyUI cannot be installed in CI);
    the nodes are also tried in a real ComfyUI (see the README)."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "fakes"))
    for name in [m for m in sys.modules if m == "comfy_api" or m.startswith("comfy_api.")]:
        monkeypatch.delitem(sys.modules, name)
