"""Helpers shared by the tests (importable as ``helpers``: ``pythonpath = tests``)."""

from __future__ import annotations

import importlib.util
import json
import sys
from itertools import islice
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PACK_NAME = "memory_probe_pack"


def load_json(relative: str):
    return json.loads((FIXTURES / relative).read_text(encoding="utf-8"))


def load_pack() -> ModuleType:
    """Import the repository root the way ComfyUI imports a node pack: as a package from its
    ``__init__.py``, so the glue's relative imports (``from ..memprobe ...``) resolve."""
    if PACK_NAME in sys.modules:
        return sys.modules[PACK_NAME]
    spec = importlib.util.spec_from_file_location(
        PACK_NAME, ROOT / "__init__.py", submodule_search_locations=[str(ROOT)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACK_NAME] = module
    spec.loader.exec_module(module)
    return module


class ScriptedSensors:
    """Sensors that answer from a script instead of the machine: ``metrics(t)`` gives the system
    and GPU readings at clock time ``t`` (for deterministic tracker tests and trace replays)."""

    def __init__(
        self,
        clock,
        metrics=None,
        gpus=None,
        fail: bool = False,
        resettable: frozenset[str] = frozenset(),
        heap_free=None,
    ) -> None:
        from memprobe.sensing.snapshot import SystemMemory

        self.heap_free = heap_free or (lambda t: None)
        """``heap_free(t)``: the C library's free heap at clock time ``t`` (``None``: not glibc)."""
        self.resettable = resettable
        self.clock = clock
        self.metrics = metrics or (lambda t: {})
        self.gpus_fn = gpus or (lambda t: ())
        self.fail = fail
        self.resets = 0
        self._system = SystemMemory

    def snapshot(self, *, disks: bool = True, system_max_age_s: float = 0.0):
        from memprobe.sensing.snapshot import Snapshot

        if self.fail:
            raise OSError("sensor exploded")
        t = self.clock()
        return Snapshot(
            monotonic_s=t,
            wall_time_s=1_800_000_000 + t,
            gpus=tuple(self.gpus_fn(t)),
            system=self._system(**self.metrics(t)),
        )

    def heap_free_bytes(self):
        return self.heap_free(self.clock())

    def reset_peaks(self, *, rss: bool = True) -> frozenset[str]:
        """Counts the resets; the metrics in ``resettable`` (and their ``process_rss_bytes`` only
        with ``rss``) are reported as restarted, like Linux's ``VmHWM`` and torch's counters."""
        self.resets += 1
        return frozenset(m for m in self.resettable if rss or m != "process_rss_bytes")

    def cgroup(self):
        """No memory cgroup (the script's machine is not in a container)."""
        return None

    def oom_kills(self) -> dict:
        return {}


class FakeClock:
    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def read_trace(name: str) -> list[dict]:
    """A recorded websocket trace (``events/<name>.jsonl``)."""
    path = FIXTURES / "comfyui-0.3.64" / "events" / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def replay_trace(tracker, clock, events: list[dict], prompt: dict, *, node_classes=None, fail_with=None):
    """Drive ``tracker`` through a recorded ComfyUI run as the hooks would have: the run opens at
    ``execution_start``, each ``executing`` ends the previous node and begins the next,
    ``execution_error`` fails the running node (with ``fail_with`` or a RuntimeError of the
    recorded text), and the run closes as ComfyUI reported it."""
    node_classes = node_classes or {}
    run_id, open_node, status, error, cached = None, None, "success", None, []
    for event in events:
        clock.t = event["t"]
        kind, data = event["type"], event.get("data", {})
        if kind == "execution_start":
            run_id = data["prompt_id"]
            tracker.begin_run(run_id, prompt=prompt)
        elif kind == "execution_cached":
            cached = data.get("nodes", [])
        elif kind == "executing" and run_id is not None:
            if open_node is not None:
                tracker.node_end(open_node)
                open_node = None
            node_id = data.get("node")
            if node_id is not None:
                class_type = prompt[node_id]["class_type"]
                open_node = tracker.node_begin(run_id, node_id, class_type, node_classes.get(class_type))
        elif kind == "execution_error":
            status = "error"
            error = {k: data.get(k) for k in ("node_id", "node_type", "exception_type", "exception_message")}
            tracker.node_failed(open_node, fail_with or RuntimeError(data["exception_message"].strip()))
            open_node = None
        elif kind == "execution_interrupted":
            status = "interrupted"
    if open_node is not None:
        tracker.node_end(open_node)
    return tracker.end_run(run_id, status, error=error, cached=cached)


def node_windows(events: list[dict]) -> list[tuple[float, float, str]]:
    """(start, end, node_id) of each node in a recorded trace."""
    windows, current, started = [], None, 0.0
    for event in events:
        if event["type"] == "executing":
            if current is not None:
                windows.append((started, event["t"], current))
            current, started = event["data"].get("node"), event["t"]
        elif event["type"] in ("execution_error", "execution_success") and current is not None:
            windows.append((started, event["t"], current))
            current = None
    return windows


def gpu_scenario(
    trace: str,
    workflow: str,
    *,
    vram_gib: dict,
    total_gib: float = 12.0,
    shared_gib: dict | None = None,
    reserved_gib: dict | None = None,
    fail_with: BaseException | None = None,
    context: dict | None = None,
    log_lines: dict | None = None,
    end_gib: float | None = None,
    models: dict | None = None,
    model_log: dict | None = None,
    system: dict | None = None,
):
    """A run on an NVIDIA card, built by driving the real tracker through a recorded ComfyUI trace
    while the GPU reads ``vram_gib[node_id]`` (GiB in use during that node). Used for the GPU
    situations a CPU machine cannot produce; the figures come from the issue reports cited in
    the tests. ``models[node_id]``: what ComfyUI's model manager holds from that node on (a list
    of ``ModelState``); ``model_log[node_id]``: model-manager log lines written while it runs;
    ``system[node_id]``: system readings replacing the defaults during that node."""
    from memprobe.logs.modellog import ModelLogReader
    from memprobe.recording.tracker import Tracker
    from memprobe.sensing.snapshot import GpuMemory

    GIB = 1024**3
    events = read_trace(trace)
    windows = node_windows(events)
    clock = FakeClock()

    def running(t: float) -> str | None:
        """The node whose work the reading at ``t`` shows: a node's own readings last until its
        end, so the next node's "before" sees the state the previous one left."""
        for start, end, node in windows:
            if start < t <= end or (t == start == windows[0][0]):
                return node
        return None

    def gpus(t: float):
        node = running(t)
        used = vram_gib.get(node, 1.0) if node is not None else (end_gib if end_gib is not None else 1.0)
        reserved = (reserved_gib or {}).get(node, used * 0.9)
        return (
            GpuMemory(
                index=0,
                backend="cuda",
                name="NVIDIA GeForce RTX 3060",
                device_used_bytes=int(used * GIB),
                device_total_bytes=int(total_gib * GIB),
                torch_reserved_bytes=int(reserved * GIB),
                torch_allocated_bytes=int(reserved * 0.8 * GIB),
                shared_used_bytes=int((shared_gib or {}).get(node, 0) * GIB),
                driver_version="560.94",
            ),
        )

    def system_at(t: float):
        return {
            "ram_total_bytes": 32 * GIB,
            "ram_available_bytes": 20 * GIB,
            "commit_bytes": 14 * GIB,
            "commit_limit_bytes": 40 * GIB,
            "process_rss_bytes": 6 * GIB,
            **(system or {}).get(running(t), {}),
        }

    tracker = Tracker(ScriptedSensors(clock, system_at, gpus), clock=clock)
    if models is not None:
        order = [node for _, _, node in windows]

        def resident():
            node, held = running(clock()), []
            if node is None and clock() <= windows[0][0]:
                return held  # the run has not begun: nothing loaded
            for candidate in order[: order.index(node) + 1] if node in order else order:
                held = models.get(candidate, held)
            return held

        tracker.residency = resident
    reader = ModelLogReader()
    original_begin = tracker.node_begin

    def node_begin(*args, **kwargs):
        node = original_begin(*args, **kwargs)
        for line_node, line in (log_lines or {}).items():
            if node is not None and node.node_id == line_node:
                from memprobe.judging.failures import detect_fallback

                tracker.on_fallback(detect_fallback(line), line)
        for line in (model_log or {}).get(node.node_id if node is not None else None, []):
            parsed = reader.feed(line)
            if parsed is not None:
                tracker.on_model_log(parsed)
        return node

    tracker.node_begin = node_begin
    prompt = load_json(f"comfyui-0.3.64/api-workflows/{workflow}.json")
    run = replay_trace(tracker, clock, events, prompt, fail_with=fail_with)
    run.context = {
        "compute_device": "cuda",
        "os": "Windows 11",
        "install": {"type": "portable"},
        "gpus": [
            {
                "index": 0,
                "name": "NVIDIA GeForce RTX 3060",
                "vram_total_bytes": int(total_gib * GIB),
                "driver_version": "560.94",
            }
        ],
        "ram_total_bytes": 32 * GIB,
        "commit_limit_bytes": 40 * GIB,
        "argv": ["main.py"],
        **(context or {}),
    }
    return run.to_dict()


def judged_by(tracker, *listeners, package: str = "memprobe"):
    """A run-end judge on ``tracker`` that hands each judged run to ``listeners`` (the Prometheus
    counters render the verdict); call ``.flush()`` before reading what they counted."""
    judge = importlib.import_module(f"{package}.judging.run_end").RunEndJudge()
    for listener in listeners:
        judge.subscribe(listener)
    tracker.subscribe(judge)
    return judge


def kind_and_ending(log: str | bytes) -> tuple[str | None, str | None]:
    """What ``memprobe explain`` says of a log: the failure's kind and, for a silent end, how it ended."""
    from memprobe.logs.explain import explain_log

    failure = explain_log(log)["failure"] or {}
    return failure.get("kind"), failure.get("ending")


def assert_far_reading(name: str, kind: str | None, ending: str | None) -> None:
    """A corpus log of a program far from ComfyUI reads as ``kind`` (``None``: no failure) and ``ending``, naming no
    node; a memory failure, a full disk and an unexplained end get a first step, another error none."""
    from memprobe.logs.explain import explain_log

    doc = explain_log((FIXTURES / "logs" / name).read_bytes())
    failure = doc["failure"]
    if kind is None:
        assert failure is None and not doc["suggestions"]
        return
    assert (failure["kind"], failure.get("ending"), failure["node"]["class_type"]) == (kind, ending, None)
    assert bool(doc["suggestions"]) == (kind != "other")


def log_text(name: str) -> str:
    """A corpus log's text (tests/fixtures/logs)."""
    return (FIXTURES / "logs" / name).read_text(encoding="utf-8")


def corpus_shaped(undo) -> set[str]:
    """The corpus logs whose first lines the paste-shape detector ``undo`` (unwrapped, indented, spaced, numbered)
    takes for its shape."""
    from memprobe.logs.shapes import SHAPE_HEAD
    from memprobe.logs.text import iter_lines

    return {
        path.name
        for path in sorted((FIXTURES / "logs").glob("*.log"))
        if undo(list(islice(iter_lines(path.read_bytes()), SHAPE_HEAD))) is not None
    }
