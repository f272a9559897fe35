"""ComfyUI's calling convention for running prompts and nodes, turned into tracker calls.

Two functions of ComfyUI's ``execution`` module are wrapped (``memprobe.recording.hook`` does the generic,
removable wrapping): ``get_output_data(prompt_id, unique_id, obj, ...)`` around every node, and
``PromptExecutor.execute_async`` (``execute`` before 0.3.4x) around every prompt. Arguments are read
by name or position, so a new keyword or a reordered tail does not break tracing. All callbacks run
on ComfyUI's prompt worker thread and never raise into it (``Hook`` logs and swallows).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from ..memprobe._log import warn_once
from ..memprobe.judging.workflow import model_files, workflow_identity
from ..memprobe.recording.hook import Hook, install
from ..memprobe.recording.records import NodeRun
from ..memprobe.recording.tracker import Tracker, exception_type_name
from .environment import import_optional
from .models import ModelReader

__all__ = ["ExecutionHooks"]


class ExecutionHooks:
    """Installs the node and prompt hooks on ComfyUI's ``execution`` module and feeds the tracker."""

    def __init__(
        self,
        tracker: Tracker,
        tracing_enabled: Callable[[], bool],
        context: Callable[[], dict[str, Any]],
        models: ModelReader | None = None,
    ) -> None:
        self.tracker = tracker
        self.models = models
        self.tracing_enabled = tracing_enabled
        self.context = context
        self.hooks: list[Hook] = []
        self.cpu_ns = 0
        """CPU time spent inside the callbacks (on ComfyUI's worker thread)."""
        self.queued_cost: Callable[[Any], float | None] | None = None
        """The CPU the forecast took for a prompt when it was queued (``web.forecast.QueueCheck.cost_of``)."""
        self._dynprompt_source: Any = None

    def install(self, execution: Any | None = None) -> str | None:
        """Wrap ComfyUI's execution functions; the reason tracing is unavailable, or ``None``."""
        execution = execution if execution is not None else import_optional("execution")
        if execution is None:
            return "ComfyUI's execution module could not be imported"
        node_hook = install(
            execution,
            "get_output_data",
            self._timed(self._node_before),
            self._timed(self._node_after),
            self._timed(self._node_failed),
        )
        if node_hook is None:
            reason = "this ComfyUI has no execution.get_output_data to trace nodes through"
            warn_once("no-hook", "Memory Probe: %s; per-node tracing is unavailable, probe nodes still work", reason)
            return reason
        self.hooks.append(node_hook)
        executor = getattr(execution, "PromptExecutor", None)
        name = "execute_async" if hasattr(executor, "execute_async") else "execute"
        run_hook = (
            install(
                executor,
                name,
                self._timed(self._run_before),
                self._timed(self._run_after),
                self._timed(self._run_failed),
            )
            if executor
            else None
        )
        if run_hook is not None:
            self.hooks.append(run_hook)
        else:
            warn_once("no-run-hook", "Memory Probe: no PromptExecutor to hook; runs are opened at their first node")
        self._dynprompt_source = import_optional("comfy_execution.progress")
        return None

    def _timed(self, callback: Any) -> Any:
        """``callback``, adding the CPU time it takes to :attr:`cpu_ns`."""

        def timed(*args: Any) -> Any:
            start = time.thread_time_ns()
            try:
                return callback(*args)
            finally:
                self.cpu_ns += time.thread_time_ns() - start

        timed.__qualname__ = getattr(callback, "__qualname__", "timed")
        return timed

    # ------------------------------------------------------------------ nodes
    def _node_before(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> NodeRun | None:
        if not self.tracing_enabled():
            return None
        prompt_id = kwargs.get("prompt_id", args[0] if len(args) > 0 else None)
        unique_id = kwargs.get("unique_id", args[1] if len(args) > 1 else None)
        obj = kwargs.get("obj", args[2] if len(args) > 2 else None)
        if not isinstance(prompt_id, str) or not isinstance(unique_id, (str, int)):
            return None  # not the calling convention of ComfyUI >= 0.3.64: record nothing rather than a bogus run
        unique_id = str(unique_id)
        cls = obj if isinstance(obj, type) else type(obj)
        class_type, display_id, real_id = self._identify(unique_id, cls)
        return self.tracker.node_begin(
            str(prompt_id), unique_id, class_type, cls, display_node_id=display_id, real_node_id=real_id
        )

    def _identify(self, unique_id: str, cls: type) -> tuple[str, str | None, str | None]:
        """The node's class type (its NODE_CLASS_MAPPINGS key) and display/real ids, from
        ComfyUI's dynamic prompt, which also knows nodes created by expansion."""
        try:
            dynprompt = self._dynprompt_source.get_progress_state().dynprompt
            node = dynprompt.get_node(unique_id)
            return (node["class_type"], dynprompt.get_display_node_id(unique_id), dynprompt.get_real_node_id(unique_id))
        except Exception:  # older ComfyUI: fall back to the prompt and the class
            run = self.tracker.current
            node = (run.prompt or {}).get(unique_id) if run is not None else None
            if isinstance(node, dict) and isinstance(node.get("class_type"), str):
                return node["class_type"], None, None
            return getattr(cls, "__name__", "?"), None, None

    def _node_after(self, node: NodeRun | None, result: Any) -> None:
        if node is None:
            return
        if self.models is not None and isinstance(result, tuple) and result:
            self._note_models(self.models, node, result[0])
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

    def _note_models(self, models: ModelReader, node: NodeRun, outputs: Any) -> None:
        """Which models this node produced, and from which files its inputs name."""
        node_id = node.real_node_id or node.node_id

        def files() -> list[str]:
            run = self.tracker.current
            prompt_node = (run.prompt or {}).get(node_id) if run is not None else None
            return model_files({node_id: prompt_node}) if isinstance(prompt_node, dict) else []

        models.note_outputs(outputs, {"node_id": node_id, "class_type": node.class_type}, files)

    def _node_failed(self, node: NodeRun | None, exc: BaseException) -> None:
        self.tracker.node_failed(node, exc)

    # ------------------------------------------------------------------ prompts
    def _run_before(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, Any] | None:
        """``execute_async(self, prompt, prompt_id, extra_data={}, execute_outputs=[])``: open the run,
        with the workflow it came from (the frontend puts its workflow JSON, with its ``id``, in
        ``extra_data["extra_pnginfo"]["workflow"]``; only the id is kept)."""
        executor = args[0] if args else None
        prompt = kwargs.get("prompt", args[1] if len(args) > 1 else None)
        prompt_id = kwargs.get("prompt_id", args[2] if len(args) > 2 else None)
        extra_data = kwargs.get("extra_data", args[3] if len(args) > 3 else None)
        if prompt_id is None or not self.tracing_enabled():
            return None
        context = self.context()
        name = extra_data.get("memprobe_workflow") if isinstance(extra_data, dict) else None
        if isinstance(name, str) and name:  # an API client's name for its workflow (the metrics' workflow label)
            context = {**context, "workflow_name": name[:200]}
        queued = self.queued_cost(prompt) if self.queued_cost is not None and prompt is not None else None
        prompt = prompt if isinstance(prompt, dict) else None
        run = self.tracker.begin_run(
            str(prompt_id), prompt=prompt, context=context, workflow=workflow_identity(prompt, extra_data)
        )
        if queued is not None:
            run.charged["forecast_cpu_s"] = queued  # the forecast when it was queued, charged to this run
        return str(prompt_id), executor

    def _run_after(self, token: tuple[str, Any] | None, result: Any) -> None:
        """The executor recorded the outcome in ``status_messages`` (also for headless runs)."""
        if token is None:
            return
        run_id, executor = token
        self.end_from_messages(run_id, getattr(executor, "status_messages", None))

    def end_from_messages(self, run_id: str, messages: list[tuple[str, dict[str, Any]]] | None) -> None:
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
            self.tracker.end_run(
                token[0], "error", error={"exception_type": exception_type_name(exc), "exception_message": str(exc)}
            )
