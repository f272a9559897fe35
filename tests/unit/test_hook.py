"""The generic wrapper behind the tracing hook, against both shapes of ComfyUI's
``get_output_data`` (sync before 2025-07, async since)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from memprobe._log import reset_warnings
from memprobe.recording.hook import ORIGINAL_ATTR, install


def make_module():
    calls = []

    def get_output_data(prompt_id, unique_id, obj, input_data_all, execution_block_cb=None, pre_execute_cb=None):
        calls.append((prompt_id, unique_id))
        if unique_id == "boom":
            raise ValueError("node failed")
        return (["output"], {"ui": 1}, False)

    async def get_output_data_async(prompt_id, unique_id, obj, input_data_all, *, hidden_inputs=None):
        calls.append((prompt_id, unique_id))
        await asyncio.sleep(0)
        if unique_id == "boom":
            raise MemoryError("oom")
        return (["output"], {}, False, False)

    return SimpleNamespace(sync=get_output_data, async_=get_output_data_async, calls=calls)


class Recorder:
    def __init__(self):
        self.events = []

    def before(self, args, kwargs):
        self.events.append(("before", args[1]))
        return args[1]

    def after(self, token, result):
        self.events.append(("after", token, result))

    def failed(self, token, exc):
        self.events.append(("failed", token, type(exc).__name__))


def test_sync_shape_result_identical_and_original_called_once():
    mod, rec = make_module(), Recorder()
    install(mod, "sync", rec.before, rec.after, rec.failed)
    result = mod.sync("p", "7", object(), {}, pre_execute_cb=None)
    assert result == (["output"], {"ui": 1}, False)
    assert mod.calls == [("p", "7")]
    assert rec.events == [("before", "7"), ("after", "7", result)]


def test_async_shape_is_still_a_coroutine_function_and_awaited_once():
    import inspect

    mod, rec = make_module(), Recorder()
    install(mod, "async_", rec.before, rec.after, rec.failed)
    assert inspect.iscoroutinefunction(mod.async_)
    result = asyncio.run(mod.async_("p", "3", None, {}, hidden_inputs={"x": 1}))
    assert result == (["output"], {}, False, False)
    assert mod.calls == [("p", "3")]
    assert rec.events[-1] == ("after", "3", result)


@pytest.mark.parametrize("shape", ["sync", "async_"])
def test_the_original_exception_is_reraised_untouched(shape):
    mod, rec = make_module(), Recorder()
    install(mod, shape, rec.before, rec.after, rec.failed)
    call = getattr(mod, shape)
    with pytest.raises((ValueError, MemoryError)) as info:
        result = call("p", "boom", None, {})
        if asyncio.iscoroutine(result):
            asyncio.run(result)
    original_type = ValueError if shape == "sync" else MemoryError
    assert type(info.value) is original_type
    assert mod.calls == [("p", "boom")]
    assert rec.events[-1] == ("failed", "boom", original_type.__name__)


def test_installing_twice_wraps_once_and_remove_restores_the_original():
    mod, rec = make_module(), Recorder()
    original = mod.sync
    first = install(mod, "sync", rec.before, rec.after, rec.failed)
    second = install(mod, "sync", rec.before, rec.after, rec.failed)
    assert getattr(mod.sync, ORIGINAL_ATTR) is original
    mod.sync("p", "1", None, {})
    assert rec.events.count(("before", "1")) == 1
    assert second.original is original and first.remove() and mod.sync is original
    assert not first.remove()  # already removed


def test_a_missing_hook_point_is_reported_as_none():
    assert install(SimpleNamespace(), "get_output_data", print, print, print) is None


def test_faulty_callbacks_never_reach_the_wrapped_code(caplog):
    reset_warnings()
    mod = make_module()

    def broken(*args):
        raise RuntimeError("bug in the tracker")

    install(mod, "sync", broken, broken, broken)
    install(mod, "async_", broken, broken, broken)
    assert mod.sync("p", "1", None, {}) == (["output"], {"ui": 1}, False)
    assert asyncio.run(mod.async_("p", "2", None, {})) == (["output"], {}, False, False)
    with pytest.raises(ValueError, match="node failed"):
        mod.sync("p", "boom", None, {})
    assert mod.calls == [("p", "1"), ("p", "2"), ("p", "boom")]
    assert any("callback failed" in r.message for r in caplog.records)


def test_methods_on_a_class_are_wrapped_with_self_passed_through():
    class Executor:
        def __init__(self):
            self.status_messages = []

        async def execute_async(self, prompt, prompt_id, extra_data={}, execute_outputs=[]):  # noqa: B006 - ComfyUI's shape
            self.status_messages.append(("execution_success", {"prompt_id": prompt_id}))

    seen = []
    install(
        Executor,
        "execute_async",
        lambda a, k: seen.append(a[0]) or a[2],
        lambda t, r: seen.append(t),
        lambda t, e: None,
    )
    executor = Executor()
    asyncio.run(executor.execute_async({}, "run-1", {}, []))
    assert seen == [executor, "run-1"] and executor.status_messages
