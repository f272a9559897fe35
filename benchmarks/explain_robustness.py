"""How `memprobe explain` holds up when a real log reaches it the way pastes do: quoted in an e-mail or a
Markdown reply, flattened onto one line by a page or a search result, with Windows line ends, HTML
entities, a container's or an unknown logger's prefix before every line, indented as a Markdown code block,
fenced in `<details>`, with a blank line after each line, hard-wrapped at a console's width, with a paste
site's line numbers before each line. Each of the corpus logs that explain reads right
(their excerpt shows the failure and their thread agrees with it) is changed so and read again: how many
still name the same memory.

    python benchmarks/explain_robustness.py [--show CHANGE]
"""

from __future__ import annotations

import argparse
import html
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memprobe.logs.explain import explain_log  # noqa: E402

LOGS = ROOT / "tests" / "fixtures" / "logs"


def _each_line(prefix: str) -> Callable[[str], str]:
    return lambda text: "\n".join(prefix + line for line in text.split("\n"))


def _wrapped(width: int) -> Callable[[str], str]:
    return lambda text: "\n".join(
        line[i : i + width] for line in text.split("\n") for i in range(0, max(len(line), 1), width)
    )


CHANGES: dict[str, Callable[[str], str]] = {
    "quoted": _each_line("> "),
    "flattened": lambda text: " ".join(text.split("\n")),
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "html entities": html.escape,
    "compose prefix": _each_line("comfyui-1  | "),
    "unknown stamp": _each_line("2025/01/02 10:11:12 "),
    "unknown level": _each_line("INFO: "),
    "indented block": _each_line("    "),
    "details fence": lambda text: f"<details><summary>log</summary>\n\n```\n{text}\n```\n</details>",
    "blank line after each": lambda text: "\n\n".join(text.split("\n")),
    "wrapped at 80": _wrapped(80),
    "wrapped at 120": _wrapped(120),
    "line numbers": lambda text: "\n".join(f"{i:>3}. {line}" for i, line in enumerate(text.split("\n"), 1)),
}

ALSO_RIGHT = {"compose prefix": {("system-ram", "cgroup-limit")}}
"""A kill in a log every line of which docker compose prefixed is the container's limit: a different kind, and
the right one."""


def kind(text: str) -> str | None:
    return (explain_log(text)["failure"] or {}).get("kind")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", metavar="CHANGE", help="list the logs that change reads otherwise")
    args = parser.parse_args()
    labels = json.loads((LOGS / "labels.json").read_text(encoding="utf-8"))["logs"]
    right = []
    for entry in labels:
        if entry.get("unreadable") or entry.get("disputed"):
            continue
        text = (LOGS / entry["file"]).read_text(encoding="utf-8", errors="replace")
        if kind(text) == entry["kind"]:
            right.append((entry, text))
    print(f"logs read right as they are: {len(right)}")
    for name, change in CHANGES.items():
        missed = [(e["file"], e["kind"], kind(change(text))) for e, text in right]
        missed = [m for m in missed if m[1] != m[2] and (m[1], m[2]) not in ALSO_RIGHT.get(name, ())]
        common = Counter((m[1], m[2]) for m in missed).most_common(3)
        print(f"{name:16} {len(right) - len(missed)}/{len(right)}  {common if common else ''}")
        if args.show == name:
            for m in missed:
                print(f"    {m[0]}: {m[1]} -> {m[2]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
