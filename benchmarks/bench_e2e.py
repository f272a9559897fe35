"""End-to-end overhead on a synthetic torch-on-CPU "workflow": load weights, a conv/matmul
"sampling" loop, a decode-like upsample — each step a node executed through the real tracing
hook (tracker with its peak counters, the sampler at its automatic rate for a CPU-only ComfyUI,
ledger writer) vs the same nodes unwrapped; interleaved runs, ratio of the medians."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from typing import Any

from stack import traced_stack

from memprobe.recording.hook import wrap
from memprobe.sensing.sampler import Sampler


def _workflow(torch: Any) -> list[tuple[str, str, Any]]:
    state: dict[str, Any] = {}

    def load() -> None:
        gen = torch.Generator().manual_seed(0)
        state["w"] = [torch.randn(64, 64, 3, 3, generator=gen) for _ in range(8)]
        state["m"] = torch.randn(1024, 1024, generator=gen)

    def sample() -> None:
        x = torch.randn(1, 64, 96, 96)
        for _step in range(30):
            for w in state["w"]:
                x = torch.nn.functional.conv2d(x, w, padding=1).tanh()
            state["m"] = (state["m"] @ state["m"]).tanh()
        state["latent"] = x

    def decode() -> None:
        x = torch.nn.functional.interpolate(state["latent"], scale_factor=4, mode="nearest")
        state["image"] = torch.nn.functional.conv2d(x, state["w"][0], padding=1).clamp(0, 1)

    return [("1", "CheckpointLoaderSimple", load), ("3", "KSampler", sample), ("8", "VAEDecode", decode)]


async def _node(prompt_id: str, unique_id: str, obj: Any, input_data_all: dict, **kwargs: Any) -> tuple:
    obj()
    return [()], {}, False, False


def run(pairs: int = 25) -> dict[str, Any]:
    import torch

    torch.set_num_threads(2)
    with tempfile.TemporaryDirectory() as tmp, traced_stack(tmp) as (sensors, tracker, _ledger):
        tracker.compute_device = "cpu"
        sampler = Sampler(sensors, tracker)  # the automatic rate for a CPU-only ComfyUI
        sampler.start()
        traced = wrap(
            _node,
            lambda a, k: tracker.node_begin(a[0], a[1], "Node", None),
            lambda n, r: tracker.node_end(n),
            lambda n, e: tracker.node_failed(n, e),
        )
        nodes = _workflow(torch)

        async def execute(fn: Any, run_id: str, trace: bool) -> float:
            if trace:
                tracker.begin_run(run_id)
            t0 = time.perf_counter()
            for node_id, _class_type, body in nodes:
                await fn(run_id, node_id, body, {})
            elapsed = time.perf_counter() - t0
            if trace:
                tracker.end_run(run_id, "success")
            return elapsed

        bare, with_tracing = [], []
        asyncio.run(execute(_node, "warm", False))
        for i in range(pairs):  # alternate, so drift and noise hit both alike
            bare.append(asyncio.run(execute(_node, f"bare-{i}", False)))
            with_tracing.append(asyncio.run(execute(traced, f"traced-{i}", True)))
        sampler.stop()
    ratio = statistics.median(with_tracing) / statistics.median(bare)
    paired = statistics.median(t / b for t, b in zip(with_tracing, bare, strict=True))
    spread = statistics.pstdev(bare) / statistics.mean(bare)
    return {
        "e2e_untraced_median_s": round(statistics.median(bare), 3),
        "e2e_traced_median_s": round(statistics.median(with_tracing), 3),
        "e2e_ratio_of_medians": round(ratio, 4),
        "e2e_median_paired_ratio": round(paired, 4),
        "e2e_untraced_noise_pct": round(100 * spread, 1),
        "e2e_pairs": pairs,
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:28} {value}")
