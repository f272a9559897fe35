"""What reading ComfyUI's model manager costs, around every node.

* ``residency_read_*``: one ``ModelReader.read()`` of five models shaped like ComfyUI 0.3.64's
  ``LoadedModel``/``ModelPatcher`` (the attributes it reads, nothing more), p50/p99;
* ``residency_cost_per_node_p50_us``: what the reader adds to a traced node (two readings, the
  change list, the bigger node documents for the ledger and the events): the ``bench_hook`` stack
  measured in interleaved blocks with and without the reader, p50 of each and their difference;
* ``residency_real_read_*``: the same read of the real objects, in ComfyUI's own Python with the
  tiny checkpoint's UNet, text encoder and VAE loaded (``--real``; skipped when no ComfyUI is found).

    python benchmarks/bench_residency.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import weakref
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MIB = 1024**2
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # this checkout's memprobe, not an installed copy


class _Weights:
    def __init__(self, name: str, loaded: int) -> None:
        self.model_loaded_weight_memory = loaded
        self.diffusion_model = name

    def parameters(self):
        return iter([SimpleNamespace(dtype="torch.float16", nelement=lambda: 1 << 20, element_size=lambda: 2)])


class _Patcher:
    def __init__(self, weights: _Weights, size: int) -> None:
        self.model, self.size = weights, size
        self.load_device, self.offload_device, self.is_clip = "cuda:0", "cpu", False

    def model_size(self) -> int:
        return self.size

    def loaded_size(self) -> int:
        return self.model.model_loaded_weight_memory

    def model_dtype(self) -> str:
        return "torch.float16"


class _LoadedModel:
    def __init__(self, patcher: _Patcher) -> None:
        self._model = weakref.ref(patcher)
        self.device = patcher.load_device

    @property
    def model(self) -> _Patcher:
        return self._model()


def _stand_ins(count: int = 5) -> tuple[Any, list[_Patcher]]:
    patchers = [
        _Patcher(type(f"Model{i}", (_Weights,), {})(f"m{i}", 300 * MIB * (i + 1)), 400 * MIB * (i + 1))
        for i in range(count)
    ]
    return SimpleNamespace(current_loaded_models=[_LoadedModel(p) for p in patchers]), patchers


def _reader(model_management: Any) -> Any:
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers import load_pack

    load_pack()
    from memory_probe_pack.glue.models import ModelReader

    return ModelReader(lambda: model_management)


def _timed(fn: Any, n: int) -> list[float]:
    for _ in range(100):
        fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - t0) / 1000)
    return sorted(times)


def _p(times: list[float], q: float) -> float:
    return round(times[min(len(times) - 1, int(q * len(times)))], 2)


def real_read(reads: int = 5000) -> dict[str, Any]:
    """In ComfyUI's Python, from its folder: the tiny checkpoint loaded by ComfyUI on the CPU."""
    sys.argv = ["main.py", "--cpu"]
    sys.path.insert(0, os.getcwd())
    import comfy.options

    comfy.options.enable_args_parsing()
    import comfy.model_management as mm
    import comfy.sd

    checkpoint = Path(os.getcwd()) / "models" / "checkpoints" / "tiny_sd15.safetensors"
    model, clip, vae, *_ = comfy.sd.load_checkpoint_guess_config(str(checkpoint), output_vae=True, output_clip=True)
    mm.load_models_gpu([model, clip.patcher, vae.patcher])
    reader = _reader(mm)
    assert len(reader.read()) == 3
    times = _timed(reader.read, reads)
    return {
        "residency_real_read_p50_us": _p(times, 0.5),
        "residency_real_read_p99_us": _p(times, 0.99),
        "residency_real_models": len(mm.current_loaded_models),
    }


def _comfyui() -> tuple[Path, Path] | None:
    sys.path.insert(0, str(ROOT / "tests"))
    from comfy_server import find_comfyui

    found = find_comfyui()
    return None if isinstance(found, str) else (found.root, found.python)


def _per_node(reader: Any, nodes: int) -> dict[str, Any]:
    """The traced trivial node of ``bench_hook``, in blocks alternating without and with the reader."""
    import asyncio
    import tempfile

    from bench_hook import _EventsLike, _trivial_node
    from stack import traced_stack

    from memprobe.recording.hook import wrap

    with tempfile.TemporaryDirectory() as tmp, traced_stack(tmp) as (_sensors, tracker, _ledger):
        tracker.subscribe(_EventsLike())
        wrapped = wrap(
            _trivial_node,
            lambda args, kwargs: tracker.node_begin(args[0], args[1], "KSampler", None),
            lambda node, result: tracker.node_end(node),
            lambda node, exc: tracker.node_failed(node, exc),
        )

        async def block() -> list[float]:
            times = []
            for i in range(nodes):
                t0 = time.perf_counter_ns()
                await wrapped("bench", str(i), None, {})
                times.append((time.perf_counter_ns() - t0) / 1000)
            return times

        async def main() -> tuple[list[float], list[float]]:
            without, with_models = [], []
            tracker.begin_run("bench")
            for _ in range(6):
                tracker.residency = None
                without += await block()
                tracker.residency = reader.read
                with_models += await block()
            tracker.end_run("bench", "success")
            return sorted(without), sorted(with_models)

        without, with_models = asyncio.run(main())
    return {
        "traced_without_models_p50_us": _p(without, 0.5),
        "traced_with_models_p50_us": _p(with_models, 0.5),
        "residency_cost_per_node_p50_us": round(_p(with_models, 0.5) - _p(without, 0.5), 1),
        "traced_with_models_p99_us": _p(with_models, 0.99),
    }


def run(reads: int = 20_000, nodes: int = 3_000) -> dict[str, Any]:
    mm, _patchers = _stand_ins()
    reader = _reader(mm)
    times = _timed(reader.read, reads)
    out: dict[str, Any] = {"residency_read_p50_us": _p(times, 0.5), "residency_read_p99_us": _p(times, 0.99)}
    out.update(_per_node(reader, nodes))
    comfy = _comfyui()
    if comfy is not None:
        root, python = comfy
        proc = subprocess.run(
            [str(python), str(Path(__file__).resolve()), "--real"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if proc.returncode == 0:
            out.update(json.loads(proc.stdout.strip().splitlines()[-1]))
        else:
            out["residency_real_error"] = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed"
    return out


if __name__ == "__main__":
    if "--real" in sys.argv:
        sys.stdout.write(json.dumps(real_read()) + "\n")
    else:
        result = run()
        print(json.dumps(result, indent=2))
