"""A real Prometheus server for the integration tier (Debian's ``prometheus`` package, or the
binary named by ``MEMPROBE_PROMETHEUS``): started on 127.0.0.1 on a free port with a temporary
configuration and data folder, queried through its HTTP API, stopped by the caller."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from comfy_server import free_port

T = TypeVar("T")


def find_prometheus() -> tuple[str, str] | str:
    """(prometheus, promtool) paths, or why they are missing."""
    prometheus = os.environ.get("MEMPROBE_PROMETHEUS") or shutil.which("prometheus")
    promtool = shutil.which("promtool", path=str(Path(prometheus).parent)) if prometheus else None
    promtool = promtool or shutil.which("promtool")
    if not prometheus or not promtool:
        return "Prometheus is not installed (Debian: apt-get install prometheus; or set MEMPROBE_PROMETHEUS)"
    return prometheus, promtool


@dataclass
class PrometheusServer:
    binary: str
    base_dir: Path
    config: str
    """The ``prometheus.yml`` text; ``rule_files`` in it are relative to ``base_dir``."""
    port: int = 0
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.base_dir / "prometheus.log"

    def start(self, timeout_s: float = 60) -> PrometheusServer:
        self.base_dir.mkdir(parents=True, exist_ok=True)
        config = self.base_dir / "prometheus.yml"
        config.write_text(self.config, encoding="utf-8")
        self.port = self.port or free_port()
        cmd = [
            self.binary,
            f"--config.file={config}",
            f"--storage.tsdb.path={self.base_dir / 'data'}",
            f"--web.listen-address=127.0.0.1:{self.port}",
            "--storage.tsdb.retention.time=1h",
            "--log.level=warn",
        ]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                cmd, cwd=self.base_dir, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        self.wait_for(lambda: self._ready(), timeout_s, "Prometheus to become ready")
        return self

    def _ready(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/-/ready", timeout=2) as resp:
                return resp.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def _check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"Prometheus exited ({self.process.returncode}); log:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def api(self, path: str, **params: str) -> Any:
        """``GET /api/v1/<path>``'s ``data`` (raises on an error answer)."""
        url = f"{self.url}/api/v1/{path}?{urllib.parse.urlencode(params)}"
        try:
            with urllib.request.urlopen(url, timeout=10) as resp:
                doc = json.loads(resp.read())
        except urllib.error.HTTPError as err:
            doc = json.loads(err.read() or b"{}")
        if doc.get("status") != "success":
            raise AssertionError(f"Prometheus answered {doc} to {path} {params}")
        return doc["data"]

    def query(self, expr: str) -> list[dict[str, Any]]:
        """An instant query's vector: ``[{"metric": {labels}, "value": [t, "v"]}, ...]``."""
        return self.api("query", query=expr)["result"]

    def values(self, expr: str, *labels: str) -> dict[tuple[str, ...], float]:
        """The query's result keyed by the given labels' values."""
        return {tuple(r["metric"].get(k, "") for k in labels): float(r["value"][1]) for r in self.query(expr)}

    def wait_for(self, check: Callable[[], T], timeout_s: float, what: str) -> T:
        """Poll ``check`` until it returns something true (at most ``timeout_s``)."""
        deadline = time.monotonic() + timeout_s
        while True:
            self._check_alive()
            result = check()
            if result:
                return result
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout_s} s for {what}; Prometheus log:\n{self.log_tail()}")
            time.sleep(0.25)

    def stop(self, timeout_s: float = 20) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
