"""Memory Probe in a real ComfyUI (the integration tier's server: a private base directory per
server, see ``tests/comfy_server.py``).

``--pairs N``: the same ``txt2img`` on a fresh server without and with the extension, alternating
which goes first, N pairs. Reports the paired wall-time ratios and — the precise figure — the
extension's own CPU time (tracing hook, sampler thread, ledger writer: per-thread CPU clocks,
recorded in each run's ``overhead``) as a share of the ComfyUI process's CPU time for that run.

``--spikes N``: a test-only node (``tests/integration/nodes_spike``) allocates 160 MiB and frees it
at once, N times; counts the runs whose recorded RSS peak is within 5 % of the spike of what the
node itself read at its top.

``--extension DIR`` measures another copy of Memory Probe (e.g. an older one, from
``git archive``) with the same harness. Other processes' CPU use during each run is recorded
(``others_cpu_pct``, of the whole machine): run it alone, under ``flock /tmp/memprobe-heavy.lock``.

    python benchmarks/comfyui_real.py --pairs 5 --spikes 20 [--extension DIR] [--set sample_hz=50]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from comfy_server import REPO, ComfyServer, find_comfyui, load_workflow  # noqa: E402

SPIKE_PACK = ROOT / "tests" / "integration" / "nodes_spike"
MIB = 1024**2


def _cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def _process_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _wall_s(history: dict[str, Any]) -> float:
    """From ComfyUI's own execution_start to execution_success timestamps (ms)."""
    stamps = {event: data.get("timestamp") for event, data in history["status"]["messages"]}
    return (stamps["execution_success"] - stamps["execution_start"]) / 1000


def one_run(install: Any, base: Path, extension: Path | None, seed: int, config: dict[str, Any]) -> dict[str, Any]:
    server = ComfyServer(
        install,
        base,
        extensions=[extension] if extension else [],
        ready_path="/memprobe/live" if extension else "/system_stats",
    )
    server.start()
    try:
        if extension and config:
            status, doc = server.request("POST", "/memprobe/config", config)
            assert status == 200, doc
        busy0, total0 = _cpu_ticks()
        server_ticks0, own0 = _process_ticks(server.process.pid), _process_ticks(os.getpid())
        prompt_id, history = server.run(load_workflow("txt2img", **{"3.seed": seed}), timeout_s=900)
        busy1, total1 = _cpu_ticks()
        server_ticks1, own1 = _process_ticks(server.process.pid), _process_ticks(os.getpid())
        others = (busy1 - busy0) - (server_ticks1 - server_ticks0) - (own1 - own0)
        result: dict[str, Any] = {
            "with_extension": extension is not None,
            "wall_s": round(_wall_s(history), 3),
            "others_cpu_pct": round(100 * others / max(1, total1 - total0), 1),
            "loadavg": open("/proc/loadavg").read().split()[0],
        }
        if extension:
            result["overhead"] = server.memprobe_run(prompt_id)["overhead"]
            result["sampler"] = server.get("/memprobe/live").get("status", {}).get("sampler")
        return result
    finally:
        server.stop()


def pairs(install: Any, work: Path, extension: Path, n: int, config: dict[str, Any]) -> dict[str, Any]:
    runs = []
    for i in range(n):
        order = (None, extension) if i % 2 == 0 else (extension, None)  # alternate which goes first
        pair = {}
        for ext in order:
            run = one_run(install, work / f"pair{i}-{'with' if ext else 'without'}", ext, 1000 + i, config)
            pair["with" if ext else "without"] = run
            print(json.dumps(run), file=sys.stderr, flush=True)
        runs.append(pair)
    on = [p["with"] for p in runs]
    shares = [r["overhead"]["share_of_process_cpu_pct"] for r in on]
    ratios = [p["with"]["wall_s"] / p["without"]["wall_s"] for p in runs]

    def median(key: str) -> float:
        return round(statistics.median(r["overhead"][key] for r in on), 4)

    return {
        "pairs": n,
        "wall_without_median_s": statistics.median(p["without"]["wall_s"] for p in runs),
        "wall_with_median_s": statistics.median(r["wall_s"] for r in on),
        "paired_ratios": [round(r, 4) for r in ratios],
        "paired_ratio_median": round(statistics.median(ratios), 4),
        "own_cpu_share_pct": shares,
        "own_cpu_share_median_pct": round(statistics.median(shares), 3),
        "sampler_cpu_s_median": median("sampler_cpu_s"),
        "hook_cpu_s_median": median("hook_cpu_s"),
        "ledger_cpu_s_median": median("ledger_cpu_s"),
        "process_cpu_s_median": round(median("process_cpu_s"), 1),
        "others_cpu_pct": [r["others_cpu_pct"] for p in runs for r in p.values()],
    }


def spikes(install: Any, work: Path, extension: Path, n: int, config: dict[str, Any]) -> dict[str, Any]:
    server = ComfyServer(install, work / "spikes", extensions=[extension, SPIKE_PACK]).start()
    try:
        if config:
            server.request("POST", "/memprobe/config", config)
        errors, exact = [], 0
        for seed in range(n):
            prompt = {"1": {"class_type": "MemProbeTestSpike", "inputs": {"mib": 160, "seed": seed}}}
            prompt_id, history = server.run(prompt)
            truth = history["outputs"]["1"]
            (node,) = server.memprobe_run(prompt_id)["nodes"]
            errors.append((node["peaks"]["process_rss_bytes"] - truth["rss_top"][0]) / MIB)
            exact += "process_rss_bytes" in node.get("exact_peaks", [])
    finally:
        server.stop()
    within = sum(abs(e) <= 0.05 * 160 for e in errors)
    return {
        "spike_runs": n,
        "spike_within_5pct": within,
        "spike_exact": exact,
        "spike_error_mib": [round(e, 1) for e in errors],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--spikes", type=int, default=0)
    parser.add_argument("--extension", type=Path, default=REPO, help="the Memory Probe folder to load")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="a Memory Probe setting for the servers, e.g. sample_hz=50",
    )
    args = parser.parse_args()
    found = find_comfyui()
    if isinstance(found, str):
        sys.exit(found)
    config = {name: json.loads(value) for name, value in (item.split("=", 1) for item in args.set)}
    summary: dict[str, Any] = {
        "extension": str(args.extension),
        "config": config,
        "loadavg_start": open("/proc/loadavg").read().split()[:3],
    }
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="memprobe-bench-") as tmp:
        if args.pairs:
            summary.update(pairs(found, Path(tmp), args.extension, args.pairs, config))
        if args.spikes:
            summary.update(spikes(found, Path(tmp), args.extension, args.spikes, config))
    summary["minutes"] = round((time.monotonic() - started) / 60, 1)
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
