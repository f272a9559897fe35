"""Explain a failure that already happened, from ComfyUI's own log alone: which memory ran out, at
which node, in which stage, the first failure versus its consequences, and one change to try first.

The judgement is the one traced runs get: the log's failure is classified by
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
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO, cast

from .. import __version__
from ..documents import EventDoc, NodeDoc, VerdictDoc
from ..judging.advice import Suggestion, advise
from ..judging.facts import FailureFacts, RunFacts
from ..judging.failures import classify_failure, killed_child, message_sizes
from ..judging.limits import system_limits, vram_limit
from ..judging.residency import partial_loads
from ..judging.verdict import judge
from ..privacy import scrub_all
from ..sensing.install_type import detect_install_type
from ..vocabulary import MEMORY_KINDS
from .focus import Focus, focus_of
from .nodes import BUILTIN_SOURCE, Node, class_in_message, identify
from .reader import Ending, LogFacts, LogFailure, LogLine, PromptLog, read_log
from .text import FLAT_MAX_CHARS

__all__ = ["explain_log", "explain_facts", "BUILTIN_SOURCE"]

MESSAGE_CHARS = 600

_ENDINGS = {
    "pause": "the console window's \"press any key\" prompt: ComfyUI's process ended with no error",
    "killed": '"Killed": the process was sent SIGKILL (on Linux this is most often the kernel\'s OOM killer, but a '
    "manual kill looks the same)",
    "crash": "a crash of the process (segmentation fault or access violation), not an exception",
    "memory-kill": "the system's out-of-memory killer ended the process: RAM + swap were exhausted",
    "cgroup-kill": "the kernel's OOM killer ended the process in its memory cgroup: the container's limit was reached",
    "commit-exhausted": "Windows reported low virtual memory: RAM + pagefile (the commit limit) were exhausted",
    "exited": "the shell's prompt came back: ComfyUI's process had ended with no error",
    "stopped": "someone stopped ComfyUI (Ctrl+C: the console's ^C, Python's KeyboardInterrupt, ComfyUI's \"Stopped "
    'server") while it was still working; the run never finished',
    "unreachable": "nothing answered on ComfyUI's port any more: its process had ended",
    "backend-exit": "the program running ComfyUI as its backend (SwarmUI, Krita, AI Playground, a pipeline) saw its process end, without "
    "saying why",
    "window-oom": "its renderer, the Desktop app's or a browser page's, ran out of memory; the server is another "
    "process, which may have lived on",
    "restarted": "ComfyUI started again in the middle of a prompt: its process had ended with no error",
}


# ---------------------------------------------------------------------------- the explanation
_WINDOWS_ONLY = re.compile(
    r"(?i)0xc0000\w{3}|winerror|os error 1455|paging file|\.dll\b|python\.exe|windows fatal exception|exception: access violation"
)
"""What only Windows prints: an NTSTATUS code, a Win32 error, the pagefile, a DLL."""


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
    if "/Applications/" in paths or "/Users/" in paths or machine.get("device") == "mps":
        return "macOS"
    if re.search(r"/(?:home|root|usr|opt|workspace|teamspace|srv|mnt)/", paths) or "[GCC" in build:
        return "Linux"
    return "Linux/macOS" if machine.get("os") == "Linux/macOS" else None


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


def _failure_doc(
    kind: str,
    stage: str | None,
    node: Node | None,
    message: str,
    exc_type: str | None,
    evidence: list[LogLine],
    **extra: Any,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "stage": stage,
        "node": {
            "class_type": node.class_type if node else None,
            "id": node.node_id if node else None,
            "pack": node.pack if node else None,
        },
        "message": _short_message(message),
        "exception_type": exc_type,
        "evidence": [{"line": e.number, "text": e.text} for e in evidence[:8]],
        **extra,
    }


def _short_message(message: str) -> str:
    lines = [line.rstrip() for line in message.strip().splitlines() if line.strip()]
    text = "\n".join(lines[:6])
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def explain_log(source: str | bytes | BinaryIO) -> dict[str, Any]:
    """The explanation of a ComfyUI log (the stable JSON document the CLI prints, see the README)."""
    return explain_facts(read_log(source))


@dataclass
class _Judgement:
    """What the log says failed, as the document's ``failure``/``consequences`` and as the record
    types a traced run is made of (for the advice)."""

    failure: dict[str, Any] | None = None
    consequences: list[dict[str, Any]] = field(default_factory=list)
    record: FailureFacts | None = None
    node: NodeDoc | None = None
    evidence: list[LogLine] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    abrupt: bool = False


_BROKEN_OBJECT = re.compile(r"has no attribute|'NoneType' object|referenced before assignment|is not defined")
"""What a node says when an earlier step left it without its model: the consequence of a failure."""
_WRAPPER = re.compile(r"operation failed in the TorchScript interpreter")
"""TorchScript's wrapper of an error inside a scripted model: the error itself follows, in TorchScript's own
traceback (``RuntimeError: Allocation on device`` under FILM VFI's ``torch.cat``)."""


def _cause_first(failures: list[LogFailure], compute_device: str) -> list[LogFailure]:
    """The failures with their cause first. Two streams (stdout and stderr) interleave in a paste, so
    a node's ``AttributeError: ... has no attribute 'model'`` can print before the out-of-memory that
    left it without its model: a memory failure of the same prompt is then the cause. So it is of a
    wrapper's message (TorchScript's) above the error it wraps. Outputs that failed validation are skipped
    and the prompt runs the rest: memory running out while it ran is what stopped it."""
    first = failures[0]
    if first.source == "validation":
        ran_out = next(
            (i for i, f in enumerate(failures) if f.source != "validation" and _names_memory(f, compute_device)), None
        )
        if ran_out is not None:
            return [failures[ran_out], *failures[:ran_out], *failures[ran_out + 1 :]]
    if classify_failure(first.exception_type, first.message, compute_device=compute_device) != "other":
        return failures
    said = f"{first.exception_type or ''}: {first.message}"
    if not (_BROKEN_OBJECT.search(said) or _WRAPPER.search(said)):
        return failures
    for i, later in enumerate(failures[1:], 1):
        if _names_memory(later, compute_device):
            if later.class_type is None and not later.frames:  # the node is the one that broke
                named = first.class_type or class_in_message(first.message)
                later = replace(later, class_type=named, node_id=first.node_id, frames=first.frames)
            return [later, *failures[1:i], first, *failures[i + 1 :]]
    return failures


def _names_memory(failure: LogFailure, compute_device: str) -> bool:
    return classify_failure(failure.exception_type, failure.message, compute_device=compute_device) in MEMORY_KINDS


def _doing(failure: LogFailure) -> list[str]:
    """What it was doing when it failed: its traceback's functions and code, the line logged just before."""
    doing = [f"{f.function} {f.code or ''}" for f in failure.frames]
    for cause in failure.causes:
        doing += [f"{f.function} {f.code or ''}" for f in cause.frames]
    if failure.before is not None:
        doing.append(failure.before.text)
    return doing


def _judge_failures(failures: list[LogFailure], compute_device: str, decode_retried: Sequence[int] = ()) -> _Judgement:
    """The first failure of the prompt; the rest, and the end of a chained traceback, are its consequences.
    ``decode_retried``: the lines where ComfyUI said a decode ran out of VRAM and retried it in tiles."""
    failures = _cause_first(failures, compute_device)
    first = failures[0]
    node = identify(first)
    if first.source == "import":  # at start-up, before any node ran
        where = f"custom_nodes/{node.pack}" if node.pack else "a custom node pack"
        node = Node(pack=node.pack, stage="other", stage_evidence=f"{where} failed to import when ComfyUI started")
    exc_type, message = first.exception_type, first.message
    j = _Judgement()
    if first.causes:  # a chained traceback: the oldest exception is the cause, the last a consequence
        cause = first.causes[0]
        j.consequences.append(
            _failure_doc(
                classify_failure(exc_type, message, compute_device=compute_device),
                node.stage,
                node,
                message,
                exc_type,
                first.evidence[-1:],
                source=first.source,
            )
        )
        exc_type, message = cause.type or exc_type, cause.message or message
    kind = classify_failure(exc_type, message, compute_device=compute_device, during=_doing(first))
    unsaid = not message and not exc_type  # a traceback cut before what it raised
    retried = unsaid and any(first.line - 40 <= n < first.line for n in decode_retried)
    if retried:  # ... in the decode ComfyUI had just retried in tiles for want of VRAM: VRAM again, most likely
        kind = "vram"
    j.evidence = first.evidence + ([node.stage_line] if node.stage_line is not None else [])
    j.failure = _failure_doc(
        kind,
        node.stage,
        node,
        message,
        exc_type,
        j.evidence,
        source=first.source,
        stage_evidence=node.stage_evidence,
        oom_unload=first.oom_unload,
        abrupt=False,
    )
    for later in failures[1:]:
        later_node = identify(later)
        j.consequences.append(
            _failure_doc(
                classify_failure(later.exception_type, later.message, compute_device=compute_device),
                later_node.stage,
                later_node,
                later.message,
                later.exception_type,
                later.evidence,
                source=later.source,
            )
        )
    j.record = FailureFacts(
        kind=kind,
        node_id=node.node_id or "",
        class_type=node.class_type,
        stage=node.stage,
        message=message,
        exception_type=exc_type,
        sizes=message_sizes(message),
        pack=node.pack,
        likely=kind == "system-ram" and killed_child(message),
        after_sampling=first.before.text
        if first.after_sampling and first.before is not None and node.stage is None and not node.class_type
        else None,
    )
    if node.class_type:
        j.node = {
            "seq": 1,
            "node_id": node.node_id or "",
            "class_type": node.class_type,
            "stage": node.stage or "other",
            "status": "failed",
            "title": None,
        }
    if first.source == "import":
        pass  # no node ran: nothing to name
    elif not node.node_id:
        j.unknown.append("the failing node's id (the log does not print it)")
    if first.source != "import" and not node.class_type:
        j.unknown.append(
            f"which node of custom_nodes/{node.pack} failed (the log does not name its class)"
            if node.pack
            else "the failing node's class (the log does not name it)"
        )
    if node.stage is None:
        j.unknown.append("the stage it failed in (nothing in the log places it)")
    if node.not_builtin:
        j.unknown.append(
            f"whether {node.class_type} comes from a custom node pack: it is not one of "
            f"{BUILTIN_SOURCE}'s built-in nodes, so it is taken for one"
        )
    if unsaid:
        j.unknown.append(
            "the error message (the log shows only the traceback)"
            + (
                "; it came in the decode ComfyUI had just retried in tiles for want of VRAM, so VRAM is assumed"
                if retried
                else ""
            )
        )
    return j


def _judge_ending(
    prompt: PromptLog | None,
    ending: Ending | None,
    cut_short: bool,
    container: bool,
    started: bool = False,
    child: bool = False,
) -> _Judgement:
    """ComfyUI stopped without an error: how the log ends and the last thing it did. A bare SIGKILL
    ("Killed", exit code 137) is taken for what it most often is on Linux — the kernel's OOM killer,
    in a container the container's memory limit — and marked ``likely``: the system's log confirms.
    ``started``: the log shows ComfyUI's start-up (an end with no prompt after it came before any ran).
    ``child``: the prompt went on after ``ending`` and finished (a process it started died; ComfyUI lived)."""
    hint = prompt.last_hint if prompt is not None else None
    last = prompt.last_activity if prompt is not None else None
    memory = {
        "memory-kill": "system-ram",
        "window-oom": "system-ram",
        "commit-exhausted": "commit-limit",
        "cgroup-kill": "cgroup-limit",
        "killed": "cgroup-limit" if container else "system-ram",
    }.get(ending.kind if ending else "")
    likely = bool(ending and ending.kind == "killed")
    how = _ENDINGS.get(ending.kind, "") if ending else "the log stops mid-run"
    doing = f"; the last thing it logged was line {last.number}: {last.text[:160]}" if last else ""
    window = ending is not None and ending.kind == "window-oom"
    who = (
        "ComfyUI's window closed" if window else "A process its prompt started stopped" if child else "ComfyUI stopped"
    )
    message = f"{who} without reporting an error ({how}){doing}"
    if child:
        message += "; the prompt went on and finished"
    j = _Judgement(abrupt=True, evidence=[e for e in (ending.line if ending else None, last) if e is not None])
    node = Node(stage=hint)
    if ending is not None and ending.raised is not None and ending.raised.class_type:  # the error raised for it
        found = identify(ending.raised)
        node, hint = found, found.stage or hint
    elif prompt is not None and prompt.running is not None:  # the node a client said was running
        at = ending.line.number if ending is not None else 0
        found = identify(LogFailure("ending", at, class_type=prompt.running[0], node_id=prompt.running[1]))
        node, hint = found, found.stage or hint
    if ending is not None and ending.frames:  # faulthandler's stack: the node that was running, oldest frame first
        found = identify(LogFailure("ending", ending.line.number, frames=ending.frames[::-1]))
        if found.class_type or found.pack or found.stage:
            node, hint = found, found.stage or hint
    j.failure = _failure_doc(
        memory or "abrupt",
        hint,
        node,
        message,
        None,
        j.evidence,
        source="ending",
        ending=ending.kind if ending else "log-stops",
        oom_unload=False,
        abrupt=True,
        likely=likely,
        stage_evidence=node.stage_evidence
        or (f"the last line it logged (line {last.number}) belongs to that stage" if hint and last else None),
    )
    if node.class_type:
        j.node = {"seq": 1, "node_id": "", "class_type": node.class_type, "stage": hint or "other", "status": "failed"}
    aimdo = ending is not None and ending.in_dynamic_vram
    crashed_in = "window" if window else "child" if child else "comfy-aimdo" if aimdo else None
    j.record = FailureFacts(
        kind=memory or "other",
        class_type=node.class_type,
        stage=hint,
        message=message,
        abrupt=True,
        likely=likely,
        container=container,
        crashed_in=crashed_in,
        before_prompts=started and (prompt is None or (prompt.started is None and last is None and not prompt.models)),
    )
    j.unknown.append(
        "whether ComfyUI's server lived on: only its window's end is in the log"
        if window
        else "which process died, and why: ComfyUI lived on (its prompt finished)"
        if child
        else "what ended ComfyUI: the log stops without an error"
        + ("" if memory else " (the system's own logs say whether it was out of memory)")
    )
    if cut_short:
        j.unknown.append("whether ComfyUI really stopped, or the log was only cut when it was copied")
    if hint is None:
        j.unknown.append("the stage it was in")
    if not node.class_type:
        j.unknown.append("the node it was running (a log names no node until one fails)")
    return j


def _run_facts(
    facts: LogFacts,
    focus: Focus,
    j: _Judgement,
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
        j = _judge_failures(focus.failures, compute_device, decode_retried=retried)
    elif focus.ending is not None or focus.cut_short:
        started = "ram_total_bytes" in machine  # the log shows ComfyUI's start-up banner
        j = _judge_ending(
            focus.prompt, focus.ending, focus.cut_short, bool(machine.get("container")), started, focus.outlived
        )
    else:
        j = _Judgement()
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
            "whether anything failed: this part of the log shows no error and no end of ComfyUI (a failure after it "
            "was not pasted)"
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
