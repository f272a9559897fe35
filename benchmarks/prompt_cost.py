"""What tracing costs a short prompt, in one real ComfyUI: blocks of prompts with Memory Probe's tracing
switched off and on in turn (``POST /memprobe/config``), ComfyUI's own execution time of each prompt
(its ``execution_start`` to ``execution_success`` timestamps), paired block by block — this machine
drifts by more than the effect between blocks, so only adjacent blocks are compared.

The prompt is the issue's: ``txt2img`` at 256², one step (about 1.4 s on 2 CPU cores). The traced runs'
``overhead`` says what Memory Probe counted of its own CPU for each run, every thread it runs for the
run included; the report puts both side by side.

    python benchmarks/prompt_cost.py [--blocks 10] [--per-block 12] [--set key=value ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from comfy_server import ComfyServer, find_comfyui, short_prompt  # noqa: E402


def _wall_s(history: dict[str, Any]) -> float:
    stamps = {event: data.get("timestamp") for event, data in history["status"]["messages"]}
    return (stamps["execution_success"] - stamps["execution_start"]) / 1000


def prompt(seed: int) -> dict[str, Any]:
    return short_prompt(seed, "cost")


def run(blocks: int = 10, per_block: int = 12, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    install = find_comfyui()
    if isinstance(install, str):
        raise SystemExit(install)
    server = ComfyServer(install, Path(tempfile.mkdtemp(prefix="memprobe-cost-"))).start()
    seed = 10_000
    try:
        if settings:
            status, body = server.request("POST", "/memprobe/config", settings)
            assert status == 200, body
        for _ in range(4):  # warm-up: models loaded, caches filled, both ways
            for tracing in (True, False):
                server.request("POST", "/memprobe/config", {"tracing": tracing})
                seed += 1
                server.run(prompt(seed))
        walls: dict[bool, list[list[float]]] = {True: [], False: []}
        overhead: list[dict[str, Any]] = []
        for block in range(blocks):
            tracing = block % 2 == 1  # off, on, off, on ...
            server.request("POST", "/memprobe/config", {"tracing": tracing})
            times = []
            for _ in range(per_block):
                seed += 1
                prompt_id, history = server.run(prompt(seed))
                times.append(_wall_s(history))
                if tracing:
                    overhead.append(server.memprobe_run(prompt_id).get("overhead") or {})
            walls[tracing].append(times)
        on = [statistics.median(b) for b in walls[True]]
        off = [statistics.median(b) for b in walls[False]]
        pairs = [on_b / off_b for on_b, off_b in zip(on, off, strict=False)]
        own = [sum(v for k, v in o.items() if k.endswith("_cpu_s") and k != "process_cpu_s") * 1000 for o in overhead]
        return {
            "prompt_s_off_median": round(statistics.median([t for b in walls[False] for t in b]), 4),
            "prompt_s_on_median": round(statistics.median([t for b in walls[True] for t in b]), 4),
            "paired_block_ratios": [round(p, 4) for p in pairs],
            "paired_ratio_median": round(statistics.median(pairs), 4),
            "cost_ms_per_prompt": round(
                (
                    statistics.median([t for b in walls[True] for t in b])
                    - statistics.median([t for b in walls[False] for t in b])
                )
                * 1000,
                1,
            ),
            "own_cpu_ms_per_run_median": round(statistics.median(own), 2) if own else None,
            "overhead_example": overhead[-1] if overhead else None,
            "blocks": blocks,
            "per_block": per_block,
        }
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--per-block", type=int, default=12)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a Memory Probe setting")
    args = parser.parse_args()
    settings = {}
    for item in args.set:
        key, _, value = item.partition("=")
        settings[key] = json.loads(value)
    started = time.time()
    result = run(args.blocks, args.per_block, settings or None)
    result["took_s"] = round(time.time() - started)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
