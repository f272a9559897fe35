"""Explain a failure that already happened, from ComfyUI's own log alone: which memory ran out, at
which node, in which stage, the first failure versus its consequences, and one change to try first.

The judgement (:mod:`memprobe.logs.judgement`) is the one traced runs get: the log's failure is classified by
:func:`memprobe.judging.failures.classify_failure`, its node's stage by :func:`memprobe.judging.stages.stage_of`
(with ComfyUI's own categories for built-in nodes), and the suggestions come from
:func:`memprobe.judging.advice.suggest` run on the same record types a traced run is made of. What a log
cannot tell (peaks, node ids it does not print) is listed under ``unknown``, never guessed.

>>> doc = explain_log("got prompt\\n!!! Exception during processing !!! Allocation on device\\n")
>>> doc["failure"]["kind"], doc["failure"]["node"]["class_type"]
('vram', None)
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, BinaryIO, cast

from .. import __version__
from ..documents import EventDoc, VerdictDoc
from ..judging.advice import Suggestion, advise
from ..judging.facts import RunFacts
from ..judging.failures import planned_tiling
from ..judging.limits import system_limits, vram_limit
from ..judging.residency import partial_loads
from ..judging.verdict import judge
from ..privacy import scrub_all
from ..sensing.install_type import detect_install_type
from .endings import CMD_PAUSE
from .focus import Focus, focus_of
from .judgement import Judgement, judge_ending, judge_failures
from .nodes import BUILTIN_SOURCE
from .reader import Ending, LogFacts, LogLine, PromptLog, read_log
from .text import FLAT_MAX_CHARS

__all__ = ["explain_log", "explain_facts", "BUILTIN_SOURCE"]


_WINDOWS_ONLY = re.compile(
    r"(?i)0xc0000\w{3}|winerror|os error 1455|paging file|\.dll\b|python\.exe|windows fatal exception|exception: access violation"
    + "".join(f"|{re.escape(words)}" for words in CMD_PAUSE)
)
"""What only Windows prints: an NTSTATUS code, a Win32 error, the pagefile, a DLL, ``cmd``'s ``pause``."""


def _os_name(facts: LogFacts) -> str | None:
    machine = facts.machine
    if machine.get("os") and machine["os"] != "Linux/macOS":
        os_name = str(machine["os"])
        return {"windows": "Windows", "linux": "Linux", "darwin": "macOS"}.get(os_name.lower(), os_name)
    build = machine.get("python_build", "")
    if "[MSC" in build:
        return "Windows"
    paths = " ".join(str(v) for v in (machine.get("python_executable"), machine.get("comfyui_path")) if v)
    paths += " " + " ".join(fr.path for f in facts.failures for fr in f.frames[:3])
    paths += " " + " ".join(fr.path for e in facts.endings for fr in e.frames[:3])  # faulthandler's stack
    paths += " " + " ".join(e.line.text for e in facts.endings)
    if re.search(r"\b[A-Za-z]:[\\/]", paths) or "python_embeded" in paths:
        return "Windows"
    if _WINDOWS_ONLY.search(" ".join([*(f.message for f in facts.failures), *(e.line.text for e in facts.endings)])):
        return "Windows"
    if (
        "/Applications/" in paths
        or "/Users/" in paths
        or machine.get("device") == "mps"
        or "killed: 9" in paths.lower()
    ):
        return "macOS"
    if re.search(r"/(?:home|root|usr|opt|workspace|teamspace|srv|mnt)/", paths) or "[GCC" in build:
        return "Linux"
    return "Linux/macOS" if machine.get("os") == "Linux/macOS" else None


def _host(facts: LogFacts) -> str | None:
    """A hosted notebook the log's paths show it ran in: ``colab`` (its ``/content/`` folder), ``kaggle``
    (``/kaggle/``). Neither lets a user add swap or RAM but by choosing another runtime."""
    machine = facts.machine
    paths = [str(v) for v in (machine.get("python_executable"), machine.get("comfyui_path")) if v]
    paths += [fr.path for f in facts.failures for fr in f.frames[:6]]
    paths += [e.text for f in facts.failures for e in f.evidence[:2]]
    # the last thing each of the last prompts logged: a load's path ("Loading weights [...] from /content/...")
    paths += [p.last[1] for p in facts.prompts[-2:] if p.last]
    text = " ".join(paths)
    if "/content/" in text and _COLAB.search(text):
        return "colab"
    return "kaggle" if "/kaggle/" in text else None


