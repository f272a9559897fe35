"""Days of runs, compressed: thousands of short prompts from several clients while the panel's routes
are polled, in the real ComfyUI — plain, then with Memory Probe — and what each server grows by.

Per server: a warm-up, then ``--runs`` prompts (``txt2img`` with the TAESD decoder at 256², one step:
about a second each) from ``--clients`` threads, while ``--pollers`` threads read what a panel reads
(``/memprobe/runs``, ``/memprobe/live``, each every ``--poll-s`` seconds; ComfyUI's ``/queue`` for the
plain server). Reported per
1,000 runs: the server's RSS growth (with Memory Probe minus plain) twice: from one reading before and
after (a moment's value: a prompt's activations swing it by tens of MiB) and as the slope of the RSS
floor (the lowest reading of each block of 50 runs, sampled every 0.2 s: what the server keeps between
prompts); its threads and open file descriptors before and after, the ledger's size on disk and how many
runs it keeps (the retention setting), the latency of the run list and of one run, and whether every
run was recorded with its status.

    python benchmarks/soak.py [--runs 1000] [--clients 3] [--pollers 3] [--poll-s 1] [--retention 2000] [--no-plain]

``tests/integration/test_soak_short.py`` runs a short version in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from comfy_server import REPO, ComfyServer, find_comfyui, short_prompt  # noqa: E402

MIB = 1024**2


def process_state(pid: int) -> dict[str, int]:
    """RSS, threads and open file descriptors of a process (Linux ``/proc``)."""
    out = {"fds": len(os.listdir(f"/proc/{pid}/fd"))}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                out["rss_bytes"] = int(line.split()[1]) * 1024
            elif line.startswith("Threads:"):
                out["threads"] = int(line.split()[1])
    return out


BLOCK = 50
"""Runs per point of the RSS trend."""


def slope_per_1000(trend: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of the blocks' RSS floors, MiB per 1,000 runs; the first block (the
    warm-up's tail) left out."""
    points = trend[1:]
    if len(points) < 3:
        return None
    fit = statistics.linear_regression([x for x, _ in points], [y for _, y in points])
    return round(fit.slope * 1000, 1)


