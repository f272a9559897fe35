"""Where the routes' blocking work runs (ledger reads, judgements, reports, explaining a log): two
threads of Memory Probe's own, both started with the routes. asyncio's default pool is ComfyUI's too
and grows a thread at a time while requests overlap (up to ``min(32, cores + 4)``): polled by a few
panels, a server's thread count crept up for a while after start. Now it is fixed once the routes
are registered."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["POOL_SIZE", "start", "off_loop"]

POOL_SIZE = 2
"""Two: one long request (explaining a 50 MB log takes about a second) leaves one for the panel's polls."""

P = ParamSpec("P")
T = TypeVar("T")

_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def start() -> ThreadPoolExecutor:
    """The pool, with all its threads running (a pool grown on demand cannot be told from a leak)."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="memprobe-web")
            everyone = threading.Barrier(POOL_SIZE)
            for _ in range(POOL_SIZE):  # each waits for the others: the pool must start a thread for each
                _pool.submit(everyone.wait, 10)
        return _pool


async def off_loop(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` on the pool, awaited on the event loop."""
    return await asyncio.get_running_loop().run_in_executor(start(), functools.partial(fn, *args, **kwargs))
