"""The judgement of what a log says failed: its first failure and the consequences that followed, or how
ComfyUI ended without an error — as the explanation's ``failure``/``consequences`` and as the record types a
traced run is made of (:class:`memprobe.judging.facts.FailureFacts`), so the advice is the traced run's.

:mod:`memprobe.logs.explain` assembles the document around it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..documents import NodeDoc
from ..judging.facts import FailureFacts
from ..judging.failures import classify_failure, killed_child
from ..judging.sizes import message_sizes
from ..vocabulary import MEMORY_KINDS
from .nodes import BUILTIN_SOURCE, Node, class_in_message, identify, in_tiled_fallback
from .reader import Ending, LogFailure, LogLine, PromptLog

__all__ = ["Judgement", "judge_ending", "judge_failures"]

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
    "backend-exit": "the program running ComfyUI as its backend (SwarmUI, Krita, AI Playground, a pipeline, a "
    "notebook's Jupyter) saw its process end, without saying why",
    "window-oom": "its renderer, the Desktop app's or a browser page's, ran out of memory; the server is another "
    "process, which may have lived on",
    "restarted": "ComfyUI started again in the middle of a prompt: its process had ended with no error",
}


_TRACED = ("traceback", "exception", "thread")
"""Where a failure's error comes last, below its traceback: without it, the excerpt was cut before its error (a
refused prompt, a pack's failed import, a dialog have no error line to cut)."""


@dataclass
class Judgement:
    """What the log says failed, as the document's ``failure``/``consequences`` and as the record
    types a traced run is made of (for the advice)."""

    failure: dict[str, Any] | None = None
    consequences: list[dict[str, Any]] = field(default_factory=list)
    record: FailureFacts | None = None
    node: NodeDoc | None = None
    evidence: list[LogLine] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    abrupt: bool = False


_BROKEN_OBJECT = re.compile(
    r"has no attribute|'NoneType' object|referenced before assignment|is not defined"
    r"|deallocated bytearray object has exported buffers"
)
"""What a node says when an earlier step left it without its model: the consequence of a failure (and Python's own
complaint about a buffer a load abandoned mid-way, printed beside the MemoryError that abandoned it)."""
_WRAPPER = re.compile(r"operation failed in the TorchScript interpreter")
"""TorchScript's wrapper of an error inside a scripted model: the error itself follows, in TorchScript's own
traceback (``RuntimeError: Allocation on device`` under FILM VFI's ``torch.cat``)."""


def _cause_first(failures: list[LogFailure], compute_device: str) -> list[LogFailure]:
    """The failures with their cause first. Two streams (stdout and stderr) interleave in a paste, so
    a node's ``AttributeError: ... has no attribute 'model'`` can print before the out-of-memory that
    left it without its model: a memory failure of the same prompt is then the cause. So it is of a
    wrapper's message (TorchScript's) above the error it wraps, and of a traceback whose error the paste left out
    (processes' tracebacks interleaved: ``MemoryError`` and ``[WinError 1455]`` in the frames of the others).
    Outputs that failed validation are skipped and the prompt runs the rest: memory running out while it ran is
    what stopped it."""
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
    unstated = not (first.exception_type or first.message)  # frames whose error the paste cut off (or interleaved)
    if not (unstated or _BROKEN_OBJECT.search(said) or _WRAPPER.search(said)):
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


