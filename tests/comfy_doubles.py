"""Stand-ins for the ComfyUI modules the runtime hooks (ComfyUI cannot be installed in CI).

They have the shapes of ComfyUI 0.3.64 (``execution.get_output_data`` is ``async``, looked up as
a module global at call time; ``PromptExecutor.execute_async`` records ``status_messages``), so
the runtime's hooks are exercised at their real boundary. The same hooks are tried in a real
ComfyUI by hand (README, "Trying it in a real ComfyUI").
"""

from __future__ import annotations

import asyncio
import sys
from types import ModuleType, SimpleNamespace
from typing import Any


class Node:
    """A node class: ``FUNCTION`` names the method, as in ComfyUI's V1 API."""

    FUNCTION = "run"
    CATEGORY = "sampling"

    def __init__(self, behaviour=None) -> None:
        self.behaviour = behaviour or (lambda **kw: ("out",))

    def run(self, **inputs):
        return self.behaviour(**inputs)


def make_execution_module(*, sync: bool = False) -> ModuleType:
    mod = ModuleType("execution")

    if sync:

        def get_output_data(obj, input_data_all, execution_block_cb=None, pre_execute_cb=None):  # before 2025-07
            return [getattr(obj, obj.FUNCTION)(**input_data_all)], {}, False
    else:

        async def get_output_data(
            prompt_id, unique_id, obj, input_data_all, execution_block_cb=None, pre_execute_cb=None, hidden_inputs=None
        ):
            value = getattr(obj, obj.FUNCTION)(**input_data_all)
            if asyncio.iscoroutine(value):  # an async node: ComfyUI leaves its task pending
                task = asyncio.ensure_future(value)
                await asyncio.sleep(0)
                if not task.done():
                    return [task], {}, False, True
                value = task.result()
            return [value], {}, False, False

    mod.get_output_data = get_output_data

    class PromptExecutor:
        def __init__(self, nodes: dict[str, Node], cached: tuple[str, ...] = ()) -> None:
            self.nodes, self.cached = nodes, cached
            self.status_messages: list[tuple[str, dict[str, Any]]] = []

        def execute(self, prompt, prompt_id, extra_data={}, execute_outputs=[]):  # noqa: B006 - ComfyUI's shape
            asyncio.run(self.execute_async(prompt, prompt_id, extra_data, execute_outputs))

        async def execute_async(self, prompt, prompt_id, extra_data={}, execute_outputs=[]):  # noqa: B006
            self.status_messages = [
                ("execution_start", {"prompt_id": prompt_id}),
                ("execution_cached", {"nodes": list(self.cached), "prompt_id": prompt_id}),
            ]
            pending = []
            for node_id, obj in self.nodes.items():
                try:
                    result = await mod.get_output_data(
                        prompt_id, node_id, obj, {}, execution_block_cb=None, pre_execute_cb=None, hidden_inputs={}
                    )
                    if result[3]:
                        pending.extend(result[0])
                except Exception as ex:
                    self.status_messages.append(
                        (
                            "execution_error",
                            {
                                "prompt_id": prompt_id,
                                "node_id": node_id,
                                "node_type": prompt[node_id]["class_type"],
                                "exception_message": f"{ex}\n",
                                "exception_type": type(ex).__name__,
                            },
                        )
                    )
                    return
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
            self.status_messages.append(("execution_success", {"prompt_id": prompt_id}))

    mod.PromptExecutor = PromptExecutor
    return mod


def install_modules(monkeypatch, execution: ModuleType, *, dynprompt: Any = None) -> None:
    monkeypatch.setitem(sys.modules, "execution", execution)
    if dynprompt is not None:
        progress = ModuleType("comfy_execution.progress")
        progress.get_progress_state = lambda: SimpleNamespace(dynprompt=dynprompt)
        package = ModuleType("comfy_execution")
        package.progress = progress
        monkeypatch.setitem(sys.modules, "comfy_execution", package)
        monkeypatch.setitem(sys.modules, "comfy_execution.progress", progress)
