"""A real ComfyUI server for the integration tier, with Memory Probe loaded.

Each :class:`ComfyServer` gets a private base directory (``--base-directory``): its own
``custom_nodes`` (only the extensions under test, linked), ``user`` (so its own ledger), ``output``,
``input`` and ``temp``; the models are linked from the ComfyUI install. Servers listen on 127.0.0.1
only, on a free port.

Where ComfyUI is: ``MEMPROBE_COMFYUI`` (the ComfyUI folder) and ``MEMPROBE_COMFYUI_PYTHON`` (its
Python), else ``$EVAL_ROOT`` or ``~/comfy-eval`` with ``ComfyUI/`` and ``venv/`` inside.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
WORKFLOWS = Path(__file__).resolve().parent / "integration" / "workflows"
PACK_NAME = "memory-probe"


@dataclass(frozen=True)
class ComfyInstall:
    root: Path
    python: Path

    @property
    def version(self) -> str:
        text = (self.root / "comfyui_version.py").read_text(encoding="utf-8")
        return text.split('"')[1]


def find_comfyui() -> ComfyInstall | str:
    """The ComfyUI install to test against, or why there is none."""
    root_env = os.environ.get("MEMPROBE_COMFYUI")
    eval_root = Path(os.environ.get("EVAL_ROOT", Path.home() / "comfy-eval"))
    root = Path(root_env) if root_env else eval_root / "ComfyUI"
    python = Path(os.environ.get("MEMPROBE_COMFYUI_PYTHON", eval_root / "venv" / "bin" / "python"))
    if not (root / "main.py").is_file():
        return f"no ComfyUI at {root} (set MEMPROBE_COMFYUI to a ComfyUI folder)"
    if not python.exists():
        return f"no Python at {python} (set MEMPROBE_COMFYUI_PYTHON to ComfyUI's Python)"
    return ComfyInstall(root, python)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_workflow(name: str, **changes: Any) -> dict[str, Any]:
    """An API-format workflow from ``workflows/``; ``changes`` maps ``"node_id.input"`` to a value."""
    prompt = json.loads((WORKFLOWS / f"{name}.json").read_text(encoding="utf-8"))
    for key, value in changes.items():
        node_id, name_ = key.split(".", 1)
        prompt[node_id]["inputs"][name_] = value
    return prompt


def short_prompt(seed: int, prefix: str = "short") -> dict[str, Any]:
    """The short prompt of API farms: ``txt2img`` with the TAESD decoder at 256², one step (about a
    second on 2 CPU cores)."""
    return load_workflow(
        "txt2img",
        **{
            "4.ckpt_name": "tiny_sd15_taesd.safetensors",
            "5.width": 256,
            "5.height": 256,
            "3.steps": 1,
            "3.seed": seed,
            "9.filename_prefix": prefix,
        },
    )


class ServerDied(RuntimeError):
    pass


@dataclass
class ComfyServer:
    install: ComfyInstall
    base_dir: Path
    extensions: list[Path] = field(default_factory=lambda: [REPO])
    args: list[str] = field(default_factory=list)
    user_dir: Path | None = None
    preexec: Any = None
    cpu: bool = True
    """``--cpu`` (the CPU machine here); ``False`` on a GPU (``benchmarks/gpu_check.py``)."""
    ready_path: str = "/memprobe/live"
    """What answers once the server is up (``/system_stats`` for a server without Memory Probe)."""
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.base_dir / "comfyui.log"

    @property
    def ledger_path(self) -> Path:
        return (self.user_dir or self.base_dir / "user") / "memprobe" / "ledger.sqlite3"

    def start(self, timeout_s: float = 240) -> ComfyServer:
        custom = self.base_dir / "custom_nodes"
        custom.mkdir(parents=True, exist_ok=True)
        for ext in self.extensions:
            link = custom / (PACK_NAME if ext == REPO else ext.name)
            if not link.exists():
                link.symlink_to(ext, target_is_directory=True)
        models = self.base_dir / "models"
        if not models.exists():
            models.symlink_to(self.install.root / "models", target_is_directory=True)
        self.port = self.port or free_port()
        cmd = [
            str(self.install.python),
            "main.py",
            *(["--cpu"] if self.cpu else []),
            "--listen",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--base-directory",
            str(self.base_dir),
            "--disable-auto-launch",
            "--disable-api-nodes",
            "--use-pytorch-cross-attention",
            *self.args,
        ]
        if self.user_dir is not None:
            cmd += ["--user-directory", str(self.user_dir)]
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "DO_NOT_TRACK": "1", "PYTHONUNBUFFERED": "1"}
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            cmd,
            cwd=self.install.root,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            preexec_fn=self.preexec,
        )
        log.close()
        deadline = time.monotonic() + timeout_s
        try:
            while time.monotonic() < deadline:
                self._check_alive("during start-up")
                try:
                    self.get(self.ready_path, timeout=2)
                    return self
                except (urllib.error.URLError, OSError):
                    time.sleep(0.5)
            raise TimeoutError(f"ComfyUI did not answer within {timeout_s} s; log:\n{self.log_tail()}")
        except BaseException:  # a server that never answered is not left running (its caller holds no handle yet)
            self.stop()
            raise

    def _check_alive(self, when: str) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise ServerDied(f"ComfyUI exited ({self.process.returncode}) {when}; log:\n{self.log_tail()}")

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    # ------------------------------------------------------------------ HTTP
    def request(self, method: str, path: str, body: Any = None, timeout: float = 30) -> tuple[int, Any]:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"} if data else {}
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw, status = resp.read(), resp.status
        except urllib.error.HTTPError as err:
            raw, status = err.read(), err.code
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode("utf-8", errors="replace")

    def get(self, path: str, timeout: float = 30) -> Any:
        status, doc = self.request("GET", path, timeout=timeout)
        if status != 200:
            raise AssertionError(f"GET {path} answered {status}: {doc}")
        return doc

    def queue(self, prompt: dict[str, Any]) -> str:
        status, doc = self.request("POST", "/prompt", {"prompt": prompt, "client_id": uuid.uuid4().hex})
        if status != 200:
            raise AssertionError(f"POST /prompt answered {status}: {doc}")
        return doc["prompt_id"]

    def wait(self, prompt_id: str, timeout_s: float = 300) -> dict[str, Any]:
        """ComfyUI's history entry of the prompt once it has finished."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self._check_alive(f"while prompt {prompt_id} ran")
            history = self.get(f"/history/{prompt_id}")
            if prompt_id in history and history[prompt_id].get("status", {}).get("completed") is not None:
                return history[prompt_id]
            time.sleep(0.3)
        raise TimeoutError(f"prompt {prompt_id} did not finish in {timeout_s} s; log:\n{self.log_tail()}")

    def run(self, prompt: dict[str, Any], timeout_s: float = 300) -> tuple[str, dict[str, Any]]:
        prompt_id = self.queue(prompt)
        return prompt_id, self.wait(prompt_id, timeout_s)

    def memprobe_run(self, prompt_id: str, timeout_s: float = 20) -> dict[str, Any]:
        """Memory Probe's record of the prompt (``GET /memprobe/runs/{id}``), once the run has ended."""
        deadline = time.monotonic() + timeout_s
        while True:
            status, doc = self.request("GET", f"/memprobe/runs/{prompt_id}")
            if status == 200 and doc.get("status") not in (None, "running"):
                return doc
            if time.monotonic() > deadline:
                raise AssertionError(f"no finished Memory Probe run {prompt_id}: {status} {doc}")
            time.sleep(0.2)

    # ------------------------------------------------------------------ lifetime
    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 30) -> int | None:
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(sig)
        try:
            return self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(10)

    def kill(self) -> int | None:
        return self.stop(signal.SIGKILL)


def install_requirements(install: ComfyInstall) -> None:
    """Memory Probe's run-time requirements into ComfyUI's Python, as a user does."""
    subprocess.run(
        [str(install.python), "-m", "pip", "install", "-q", "-r", str(REPO / "requirements.txt")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


if __name__ == "__main__":  # python tests/comfy_server.py: start one by hand and keep it running
    found = find_comfyui()
    if isinstance(found, str):
        sys.exit(found)
    base = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/memprobe-comfy")
    server = ComfyServer(found, base, port=int(os.environ.get("PORT", "8188"))).start()
    sys.stderr.write(f"ComfyUI {found.version} with Memory Probe at {server.url} (log {server.log_path})\n")
    try:
        server.process.wait()
    except KeyboardInterrupt:
        server.stop()
    shutil.rmtree(base / "custom_nodes", ignore_errors=True)