_COLAB = re.compile(r"(?:^|[\s'\"(])/content/(?:drive|gdrive|ComfyUI|stable-diffusion|[\w.-]+/)|dist-packages")
"""Colab's working folder (``/content/``, its Drive mounted at ``/content/drive``) beside a Debian Python's
``dist-packages``."""


def _install(facts: LogFacts, os_name: str | None) -> str:
    machine = facts.machine
    executable = str(machine.get("python_executable") or "")
    root = str(machine.get("comfyui_path") or "")
    if not root:
        root = next(
            (
                fr.path
                for f in facts.failures
                for fr in f.frames
                if fr.path.replace("\\", "/").endswith(("/execution.py", "/main.py"))
            ),
            "",
        )
    if machine.get("install_hint") == "portable":
        executable = executable or "python_embeded"
    if not (executable or root or facts.args):
        return "unknown"
    if not executable and ("python_embeded" in root.lower() or "_windows_portable" in root.lower()):
        executable = "python_embeded"  # the portable package's folder names
    found = str(detect_install_type(executable, facts.args, root)["type"])
    if found == "manual" and not executable:
        return "unknown"  # "manual" is detect_install_type's default: without Python's path, no evidence
    return found


def explain_log(source: str | bytes | BinaryIO) -> dict[str, Any]:
    """The explanation of a ComfyUI log (the stable JSON document the CLI prints, see the README)."""
    return explain_facts(read_log(source))


def _run_facts(
    facts: LogFacts,
    focus: Focus,
    j: Judgement,
    os_name: str | None,
    compute_device: str,
    fallbacks: list[tuple[str, LogLine]],
) -> RunFacts:
    """The facts a traced run would give the rules, from what the log says."""
    ended = focus.prompt.ended if focus.prompt is not None else None
    status = "ended_abruptly" if j.abrupt else "error" if j.failure else "success" if ended == "executed" else "unknown"
    context = _context(facts, os_name, compute_device)
    events: list[EventDoc] = [
        {"t_s": 0.0, "kind": kind, "node_id": None, "message": line.text} for kind, line in fallbacks
    ]
    for model in focus.prompt.models if focus.prompt is not None else []:
        if model.partial:  # ComfyUI kept part of it in RAM: the advice weighs that (memprobe.judging.residency)
            events.append(
                {
                    "t_s": 0.0,
                    "kind": "model-partially-loaded",
                    "node_id": None,
                    "message": f"line {model.line}",
                    "data": {
                        "model_class": model.name,
                        "loaded_bytes": model.loaded_bytes,
                        "offloaded_bytes": model.offloaded_bytes,
                        "usable_bytes": model.usable_bytes,
                    },
                }
            )
    nodes = [j.node] if j.node is not None else []
    limits = system_limits(
        os_name or "", ram_total=facts.machine.get("ram_total_bytes"), cgroup_limit=facts.machine.get("ram_limit_bytes")
    )
    vram = context["gpus"][0].get("vram_total_bytes") if context["gpus"] else None
    compute = limits[0] if compute_device == "cpu" else vram_limit(0, vram)
    return RunFacts(
        status=status,
        context=context,
        nodes=nodes,
        failure=j.record,
        compute=compute,
        limits=limits,
        events=events,
        partials=partial_loads({"nodes": nodes, "events": events}),
        source="log",
    )


def _idle(facts: LogFacts, end: Ending | None) -> bool:
    """Whether ComfyUI was idle when ``end`` came: a prompt had finished before it, and nothing ran since."""
    if end is None or end.during_prompt is not None:
        return False
    done = [(p, p.ended_line.number) for p in facts.prompts if p.ended_line and p.ended_line.number < end.line.number]
    return bool(done) and (done[-1][0].last is None or done[-1][0].last[0] <= done[-1][1])


