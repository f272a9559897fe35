"""The ComfyUI glue at its boundary: hooks on (stand-ins of) ComfyUI's execution module."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading

import pytest
from comfy_doubles import Node, install_modules, make_execution_module

from memprobe._log import reset_warnings


@pytest.fixture
def runtime(pack, tmp_path):
    from memory_probe_pack.glue.runtime import Runtime

    created = []

    def make():
        rt = Runtime(data_dir=tmp_path / "memprobe")
        created.append(rt)
        return rt

    yield make
    for rt in created:
        rt.shutdown()
        for hook in rt.hooks:
            hook.remove()
        for handler in [h for h in logging.getLogger().handlers if type(h).__name__ == "ComfyLogHandler"]:
            logging.getLogger().removeHandler(handler)


PROMPT = {
    "4": {"class_type": "CheckpointLoaderSimple", "inputs": {}, "_meta": {"title": "Load"}},
    "3": {"class_type": "KSampler", "inputs": {}, "_meta": {"title": "Sample"}},
    "8": {"class_type": "VAEDecode", "inputs": {}, "_meta": {"title": "Decode"}},
}


def test_a_traced_prompt_leaves_a_complete_run_in_the_ledger(runtime, monkeypatch):
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    assert rt.tracing_available and rt.status()["tracing"]["available"]
    outputs = {"3": object(), "8": object()}
    executor = execution.PromptExecutor(
        {"3": Node(lambda: (outputs["3"],)), "8": Node(lambda: (outputs["8"],))}, cached=("4",)
    )
    executor.execute(PROMPT, "prompt-1", {}, ["8"])
    rt.ledger.flush()
    doc = rt.ledger.get_run("prompt-1")
    assert doc["status"] == "success"
    assert [(n["node_id"], n["class_type"], n["title"], n["stage"], n["status"]) for n in doc["nodes"]] == [
        ("3", "KSampler", "Sample", "sampling", "ran"),
        ("8", "VAEDecode", "Decode", "vae-decode", "ran"),
        ("4", "CheckpointLoaderSimple", "Load", "load", "cached"),
    ]
    assert doc["nodes"][0]["before"]["process_rss_bytes"] > 0 and doc["nodes"][0]["peaks"]
    assert doc["context"]["memprobe_version"]
    overhead = doc["overhead"]  # Memory Probe's own CPU use during this run
    assert overhead["hook_cpu_s"] > 0 and overhead["process_cpu_s"] > 0
    assert "share_of_process_cpu_pct" not in overhead  # a run of milliseconds is too short for an honest share


def test_results_are_untouched_and_errors_pass_through_unchanged(runtime, monkeypatch):
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    marker = object()
    result = asyncio.run(execution.get_output_data("p", "3", Node(lambda: (marker,)), {}))
    assert result[0][0][0] is marker

    def oom():
        raise MemoryError("DefaultCPUAllocator: not enough memory: you tried to allocate 4 bytes.")

    executor = execution.PromptExecutor({"3": Node(lambda: ("ok",)), "8": Node(oom)})
    executor.execute(PROMPT, "prompt-err", {}, ["8"])
    error = dict(executor.status_messages)["execution_error"]
    assert error["exception_type"] == "MemoryError" and "not enough memory" in error["exception_message"]
    rt.ledger.flush()
    doc = rt.ledger.get_run("prompt-err")
    assert doc["status"] == "error"
    assert (doc["failure"]["node_id"], doc["failure"]["stage"], doc["failure"]["kind"]) == (
        "8",
        "vae-decode",
        "system-ram",
    )
    assert doc["failure"]["snapshot"]["system"]["ram_total_bytes"] > 0


def test_an_async_node_is_closed_when_its_task_ends(runtime, monkeypatch):
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()

    async def slow():
        await asyncio.sleep(0.05)
        return ("done",)

    executor = execution.PromptExecutor({"3": Node(slow)})
    executor.execute(PROMPT, "prompt-async", {}, ["3"])
    node = rt.tracker.last.nodes[0]
    assert node.status == "ran" and node.duration_s >= 0.04


def test_expanded_and_subgraph_nodes_get_their_display_and_real_ids(runtime, monkeypatch):
    class DynPrompt:
        def get_node(self, node_id):
            return {"class_type": "VAEDecode"}

        def get_display_node_id(self, node_id):
            return "10"

        def get_real_node_id(self, node_id):
            return "10:8"

    execution = make_execution_module()
    install_modules(monkeypatch, execution, dynprompt=DynPrompt())
    rt = runtime()
    rt.start()
    execution.PromptExecutor({"10:8": Node()}).execute({"10:8": {"class_type": "VAEDecode", "inputs": {}}}, "p-sub")
    node = rt.tracker.last.nodes[0]
    assert (node.node_id, node.display_node_id, node.real_node_id, node.stage) == ("10:8", "10", "10:8", "vae-decode")


def test_tracing_switched_off_records_nothing_but_nodes_still_run(runtime, monkeypatch):
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    rt.set_config(rt.config.updated({"tracing": False}))
    executor = execution.PromptExecutor({"3": Node()})
    executor.execute(PROMPT, "p-off", {}, ["3"])
    assert dict(executor.status_messages).get("execution_success") is not None
    assert rt.tracker.last is None or rt.tracker.last.id != "p-off"


def test_a_comfyui_without_the_hook_point_keeps_working(runtime, monkeypatch, caplog):
    reset_warnings()
    execution = make_execution_module()
    del execution.get_output_data
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    assert not rt.tracing_available
    assert "get_output_data" in rt.status()["tracing"]["reason"]
    assert any("tracing is unavailable" in r.message for r in caplog.records)
    assert rt.mark("still works", "20").summary.startswith("RAM")


def test_an_older_calling_convention_records_no_bogus_run(runtime, monkeypatch):
    """Before 2025-07 ``get_output_data(obj, input_data_all, ...)`` had no prompt id: the node must
    still run, and tracing must not take the node object for a prompt id."""
    execution = make_execution_module(sync=True)
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    assert execution.get_output_data(Node(lambda: ("x",)), {}) == ([("x",)], {}, False)
    assert rt.tracker.current is None and rt.tracker.last is None


def test_start_is_idempotent_and_never_raises_outside_comfyui(runtime, monkeypatch):
    monkeypatch.delitem(__import__("sys").modules, "execution", raising=False)
    rt = runtime()
    rt.start()
    rt.start()
    assert not rt.tracing_available and rt.ledger is not None
    assert rt.sampler.running


def test_the_log_handler_marks_comfyuis_tiled_decode_retry(runtime, monkeypatch):
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()

    def decode_with_retry():
        logging.getLogger().warning(
            "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding."
        )
        return ("image",)

    execution.PromptExecutor({"8": Node(decode_with_retry)}).execute(PROMPT, "p-retry", {}, ["8"])
    run = rt.tracker.last
    assert run.nodes[0].fallbacks == ["tiled-vae-decode"] and run.events[0].node_id == "8"


def test_faults_inside_memory_probe_never_change_the_workflow(runtime, monkeypatch, caplog):
    reset_warnings()
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    marker = object()

    def run_once(run_id):
        executor = execution.PromptExecutor({"3": Node(lambda: (marker,))})
        executor.execute(PROMPT, run_id, {}, ["3"])
        assert [event for event, _ in executor.status_messages][-1] == "execution_success"
        result = asyncio.run(execution.get_output_data(run_id, "3", Node(lambda: (marker,)), {}))
        assert result[0][0][0] is marker

    def broken(*args, **kwargs):
        raise RuntimeError("ledger failure")

    monkeypatch.setattr(rt.ledger.listener, "node_finished", broken)  # GIVEN the ledger fails
    run_once("p-ledger-fault")
    assert any("node_finished failed" in r.message for r in caplog.records)

    def exploding(**kwargs):
        raise OSError("sensor failure")

    monkeypatch.setattr(rt.sensors, "snapshot", exploding)  # GIVEN every reading fails
    run_once("p-sensor-fault")
    assert any("internal error" in r.message for r in caplog.records)


def test_the_status_names_the_enforced_limit_and_whether_runs_are_saved(runtime, monkeypatch):
    install_modules(monkeypatch, make_execution_module())
    rt = runtime()
    rt.start()
    status = rt.status()
    ledger = status["ledger"]
    assert ledger["available"] and ledger["saving"] and ledger["reason"] is None
    assert ledger["volume"]["free_bytes"] > 0 and ledger["unsaved_runs"] == 0
    memory = status["memory"]
    assert {"metric", "limit_bytes", "limit_name", "limit_enforced", "system", "commit_limit_enforced"} <= set(memory)
    assert memory["system"]["limit_enforced"] is True and memory["system"]["used_bytes"] > 0
    # each run records the kernel's OOM-kill counters at its start (Linux), for the next start to compare
    context = rt.run_context()
    assert ("oom_kills" in context) == sys.platform.startswith("linux")
    if sys.platform.startswith("linux"):
        assert context["oom_kills"]["boot_id"] and context["oom_kills"]["system"] is not None


def test_runs_are_counted_for_prometheus_with_the_api_clients_workflow_name(runtime, monkeypatch):
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    assert rt.status()["metrics"] == {"enabled": True, "available": True, "reason": None}
    rt.set_config(rt.config.updated({"metrics_workflow_label": True}))
    executor = execution.PromptExecutor({"3": Node(lambda: ("latent",))})
    executor.execute(PROMPT, "p-fleet", {"memprobe_workflow": "fleet-portrait", "client_id": "abc"}, ["3"])

    def oom():
        raise MemoryError("DefaultCPUAllocator: not enough memory: you tried to allocate 4 bytes.")

    rt.set_config(rt.config.updated({"metrics_workflow_label": False}))
    execution.PromptExecutor({"8": Node(oom)}).execute(PROMPT, "p-oom", {}, ["8"])
    assert rt.tracker.last.context.get("workflow_name") is None
    assert rt.judge.flush()  # the counters render each run's verdict, judged off the worker thread
    text = rt.metrics.exposition()[0].decode()
    assert 'memprobe_runs_total{status="success",workflow="fleet-portrait"} 1.0' in text
    assert 'memprobe_runs_total{status="error"} 1.0' in text
    assert 'memprobe_run_failures_total{kind="system-ram",stage="vae-decode"} 1.0' in text
    assert "memprobe_process_resident_bytes " in text  # the sampler's latest reading
    assert "p-fleet" not in text and "abc" not in text


def test_a_run_left_by_a_dead_comfyui_is_counted_at_the_next_start(runtime, tmp_path):
    import sqlite3
    import subprocess

    from memprobe.recording.ledger import Ledger
    from memprobe.recording.tracker import Tracker
    from memprobe.sensing.sensors import Sensors

    # GIVEN a run whose ComfyUI died during its KSampler (its owner process is gone)
    path = tmp_path / "memprobe" / "ledger.sqlite3"
    ledger = Ledger(path)
    ledger.open()
    ledger.start()
    tracker = Tracker(Sensors())
    tracker.subscribe(ledger.listener)
    tracker.begin_run("killed", prompt=PROMPT)
    tracker.node_begin("killed", "3", "KSampler")
    ledger.flush()
    ledger.stop()
    dead = subprocess.Popen(["true"])
    dead.wait()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE runs SET pid = ? WHERE id = 'killed'", (dead.pid,))
    # WHEN the next ComfyUI starts THEN it counts that run's outcome and failure
    rt = runtime()
    rt.start()
    text = rt.metrics.exposition()[0].decode()
    assert 'memprobe_runs_total{status="ended_abruptly"} 1.0' in text
    assert 'memprobe_run_failures_total{kind="abrupt",stage="sampling"} 1.0' in text  # no memory evidence


def test_a_run_records_the_workflow_it_came_from_by_position_or_by_name(runtime, monkeypatch):
    from helpers import load_json

    from memprobe.judging.workflow import graph_signature

    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime()
    rt.start()
    extra = load_json("comfyui-0.3.64/extra_data/frontend_1.27.10.json")
    extra["auth_token_comfy_org"] = "secret-token"
    workflow_id = extra["extra_pnginfo"]["workflow"]["id"]
    nodes = {"3": Node(lambda: ("x",)), "8": Node(lambda: ("y",))}
    # GIVEN ComfyUI's executor called with extra_data by position, then by name, then without it
    execution.PromptExecutor(nodes).execute(PROMPT, "by-position", extra, ["8"])
    asyncio.run(
        execution.PromptExecutor(nodes).execute_async(
            prompt=PROMPT, prompt_id="by-name", extra_data=extra, execute_outputs=["8"]
        )
    )
    execution.PromptExecutor(nodes).execute(PROMPT, "api-client")
    rt.ledger.flush()
    # THEN each run knows its workflow (id and graph signature), in the run and in the list
    expected = {"id": workflow_id, "graph": graph_signature(PROMPT)}
    assert rt.ledger.get_run("by-position")["workflow"] == expected
    assert rt.ledger.get_run("by-name")["workflow"] == expected
    assert rt.ledger.get_run("api-client")["workflow"] == {"id": None, "graph": graph_signature(PROMPT)}
    listed = {r["id"]: r["workflow"] for r in rt.ledger.list_runs()["runs"]}
    assert listed["by-name"] == expected
    # AND nothing else of extra_data was stored
    with rt.ledger.reader() as conn:
        stored = " ".join(str(v) for row in conn.execute("SELECT header, prompt FROM runs") for v in row)
    assert "secret-token" not in stored and "last_link_id" not in stored


def test_the_run_end_event_carries_the_judgement_and_the_prompt(runtime, monkeypatch):
    """The panel shows a live run from the events alone; the prompt lets it match a run queued
    without a workflow id (an API client) to the open graph."""
    import threading
    import types

    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    sent: list[tuple[str, dict]] = []
    ended = threading.Event()

    def send_sync(event, data, sid=None):
        sent.append((event, data))
        if event == "memprobe.run_end":
            ended.set()

    server = types.ModuleType("server")
    server.PromptServer = types.SimpleNamespace(instance=types.SimpleNamespace(send_sync=send_sync))
    monkeypatch.setitem(sys.modules, "server", server)
    rt = runtime()
    rt.start()
    execution.PromptExecutor({"3": Node(lambda: ("x",)), "8": Node(lambda: ("y",))}).execute(PROMPT, "api-run")
    assert ended.wait(10), [event for event, _ in sent]
    data = next(d for event, d in sent if event == "memprobe.run_end")
    assert data["id"] == "api-run" and data["status"] == "success"
    assert data["prompt"] == PROMPT and data["workflow"]["id"] is None
    assert isinstance(data["suggestions"], list) and data["memory"]["metric"]


def test_a_queued_prompt_is_checked_and_each_run_keeps_its_forecast(runtime, monkeypatch):
    """The runtime hands ComfyUI an on_prompt handler that returns the request untouched, and keeps
    each ended run's forecast in the ledger beside its measurement."""
    import threading
    import types

    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    handlers: list = []
    ended = threading.Event()

    def send_sync(event, data, sid=None):
        if event == "memprobe.run_end":
            ended.set()

    instance = types.SimpleNamespace(send_sync=send_sync, add_on_prompt_handler=handlers.append)
    server = types.ModuleType("server")
    server.PromptServer = types.SimpleNamespace(instance=instance)
    monkeypatch.setitem(sys.modules, "server", server)
    rt = runtime()
    rt.start()
    assert len(handlers) == 1 and rt.forecasts is not None
    request = {"prompt": PROMPT, "client_id": "c1"}
    assert handlers[0](request) is request and rt.queue_check.flush()
    execution.PromptExecutor({"3": Node(lambda: ("x",)), "8": Node(lambda: ("y",))}).execute(PROMPT, "with-forecast")
    assert ended.wait(10)
    rt.judge.flush()
    rt.ledger.flush()
    forecast = rt.ledger.get_run("with-forecast")["forecast"]
    assert forecast["metric"] and {s["stage"] for s in forecast["stages"]} >= {"sampling", "vae-decode"}
    assert all({"forecast_bytes", "measured_bytes", "error_pct", "verdict"} <= set(s) for s in forecast["stages"])
    # AND the run is charged every thread's CPU Memory Probe spent for it: the check when it was queued
    # (ComfyUI hands the executor the prompt it gave the handler) and its judgement after it ended
    overhead = rt.ledger.get_run("with-forecast")["overhead"]
    assert overhead["forecast_cpu_s"] >= 0 and overhead["judge_cpu_s"] > 0 and overhead["hook_cpu_s"] > 0


