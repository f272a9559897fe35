"""The ``memprobe`` command: ``doctor`` checks this machine; ``report`` and ``compare`` read
runs exported from ComfyUI (``/memprobe/runs/{id}/export``); ``explain`` reads ComfyUI's own log."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from typing import cast

from . import __version__
from .documents import RunDoc

__all__ = ["main"]


def _doctor(args: argparse.Namespace) -> int:
    from .judging.doctor import examine
    from .output.text import doctor_text
    from .sensing.machine import default_disk_paths, gather_machine

    paths: dict[str, str] = default_disk_paths()
    for item in args.path or []:
        role, sep, path = item.partition("=")
        if not sep or not role or not path:
            print(f"memprobe doctor: --path takes ROLE=FOLDER, got {item!r}", file=sys.stderr)
            return 2
        paths[role] = path
    machine, findings = examine(gather_machine(paths))
    if args.json:
        print(json.dumps(machine, indent=2))
    else:
        print(doctor_text(machine, findings))
    return 0


def _load_run(path: str) -> RunDoc:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as exc:
        raise SystemExit(f"memprobe: cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise SystemExit(f"memprobe: {path} is not JSON ({exc})") from None
    if not isinstance(doc, dict) or "nodes" not in doc or "id" not in doc:
        raise SystemExit(f"memprobe: {path} is not an exported Memory Probe run (no 'id'/'nodes')")
    return cast(RunDoc, doc)


def _report(args: argparse.Namespace) -> int:
    from .output.report import report

    print(report(_load_run(args.run), args.format), end="")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from .judging.compare import compare_runs
    from .output.markdown import comparison_md

    comparison = compare_runs(_load_run(args.a), _load_run(args.b))
    print(json.dumps(comparison, indent=2) if args.format == "json" else comparison_md(comparison), end="")
    return 0


def _explain(args: argparse.Namespace) -> int:
    from .logs.explain import explain_log
    from .output.markdown import explain_md
    from .output.text import explain_text

    if args.log == "-":
        doc = explain_log(sys.stdin.buffer)
    else:
        try:
            with open(args.log, "rb") as f:
                doc = explain_log(f)
        except OSError as exc:
            print(f"memprobe explain: cannot read {args.log}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    if hasattr(sys.stdout, "reconfigure"):  # a Windows console cannot print every error text
        sys.stdout.reconfigure(errors="replace")
    if args.report:
        print(explain_md(doc), end="")
    elif args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(explain_text(doc), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memprobe", description="Memory Probe: which memory runs out, and where.")
    parser.add_argument("--version", action="version", version=f"memprobe {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the sensors do")
    sub = parser.add_subparsers(dest="command", required=True)
    doctor = sub.add_parser("doctor", help="check this machine's memory set-up (GPU, RAM, commit, pagefile/swap)")
    doctor.add_argument("--json", action="store_true", help="print JSON (stable keys, see the README)")
    doctor.add_argument(
        "--path",
        action="append",
        metavar="ROLE=FOLDER",
        help="also check free disk of FOLDER's volume, e.g. models=D:\\ComfyUI\\models (the home and "
        "current folder's volumes, and ComfyUI's models and output when found, are always "
        "checked)",
    )
    doctor.set_defaults(func=_doctor)
    rep = sub.add_parser("report", help="the shareable report of an exported run (prompts and paths removed)")
    rep.add_argument("run", metavar="RUN.json", help="a run exported from the panel or /memprobe/runs/{id}/export")
    rep.add_argument("--format", choices=("md", "json"), default="md")
    rep.set_defaults(func=_report)
    cmp = sub.add_parser("compare", help="what changed between two exported runs, and what it did, stage by stage")
    cmp.add_argument("a", metavar="A.json")
    cmp.add_argument("b", metavar="B.json")
    cmp.add_argument("--format", choices=("md", "json"), default="md")
    cmp.set_defaults(func=_compare)
    exp = sub.add_parser(
        "explain",
        help="explain a failure from ComfyUI's own log (console output, comfyui.log, "
        "the Desktop app's log, a pasted error report)",
    )
    exp.add_argument("log", metavar="FILE", help="the log file, or - to read it from standard input")
    out = exp.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (stable keys, see the README)")
    out.add_argument(
        "--report", action="store_true", help="print the shareable Markdown report (no prompts, user names or paths)"
    )
    exp.set_defaults(func=_explain)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, format="%(message)s")
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # "memprobe explain x.log | head"
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
