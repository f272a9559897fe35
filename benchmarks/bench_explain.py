"""`memprobe explain` on big logs: time to read a 50 MB log, and the memory it needs (it must not
grow with the log: a 5 MB and a 50 MB log, and one holding a 20 MB line, need about the same).

The log is built from real ones: the recorded ComfyUI 0.3.64 logs and the issue-thread logs of
tests/fixtures/logs, repeated as a long session (thousands of prompts, progress bars, model loads,
tracebacks), with the failure to explain at its end. Each reading runs in a fresh interpreter so its
peak RSS is its own; the baseline is that interpreter with Memory Probe imported.

    python benchmarks/bench_explain.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"

_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from memprobe.explain import explain_log
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
path = sys.argv[1]
t0 = time.perf_counter()
if path != "-":
    with open(path, "rb") as f:
        doc = explain_log(f)
else:
    doc = None
elapsed = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"s": elapsed, "base_kib": base, "peak_kib": peak,
                  "kind": doc["failure"]["kind"] if doc and doc["failure"] else None,
                  "lines": doc["log"]["lines"] if doc else 0}}))
"""


def build_log(path: Path, size_bytes: int, *, huge_line_bytes: int = 0) -> int:
    """A long ComfyUI session of about ``size_bytes``, ending in the OOM of a real thread."""
    session = (FIXTURES / "comfyui-0.3.64" / "logs" / "txt2img.log").read_text(encoding="utf-8")
    failing = (FIXTURES / "comfyui-0.3.64" / "logs" / "error_runtime.log").read_text(encoding="utf-8")
    threads = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / "logs").glob("*.log"))]
    prompt = session[session.index("got prompt"):]
    progress = "".join(f"{i * 5:3d}%|{'#' * i:<20}| {i}/20 [00:{i:02d}<00:10,  1.9it/s]\r" for i in range(21)) + "\n"
    written = 0
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write(session[:session.index("got prompt")])
        i = 0
        while written < size_bytes:
            block = prompt.replace("Prompt executed", progress + "Prompt executed")
            if i % 50 == 7:
                block += threads[i % len(threads)]  # now and then an error pasted from elsewhere
            if huge_line_bytes and i == 3:
                block += "x" * huge_line_bytes + "\n"
            f.write(block)
            written += len(block)
            i += 1
        f.write(failing[failing.index("got prompt"):])
    return path.stat().st_size


def measure(path: str) -> dict[str, Any]:
    code = _CHILD.format(root=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        big, small, huge = Path(tmp) / "big.log", Path(tmp) / "small.log", Path(tmp) / "huge.log"
        big_size = build_log(big, 50 * 1024**2)
        build_log(small, 5 * 1024**2)
        build_log(huge, 5 * 1024**2, huge_line_bytes=20 * 1024**2)
        idle = measure("-")
        runs = [measure(str(big)) for _ in range(3)]
        best = min(runs, key=lambda r: r["s"])
        small_run, huge_run = measure(str(small)), measure(str(huge))
    assert best["kind"] == "other", best  # the log's last failure (LatentBlend) is what it explains
    over = lambda r: round((r["peak_kib"] - idle["peak_kib"]) / 1024, 1)  # noqa: E731
    return {
        "explain_50mb_s": round(best["s"], 2),
        "explain_50mb_mb_per_s": round(big_size / 1024**2 / best["s"], 1),
        "explain_50mb_lines": best["lines"],
        "explain_peak_over_idle_mib_50mb": over(best),
        "explain_peak_over_idle_mib_5mb": over(small_run),
        "explain_peak_over_idle_mib_20mb_line": over(huge_run),
    }


if __name__ == "__main__":
    result = run()
    for key, value in result.items():
        print(f"{key:40} {value}")
