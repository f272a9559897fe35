"""How `memprobe explain` holds up when a real log reaches it the way pastes do: quoted in an e-mail or a
Markdown reply, flattened onto one line by a page or a search result, with Windows line ends, HTML
entities, a container's or an unknown logger's prefix before every line, indented as a Markdown code block,
fenced in `<details>`, with a blank line after each line, hard-wrapped at a console's width, with a paste
site's line numbers before each line. Each of the corpus logs that explain reads right
(their excerpt shows the failure and their thread agrees with it) is changed so and read again: how many
still name the same memory; then the held-out phrasings that name what ran short, alone and after a real
session's start-up.

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
from typing import Any

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


def _error_line(text: str, failure: dict[str, Any]) -> int | None:
    """The line that says what failed: the failure's evidence line that holds its message's first words."""
    lines = text.split("\n")
    head = (failure.get("message") or "").split("\n")[0].strip()[:40]
    for ev in failure.get("evidence") or ():
        n = int(ev["line"])
        if head and 1 <= n <= len(lines) and head in lines[n - 1]:
            return n
    return None


def _fragment(before: int, after: int | None) -> Callable[[str, int], str]:
    def cut(text: str, n: int) -> str:
        lines = text.split("\n")
        return "\n".join(lines[max(n - 1 - before, 0) : None if after is None else n + after])

    return cut


FRAGMENTS: dict[str, Callable[[str, int], str]] = {
    "from 3 above": _fragment(3, None),
    "10 either side": _fragment(10, 10),
    "3 either side": _fragment(3, 3),
}

ALSO_RIGHT = {"compose prefix": {("system-ram", "cgroup-limit")}}
"""A kill in a log every line of which docker compose prefixed is the container's limit: a different kind, and
the right one."""


def kind(text: str) -> str | None:
    return (explain_log(text)["failure"] or {}).get("kind")


PHRASINGS = ROOT / "tests" / "fixtures" / "phrasings" / "cases.json"
_SHORT = {"vram", "system-ram", "commit-limit", "cgroup-limit", "disk"}


def _short(kind_: str | None) -> str | None:
    return kind_ if kind_ in _SHORT else None


def phrasings(show: str | None) -> None:
    """The held-out phrasings (tests/fixtures/phrasings) that name what ran short, read right alone: changed as pastes
    are, and put after a real session's start-up (a console pasted from its start to the error)."""
    cases = json.loads(PHRASINGS.read_text(encoding="utf-8"))["cases"]
    session = (LOGS / "1halfplusminus_fastai_comfy_2023_sdxl_normal_session.log").read_text(encoding="utf-8")
    lines = session.split("\n")
    start = "\n".join(lines[: next(i for i, line in enumerate(lines) if "got prompt" in line) + 1])
    right = [
        c
        for c in cases
        if _short(c.get("reads", c["kind"])) and _short(kind(c["text"])) == _short(c.get("reads", c["kind"]))
    ]
    print(f"\nphrasings that name what ran short, read right alone: {len(right)}")
    changes = {**CHANGES, "after a start-up": lambda text: f"{start}\n{text}"}
    for name, change in changes.items():
        missed = [(c["id"], _short(c.get("reads", c["kind"])), _short(kind(change(c["text"])))) for c in right]
        missed = [m for m in missed if m[1] != m[2] and (m[1], m[2]) not in ALSO_RIGHT.get(name, ())]
        print(f"{name:16} {len(right) - len(missed)}/{len(right)}")
        if show == name:
            for m in missed:
                print(f"    {m[0]}: {m[1]} -> {m[2]}")


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
        failure = explain_log(text)["failure"] or {}
        if failure.get("kind") == entry["kind"]:
            right.append((entry, text, _error_line(text, failure)))
    print(f"logs read right as they are: {len(right)}, {sum(1 for r in right if r[2])} of them with an error line")
    outcomes = {name: [(e, kind(change(text))) for e, text, _ in right] for name, change in CHANGES.items()}
    for name, cut in FRAGMENTS.items():
        outcomes[name] = [(e, kind(cut(text, n))) for e, text, n in right if n is not None]
    for name, read in outcomes.items():
        missed = [(e["file"], e["kind"], got) for e, got in read if got != e["kind"]]
        missed = [m for m in missed if (m[1], m[2]) not in ALSO_RIGHT.get(name, ())]
        common = Counter((m[1], m[2]) for m in missed).most_common(3)
        print(f"{name:16} {len(read) - len(missed)}/{len(read)}  {common if common else ''}")
        if args.show == name:
            for m in missed:
                print(f"    {m[0]}: {m[1]} -> {m[2]}")
    phrasings(args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
