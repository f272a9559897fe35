"""How `memprobe explain` does on real logs: for each labelled log (tests/fixtures/logs/labels.json
or any labels file of the same shape), whether it names the memory that ran out (VRAM, system RAM,
the commit limit, a container's limit, disk; or none) and the failure's kind (those, or another
error, an unexplained end, no failure), the failing node's class (where the log names it), gives a
memory failure at least one suggestion, and tells a VRAM failure in a decode node to tile; no input
may crash it.

    python benchmarks/explain_accuracy.py [--held-out | --seen] [--show-misses] [LABELS.json ...]

Held-out logs are the ones collected and labelled from their threads before the reader saw them;
score them once before changing anything for them, and report that first score.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:  # the core's layout since the verdict issue; the flat one before it
    from memprobe.logs.explain import explain_log
except ImportError:  # pragma: no cover - measuring an older checkout
    from memprobe.explain import explain_log  # type: ignore[no-redef]

MEMORY = {"vram", "system-ram", "commit-limit", "cgroup-limit"}
TILE_IDS = {"tiled-decode", "smaller-tiles", "tiled-decode-own", "custom-node-tiling"}
RAN_OUT = MEMORY | {"disk"}  # the memory that can run out: VRAM, system memory (RAM, commit, a cgroup's), disk


def ran_out(kind: str | None) -> str:
    """The issue's question, "which memory ran out?": a memory kind or disk, else none (other, abrupt, no failure)."""
    return kind if kind in RAN_OUT else "none"


def score(entries: list[tuple[Path, dict]], show: bool = False) -> dict:
    kind_ok = memory_ok = class_ok = class_n = advised = memory_n = tiled = decode_n = crashes = 0
    misses = []
    for path, entry in entries:
        try:
            doc = explain_log(path.read_bytes())
        except Exception:  # a crash is a miss of every measure
            crashes += 1
            misses.append((entry["file"], "CRASH", traceback.format_exc(limit=2)))
            continue
        failure = doc.get("failure") or {}
        kind = failure.get("kind")
        suggestions = doc.get("suggestions") or []
        memory_ok += ran_out(kind) == ran_out(entry["kind"])
        if kind == entry["kind"]:
            kind_ok += 1
        else:
            misses.append((entry["file"], "kind", f"{kind} != {entry['kind']}"))
        if entry.get("class_type"):
            class_n += 1
            got = (failure.get("node") or {}).get("class_type")
            if got == entry["class_type"]:
                class_ok += 1
            else:
                misses.append((entry["file"], "class", f"{got} != {entry['class_type']}"))
        if entry["kind"] in MEMORY:
            memory_n += 1
            if suggestions:
                advised += 1
            else:
                misses.append((entry["file"], "advice", "no suggestion"))
            if entry["kind"] == "vram" and entry.get("decode"):
                decode_n += 1
                if any(s["id"] in TILE_IDS for s in suggestions):
                    tiled += 1
                else:
                    misses.append((entry["file"], "tile", ", ".join(s["id"] for s in suggestions) or "none"))
    n = len(entries)
    out = {
        "logs": n,
        "memory": (memory_ok, n),
        "kind": (kind_ok, n),
        "class": (class_ok, class_n),
        "advised": (advised, memory_n),
        "decode_tiled": (tiled, decode_n),
        "crashes": crashes,
    }
    if show:
        out["misses"] = misses
    return out


def load(labels: list[Path], which: str) -> list[tuple[Path, dict]]:
    entries = []
    for file in labels:
        for entry in json.loads(file.read_text(encoding="utf-8"))["logs"]:
            held = bool(entry.get("held_out"))
            if which == "all" or (which == "held-out") == held:
                entries.append((file.parent / entry["file"], entry))
    return entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", nargs="*", type=Path, default=[ROOT / "tests" / "fixtures" / "logs" / "labels.json"])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--held-out", action="store_const", dest="which", const="held-out")
    group.add_argument("--seen", action="store_const", dest="which", const="seen")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    result = score(load(args.labels, args.which or "all"), args.show_misses)

    def pct(pair: tuple[int, int]) -> str:
        return f"{pair[0]}/{pair[1]} ({100 * pair[0] / pair[1]:.0f} %)" if pair[1] else "n/a"

    print(f"logs: {result['logs']}, crashes: {result['crashes']}")
    print(f"memory named right:        {pct(result['memory'])}  (which ran out, or none)")
    print(f"failure kind right:        {pct(result['kind'])}  (also other, abrupt, no failure)")
    print(f"failing node class right:  {pct(result['class'])}")
    print(f"memory failures advised:   {pct(result['advised'])}")
    print(f"VRAM decode told to tile:  {pct(result['decode_tiled'])}")
    for file, what, detail in result.get("misses", []):
        print(f"  miss {what:6} {file}: {detail.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
