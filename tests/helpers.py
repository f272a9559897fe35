"""Helpers shared by the tests (importable as ``helpers``: ``pythonpath = tests``)."""

from __future__ import annotations

import importlib.util
import json
import sys
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
    spec = importlib.util.spec_from_file_location(PACK_NAME, ROOT / "__init__.py",
                                                  submodule_search_locations=[str(ROOT)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACK_NAME] = module
    spec.loader.exec_module(module)
    return module


class ScriptedSensors:
    """Sensors that answer from a script instead of the machine: ``metrics(t)`` gives the system
    and GPU readings at clock time ``t`` (for deterministic tracker tests and trace replays)."""

    def __init__(self, clock, metrics=None, gpus=None, fail: bool = False) -> None:
        from memprobe.snapshot import SystemMemory

        self.clock = clock
        self.metrics = metrics or (lambda t: {})
        self.gpus_fn = gpus or (lambda t: ())
        self.fail = fail
        self.resets = 0
        self._system = SystemMemory

    def snapshot(self, *, disks: bool = True):
        from memprobe.snapshot import Snapshot

        if self.fail:
            raise OSError("sensor exploded")
        t = self.clock()
        return Snapshot(monotonic_s=t, wall_time_s=1_800_000_000 + t, gpus=tuple(self.gpus_fn(t)),
                        system=self._system(**self.metrics(t)))

    def reset_gpu_peaks(self) -> None:
        self.resets += 1


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