def _without_action(doc: dict[str, Any]) -> dict[str, Any]:
    """A log's node is not on anyone's canvas: its suggestions say what to change, not where to click."""
    return {k: v for k, v in doc.items() if k != "action"}


def _without_action_verdict(verdict: VerdictDoc) -> VerdictDoc:
    if verdict.get("change"):
        verdict["change"] = _without_action(verdict["change"] or {})
    return verdict


def explain_facts(facts: LogFacts) -> dict[str, Any]:
    """The explanation of what :func:`memprobe.logs.reader.read_log` read."""
    machine = facts.machine
    compute_device = "cpu" if machine.get("device") == "cpu" or "--cpu" in facts.args else "cuda"
    os_name = _os_name(facts)
    focus = focus_of(facts)
    if focus.failures:
        retried = [line.number for kind, line in (focus.prompt.fallbacks if focus.prompt else []) if "decode" in kind]
        j = judge_failures(  # (a bare "out of memory" in a log that names no GPU anywhere is the host's)
            focus.failures,
            compute_device if facts.gpu_named else "cpu",
            decode_retried=retried,
            container=bool(machine.get("container")),
        )
    elif focus.ending is not None or focus.cut_short:
        started = "ram_total_bytes" in machine  # the log shows ComfyUI's start-up banner
        end = focus.ending
        j = judge_ending(
            focus.prompt,
            end,
            focus.cut_short,
            bool(machine.get("container")),
            started,
            focus.outlived,
            _idle(facts, end),
            not_oom_killed=machine.get("oom_killed") is False,
        )
    else:
        j = Judgement()
    prompt = focus.prompt
    fallbacks = (
        list(prompt.fallbacks)
        if prompt is not None and prompt.fallbacks
        else [fb for p in facts.prompts for fb in p.fallbacks][-8:]
    )
    unknown = [
        "memory readings: a log has no peaks and no per-node figures (with Memory Probe installed, the next "
        "run records them)",
        *j.unknown,
    ]
    if j.failure is None:
        unknown.append(
            f"whether anything failed after line {facts.copy_cut}: the paste stops inside that line's time stamp (it "
            "was cut when copied)"
            if facts.copy_cut is not None
            else "whether anything failed: this part of the log shows no error and no end of ComfyUI (a failure "
            "after it was not pasted)"
        )
    if "vram_total_bytes" not in machine and "ram_total_bytes" not in machine:
        unknown.append("the machine's VRAM and RAM (the start-up banner is not in the log)")
    if not facts.versions.get("comfyui"):
        unknown.append("ComfyUI's version")
    if facts.cut_lines:
        unknown.append(f"the rest of {facts.cut_lines} over-long line(s), cut at {FLAT_MAX_CHARS:,} characters")
    run = _run_facts(facts, focus, j, os_name, compute_device, fallbacks)
    suggestions = advise(run)
    evidence = [{"line": e.number, "text": e.text} for e in j.evidence[:6]]
    result = {
        "memprobe_version": __version__,
        "failure": j.failure,
        "consequences": j.consequences,
        "machine": {
            "gpu_name": machine.get("gpu_name"),
            "vram_total_bytes": None
            if compute_device == "cpu"
            else (machine.get("vram_total_bytes") or machine.get("vram_total_from_error_bytes")),
            "ram_total_bytes": machine.get("ram_total_bytes"),
            "ram_limit_bytes": machine.get("ram_limit_bytes"),
            "os": os_name,
            "device": machine.get("device"),
            "allocator": machine.get("allocator"),
            "vram_state": machine.get("vram_state"),
            "attention": machine.get("attention"),
            "install": _install(facts, os_name),
        },
        "versions": dict(facts.versions),
        "launch_args": list(facts.args),
        "models": [
            {
                "name": m.name,
                "loaded_bytes": m.loaded_bytes,
                "offloaded_bytes": m.offloaded_bytes,
                "partial": m.partial,
                "line": m.line,
                **({"staged_bytes": m.staged_bytes} if m.staged_bytes else {}),
            }
            for m in (prompt.models if prompt is not None else [])
        ],
        "fallbacks": _grouped(fallbacks, prompt),
        "no_failure": None if j.failure is not None else _no_failure(fallbacks, suggestions),
        "prompts": {
            "seen": facts.prompt_count,
            "failed": sum(1 for p in facts.prompts if p.index and p.failures),
            "completed": sum(1 for p in facts.prompts if p.ended == "executed" and not p.failures),
        },
        "suggestions": [{**_without_action(s.to_dict()), "evidence": evidence} for s in suggestions],
        "verdict": _without_action_verdict(judge(run, suggestions)),
        "unknown": unknown,
        "log": {"lines": facts.lines, "cut_lines": facts.cut_lines},
    }
    return _scrub(result, facts.user_names)


