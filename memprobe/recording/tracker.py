"""The live run: what the tracing hook, the probe nodes, the sampler and the log handler report,
assembled into :class:`~memprobe.recording.records.RunRecord` objects and passed on to listeners
(the ledger writer, the websocket events).

Every public method is safe to call from any thread and never raises: a fault here is logged
once and the user's workflow carries on untouched.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .._log import warn_once
from ..documents import ModelDoc, RunDoc
from ..format import probe_summary
from ..judging.failures import classify_failure
from ..judging.limits import NEAR_LIMIT
from ..judging.residency import ModelState, describe_model, diff_models
from ..judging.stages import StageCache
from ..logs.modellog import ModelLogLine
from ..sensing.sensors import Sensors
from ..sensing.snapshot import HEAP_FREE_METRIC, Metrics, Snapshot
from .listener import TrackerListener
from .records import Failure, Mark, NodeRun, RunEvent, RunRecord, max_merge

__all__ = ["Tracker", "exception_type_name"]

F = TypeVar("F", bound=Callable[..., Any])

SPILL_MIN_BYTES = 256 * 1024**2
"""Shared GPU memory that must appear during a node before it counts as a VRAM spill."""
HEAP_STAGES = frozenset({"sampling", "vae-decode", "vae-encode", "upscale", "text-encode"})
"""The stages whose working memory the forecast learns (``memprobe.forecast.learn``): where ComfyUI computes
on the CPU, the C library's free heap is read at their nodes' start and end, and at a run's start (each
read walks malloc's arenas)."""


def _guarded(method: F) -> F:
    """Log a fault in the tracker once per method and return ``None`` instead of raising."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except Exception:  # never break the user's workflow
            warn_once(
                f"tracker-{method.__name__}",
                "Memory Probe: internal error in %s (tracing continues)",
                method.__name__,
                exc_info=True,
            )
            return None

    return wrapper  # type: ignore[return-value]


def _doing(exc: BaseException) -> list[str]:
    """The functions the exception passed through, innermost last (what it was doing when it failed)."""
    names: list[str] = []
    tb = exc.__traceback__
    while tb is not None and len(names) < 200:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    return names


def exception_type_name(exc: BaseException) -> str:
    """``module.QualName`` like ComfyUI's ``execution_error`` (bare for builtins)."""
    cls = type(exc)
    module = cls.__module__
    return cls.__qualname__ if module == "builtins" else f"{module}.{cls.__qualname__}"


