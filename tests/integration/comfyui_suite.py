"""ComfyUI's own execution test suite with Memory Probe loaded as a custom node.

    python tests/integration/comfyui_suite.py [WORK_DIR]

Copies the ComfyUI install's source (not its models: they are linked) into WORK_DIR, links this
repository into the suite's ``tests/execution/testing_nodes/`` (where the suite loads custom nodes
from), runs ``test_execution.py``, ``test_async_nodes.py`` and ``test_progress_isolation.py`` with
ComfyUI's Python, then reads Memory Probe's ledger of those servers. Exit status 0 only when the
suite passes and the ledger holds the runs it made. ComfyUI is found as in ``tests/comfy_server.py``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from comfy_server import PACK_NAME, REPO, find_comfyui, free_port, install_requirements

SUITE = [
    "tests/execution/test_execution.py",
    "tests/execution/test_async_nodes.py",
    "tests/execution/test_progress_isolation.py",
]
NOT_COPIED = {"models", "output", "input", "temp", "user", ".git", "__pycache__"}


def copy_comfyui(source: Path, work: Path) -> Path:
    target = work / "ComfyUI"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(
        source,
        target,
        symlinks=True,
        ignore=lambda d, names: [n for n in names if n in NOT_COPIED and Path(d) == source],
    )
    (target / "models").symlink_to(source / "models", target_is_directory=True)
    (target / "tests" / "execution" / "testing_nodes" / PACK_NAME).symlink_to(REPO, target_is_directory=True)
    return target


def ledger_summary(path: Path) -> dict[str, int]:
    if not path.exists():
        return {}
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return dict(conn.execute("SELECT status, COUNT(*) FROM runs GROUP BY status").fetchall())


def main() -> int:
    found = find_comfyui()
    if isinstance(found, str):
        print(found, file=sys.stderr)
        return 2
    work = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="memprobe-comfyui-suite-"))
    work.mkdir(parents=True, exist_ok=True)
    install_requirements(found)
    subprocess.run(
        [str(found.python), "-m", "pip", "install", "-q", "pytest", "websocket-client"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    comfy = copy_comfyui(found.root, work)
    env = {**os.environ, "PATH": f"{found.python.parent}{os.pathsep}{os.environ['PATH']}", "HF_HUB_OFFLINE": "1"}
    env.pop("PYTHONPATH", None)
    started = time.monotonic()
    suite = subprocess.run(
        [
            str(found.python),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *SUITE,
            "--skip-timing-checks",
            "--port",
            str(free_port()),
        ],
        cwd=comfy,
        env=env,
    )
    elapsed = time.monotonic() - started
    runs = ledger_summary(comfy / "user" / "memprobe" / "ledger.sqlite3")
    print(
        f"ComfyUI {found.version} execution suite with Memory Probe: exit {suite.returncode} in {elapsed:.0f} s; "
        f"Memory Probe's ledger holds {sum(runs.values())} runs {runs}"
    )
    if suite.returncode != 0:
        return suite.returncode
    if sum(runs.values()) == 0:
        print("Memory Probe recorded no run: it was not loaded or not tracing", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