def test_the_log_handler_joins_newer_comfyuis_tiling_estimate_to_the_retry_it_announces():
    # comfy/sd.py (newer ComfyUI): logging.info("VAE decode needs more than the free VRAM; tiling directly."), then
    # the same warning as a real retry; a retry without it stays a failed attempt
    from memprobe.recording.loghandler import ComfyLogHandler

    seen: list[tuple[str, str]] = []

    class Tracker:
        def on_fallback(self, kind: str, message: str) -> None:
            seen.append((kind, message))

    handler = ComfyLogHandler(Tracker())  # type: ignore[arg-type]
    log = logging.getLogger("memprobe-test-tiling")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        warning = "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding."
        log.info("VAE decode needs more than the free VRAM; tiling directly.")
        log.warning(warning)
        log.warning(warning)
        # an estimate whose warning never came (a later prompt's real retry is a failed attempt)
        log.info("VAE decode needs more than the free VRAM; tiling directly.")
        log.info("got prompt")
        log.warning(warning)
        # nor is another thread's retry the estimate's, which still reaches its own thread's warning
        log.info("VAE decode needs more than the free VRAM; tiling directly.")
        other = threading.Thread(target=log.warning, args=(warning,))
        other.start()
        other.join()
        log.warning(warning)
    finally:
        log.removeHandler(handler)
    assert seen == [
        ("tiled-vae-decode", f"VAE decode needs more than the free VRAM; tiling directly. {warning}"),
        ("tiled-vae-decode", warning),
        ("tiled-vae-decode", warning),
        ("tiled-vae-decode", warning),
        ("tiled-vae-decode", f"VAE decode needs more than the free VRAM; tiling directly. {warning}"),
    ]
