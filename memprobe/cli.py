"""The ``memprobe`` command: ``doctor`` checks this machine; ``report`` and ``compare`` read
runs exported from ComfyUI (``/memprobe/runs/{id}/export``); ``explain`` reads ComfyUI's own log."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

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


def _forecast(args: argparse.Namespace) -> int:
    import platform
    import shlex
    from dataclasses import replace
    from pathlib import Path

    from .forecast import predict
    from .forecast.files import FolderLookup, InputImages, parse_image_size
    from .forecast.learn import corrections_from
    from .forecast.machine import machine_from
    from .forecast.service import BadGraph, check_graph
    from .forecast.workflow import graph_in
    from .format import parse_size
    from .output.text import forecast_text
    from .recording.ledger import Ledger
    from .sensing.machine import find_comfyui, gather_machine

    def fail(message: str) -> int:
        print(f"memprobe forecast: {message}", file=sys.stderr)
        return 2

    try:
        raw = sys.stdin.read() if args.workflow == "-" else Path(args.workflow).read_text(encoding="utf-8-sig")
        doc = json.loads(raw)
        prompt = check_graph(graph_in(doc))
        what_if = {
            k: parse_size(v)
            for k, v in (
                ("vram_total_bytes", args.vram),
                ("ram_total_bytes", args.ram),
                ("commit_limit_bytes", args.commit_limit),
            )
            if v
        }
        sizes = _named(args.model, "--model", "SIZE", parse_size)
        images = _named(args.image, "--image", "WIDTHxHEIGHT", parse_image_size)
    except OSError as exc:
        return fail(f"cannot read {args.workflow}: {exc.strerror or exc}")
    except json.JSONDecodeError as exc:
        return fail(f"{args.workflow} is not JSON ({exc})")
    except (BadGraph, ValueError) as exc:
        return fail(str(exc))
    if args.device:
        what_if["device"] = args.device
    if args.os:
        what_if["os"] = args.os
    comfy = Path(args.comfyui) if args.comfyui else find_comfyui([Path.cwd(), Path(__file__).resolve().parents[3]])
    machine_doc = gather_machine({})
    gpus = machine_doc.get("gpus") or []
    memory = machine_doc.get("memory") or {}
    version = None
    if comfy is not None and (comfy / "comfyui_version.py").is_file():
        text = (comfy / "comfyui_version.py").read_text(encoding="utf-8", errors="replace")
        version = text.split('"')[1] if '"' in text else None
    context = {
        "compute_device": "cuda" if gpus else "cpu",
        "os": f"{platform.system()} {platform.release()}",
        "gpus": [
            {"index": g.get("index", 0), "name": g.get("name"), "vram_total_bytes": g.get("vram_total_bytes")}
            for g in gpus
        ],
        "ram_total_bytes": memory.get("ram_total_bytes"),
        "commit_limit_bytes": memory.get("commit_limit_bytes"),
        "swap_total_bytes": memory.get("swap_total_bytes"),
        "overcommit_mode": memory.get("overcommit_mode"),
        "cgroup": {"limit_bytes": (machine_doc.get("cgroup") or {}).get("limit_bytes")},
        "comfyui_version": args.comfyui_version or version,
        "argv": shlex.split(args.args or ""),
    }
    metrics = {k: memory.get(k) for k in ("ram_total_bytes", "commit_bytes", "commit_limit_bytes", "swap_used_bytes")}
    metrics["ram_used_bytes"] = (memory.get("ram_total_bytes") or 0) - (memory.get("ram_available_bytes") or 0)
    ledger = Ledger(comfy / "user" / "memprobe" / "ledger.sqlite3") if comfy is not None else None
    idle = _idle_comfyui(ledger)
    try:
        machine = machine_from(context, metrics, [], what_if=what_if or None)
    except ValueError as exc:
        return fail(str(exc))
    used = metrics.get("commit_bytes") if machine.system_metric == "commit_bytes" else metrics["ram_used_bytes"]
    machine = replace(machine, comfy_bytes=idle, system_others=used if machine.measured else 0)
    roots = [comfy / "models"] if comfy is not None else []
    lookup = FolderLookup(roots, sizes)
    taught = (
        ledger.observations("gpu" if machine.on_gpu else "cpu") if ledger is not None and ledger.path.exists() else []
    )
    image_size = InputImages(comfy, images)
    result = predict(
        prompt, machine, lookup, context=context, corrections=corrections_from(taught), image_size=image_size
    )
    if comfy is None:
        result["unknown"].append("no ComfyUI folder found (--comfyui DIR): model files were not read")
    if image_size.unread:
        result["unknown"].append(
            f"{len(image_size.unread)} input image(s) found but not read (Pillow, which ComfyUI installs, is "
            "needed here: run memprobe from ComfyUI's Python, or give a size with --image NAME=WIDTHxHEIGHT)"
        )
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(forecast_text(result, Path(args.workflow).name if args.workflow != "-" else "the workflow"), end="")
    return 0


T = TypeVar("T")


def _named(items: list[str] | None, flag: str, form: str, parse: Callable[[str], T]) -> dict[str, T]:
    """``NAME=VALUE`` options (``--model flux.safetensors=23.8GB``) as a dict; :class:`ValueError` saying the form."""
    named: dict[str, T] = {}
    for item in items or []:
        name, sep, value = item.rpartition("=")
        if not sep or not name:
            raise ValueError(f"{flag} takes NAME={form}, got {item!r}")
        named[name] = parse(value)
    return named


def _idle_comfyui(ledger: object) -> int | None:
    """ComfyUI's own memory before a prompt, as this machine's ledger last saw it with nothing loaded."""
    from .recording.ledger import Ledger

    if not isinstance(ledger, Ledger) or not ledger.path.exists():
        return None
    try:
        runs = ledger.list_runs(limit=50)["runs"]
    except Exception:  # no ledger to read: not counted
        return None
    for header in runs:
        start = header.get("start_metrics") or {}
        if not header.get("models_start") and start.get("process_rss_bytes"):
            return int(start["process_rss_bytes"])
    return None


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
    fc = sub.add_parser(
        "forecast",
        help="will a workflow fit? its memory per stage before it runs, on this machine or another "
        "(--vram 8GiB), learned from this machine's runs",
    )
    fc.add_argument("workflow", metavar="WORKFLOW.json", help="a saved workflow (UI or API format), or - for stdin")
    fc.add_argument("--json", action="store_true", help="print JSON (the keys of POST /memprobe/forecast)")
    fc.add_argument(
        "--comfyui", metavar="DIR", help="the ComfyUI folder whose models/ to read (found when run inside it)"
    )
    fc.add_argument("--vram", metavar="SIZE", help="what if the GPU had this much VRAM (8GiB, 12GB)")
    fc.add_argument("--ram", metavar="SIZE", help="what if the machine had this much RAM")
    fc.add_argument("--commit-limit", metavar="SIZE", help="what if Windows' commit limit (RAM + pagefile) were this")
    fc.add_argument("--os", choices=("windows", "linux", "macos"), help="what if it ran on this OS")
    fc.add_argument(
        "--device", choices=("cuda", "rocm", "xpu", "mps", "directml", "cpu"), help="what if it ran on this"
    )
    fc.add_argument("--args", metavar="OPTIONS", help='ComfyUI\'s launch options, e.g. "--lowvram --reserve-vram 1"')
    fc.add_argument(
        "--comfyui-version", metavar="X.Y.Z", help="the ComfyUI version to forecast for (default: the folder's)"
    )
    fc.add_argument(
        "--model",
        action="append",
        metavar="NAME=SIZE",
        help="the size of a model file that is not on this machine (flux1-dev.safetensors=23.8GB)",
    )
    fc.add_argument(
        "--image",
        action="append",
        metavar="NAME=WxH",
        help="the size of an input image that is not on this machine (photo.png=1024x768)",
    )
    fc.set_defaults(func=_forecast)
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
