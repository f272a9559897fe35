"""The one place that touches ComfyUI's internals: it installs the tracing hooks and the log
handler, starts the sampler and the ledger, registers the routes and events, and reads ComfyUI's
folders, versions and launch arguments. Everything it wires together lives in the pure core
(``memprobe/``); the node classes live in ``nodes/``.

Every step is guarded: if a hook point is missing in this ComfyUI version, tracing reports itself
unavailable (``GET /memprobe/live``) and the probe nodes keep working. ComfyUI's start-up is never
broken by Memory Probe.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib
import logging
import os
import platform
import sys
import threading
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from .memprobe import __version__
from .memprobe._log import warn_once
from .memprobe.analysis import enrich
from .memprobe.config import Config, load_config, save_config
from .memprobe.doctor import _largest_vram, diagnose, suggest_pagefile
from .memprobe.hook import Hook, install
from .memprobe.install import detect_install_type
from .memprobe.ledger import Ledger, LedgerError
from .memprobe.loghandler import FallbackLogHandler
from .memprobe.machine import gather_machine
from .memprobe.records import Mark, NodeRun
from .memprobe.sampler import Sampler
from .memprobe.sensors import Sensors
from .memprobe.tracker import Tracker, exception_type_name

__all__ = ["Runtime", "get_runtime"]

logger = logging.getLogger("memprobe")
HERE = Path(__file__).resolve().parent


def _import(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except Exception:  # not inside ComfyUI, or another version of it
        return None


class Runtime:
    """Memory Probe inside one ComfyUI process."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.sensors = Sensors()
        self.tracker = Tracker(self.sensors)
        self.sampler = Sampler(self.sensors, self.tracker)
        self.config = Config()
        self.ledger: Ledger | None = None
        self.hooks: list[Hook] = []
        self.tracing_reason: str | None = "not started"
        self.ledger_reason: str | None = "not started"
        self.context: dict[str, Any] = {}
        self.data_dir: Path | None = data_dir
        """Where the ledger and settings live: ``<ComfyUI user dir>/memprobe`` unless given."""
        self.started = False
        self._lock = threading.Lock()
        self._dynprompt_source: Any = None
        self.hook_cpu_ns = 0
        self._machine_cache: tuple[float, dict[str, Any]] | None = None
        """CPU time spent inside the tracing hook's callbacks (on ComfyUI's worker thread)."""
        self.tracker.cost_probe = self.cost

    # ------------------------------------------------------------------ start-up
    def start(self) -> None:
        """Wire everything into the running ComfyUI. Idempotent; never raises."""
        with self._lock:
            if self.started:
                return
            self.started = True
        for step in (self._read_comfy, self._open_ledger, self._connect_events, self._install_hooks,
                     self._install_log_handler, self._add_routes):
            try:
                step()
            except Exception:  # one broken step must not stop the others, nor ComfyUI
                logger.warning("Memory Probe: start-up step %s failed", step.__name__, exc_info=True)
        self.sampler.set_rate(self.config.sample_hz)
        self.sampler.start()
        atexit.register(self.shutdown)
        logger.info("Memory Probe %s: tracing %s, ledger %s", __version__,
                    "on" if self.tracing_available else f"unavailable ({self.tracing_reason})",
                    self.ledger.path if self.ledger else f"unavailable ({self.ledger_reason})")

    def _read_comfy(self) -> None:
        folder_paths = _import("folder_paths")
        if folder_paths is not None:
            if self.data_dir is None:
                self.data_dir = Path(folder_paths.get_user_directory()) / "memprobe"
            roles = {"models": getattr(folder_paths, "models_dir", None),
                     "output": folder_paths.get_output_directory(), "temp": folder_paths.get_temp_directory()}
            self.sensors.set_disk_paths({role: path for role, path in roles.items() if path and os.path.isdir(path)})
        elif self.data_dir is None:
            self.data_dir = HERE / ".memprobe-data"
        self.config = load_config(self.data_dir / "config.json")
        mm = _import("comfy.model_management")
        if mm is not None:
            try:
                self.tracker.compute_device = mm.get_torch_device().type
            except Exception:  # the device is only context; carry on without it
                pass
        self.context = self._static_context()

    def _static_context(self) -> dict[str, Any]:
        version = _import("comfyui_version")
        try:
            frontend = metadata.version("comfyui-frontend-package")
        except metadata.PackageNotFoundError:
            frontend = None
        torch = sys.modules.get("torch")
        snap = self.sensors.snapshot(disks=False)
        comfy_dir = str(Path(sys.modules["__main__"].__file__).parent) if hasattr(sys.modules.get("__main__"), "__file__") else ""
        return {
            "memprobe_version": __version__,
            "comfyui_version": getattr(version, "__version__", None),
            "frontend_version": frontend,
            "torch_version": getattr(torch, "__version__", None),
            "python_version": platform.python_version(),
            "os": f"{platform.system()} {platform.release()}",
            "argv": sys.argv[1:],
            "install": detect_install_type(sys.executable, sys.argv, comfy_dir),
            "compute_device": self.tracker.compute_device,
            "gpus": [{"index": g.index, "name": g.name, "backend": g.backend, "vram_total_bytes": g.device_total_bytes,
                      "driver_version": g.driver_version} for g in snap.gpus],
            "ram_total_bytes": snap.system.ram_total_bytes,
            "commit_limit_bytes": snap.system.commit_limit_bytes,
            "swap_total_bytes": snap.system.swap_total_bytes,
        }

    def _open_ledger(self) -> None:
        assert self.data_dir is not None
        ledger = Ledger(self.data_dir / "ledger.sqlite3", max_runs=self.config.retention_runs,
                        max_bytes=self.config.retention_mb * 1024**2)
        try:
            ledger.open()
        except (LedgerError, OSError) as exc:
            self.ledger_reason = str(exc)
            logger.warning("Memory Probe: the run ledger is unavailable: %s", exc)
            return
        ledger.start()
        self.tracker.subscribe(ledger.listener)
        self.ledger, self.ledger_reason = ledger, None

    def _connect_events(self) -> None:
        server = _import("server")
        instance = getattr(getattr(server, "PromptServer", None), "instance", None)
        if instance is None:
            return
        from .web.events import EventBroadcaster

        self.tracker.subscribe(EventBroadcaster(lambda event, data: instance.send_sync(event, data),
                                                run_end_extras=self._run_end_extras))

    def _install_hooks(self) -> None:
        execution = _import("execution")
        if execution is None:
            self.tracing_reason = "ComfyUI's execution module could not be imported"
            return
        node_hook = install(execution, "get_output_data", self._timed(self._node_before),
                            self._timed(self._node_after), self._timed(self._node_failed))
        if node_hook is None:
            self.tracing_reason = "this ComfyUI has no execution.get_output_data to trace nodes through"
            warn_once("no-hook", "Memory Probe: %s; per-node tracing is unavailable, probe nodes still work",
                      self.tracing_reason)
            return
        self.hooks.append(node_hook)
        executor = getattr(execution, "PromptExecutor", None)
        name = "execute_async" if hasattr(executor, "execute_async") else "execute"
        run_hook = install(executor, name, self._timed(self._run_before), self._timed(self._run_after),
                           self._timed(self._run_failed)) if executor else None
        if run_hook is not None:
            self.hooks.append(run_hook)
        else:
            warn_once("no-run-hook", "Memory Probe: no PromptExecutor to hook; runs are opened at their first node")
        self._dynprompt_source = _import("comfy_execution.progress")
        self.tracing_reason = None

    def _install_log_handler(self) -> None:
        root = logging.getLogger()
        if not any(isinstance(h, FallbackLogHandler) for h in root.handlers):
            root.addHandler(FallbackLogHandler(self.tracker))

    def _add_routes(self) -> None:
        server = _import("server")
        instance = getattr(getattr(server, "PromptServer", None), "instance", None)
        if instance is None:
            return
        from .web.routes import MemProbeRoutes, Services

        services = Services(tracker=self.tracker, ledger=self.ledger, machine=self.machine, config=lambda: self.config,
                            set_config=self.set_config, status=self.status, advice_machine=self.advice_machine)
        MemProbeRoutes(services).add_routes(instance.routes, static_dir=HERE / "vendor")

    # ------------------------------------------------------------------ state the routes read
    @property
    def tracing_available(self) -> bool:
        return self.tracing_reason is None

    def cost(self) -> dict[str, float]:
        """Memory Probe's own CPU time so far, by part, and the whole process's."""
        return {"hook_cpu_s": self.hook_cpu_ns / 1e9, "sampler_cpu_s": self.sampler.cpu_s,
                "ledger_cpu_s": self.ledger.cpu_s if self.ledger is not None else 0.0,
                "process_cpu_s": time.process_time()}

    def status(self) -> dict[str, Any]:
        return {
            "version": __version__,
            "tracing": {"available": self.tracing_available, "enabled": self.config.tracing,
                        "reason": self.tracing_reason},
            "ledger": {"available": self.ledger is not None, "reason": self.ledger_reason},
            "sampler": self.sampler.status(),
            "config": self.config.to_dict(),
            "cost": {k: round(v, 4) for k, v in self.cost().items()},
            "context": self.context,
            "idle": [{"wall_time": t, **m} for t, m in list(self.sampler.idle)[-60:]],
        }

    def set_config(self, config: Config) -> None:
        self.config = config
        self.sampler.set_rate(config.sample_hz)
        if self.ledger is not None:
            self.ledger.max_runs = config.retention_runs
            self.ledger.max_bytes = config.retention_mb * 1024**2
        if self.data_dir is not None:
            save_config(self.data_dir / "config.json", config)

    def machine(self) -> dict[str, Any]:
        machine = gather_machine(sensors=self.sensors)
        findings = diagnose(machine)
        advice = suggest_pagefile(machine["memory"].get("ram_total_bytes"), _largest_vram(machine))
        machine["findings"] = [f.to_dict() for f in findings]
        machine["suggested_pagefile"] = advice.to_dict() if advice else None
        machine["comfyui"] = self.context
        return machine

    def advice_machine(self) -> dict[str, Any] | None:
        """The machine document the advice reads (disks, pagefile), gathered at most every 30 s."""
        now = time.monotonic()
        if self._machine_cache is None or now - self._machine_cache[0] > 30:
            try:
                self._machine_cache = (now, self.machine())
            except Exception:  # advice works without it
                warn_once("advice-machine", "Memory Probe: could not read the machine set-up for the advice",
                          exc_info=True)
                return None
        return self._machine_cache[1]

    def _run_end_extras(self, run: Any) -> dict[str, Any]:
        """What ``memprobe.run_end`` carries besides the header: the suggestions and stage summary."""
        doc = enrich(run.to_dict(timeline={"t": [], "series": {}}), self.advice_machine())
        return {k: doc[k] for k in ("suggestions", "stages", "parameters", "memory")}

    # ------------------------------------------------------------------ probe nodes
    def mark(self, label: str, node_id: str | None) -> Mark | None:
        return self.tracker.add_mark(label, node_id)

    # ------------------------------------------------------------------ hook callbacks (worker thread)
    def _timed(self, callback: Any) -> Any:
        """``callback``, adding the CPU time it takes to :attr:`hook_cpu_ns`."""

        def timed(*args: Any) -> Any:
            start = time.thread_time_ns()
            try:
                return callback(*args)
            finally:
                self.hook_cpu_ns += time.thread_time_ns() - start

        timed.__qualname__ = getattr(callback, "__qualname__", "timed")
        return timed

    def _node_before(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> NodeRun | None:
        if not self.config.tracing:
            return None
        prompt_id = kwargs.get("prompt_id", args[0] if len(args) > 0 else None)
        unique_id = kwargs.get("unique_id", args[1] if len(args) > 1 else None)
        obj = kwargs.get("obj", args[2] if len(args) > 2 else None)
        if prompt_id is None or unique_id is None:
            return None
        unique_id = str(unique_id)
        cls = obj if isinstance(obj, type) else type(obj)
        class_type, display_id, real_id = self._identify(unique_id, cls)
        return self.tracker.node_begin(str(prompt_id), unique_id, class_type, cls,
                                       display_node_id=display_id, real_node_id=real_id)

    def _identify(self, unique_id: str, cls: type) -> tuple[str, str | None, str | None]:
        """The node's class type (its NODE_CLASS_MAPPINGS key) and display/real ids, from
        ComfyUI's dynamic prompt, which also knows nodes created by expansion."""
        try:
            dynprompt = self._dynprompt_source.get_progress_state().dynprompt
            node = dynprompt.get_node(unique_id)
            return (node["class_type"], dynprompt.get_display_node_id(unique_id),
                    dynprompt.get_real_node_id(unique_id))
        except Exception:  # older ComfyUI: fall back to the prompt and the class
            run = self.tracker.current
            node = (run.prompt or {}).get(unique_id) if run is not None else None
            if isinstance(node, dict) and isinstance(node.get("class_type"), str):
                return node["class_type"], None, None
            return getattr(cls, "__name__", "?"), None, None

    def _node_after(self, node: NodeRun | None, result: Any) -> None:
        if node is None:
            return
        pending = isinstance(result, tuple) and len(result) >= 4 and result[3] is True
        if not pending:
            self.tracker.node_end(node)
            return
        self.tracker.node_end(node, pending=True)
        tasks = [t for t in (result[0] or []) if isinstance(t, asyncio.Task)]
        remaining = [len(tasks)]

        def done(task: asyncio.Task[Any]) -> None:
            remaining[0] -= 1
            if remaining[0] == 0:
                failures = [t.exception() for t in tasks if not t.cancelled() and t.exception() is not None]
                if failures:
                    self.tracker.node_failed(node, failures[0])
                else:
                    self.tracker.node_end(node)

        for task in tasks:
            task.add_done_callback(done)

    def _node_failed(self, node: NodeRun | None, exc: BaseException) -> None:
        self.tracker.node_failed(node, exc)

    def _run_before(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, Any] | None:
        executor = args[0] if args else None
        prompt = kwargs.get("prompt", args[1] if len(args) > 1 else None)
        prompt_id = kwargs.get("prompt_id", args[2] if len(args) > 2 else None)
        if prompt_id is None or not self.config.tracing:
            return None
        self.tracker.begin_run(str(prompt_id), prompt=prompt if isinstance(prompt, dict) else None,
                               context=self.context)
        return str(prompt_id), executor

    def _run_after(self, token: tuple[str, Any] | None, result: Any) -> None:
        """The executor recorded the outcome in ``status_messages`` (also for headless runs)."""
        if token is None:
            return
        run_id, executor = token
        self._end_from_messages(run_id, getattr(executor, "status_messages", None))

    def _end_from_messages(self, run_id: str, messages: list[tuple[str, dict[str, Any]]] | None) -> None:
        status, error, cached = "success", None, []
        for event, data in messages or []:
            if event == "execution_cached":
                cached = [str(n) for n in data.get("nodes", [])]
            elif event == "execution_error":
                status = "error"
                error = {k: data.get(k) for k in ("node_id", "node_type", "exception_type", "exception_message")}
            elif event == "execution_interrupted":
                status = "interrupted"
        self.tracker.end_run(run_id, status, error=error, cached=cached)

    def _run_failed(self, token: tuple[str, Any] | None, exc: BaseException) -> None:
        if token is not None:
            self.tracker.end_run(token[0], "error", error={"exception_type": exception_type_name(exc),
                                                         "exception_message": str(exc)})

    # ------------------------------------------------------------------ shutdown
    def shutdown(self) -> None:
        """At interpreter exit: close a run cut short by the shutdown, flush the ledger."""
        run = self.tracker.current
        if run is not None:
            self.tracker.end_run(run.id, "interrupted", error={"exception_type": None,
                                 "exception_message": "ComfyUI was shut down while this run executed"})
        self.sampler.stop()
        if self.ledger is not None:
            self.ledger.flush(5)
            self.ledger.stop()


_runtime: Runtime | None = None
_runtime_lock = threading.Lock()


def get_runtime() -> Runtime:
    """The process's runtime (created on first use, started by ``comfy_entrypoint``)."""
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            _runtime = Runtime()
        return _runtime
