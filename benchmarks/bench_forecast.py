"""The forecast's cost: it runs on every graph change the panel sees (debounced) and on every queued
prompt, so it is timed like the hot path. For real graphs — the SD1.5 text-to-image of the CPU
ComfyUI, and ComfyUI's own Flux, SDXL, hires-fix and Wan video templates converted from the UI
format — read against header-only files of real model layouts: the first forecast (headers read)
and the next ones (headers cached), the whole answer of ``POST /memprobe/forecast`` (the forecast,
its suggestions and the search for what would fit).

    python benchmarks/bench_forecast.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FIXTURES = ROOT / "tests" / "fixtures"

from memprobe.forecast.models import _CACHE, read_model  # noqa: E402
from memprobe.forecast.service import ForecastService  # noqa: E402
from memprobe.forecast.workflow import to_api  # noqa: E402

MODELS = {
    "checkpoints": "tiny_sd15.safetensors",
    "diffusion_models": "flux1-dev.safetensors",
    "vae": "flux_ae_bf16.safetensors",
}


def lookup(ref: Any) -> Any:
    name = MODELS.get(ref.folder)
    return read_model(FIXTURES / "models" / name) if name else None


def graphs() -> dict[str, dict[str, Any]]:
    runs = json.loads((FIXTURES / "runs" / "forecast_sizes_cpu.json").read_text(encoding="utf-8"))
    out = {"txt2img (API)": runs["512"]["prompt"]}
    for name in ("flux_dev_full_text_to_image", "sdxl_simple_example", "hiresfix_latent_workflow", "text_to_video_wan"):
        out[name] = to_api(json.loads((FIXTURES / "templates" / f"{name}.json").read_text(encoding="utf-8")))
    return out


def run(repeat: int = 200) -> dict[str, Any]:
    context = json.loads((FIXTURES / "runs" / "forecast_sizes_cpu.json").read_text(encoding="utf-8"))["512"]
    service = ForecastService(lookup, context=lambda: context["context"], readings=lambda: context["start_metrics"])
    results = {}
    for name, prompt in graphs().items():
        _CACHE.clear()
        t0 = time.perf_counter()
        service.now(prompt)
        first = time.perf_counter() - t0
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            service.now(prompt)
            times.append(time.perf_counter() - t0)
        times.sort()
        results[name] = {
            "nodes": len(prompt),
            "first_ms": round(first * 1000, 2),
            "p50_ms": round(statistics.median(times) * 1000, 2),
            "p99_ms": round(times[int(len(times) * 0.99) - 1] * 1000, 2),
        }
    return results


if __name__ == "__main__":
    for name, r in run().items():
        print(
            f"{name:<32} {r['nodes']:>3} nodes  first {r['first_ms']:>7} ms  p50 {r['p50_ms']:>6} ms  p99 {r['p99_ms']:>6} ms"
        )
