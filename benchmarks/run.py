"""Every benchmark of Memory Probe on this machine: one command, a table, and a JSON file.

    python benchmarks/run.py            # the full set (about 4 minutes on 2 cores)
    python benchmarks/run.py --quick    # shorter runs, for a first look

Goals are what the project aims for, not pass/fail tests; see the README's "Performance".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))  # this checkout's memprobe, not an installed copy

# (result key, what, goal text, is the goal met?)
GOALS: list[tuple[str, str, str, Any]] = [
    ("snapshot_p50_us", "one full snapshot, p50", "<= 100 us", lambda v: v <= 100),
    ("snapshot_p99_us", "one full snapshot, p99", "", None),
    ("overhead_p50_us", "tracing cost per node, p50", "<= 200 us", lambda v: v <= 200),
    ("traced_p99_us", "traced trivial node, p99", "", None),
    ("residency_read_p50_us", "reading 5 loaded models (stand-ins), p50", "", None),
    ("residency_real_read_p50_us", "reading ComfyUI's 3 loaded models (real), p50", "", None),
    ("residency_cost_per_node_p50_us", "  what reading them adds per traced node, p50", "", None),
    ("traced_with_models_p50_us", "tracing cost per node with 5 models read, p50", "<= 200 us", lambda v: v <= 200),
    ("traced_with_models_p99_us", "  same, p99", "", None),
    ("sampler_auto_idle_us_per_tick", "sampler: CPU per tick, ComfyUI idle (us)", "", None),
    ("sampler_auto_load_us_per_tick", "sampler: CPU per tick, torch on every core (us)", "", None),
    ("sampler_hot_tick_us", "  the same work back to back, caches warm (us)", "", None),
    ("sampler_auto_load_read_us", "  of which the reading (us)", "", None),
    ("sampler_auto_load_tracker_us", "  of which the tracker (us)", "", None),
    ("sampler_auto_load_hz_achieved", "sampler rate while torch runs, automatic (Hz)", "10", None),
    (
        "sampler_auto_load_share_of_process_cpu_pct",
        "sampler CPU, share of the process's (%)",
        "<= 0.5 %",
        lambda v: v <= 0.5,
    ),
    ("sampler_50hz_load_share_of_process_cpu_pct", "  same at 50 Hz, the old default (%)", "", None),
    ("spike_exact_caught_pct", "160 MiB spikes freed at once, peak within 5 % (%)", "100 %", lambda v: v == 100),
    ("spike_sampled_caught_pct", "  same from the 10 Hz sampler alone (%)", "", None),
    ("spike_sampled_50hz_caught_pct", "  same from a 50 Hz sampler alone, the old way (%)", "", None),
    ("e2e_ratio_of_medians", "end-to-end wall time, traced / untraced", "<= 1.01", lambda v: v <= 1.01),
    ("e2e_median_paired_ratio", "  same, median of paired ratios", "", None),
    ("e2e_untraced_noise_pct", "  run-to-run noise of the untraced runs (%)", "", None),
    ("ledger_list_ms_median", "ledger: list runs ({ledger_runs} runs stored)", "<= 50 ms", lambda v: v <= 50),
    ("ledger_load_run_ms_median", "ledger: load a run, 2,000-point timeline", "<= 50 ms", lambda v: v <= 50),
    ("ledger_window_ms_median", "ledger: a 10 s window of samples", "", None),
    (
        "ledger_many_list_ms_median",
        "ledger: list runs, {ledger_many_runs} short runs of 2 servers",
        "<= 50 ms",
        lambda v: v <= 50,
    ),
    ("ledger_many_list_this_server_ms_median", "  same, this server's runs only", "<= 50 ms", lambda v: v <= 50),
    ("ledger_size_mib", "ledger: file size for {ledger_runs} runs (MiB)", "", None),
    ("ledger_write_s", "ledger: writing the {ledger_runs} runs (s)", "", None),
    ("panel_redraw_ms_median", "panel: redraw with 30,000 points, median", "<= 16 ms", lambda v: v <= 16),
    ("panel_redraw_ms_p95", "panel: redraw with 30,000 points, p95", "", None),
    ("panel_zoom_ms_median", "panel: zoom step, median", "", None),
    ("panel_event_to_screen_ms_median", "panel: event to screen, median", "", None),
    ("panel_event_to_screen_ms_p95", "panel: event to screen, p95", "", None),
    (
        "metrics_typical_openmetrics_ms_p50",
        "/memprobe/metrics scrape, typical ({metrics_typical_lines} lines), p50",
        "<= 10 ms",
        lambda v: v <= 10,
    ),
    ("metrics_typical_text_ms_p50", "  same, classic text format, p50", "", None),
    ("metrics_busy_openmetrics_ms_p50", "  busy: 2 GPUs, every stage ({metrics_busy_lines} lines), p50", "", None),
    ("metrics_busy_openmetrics_ms_p99", "  busy, p99", "", None),
    ("explain_50mb_s", "explain: read a 50 MB ComfyUI log (s)", "< 2 s", lambda v: v < 2),
    ("explain_heap_peak_mib_50mb", "explain: heap peak while reading 50 MB (MiB)", "bounded", None),
    ("explain_heap_peak_mib_5mb", "explain: same, a 5 MB log (MiB)", "", None),
    ("explain_heap_peak_mib_20mb_line", "explain: same, a log with a 20 MB line (MiB)", "", None),
    ("explain_50mb_rss_growth_mib", "explain: RSS peak growth while reading 50 MB (MiB)", "", None),
    ("forecast_p50_ms_max", "forecast of a graph, headers cached: slowest template p50", "<= 20 ms", lambda v: v <= 20),
    ("forecast_first_ms_max", "  the first forecast (headers read), slowest template", "", None),
]


def _forecast(per_graph: dict[str, Any]) -> dict[str, Any]:
    return {
        "forecast": per_graph,
        "forecast_p50_ms_max": max(r["p50_ms"] for r in per_graph.values()),
        "forecast_first_ms_max": max(r["first_ms"] for r in per_graph.values()),
    }


def machine() -> dict[str, Any]:
    import psutil

    return {
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "ram_gib": round(psutil.virtual_memory().total / 1024**3, 1),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="shorter runs (sampler 3 x 10 s, 200 ledger runs)")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        help="skip a benchmark: snapshot, hook, residency, sampler, e2e, ledger, panel, explain, metrics, forecast",
    )
    parser.add_argument("--out", default=str(HERE / "results"), help="folder for the JSON results")
    args = parser.parse_args()

    import bench_e2e
    import bench_explain
    import bench_forecast
    import bench_hook
    import bench_ledger
    import bench_metrics
    import bench_panel
    import bench_residency
    import bench_sampler
    import bench_snapshot

    plan = {
        "snapshot": lambda: bench_snapshot.run(5_000 if args.quick else 20_000),
        "hook": lambda: bench_hook.run(1_000 if args.quick else 5_000),
        "residency": lambda: bench_residency.run(5_000 if args.quick else 20_000, 500 if args.quick else 3_000),
        "sampler": lambda: bench_sampler.run(10.0 if args.quick else 30.0, 20 if args.quick else 50),
        "e2e": lambda: bench_e2e.run(7 if args.quick else 25),
        "ledger": lambda: {
            **bench_ledger.run(200 if args.quick else 1000),
            **bench_ledger.run_many(2000 if args.quick else 10_000),
        },
        "panel": bench_panel.run,
        "metrics": lambda: bench_metrics.run(100 if args.quick else 500),
        "explain": bench_explain.run,
        "forecast": lambda: _forecast(bench_forecast.run(50 if args.quick else 200)),
    }
    results: dict[str, Any] = {}
    for name, bench in plan.items():
        if name in args.skip:
            continue
        started = time.perf_counter()
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            results.update(bench())
        except Exception as exc:  # report and go on: one missing tool must not hide the rest
            print(f"  {name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            results[f"{name}_error"] = f"{type(exc).__name__}: {exc}"
        print(f"  {name} took {time.perf_counter() - started:.0f} s", file=sys.stderr)

    info = machine()
    print(
        f"\nMemory Probe benchmarks — {info['cores']} cores, {info['ram_gib']} GiB, {info['os']}, Python {info['python']}, {info['date']}\n"
    )
    print(f"| {'measure':52} | {'result':>10} | {'goal':10} | met |")
    print(f"| {'-' * 52} | {'-' * 10}: | {'-' * 10} | --- |")
    for key, label, goal, met in GOALS:
        if key not in results:
            continue
        value = results[key]
        label = label.format(**results)
        verdict = "" if met is None else ("yes" if met(value) else "NO")
        print(f"| {label:52} | {value:>10} | {goal:10} | {verdict:3} |")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"benchmarks-{info['date']}.json"
    path.write_text(json.dumps({"machine": info, "quick": args.quick, "results": results}, indent=2))
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
