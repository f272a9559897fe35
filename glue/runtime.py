"""Start-up and wiring: Memory Probe inside one ComfyUI process. It creates the sensors, tracker,
sampler and ledger, installs the execution hooks (``execution_hooks``) and the log handler, and
registers the routes and events (``web/``). What it reads of ComfyUI comes from ``environment``.

Every step is guarded: if a hook point is missing in this ComfyUI version, tracing reports itself
unavailable (``GET /memprobe/live``) and the probe nodes keep working. ComfyUI's start-up is never
broken by Memory Probe.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..memprobe import __version__
from ..memprobe._log import warn_once
from ..memprobe.config import Config, load_config, save_config
from ..memprobe.judging.doctor import examine
from ..memprobe.judging.run_end import RunEndJudge
from ..memprobe.judging.run_view import enrich, live_limits
from ..memprobe.recording.hook import Hook
from ..memprobe.recording.ledger import Ledger, LedgerError
from ..memprobe.recording.loghandler import ComfyLogHandler
from ..memprobe.recording.records import Mark
from ..memprobe.recording.runstats import RunStats
from ..memprobe.recording.tracker import Tracker
from ..memprobe.sensing.machine import gather_machine
from ..memprobe.sensing.sampler import Sampler
from ..memprobe.sensing.sensors import Sensors
from ..memprobe.sensing.snapshot import HEAP_FREE_METRIC
from . import environment
from .environment import import_optional
from .execution_hooks import ExecutionHooks
from .models import ModelReader

if TYPE_CHECKING:  # it needs prometheus-client, imported when the metrics are set up
    from ..memprobe.forecast.service import ForecastService
    from ..memprobe.output.prometheus import MetricsExporter
    from ..web.forecast import QueueCheck

__all__ = ["Runtime", "get_runtime"]

logger = logging.getLogger("memprobe")
PACK_DIR = Path(__file__).resolve().parents[1]


class Runtime:
    """Memory Probe inside one ComfyUI process."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.sensors = Sensors()
        self.tracker = Tracker(self.sensors)
        self.sampler = Sampler(self.sensors, self.tracker)
        self.config = Config()
        self.run_stats = RunStats(lambda: self.config.metrics_workflow_label)
        self.tracker.subscribe(self.run_stats)
        self.judge = RunEndJudge(self.advice_machine)
        """Judges each run as it ends, off the worker thread; the events and the metrics render it."""
        self.judge.subscribe(self.run_stats)
        self.tracker.subscribe(self.judge)
        self.metrics: MetricsExporter | None = None
        """What ``GET /memprobe/metrics`` serves, once set up."""
        self.metrics_reason: str | None = "not started"
        self.ledger: Ledger | None = None
        self.models = ModelReader()
        self.tracker.residency = self.models.read
        self.execution_hooks = ExecutionHooks(
            self.tracker, lambda: self.config.tracing, self.run_context, models=self.models
        )
        self.tracing_reason: str | None = "not started"
        self.ledger_reason: str | None = "not started"
        self.context: dict[str, Any] = {}
        self.data_dir: Path | None = data_dir
        """Where the ledger and settings live: ``<ComfyUI user dir>/memprobe`` unless given."""
        self.started = False
        self._lock = threading.Lock()
        self._machine_cache: tuple[float, dict[str, Any]] | None = None
        self.forecasts: ForecastService | None = None
        self.forecast_reason: str | None = "not started"
        self.queue_check: QueueCheck | None = None
        self.tracker.cost_probe = self.cost

    # ------------------------------------------------------------------ start-up
    def start(self) -> None:
        """Wire everything into the running ComfyUI. Idempotent; never raises."""
        with self._lock:
            if self.started:
                return
            self.started = True
        for step in (
            self._read_comfy,
            self._open_ledger,
            self._setup_forecast,
            self._connect_events,
            self._install_hooks,
            self._install_log_handler,
            self._setup_metrics,
            self._add_routes,
        ):
            try:
                step()
            except Exception:  # one broken step must not stop the others, nor ComfyUI
                logger.warning("Memory Probe: start-up step %s failed", step.__name__, exc_info=True)
        self._apply_config()
        self.sampler.start()
        atexit.register(self.shutdown)
        logger.info(
            "Memory Probe %s: tracing %s, ledger %s",
            __version__,
            "on" if self.tracing_available else f"unavailable ({self.tracing_reason})",
            self.ledger.path if self.ledger else f"unavailable ({self.ledger_reason})",
        )

    def _read_comfy(self) -> None:
        self.sensors.set_disk_paths(environment.comfy_folders())
        if self.data_dir is None:
            self.data_dir = environment.user_data_dir() or PACK_DIR / ".memprobe-data"
        self.config = load_config(self.data_dir / "config.json")
        self.tracker.compute_device = environment.compute_device()
        self.context = environment.static_context(self.sensors, self.tracker.compute_device)

    def run_context(self) -> dict[str, Any]:
        """What each run records of its surroundings: the static context, and the kernel's OOM-kill
        counters at its start (the next start compares them to tell an OOM kill; Linux only)."""
        kills = self.sensors.oom_kills()
        return {**self.context, "oom_kills": kills} if kills else self.context

    def _open_ledger(self) -> None:
        assert self.data_dir is not None
        ledger = Ledger(
            self.data_dir / "ledger.sqlite3",
            max_runs=self.config.retention_runs,
            max_bytes=self.config.retention_mb * 1024**2,
        )
        try:
            abrupt = ledger.open(kills_now=self.sensors.oom_kills())
        except LedgerError as exc:
            self.ledger_reason = str(exc)
            logger.warning("Memory Probe: the run ledger is unavailable: %s", exc)
            return
        ledger.start()
        self._count_abrupt(ledger, abrupt)
        self.tracker.subscribe(ledger.listener)
        self.ledger, self.ledger_reason = ledger, None

    def _setup_forecast(self) -> None:
        """The forecast reads model headers through ComfyUI's folders; each judged run teaches it
        (subscribed before the events, so a run's forecast is kept when the panel asks for it)."""
        from ..memprobe.forecast.service import ForecastService
        from .forecasting import comfy_model, input_image_size

        ledger = self.ledger
        self.forecasts = ForecastService(
            comfy_model,
            context=self.run_context,
            readings=self.forecast_readings,
            models=self.tracker.read_models,
            image_size=input_image_size,
            taught=(lambda device, before: ledger.observations(device, before=before)) if ledger else lambda d, b: [],
            keep=ledger.save_forecast if ledger is not None else None,
        )
        self.judge.subscribe(self.forecasts)
        self.forecast_reason = None
        if ledger is not None:
            self.judge.charge = ledger.charge

    def readings(self) -> dict[str, Any]:
        """The readings now: the sampler's latest between runs, else a fresh one."""
        latest = self.sampler.latest
        if latest is not None and time.time() - latest[0] < 5:
            return dict(latest[1])
        return dict(self.sensors.sample())

    def forecast_readings(self) -> dict[str, Any]:
        """The readings a forecast starts from: those, and the heap ``malloc`` holds free now (Linux)."""
        out = self.readings()
        free = self.tracker.heap_free()
        if free is not None:
            out[HEAP_FREE_METRIC] = free
        return out

    def _count_abrupt(self, ledger: Ledger, run_ids: list[str]) -> None:
        """Runs a dead ComfyUI left behind count as outcomes now (``memprobe_runs_total``), judged."""
        verdicts = []
        for run_id in run_ids:
            try:
                doc = ledger.get_run(run_id, max_points=10)
                verdicts.append(enrich(doc)["verdict"] if doc is not None else None)
            except Exception:  # counted without its verdict
                warn_once("abrupt-count", "Memory Probe: cannot judge run %s", run_id, exc_info=True)
                verdicts.append(None)
        self.run_stats.add_abrupt(verdicts)

    def _connect_events(self) -> None:
        server = import_optional("server")
        instance = getattr(getattr(server, "PromptServer", None), "instance", None)
        if instance is None:
            return
        from ..web.events import EventBroadcaster

        self.tracker.subscribe(EventBroadcaster(lambda event, data: instance.send_sync(event, data), judge=self.judge))
        if self.forecasts is not None and hasattr(instance, "add_on_prompt_handler"):
            from ..web.forecast import QueueCheck

            self.queue_check = QueueCheck(
                lambda prompt, what_if: self.forecasts.now(prompt, what_if) if self.forecasts else {},
                lambda event, data, sid: instance.send_sync(event, data, sid),
                enabled=lambda: self.config.forecast_on_queue,
            )
            instance.add_on_prompt_handler(self.queue_check)
            self.execution_hooks.queued_cost = self.queue_check.cost_of

    def _install_hooks(self) -> None:
        self.tracing_reason = self.execution_hooks.install()

    @property
    def hooks(self) -> list[Hook]:
        return self.execution_hooks.hooks

    def _install_log_handler(self) -> None:
        root = logging.getLogger()
        if not any(isinstance(h, ComfyLogHandler) and h.tracker is self.tracker for h in root.handlers):
            root.addHandler(ComfyLogHandler(self.tracker))

    def _setup_metrics(self) -> None:
        try:
            from ..memprobe.output.prometheus import MetricsExporter
        except ImportError as exc:  # the other features work without it
            self.metrics_reason = f"prometheus-client is not installed ({exc}); install requirements.txt"
            logger.warning("Memory Probe: /memprobe/metrics is unavailable: %s", self.metrics_reason)
            return
        info = {
            "version": __version__,
            "comfyui_version": self.context.get("comfyui_version"),
            "compute_device": self.context.get("compute_device"),
        }
        self.metrics = MetricsExporter.for_sensors(
            self.run_stats,
            self.sensors,
            latest=lambda: self.sampler.latest,
            cpu=self.cost,
            state=self._metrics_state,
            info=info,
        )
        self.tracker.subscribe(self.metrics)
        self.metrics_reason = None

    def _metrics_state(self) -> dict[str, bool]:
        return {"tracing": self.tracing_available and self.config.tracing, "run_active": self.tracker.active}

    def _add_routes(self) -> None:
        server = import_optional("server")
        instance = getattr(getattr(server, "PromptServer", None), "instance", None)
        if instance is None:
            return
        from ..web.routes import MemProbeRoutes, Services

        services = Services(
            tracker=self.tracker,
            ledger=self.ledger,
            machine=self.machine,
            config=lambda: self.config,
            set_config=self.set_config,
            status=self.status,
            advice_machine=self.advice_machine,
            metrics=self.metrics,
            metrics_unavailable=self.metrics_reason,
            models=self.tracker.read_models,
            forecast=self.forecasts.now if self.forecasts is not None else None,
            server_id=(self.context.get("server") or {}).get("id"),
            forecast_unavailable=self.forecast_reason,
        )
        MemProbeRoutes(services).add_routes(instance.routes, static_dir=PACK_DIR / "vendor")

    # ------------------------------------------------------------------ state the routes read
    @property
    def tracing_available(self) -> bool:
        return self.tracing_reason is None

    def cost(self) -> dict[str, float]:
        """Memory Probe's own CPU time so far, by part, and the whole process's."""
        return {
            "hook_cpu_s": self.execution_hooks.cpu_ns / 1e9,
            "sampler_cpu_s": self.sampler.cpu_s,
            "ledger_cpu_s": self.ledger.cpu_s if self.ledger is not None else 0.0,
            "judge_cpu_s": self.judge.cpu_s,
            "forecast_cpu_s": self.queue_check.cpu_s if self.queue_check is not None else 0.0,
            "process_cpu_s": time.process_time(),
        }

    def status(self) -> dict[str, Any]:
        return {
            "version": __version__,
            "tracing": {
                "available": self.tracing_available,
                "enabled": self.config.tracing,
                "reason": self.tracing_reason,
            },
            "ledger": {
                "available": self.ledger is not None,
                "reason": self.ledger_reason,
                **(self.ledger.state() if self.ledger is not None else {"saving": False}),
            },
            "memory": live_limits(self.context, self.sensors.sample()),
            "metrics": {
                "enabled": self.config.metrics,
                "available": self.metrics is not None,
                "reason": self.metrics_reason,
            },
            "sampler": self.sampler.status(),
            "config": self.config.to_dict(),
            "cost": {k: round(v, 4) for k, v in self.cost().items()},
            "context": self.context,
            "idle": [{"wall_time": t, **m} for t, m in list(self.sampler.idle)[-60:]],
        }

    def _apply_config(self) -> None:
        self.sampler.set_rate(self.config.sample_hz or None)
        self.tracker.exact_rss_peaks = self.config.exact_rss_peaks

    def set_config(self, config: Config) -> None:
        self.config = config
        self._apply_config()
        if self.ledger is not None:
            self.ledger.max_runs = config.retention_runs
            self.ledger.max_bytes = config.retention_mb * 1024**2
        if self.data_dir is not None:
            save_config(self.data_dir / "config.json", config)

    def machine(self) -> dict[str, Any]:
        machine, _ = examine(gather_machine(sensors=self.sensors))
        machine["comfyui"] = self.context
        return machine

    def advice_machine(self) -> dict[str, Any] | None:
        """The machine document the advice reads (disks, pagefile), gathered at most every 30 s."""
        now = time.monotonic()
        if self._machine_cache is None or now - self._machine_cache[0] > 30:
            try:
                self._machine_cache = (now, self.machine())
            except Exception:  # advice works without it
                warn_once(
                    "advice-machine", "Memory Probe: could not read the machine set-up for the advice", exc_info=True
                )
                return None
        return self._machine_cache[1]

    # ------------------------------------------------------------------ probe nodes
    def mark(self, label: str, node_id: str | None) -> Mark | None:
        return self.tracker.add_mark(label, node_id)

    # ------------------------------------------------------------------ shutdown
    def shutdown(self) -> None:
        """At interpreter exit: close a run cut short by the shutdown, flush the ledger."""
        run = self.tracker.current
        if run is not None:
            self.tracker.end_run(
                run.id,
                "interrupted",
                error={"exception_type": None, "exception_message": "ComfyUI was shut down while this run executed"},
            )
        self.sampler.stop()
        self.judge.flush(5)
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