def soak(
    server: ComfyServer,
    *,
    runs: int,
    clients: int,
    pollers: int,
    warmup: int,
    seed: int,
    extension: bool,
    poll_s: float = 1.0,
) -> dict[str, Any]:
    """Drive ``server``; what it grew by and how the routes answered."""
    assert server.process is not None
    pid = server.process.pid
    counter = iter(range(seed, seed + 10 * (runs + warmup) + 100))
    lock = threading.Lock()

    def next_seed() -> int:
        with lock:
            return next(counter)

    statuses: list[tuple[str, str]] = []
    latencies: dict[str, list[float]] = {"list": [], "live": [], "run": []}
    errors: list[str] = []
    done = threading.Event()

    trend: list[tuple[int, float]] = []
    floor = [process_state(pid)["rss_bytes"]]  # the lowest RSS of the current block of runs

    def monitor() -> None:
        """RSS every 0.2 s; each block of runs keeps its lowest: what the server holds between the
        activations of its prompts, whatever moment a block ends at."""
        while not stop.wait(0.2):
            rss = process_state(pid)["rss_bytes"]
            with lock:
                floor[0] = min(floor[0], rss)

    stop = threading.Event()

    def client(n: int) -> None:
        for _ in range(n):
            try:
                prompt_id, history = server.run(short_prompt(next_seed(), "soak"), timeout_s=600)
                statuses.append((prompt_id, history["status"]["status_str"]))
                if len(statuses) % BLOCK == 0:  # the trend: a leak climbs, a warming cache levels off
                    with lock:
                        trend.append((len(statuses), round(floor[0] / MIB, 1)))
                        floor[0] = process_state(pid)["rss_bytes"]
            except Exception as exc:  # counted, the soak goes on
                errors.append(f"client: {type(exc).__name__}: {exc}")

    def poller() -> None:
        paths = (
            [("list", "/memprobe/runs?limit=100"), ("live", "/memprobe/live?max_points=500")]
            if extension
            else [("list", "/queue"), ("live", "/history?max_items=1")]
        )
        while not done.is_set():
            for key, path in paths:
                t = time.perf_counter()
                status, _ = server.request("GET", path, timeout=30)
                latencies[key].append((time.perf_counter() - t) * 1000)
                if status >= 500:
                    errors.append(f"{path}: {status}")
            time.sleep(poll_s)

    def phase(total: int) -> float:
        """``total`` prompts from the clients while the pollers poll; its seconds."""
        done.clear()
        per_client = [total // clients + (1 if i < total % clients else 0) for i in range(clients)]
        started = time.time()
        threads = [threading.Thread(target=client, args=(n,)) for n in per_client]
        polls = [threading.Thread(target=poller) for _ in range(pollers)]
        for t in threads + polls:
            t.start()
        for t in threads:
            t.join()
        done.set()
        for t in polls:
            t.join(60)
        took = time.time() - started
        time.sleep(2.0)  # the judge and the ledger's writer catch up
        return took

    watcher = threading.Thread(target=monitor, daemon=True)
    watcher.start()
    phase(warmup)  # the same load first: every thread pool and cache the server grows on demand is there
    statuses.clear()
    trend.clear()
    for values in latencies.values():
        values.clear()
    errors.clear()
    before = process_state(pid)
    took = phase(runs)
    after = process_state(pid)
    stop.set()
    watcher.join()
    out: dict[str, Any] = {
        "runs": len(statuses),
        "succeeded": sum(1 for _, s in statuses if s == "success"),
        "seconds": round(took, 1),
        "before": before,
        "after": after,
        "rss_growth_mib": round((after["rss_bytes"] - before["rss_bytes"]) / MIB, 1),
        "rss_growth_mib_per_1000_runs": round(
            (after["rss_bytes"] - before["rss_bytes"]) / MIB * 1000 / max(1, runs), 1
        ),
        "rss_floor_mib_every_block": trend,
        "rss_floor_slope_mib_per_1000_runs": slope_per_1000(trend),
        "threads_growth": after["threads"] - before["threads"],
        "fds_growth": after["fds"] - before["fds"],
        "errors": errors[:20],
        "error_count": len(errors),
    }
    for key, values in latencies.items():
        if values:
            values.sort()
            out[f"{key}_ms_p50"] = round(statistics.median(values), 1)
            out[f"{key}_ms_p95"] = round(values[int(len(values) * 0.95) - 1], 1)
    if extension:
        for prompt_id, _ in statuses[-5:]:
            t = time.perf_counter()
            server.memprobe_run(prompt_id)
            latencies["run"].append((time.perf_counter() - t) * 1000)
        out["run_ms_p50"] = round(statistics.median(latencies["run"]), 1)
        recorded: dict[str, str] = {}
        while True:  # every page of the list, as the panel pages it
            listing = server.get(f"/memprobe/runs?limit=500&offset={len(recorded)}")
            recorded.update((r["id"], r["status"]) for r in listing["runs"])
            if not listing["runs"] or len(recorded) >= listing["total"]:
                break
        kept = [pid_ for pid_, _ in statuses if pid_ in recorded]
        out["ledger_runs_total"] = listing["total"]
        out["recorded_with_status"] = sum(1 for p in kept if recorded[p] == dict(statuses)[p])
        out["ledger_bytes"] = sum(
            f.stat().st_size for f in server.ledger_path.parent.glob("ledger.sqlite3*") if f.is_file()
        )
    return out


def run(
    runs: int = 1000,
    clients: int = 3,
    pollers: int = 3,
    retention: int | None = None,
    plain: bool = True,
    poll_s: float = 1.0,
) -> dict[str, Any]:
    install = find_comfyui()
    if isinstance(install, str):
        raise SystemExit(install)
    results: dict[str, Any] = {"runs": runs, "clients": clients, "pollers": pollers}
    for name, extension in (("plain", False), ("memprobe", True)):
        if name == "plain" and not plain:
            continue
        folder = Path(tempfile.mkdtemp(prefix=f"memprobe-soak-{name}-"))
        server = ComfyServer(
            install,
            folder,
            extensions=[REPO] if extension else [],
            ready_path="/memprobe/live" if extension else "/system_stats",
        ).start()
        try:
            if extension and retention:
                server.request("POST", "/memprobe/config", {"retention_runs": retention})
            results[name] = soak(
                server,
                runs=runs,
                clients=clients,
                pollers=pollers,
                warmup=20,
                seed=50_000,
                extension=extension,
                poll_s=poll_s,
            )
        finally:
            server.stop()
    if "plain" in results and "memprobe" in results:
        results["extra_rss_growth_mib_per_1000_runs"] = round(
            results["memprobe"]["rss_growth_mib_per_1000_runs"] - results["plain"]["rss_growth_mib_per_1000_runs"], 1
        )
        slopes = [results[k]["rss_floor_slope_mib_per_1000_runs"] for k in ("memprobe", "plain")]
        if None not in slopes:
            results["extra_rss_floor_slope_mib_per_1000_runs"] = round(slopes[0] - slopes[1], 1)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--pollers", type=int, default=3)
    parser.add_argument("--retention", type=int, default=None, help="MemProbe.RetentionRuns for the run")
    parser.add_argument("--plain", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--poll-s", type=float, default=1.0, help="each poller's pause between two rounds")
    args = parser.parse_args()
    result = run(args.runs, args.clients, args.pollers, args.retention, args.plain, args.poll_s)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
