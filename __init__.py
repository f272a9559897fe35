"""Memory Probe for ComfyUI: which memory runs out (VRAM, RAM + pagefile, disk), and where.

ComfyUI loads this folder as a node pack and calls :func:`comfy_entrypoint` (the V3 API), which
starts the runtime (tracing, sampler, ledger, routes) and returns the nodes. Importing this file
anywhere else (pytest, tools) has no side effect and needs no ComfyUI.
"""

from __future__ import annotations

from typing import Any

WEB_DIRECTORY = "./js"

__all__ = ["WEB_DIRECTORY", "comfy_entrypoint"]


async def comfy_entrypoint() -> Any:
    from comfy_api.latest import ComfyExtension

    from .glue.runtime import get_runtime
    from .nodes.probe import NODES

    class MemoryProbeExtension(ComfyExtension):
        async def on_load(self) -> None:
            get_runtime().start()

        async def get_node_list(self) -> list[Any]:
            return list(NODES)

    get_runtime().start()  # ComfyUI 0.3.64 does not call on_load; start() is idempotent
    return MemoryProbeExtension()
