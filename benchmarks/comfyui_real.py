"""Memory Probe's cost in a real ComfyUI (the harness in ../shared/comfyui-local): the same
``txt2img`` run on a fresh server without and with the extension, alternating, N pairs.

Reports the interleaved wall-time ratio, and — the precise figure — the extension's own CPU time
(tracing hook, sampler thread, ledger writer: per-thread CPU clocks, recorded in each run's
``overhead``) as a share of the ComfyUI process's CPU time for that run.

    python benchmarks/comfyui_real.py --pairs 5 [--local ../shared/comfyui-local]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _sh(cmd: list[str], env: dict[str, str], cwd: Path) -> str:
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=True, timeout=900).stdout


def one_run(local: Path, venv_python: str, with_extension: bool, seed: int, port: int) -> dict:
    env = {**os.environ, "PORT": str(port), "TIME_V": "0", "COMFY_ARGS": os.environ.get("COMFY_ARGS", "")}
    link = Path(os.environ.get("COMFYUI_DIR", Path.home() / "comfy-eval" / "ComfyUI")) / "custom_nodes" / "memory-probe"
    if with_extension:
        if not link.exists():
            link.symlink_to(ROOT)
    elif link.is_symlink():
        link.unlink()
    pid = _sh(["bash", str(local / "start.sh")], env, local).strip().splitlines()[-1]
    try:
        out = _sh([venv_python, str(local / "run_workflow.py"), str(local / "workflows" / "txt2img.json"), "--seed", str(seed),
                   "--server", f"127.0.0.1:{port}", "--quiet-progress"], env, local)
        wall = float(re.search(r"RESULT outcome=execution_success wall=([\d.]+)s", out).group(1))
        result = {"wall_s": wall, "with_extension": with_extension}
        if with_extension:
            runs = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/memprobe/runs?limit=1"))["runs"]
            result["overhead"] = runs[0]["overhead"]
        return result
    finally:
        subprocess.run(["bash", str(local / "stop.sh"), pid], env=env, cwd=local, capture_output=True, timeout=120)
        if with_extension and link.is_symlink():
            link.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--local", default=str(ROOT.parent / "shared" / "comfyui-local"))
    parser.add_argument("--port", type=int, default=8199)
    args = parser.parse_args()
    local = Path(args.local)
    venv_python = str(Path(os.environ.get("VENV", Path.home() / "comfy-eval" / "venv")) / "bin" / "python")
    runs = []
    for i in range(args.pairs):
        order = (False, True) if i % 2 == 0 else (True, False)  # alternate which goes first
        for with_extension in order:
            run = one_run(local, venv_python, with_extension, seed=1000 + i, port=args.port)
            runs.append(run)
            print(json.dumps(run), file=sys.stderr, flush=True)
    off = [r["wall_s"] for r in runs if not r["with_extension"]]
    on = [r for r in runs if r["with_extension"]]
    shares = [r["overhead"]["share_of_process_cpu_pct"] for r in on]
    summary = {
        "pairs": args.pairs,
        "wall_without_median_s": statistics.median(off),
        "wall_with_median_s": statistics.median(r["wall_s"] for r in on),
        "wall_ratio_of_medians": round(statistics.median(r["wall_s"] for r in on) / statistics.median(off), 4),
        "own_cpu_share_median_pct": round(statistics.median(shares), 3),
        "own_cpu_share_max_pct": round(max(shares), 3),
        "sampler_cpu_s_median": round(statistics.median(r["overhead"]["sampler_cpu_s"] for r in on), 3),
        "hook_cpu_s_median": round(statistics.median(r["overhead"]["hook_cpu_s"] for r in on), 4),
        "ledger_cpu_s_median": round(statistics.median(r["overhead"]["ledger_cpu_s"] for r in on), 3),
        "process_cpu_s_median": round(statistics.median(r["overhead"]["process_cpu_s"] for r in on), 1),
    }
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