def judge_failures(
    failures: list[LogFailure], compute_device: str, decode_retried: Sequence[int] = (), container: bool = False
) -> Judgement:
    """The first failure of the prompt; the rest, and the end of a chained traceback, are its consequences.
    ``decode_retried``: the lines where ComfyUI said a decode ran out of VRAM and retried it in tiles; ``container``:
    the log shows it ran in one (a worker's kill there is the container's limit's, as the process's own is)."""
    failures = _cause_first(failures, compute_device)
    first = failures[0]
    node = identify(first)
    if first.source == "import":  # at start-up, before any node ran
        where = f"custom_nodes/{node.pack}" if node.pack else "a custom node pack"
        node = Node(pack=node.pack, stage="other", stage_evidence=f"{where} failed to import when ComfyUI started")
    exc_type, message = first.exception_type, first.message
    j = Judgement()
    cause = first.causes[0] if first.causes else None
    last = classify_failure(exc_type, message, compute_device=compute_device) if cause is not None else "other"
    if cause is not None and (
        last == "other" or classify_failure(cause.type, cause.message, compute_device=compute_device) != "other"
    ):  # a chained traceback: the oldest exception is the cause, the last a consequence (unless only the last, or the
        # line its block began with, names what ran out: TensorFlow's op's "Resource exhausted: ..." above its
        # internal _FallbackException, the last exception cut off)
        j.consequences.append(
            _failure_doc(
                last,
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
    in_retry = any(first.line - 40 <= n < first.line for n in decode_retried) or in_tiled_fallback(
        [*first.frames, *(f for c in first.causes for f in c.frames)]
    )  # it failed in ComfyUI's retry of a decode in tiles
    retried = unsaid and in_retry
    if retried:  # ... in the decode ComfyUI had just retried in tiles for want of VRAM: VRAM again, most likely
        kind = "vram"
    elif container and kind == "system-ram" and killed_child(message):  # a worker SIGKILL ended inside a container
        kind = "cgroup-limit"
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
        message=message or (exc_type or "").rsplit(".", 1)[-1],  # (its type alone, where a cut traceback says no more)
        exception_type=exc_type,
        sizes=message_sizes(message),
        pack=node.pack,
        likely=kind in ("system-ram", "cgroup-limit") and killed_child(message),
        container=container and killed_child(message),
        after_sampling=first.before.text
        if first.after_sampling and first.before is not None and node.stage is None and not node.class_type
        else None,
        in_tiled_retry=in_retry and kind == "vram" and node.stage in ("vae-decode", "vae-encode", None),
        unsaid=unsaid and kind == "other" and first.source in _TRACED,
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


def judge_ending(
    prompt: PromptLog | None,
    ending: Ending | None,
    cut_short: bool,
    container: bool,
    started: bool = False,
    child: bool = False,
    idle: bool = False,
    not_oom_killed: bool = False,
) -> Judgement:
    """ComfyUI stopped without an error: how the log ends and the last thing it did. A bare SIGKILL
    ("Killed", exit code 137) is taken for what it most often is on Linux — the kernel's OOM killer,
    in a container the container's memory limit — and marked ``likely``: the system's log confirms.
    ``started``: the log shows ComfyUI's start-up (an end with no prompt after it came before any ran).
    ``child``: the prompt went on after ``ending`` and finished (a process it started died; ComfyUI lived).
    ``idle``: ``ending`` came after a prompt had finished, with none running. ``not_oom_killed``: docker's state says
    its OOM killer did not end the container (``"OOMKilled": false``): a SIGKILL then is no memory's, as far as known."""
    hint = prompt.last_hint if prompt is not None else None
    last = prompt.last_activity if prompt is not None else None
    memory = {
        "memory-kill": "system-ram",
        "window-oom": "system-ram",
        "commit-exhausted": "commit-limit",
        "cgroup-kill": "cgroup-limit",
        "killed": None if not_oom_killed else "cgroup-limit" if container else "system-ram",
    }.get(ending.kind if ending else "")
    likely = bool(ending and ending.kind == "killed" and not not_oom_killed)
    how = _ENDINGS.get(ending.kind, "") if ending else "the log stops mid-run"
    doing = f"; the last thing it logged was line {last.number}: {last.text[:160]}" if last else ""
    window = ending is not None and ending.kind == "window-oom"
    who = (
        "ComfyUI's window closed" if window else "A process its prompt started stopped" if child else "ComfyUI stopped"
    )
    message = (
        f"The log stops mid-run without an error (ComfyUI stopped there, or the log was cut){doing}"
        if cut_short and ending is None
        else f"{who} without reporting an error ({how}){doing}"
    )
    if child:
        message += "; the prompt went on and finished"
    j = Judgement(abrupt=True, evidence=[e for e in (ending.line if ending else None, last) if e is not None])
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
        between_prompts=idle,
        cut=cut_short,
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
