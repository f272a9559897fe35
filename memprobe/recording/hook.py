"""Wrap a function owned by another module, safely: the generic half of the tracing hook.

The wrapper is signature-agnostic (``*args, **kwargs``), async-aware, installed once, removable,
calls the original exactly once, returns its result untouched and re-raises its exception
untouched. The callbacks (``before``/``after``/``failed``) are guarded: a fault in them is
logged once and never reaches the wrapped code.

Nothing here knows ComfyUI; ``glue/execution_hooks.py`` says which functions to wrap.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from .._log import warn_once

__all__ = ["Hook", "wrap", "install", "ORIGINAL_ATTR"]

ORIGINAL_ATTR = "__memprobe_original__"

Before = Callable[[tuple[Any, ...], dict[str, Any]], Any]
After = Callable[[Any, Any], None]
Failed = Callable[[Any, BaseException], None]


def _call(kind: str, fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception:  # the hook must never change what the wrapped code does
        warn_once(
            f"hook-{kind}-{getattr(fn, '__qualname__', fn)}",
            "Memory Probe: %s callback failed; the node ran unchanged",
            kind,
            exc_info=True,
        )
        return None


def wrap(original: Callable[..., Any], before: Before, after: After, failed: Failed) -> Callable[..., Any]:
    """A wrapper of ``original`` (sync or ``async``) that reports to the three callbacks."""
    if inspect.iscoroutinefunction(original):

        @functools.wraps(original)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            token = _call("before", before, args, kwargs)
            try:
                result = await original(*args, **kwargs)
            except BaseException as exc:
                _call("failed", failed, token, exc)
                raise
            _call("after", after, token, result)
            return result

        wrapper: Callable[..., Any] = async_wrapper
    else:

        @functools.wraps(original)
        def sync_wrapper(*args: Any, **kwargs: Any) -> Any:
            token = _call("before", before, args, kwargs)
            try:
                result = original(*args, **kwargs)
            except BaseException as exc:
                _call("failed", failed, token, exc)
                raise
            _call("after", after, token, result)
            return result

        wrapper = sync_wrapper
    setattr(wrapper, ORIGINAL_ATTR, original)
    return wrapper


class Hook:
    """An installed wrapper; :meth:`remove` puts the original back (if nobody wrapped it since)."""

    def __init__(self, owner: Any, name: str, original: Callable[..., Any], wrapper: Callable[..., Any]) -> None:
        self.owner, self.name, self.original, self.wrapper = owner, name, original, wrapper

    @property
    def installed(self) -> bool:
        return getattr(self.owner, self.name, None) is self.wrapper

    def remove(self) -> bool:
        if not self.installed:
            return False
        setattr(self.owner, self.name, self.original)
        return True


def install(owner: Any, name: str, before: Before, after: After, failed: Failed) -> Hook | None:
    """Wrap ``owner.name``. Idempotent: a function already wrapped by Memory Probe is left as it
    is. Returns ``None`` when ``owner`` has no such callable (the caller reports that)."""
    current = getattr(owner, name, None)
    if current is None or not callable(current):
        return None
    if getattr(current, ORIGINAL_ATTR, None) is not None:
        return Hook(owner, name, getattr(current, ORIGINAL_ATTR), current)
    wrapper = wrap(current, before, after, failed)
    setattr(owner, name, wrapper)
    return Hook(owner, name, current, wrapper)