def _grouped(fallbacks: list[tuple[str, LogLine]], prompt: PromptLog | None) -> list[dict[str, Any]]:
    """Each kind of ComfyUI's recoveries once, where it first shows, with how many times the log shows it (the
    prompt's own count where they are the prompt's: it keeps only the first few of each kind)."""
    counts = prompt.fallback_counts if prompt is not None and prompt.fallbacks else Counter(k for k, _ in fallbacks)
    first: dict[str, LogLine] = {}
    for kind, line in fallbacks:
        first.setdefault(kind, line)
    return [{"kind": k, "line": line.number, "text": line.text, "count": counts[k]} for k, line in first.items()]


def _no_failure(fallbacks: list[tuple[str, LogLine]], suggestions: list[Suggestion]) -> str:
    """What a log without a failure says: nothing ran short, or what did (a fallback, a model left off the GPU)."""
    if fallbacks and all(planned_tiling(line.text) for _, line in fallbacks):
        return (
            "No failure in this log, but VRAM was short: ComfyUI's estimate chose to decode in tiles, and it went on."
        )
    if fallbacks and all(kind == "vram-spill" for kind, _ in fallbacks):
        return (
            "No failure in this log, but VRAM ran short: the driver moved part of it into shared system memory, "
            "much slower, and the run went on."
        )
    if fallbacks:
        return "No failure in this log, but memory ran short: ComfyUI recovered with a fallback and went on."
    pressure = next((s for s in suggestions if s.tier == "pressure"), None)
    if pressure is not None:  # its evidence's first sentence ("ComfyUI loaded Flux2 with none of it on the GPU (...)")
        return f"No failure in this log, but memory ran short: {pressure.why.split('. ')[0].rstrip('.')}."
    return "No failure in this log: no error, and no sign that ComfyUI stopped mid-run."


def _context(facts: LogFacts, os_name: str | None, compute_device: str) -> dict[str, Any]:
    machine = facts.machine
    gpus = []
    vram = machine.get("vram_total_bytes") or machine.get("vram_total_from_error_bytes")
    if machine.get("gpu_name") or (vram and compute_device != "cpu"):
        gpus.append({"index": 0, "name": machine.get("gpu_name"), "vram_total_bytes": vram})
    return {
        "os": os_name or "",
        "argv": list(facts.args),
        "compute_device": compute_device,
        "gpus": gpus,
        "ram_total_bytes": machine.get("ram_total_bytes"),
        "install": {"type": _install(facts, os_name)},
        "host": _host(facts),
        "comfyui_version": facts.versions.get("comfyui"),
        "torch_version": facts.versions.get("torch"),
        "python_version": facts.versions.get("python"),
        "frontend_version": facts.versions.get("frontend"),
    }


def _scrub(doc: dict[str, Any], names: set[str]) -> dict[str, Any]:
    """No paths beyond file names, no user names (this machine's, or any the log's paths show)."""
    cleaned: dict[str, Any] = scrub_all(doc)
    if not names:
        return cleaned
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in sorted(names, key=len, reverse=True)))

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub("[user]", value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    return cast(dict[str, Any], walk(cleaned))