class Tracker:
    SAMPLE_FLUSH_S = 0.25
    MIN_CPU_FOR_SHARE_S = 0.5
    """Memory Probe's share of the process's CPU is given for runs that used at least this much."""
    NODE_GAP_S = 0.02
    """A system-wide reading this recent stands for a node's start (the previous node ended just before)."""

    def __init__(self, sensors: Sensors, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.sensors = sensors
        self.clock = clock
        self.stages = StageCache()
        self.listeners: list[TrackerListener] = []
        self.current: RunRecord | None = None
        self.last: RunRecord | None = None
        self.compute_device = "cuda"
        self.exact_rss_peaks = True
        """Restart Linux's peak-RSS counter at each node for exact RSS peaks (see
        :meth:`~memprobe.sensing.sensors.Sensors.reset_peaks`); ``False`` leaves the counter alone."""
        self.residency: Callable[[], list[ModelState] | None] | None = None
        """Reads ComfyUI's model manager (``glue/models.py``); ``None`` outside ComfyUI."""
        self._last_models: tuple[list[ModelState], list[ModelDoc]] = ([], [])
        self.cost_probe: Callable[[], dict[str, float]] | None = None
        """Memory Probe's own CPU counters (hook, sampler, ledger, whole process); each run
        records how much of them it used (``overhead`` in its header)."""
        self._cost_at_start: dict[str, float] = {}
        self._open: list[NodeRun] = []
        self._seq = 0
        self._mark_seq = 0
        self._sent = 0
        self._flushed_at = 0.0
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ listeners
    def subscribe(self, listener: TrackerListener) -> None:
        self.listeners.append(listener)

    def _notify(self, name: str, *args: Any) -> None:
        for listener in self.listeners:
            try:
                getattr(listener, name)(*args)
            except Exception:  # one listener's fault must not silence the others
                warn_once(
                    f"listener-{type(listener).__name__}-{name}",
                    "Memory Probe: %s.%s failed (ignored)",
                    type(listener).__name__,
                    name,
                    exc_info=True,
                )

    @property
    def active(self) -> bool:
        return self.current is not None

    # ------------------------------------------------------------------ runs
    @_guarded
    def begin_run(
        self,
        run_id: str,
        prompt: dict[str, Any] | None = None,
        context: dict[str, Any] | None = None,
        workflow: dict[str, Any] | None = None,
    ) -> RunRecord:
        """Open a run. ``workflow`` is where it came from (see ``workflow.workflow_identity``)."""
        unfinished = None
        with self._lock:
            if self.current is not None:
                if self.current.id == str(run_id):
                    return self.current
                unfinished = self._finish(self.current, "interrupted")  # its end was never reported
            snap = self.sensors.snapshot()
            run = RunRecord(
                id=str(run_id),
                started_at=snap.wall_time_s,
                started_mono=snap.monotonic_s,
                context=dict(context or {}),
                prompt=prompt,
                start_metrics=self._with_heap_free(snap.metrics()),
                models_start=self.read_models(),
                workflow=dict(workflow) if workflow else None,
            )
            self.current = run
            self._cost_at_start = self._cost()
            self._open = []
            self._seq = 0
            self._sent = 0
            self._flushed_at = snap.monotonic_s
        if unfinished is not None:
            self._notify("run_finished", unfinished)
        self._notify("run_started", run)
        return run

    @_guarded
    def end_run(
        self, run_id: str, status: str, *, error: dict[str, Any] | None = None, cached: Iterable[str] = ()
    ) -> RunRecord | None:
        """Close the run: ``status`` is ``success``, ``error`` or ``interrupted``; ``error`` is
        ComfyUI's ``execution_error`` data; ``cached`` the ids ComfyUI served from its cache."""
        with self._lock:
            run = self.current
            if run is None or run.id != str(run_id):
                return None
            for node_id in cached:
                if not any(n.node_id == node_id for n in run.nodes):
                    self._add_cached(run, str(node_id))
            if error:
                run.error = error
            if error and status == "error":
                if not run.failures:  # failed where the hook could not see it (e.g. an async task)
                    run.failures.append(self._failure_from_error(run, error))
            self._finish(run, status)
        self._notify("run_finished", run)  # outside the lock: listeners never hold up the sampler
        return run

    def _finish(self, run: RunRecord, status: str) -> RunRecord:
        """Close ``run`` (under the lock); the caller tells the listeners once the lock is released."""
        for node in self._open:  # nodes still open now never finished (e.g. pending async work)
            node.status = "failed" if status == "error" else "interrupted" if status == "interrupted" else node.status
            node.end_s = node.end_s or self._t(run)
        self._open = []
        snap = self.sensors.snapshot()
        run.end_metrics = snap.metrics()
        run.models_end = self.read_models()
        run.ended_at = snap.wall_time_s
        run.status = status
        run.overhead = self._overhead()
        if run.overhead is not None and run.charged:
            run.overhead.update(run.charged)
        self._flush_samples(run, force=True)
        self.current = None
        self.last = run
        return run

    def _cost(self) -> dict[str, float]:
        if self.cost_probe is None:
            return {}
        try:
            return self.cost_probe()
        except Exception:  # overhead accounting is a nicety, never a fault
            return {}

    AFTER_RUN_PARTS = frozenset({"judge_cpu_s", "forecast_cpu_s"})
    """Parts of Memory Probe's CPU spent for a run outside its window (the forecast when it was queued,
    the judgement once it ended): each run is charged its own, by whoever spends it, not the window's."""

    def _overhead(self) -> dict[str, float] | None:
        end, start = self._cost(), self._cost_at_start
        if not end or not start:
            return None
        used = {k: round(end[k] - start.get(k, 0.0), 4) for k in end if k not in self.AFTER_RUN_PARTS}
        own = sum(v for k, v in used.items() if k != "process_cpu_s")
        # The ledger's clock is read when it last wrote, so a write before the run can count in it,
        # and the process's clock counts another thread's running time slice only once it ends (a
        # sampler tick under way is in the sampler's clock already): a share is only honest over a
        # run long enough for those milliseconds to vanish.
        if used.get("process_cpu_s", 0.0) >= self.MIN_CPU_FOR_SHARE_S:
            used["share_of_process_cpu_pct"] = round(100 * own / used["process_cpu_s"], 3)
        return used

    def _add_cached(self, run: RunRecord, node_id: str) -> None:
        class_type = _prompt_class(run.prompt, node_id) or "?"
        self._seq += 1
        node = NodeRun(
            seq=self._seq,
            node_id=node_id,
            class_type=class_type,
            stage=self.stages.stage(class_type, None),
            status="cached",
            title=_prompt_title(run.prompt, node_id),
        )
        run.nodes.append(node)
        self._notify("node_finished", run, node, node.to_dict())

    def _failure_from_error(self, run: RunRecord, error: dict[str, Any]) -> Failure:
        node_id = error.get("node_id")
        node = next((n for n in reversed(run.nodes) if n.node_id == node_id), None)
        class_type = error.get("node_type") or (node.class_type if node else None)
        kind = classify_failure(
            error.get("exception_type"), error.get("exception_message"), compute_device=self.compute_device
        )
        return Failure(
            node_id=node_id,
            class_type=class_type,
            stage=node.stage if node else None,
            kind=kind,
            exception_type=error.get("exception_type"),
            message=error.get("exception_message"),
            t_s=self._t(run),
        )

    def _t(self, run: RunRecord, mono: float | None = None) -> float:
        return round((self.clock() if mono is None else mono) - run.started_mono, 4)

    def _run_for(self, run_id: str) -> RunRecord:
        run = self.current
        if run is None or run.id != str(run_id):  # the run hook is missing: open one implicitly
            run = self.begin_run(run_id)
        return run

    # ------------------------------------------------------------------ nodes
    @_guarded
    def node_begin(
        self,
        run_id: str,
        node_id: str,
        class_type: str,
        node_cls: type | None = None,
        *,
        display_node_id: str | None = None,
        real_node_id: str | None = None,
    ) -> NodeRun:
        with self._lock:
            run = self._run_for(run_id)
            if self._open:  # nodes overlap (async work): bank their peaks before the counters restart
                self._bank_counters(self.sensors.snapshot(disks=False).peak_counters())
            reset = self.sensors.reset_peaks(rss=self.exact_rss_peaks)
            # the previous node's end was a moment ago: its system-wide reading stands, the process's is fresh
            snap = self.sensors.snapshot(disks=False, system_max_age_s=self.NODE_GAP_S)
            self._seq += 1
            node = NodeRun(
                seq=self._seq,
                node_id=str(node_id),
                class_type=class_type,
                stage=self.stages.stage(class_type, node_cls),
                display_node_id=display_node_id,
                real_node_id=real_node_id,
                title=_prompt_title(run.prompt, real_node_id or display_node_id or str(node_id)),
                start_s=self._t(run, snap.monotonic_s),
                before=snap.metrics(),
                models_before=self.read_models(),
                counters_start=snap.peak_counters(),
                counters_reset=reset,
            )
            if node.stage in HEAP_STAGES:
                node.heap_free_before = self.heap_free()
            node.peaks.update(node.before or {})
            run.nodes.append(node)
            self._open.append(node)
        self._notify("node_started", run, node, node.to_dict())
        return node

    @_guarded
    def node_end(self, node: NodeRun | None, *, pending: bool = False) -> None:
        """The node's function returned; ``pending`` when it left async work running."""
        if node is None:
            return
        with self._lock:
            run = self.current
            if pending:
                node.status = "pending"
                return
            snap = self.sensors.snapshot(disks=False)
            self._close(node, snap, "ran")
        if run is not None:
            self._notify("node_finished", run, node, node.to_dict())

    @_guarded
    def node_failed(self, node: NodeRun | None, exc: BaseException) -> None:
        if node is None:
            return
        with self._lock:
            run = self.current
            snap = self.sensors.snapshot()
            type_name = exception_type_name(exc)
            if type(exc).__name__ == "InterruptProcessingException":
                self._close(node, snap, "interrupted")
            else:
                self._close(node, snap, "failed")
                kind = classify_failure(
                    type_name, str(exc), system=snap.system, compute_device=self.compute_device, during=_doing(exc)
                )
                node.error = {"exception_type": type_name, "message": str(exc), "kind": kind}
                if run is not None:
                    run.failures.append(
                        Failure(
                            node_id=node.node_id,
                            class_type=node.class_type,
                            stage=node.stage,
                            kind=kind,
                            exception_type=type_name,
                            message=str(exc),
                            t_s=node.end_s,
                            snapshot=snap.to_dict(),
                            consequence=bool(run.failures),
                        )
                    )
        if run is not None:
            self._notify("node_finished", run, node, node.to_dict())

    def _close(self, node: NodeRun, snap: Snapshot, status: str) -> None:
        run = self.current
        node.after = snap.metrics()
        if node.heap_free_before is not None:
            node.heap_free_after = self.heap_free()
        node.models = self.read_models()
        node.model_changes = diff_models(node.models_before, node.models)
        max_merge(node.peaks, node.after)
        self._apply_counters(node, snap.peak_counters())
        node.end_s = self._t(run, snap.monotonic_s) if run is not None else None
        node.status = status
        if node in self._open:
            self._open.remove(node)
        if run is not None:
            self._check_spill(run, node)

    def _bank_counters(self, counters: Metrics) -> None:
        """Before the counters restart for a new node, fold what they hold into the nodes still
        open: each open node's peak then covers its whole time, piece by piece."""
        for node in self._open:
            max_merge(node.peaks, {k: v for k, v in counters.items() if k in node.counters_reset})

    @staticmethod
    def _apply_counters(node: NodeRun, counters: Metrics) -> None:
        """The node's peaks from the OS's and torch's own peak counters, where they tell it exactly.

        A counter restarted at the node's start (Linux ``VmHWM``, torch) holds the node's peak.
        One that counts since the process or the system started (Windows) holds it when the
        node set a new high (the counter rose), or when the node's readings reached the old high
        (nothing above it is possible); otherwise the node's peak stays the sampled one.
        """
        for metric, value in counters.items():
            if metric in node.counters_reset:
                exact = True
            else:
                start = node.counters_start.get(metric)
                if start is None:
                    continue
                exact = value > start or node.peaks.get(metric, -1) >= start
            if exact:
                max_merge(node.peaks, {metric: value})
                node.exact_peaks.add(metric)

    def _check_spill(self, run: RunRecord, node: NodeRun) -> None:
        """A VRAM spill into shared memory (Windows "system memory fallback"): nothing fails,
        the node just gets many times slower. Seen as shared memory rising while VRAM is full."""
        before, peaks = node.before or {}, node.peaks
        for key, peak in peaks.items():
            if not key.endswith("_shared_bytes"):
                continue
            gpu = key.removesuffix("_shared_bytes")
            grew = peak - before.get(key, peak)
            used, total = peaks.get(f"{gpu}_used_bytes"), peaks.get(f"{gpu}_total_bytes")
            if grew >= SPILL_MIN_BYTES and used is not None and total and used >= NEAR_LIMIT * total:
                message = f"{gpu}: shared GPU memory grew by {grew // 1024**2} MiB while VRAM was full"
                self._event(run, "vram-spill", node, message)

    def _event(self, run: RunRecord, kind: str, node: NodeRun | None, message: str) -> None:
        if node is not None and kind not in node.fallbacks:
            node.fallbacks.append(kind)
        event = RunEvent(t_s=self._t(run), kind=kind, node_id=node.node_id if node else None, message=message)
        run.events.append(event)
        self._notify("event_added", run, event)

    # ------------------------------------------------------------------ probes, logs, samples
    @_guarded
    def add_mark(self, label: str, node_id: str | None = None) -> Mark:
        snap = self.sensors.snapshot()
        with self._lock:
            run = self.current
            self._mark_seq += 1
            models = self.read_models()
            summary = probe_summary(snap)
            if models:
                summary += "\n" + "\n".join(describe_model(m) for m in models)
            mark = Mark(
                seq=self._mark_seq,
                label=label,
                node_id=node_id,
                t_s=self._t(run, snap.monotonic_s) if run else None,
                metrics=snap.metrics(),
                summary=summary,
                models=models,
            )
            if run is not None:
                run.marks.append(mark)
        self._notify("mark_added", run, mark)
        return mark

    @_guarded
    def on_fallback(self, kind: str, message: str) -> None:
        """A ComfyUI log line said it recovered from an OOM (tiled VAE retry, attention ...)."""
        with self._lock:
            run = self.current
            if run is None:
                return
            node = self._open[-1] if self._open else None
            self._event(run, kind, node, message)

    @_guarded
    def on_model_log(self, line: ModelLogLine) -> None:
        """A model-manager line of ComfyUI's log (``memprobe.logs.modellog``): an event of the node
        that was running, so a run without readable model objects still shows the offload."""
        if line.kind == "requested" or (line.kind == "models-unloaded" and not line.count):
            return
        with self._lock:
            run = self.current
            if run is None:
                return
            node = self._open[-1] if self._open else None
            data = {k: v for k, v in line.to_dict().items() if v is not None and k not in ("kind", "text")}
            event = RunEvent(
                t_s=self._t(run),
                kind=f"model-{line.kind}",
                node_id=node.node_id if node else None,
                message=line.text,
                data=data,
            )
            run.events.append(event)
        self._notify("event_added", run, event)

    def heap_free(self) -> int | None:
        """What ``malloc`` holds free in this process now, where ComfyUI computes on the CPU (on a GPU the
        forecast learns VRAM, and the read is not worth its cost); ``None`` otherwise."""
        return self.sensors.heap_free_bytes() if self.compute_device == "cpu" else None

    def _with_heap_free(self, metrics: Metrics) -> Metrics:
        free = self.heap_free()
        return metrics if free is None else {**metrics, HEAP_FREE_METRIC: free}

    def read_models(self) -> list[ModelDoc] | None:
        """What ComfyUI's model manager holds now, as documents; ``None`` when unknown."""
        if self.residency is None:
            return None
        try:
            states = self.residency()
        except Exception:  # one failing reading costs that reading only
            warn_once("residency", "Memory Probe: could not read ComfyUI's loaded models", exc_info=True)
            return None
        if states is None:
            return None
        last_states, last_docs = self._last_models
        if len(states) == len(last_states) and all(a is b for a, b in zip(states, last_states, strict=True)):
            return last_docs  # nothing changed since the last reading (the reader reuses its states)
        docs = [s.to_dict() for s in states]
        self._last_models = (states, docs)
        return docs

    def on_sample(self, mono: float, metrics: Metrics) -> None:
        """One sampler reading. Hot (every tick): no snapshot, no allocation beyond the row itself."""
        with self._lock:
            run = self.current
            if run is None:
                return
            for node in self._open:
                max_merge(node.peaks, metrics)
            run.samples.append(round(mono - run.started_mono, 4), metrics)
            if mono - self._flushed_at >= self.SAMPLE_FLUSH_S:
                self._flushed_at = mono
                self._flush_samples(run)

    def _flush_samples(self, run: RunRecord, *, force: bool = False) -> None:
        if len(run.samples) <= self._sent and not force:
            return
        if len(run.samples) > self._sent:
            batch = run.samples.since(self._sent)
            self._sent = len(run.samples)
            self._notify("samples_added", run, batch)

    def live(self) -> RunDoc | None:
        """The current run as a document (``None`` between runs)."""
        with self._lock:
            return self.current.to_dict() if self.current is not None else None


def _prompt_node(prompt: dict[str, Any] | None, node_id: str) -> dict[str, Any] | None:
    if not prompt:
        return None
    node = prompt.get(node_id)
    return node if isinstance(node, dict) else None


def _prompt_title(prompt: dict[str, Any] | None, node_id: str) -> str | None:
    node = _prompt_node(prompt, node_id)
    meta = node.get("_meta") if node else None
    title = meta.get("title") if isinstance(meta, dict) else None
    return title if isinstance(title, str) else None


def _prompt_class(prompt: dict[str, Any] | None, node_id: str) -> str | None:
    node = _prompt_node(prompt, node_id)
    value = node.get("class_type") if node else None
    return value if isinstance(value, str) else None
