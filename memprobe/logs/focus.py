"""Which part of a log to explain: the first failure of the last prompt that failed (of the last whose memory ran
out, in a session where a later prompt failed otherwise), or how the process ended (a kill, a crash, the console's
pause), or a prompt the log shows running when it stops — and when a death comes first (a client's traceback after
its server died, ctypes reporting a native crash), the death.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..judging.failures import memory_sign
from .endings import COULD_NOT_START, ending_kind
from .patterns import _BARE_MEMORY_ERRORS, glog_level
from .reader import Ending, LogFacts, LogFailure, LogLine, PromptLog

__all__ = ["Focus", "focus_of", "MEMORY_ENDINGS"]

MEMORY_ENDINGS = ("memory-kill", "cgroup-kill", "commit-exhausted")
"""Endings that say which memory ran out."""
_FATAL_LOAD = (
    "Could not load library ",
    "CUDA kernel failed : ",
    "CUDA error at ",
    "CUDA Error: ",
    "with error VK_ERROR_",
    "could not create cudnn handle",
    "not enough space in the ",
)
"""A native library's last words before the process dies of them: cuDNN's when a library of its is missing ("Could
not load library libcudnn_ops_infer.so.8. Error: ... cannot open shared object file"), a CUDA extension's kernel
built for another GPU ("CUDA kernel failed : invalid device function", pointnet2_ops), CUDA's samples' check of a
call ("CUDA error at kernel2.cu:596 code=700(cudaErrorIllegalAddress)"), darknet's ("CUDA Error: invalid argument",
then its ``assert(0)``), Unreal Engine's Vulkan check (``with error VK_ERROR_DEVICE_LOST``, then its crash
handler), TensorFlow's cuDNN that did not start, ggml's fixed pool or buffer too small ("not enough space in the
scratch memory pool (needed 536950912, ..."): the first abort, segfault or exit code within three lines after is that
error's, not a crash of its own; so is a fatal line logged by glog's or
TensorFlow's logger (``F .../nvptx_compiler.cc:478] ptxas returned an error ...``), whose check aborts, and a program
that could not run there (:data:`~memprobe.logs.endings.COULD_NOT_START`: an instruction the CPU lacks, "Illegal
instruction (core dumped)", a DLL not found)."""
_FATAL_LOGGED = re.compile("^" + glog_level("F"))
_COULD_NOT_RUN = re.compile(COULD_NOT_START)


@dataclass(slots=True)
class Focus:
    prompt: PromptLog | None
    failures: list[LogFailure]
    ending: Ending | None = None
    cut_short: bool = False
    """The last prompt shows no end (the log may just have been cut when copied)."""
    outlived: bool = False
    """The prompt went on after ``ending`` and finished: the process that ended was one it started."""


def focus_of(facts: LogFacts) -> Focus:
    """What the explanation is about: a memory ending outranks a failure before it; a death during a prompt
    outranks the console's own end, which an error (or an error's wording) before it outranks in turn;
    otherwise the last failing prompt's failures (the last prompt's whose memory ran out, where there is one; not the
    start-up's, when a prompt ran on after it, unless memory ran out there; a Ctrl+C that stopped a later run does
    not outrank them), a prompt left running, a pack that failed to import, an error's wording pasted alone, or a
    crash of a process the last prompt started and outlived."""
    with_failures = [p for p in facts.prompts if p.failures]
    last_failure_line = max((f.line for p in with_failures for f in p.failures), default=-1)
    imported = facts.import_failure or facts.import_line  # a pack that failed to import at start-up
    if imported is not None:  # ComfyUI still printed after an ending above it: not where it ended
        last_failure_line = max(last_failure_line, imported.line)
    finished = {p.index: p.ended_line.number for p in facts.prompts if p.ended_line is not None}
    endings = [
        e
        for e in facts.endings
        if e.line.number > last_failure_line
        and (e.during_prompt is None or finished.get(e.during_prompt, -1) < e.line.number)
    ]  # not one its prompt outlived ("Prompt executed" after it)
    strong = (
        next((e for e in reversed(endings) if e.kind == "cgroup-kill"), None)  # (a memory cgroup's OOM report holds
        # the kernel's words for any OOM kill too: its cgroup's lines say whose limit it was)
        or next((e for e in reversed(endings) if e.kind in MEMORY_ENDINGS), None)
        or (endings[-1] if endings else None)
    )
    ran = [p for p in facts.prompts if p.started is not None]
    loose = facts.loose_error
    final = facts.last_loose or loose  # (the error right before a crash: the last said, where the first was earlier)
    said = (  # an error's wording, then the console's own close ("Press any key", the shell's prompt back)
        loose is not None
        and final is not None
        and not ran
        and strong is not None
        and loose.line < strong.line.number
        and (
            strong.kind in ("pause", "exited")
            or (
                strong.kind in ("crash", "backend-exit")
                and (
                    any(words in final.message for words in _FATAL_LOAD)
                    or _FATAL_LOGGED.match(final.message)
                    or _COULD_NOT_RUN.search(final.message)
                )
                and 0 <= next((e.line.number for e in endings if e.line.number >= final.line), -1) - final.line <= 3
            )
        )
    )
    if (
        strong is not None
        and strong.during_prompt is None
        and strong.kind not in MEMORY_ENDINGS
        and (with_failures or said)
    ):
        strong = None  # the console closed after an error (one at start-up, say): the error is what to explain
    if strong is not None and strong.kind == "stopped" and any(p.ended not in (None, "invalid") for p in with_failures):
        strong = None  # someone stopped a run after earlier prompts had failed: those failures are the story (not
        # a refused prompt's: the run stopped is one that ran)
    idle_crash = (
        strong is not None and strong.kind == "crash" and any(n < strong.line.number for n in finished.values())
    )
    if strong is not None and (
        strong.during_prompt is not None or not ran or strong.kind in MEMORY_ENDINGS or idle_crash
    ):  # (a native crash after a prompt finished is still how the process ended; a console closed then, not)
        prompt = next((p for p in facts.prompts if p.index == strong.during_prompt), None)
        return Focus(prompt, [], strong)
    if with_failures and (died := _died_first(facts, with_failures[-1].failures[0])) is not None:
        return Focus(with_failures[-1], [], died)
    last = facts.prompts[-1] if facts.prompts else None
    ran_out = [p for p in with_failures if _memory(p)]  # (a session's memory failure outranks a later other one)
    failing = ran_out[-1] if ran_out else with_failures[-1] if with_failures else None
    at_startup = failing is not None and failing.index == 0 and failing.ended is None and not ran_out
    # (memory that ran out before any "got prompt" is a failure though a run followed: Fooocus announces none)
    refused = (  # a prompt refused by validation, and a later one that ran is left running where the log stops
        failing is not None
        and failing.ended == "invalid"
        and last is not None
        and last.index > failing.index
        and last.ended is None
        and last.started is not None
    )
    if (
        failing is not None
        and not refused
        and not (at_startup and (ran or _ran_after(failing, failing.failures[-1].line)))
    ):
        return Focus(failing, failing.failures)
    answered = (  # a server answered after the last work and the last error line, no progress bar left running
        last is not None
        and last.answered > max(last.last[0] if last.last else 0, facts.last_loose.line if facts.last_loose else 0)
        and last.last_hint not in ("sampling", "load")
    )
    if (
        last is not None
        and last.ended is None
        and not answered
        and (last.started is not None or _ran_unannounced(last))
    ):
        tail = facts.last_loose
        began = last.started.number if last.started is not None else 0
        idle = tail is not None and (last.last is None or last.last[0] < tail.line)  # no work logged after it
        if tail is not None and tail.line > began and (tail.line >= facts.last_text - 2 or idle):
            return Focus(last, [tail])  # the paste stops at an error line of a library's, in mid-prompt
        first_start = ran[0].started.number if ran and ran[0].started is not None else 0
        above = next(
            (
                e
                for e in facts.endings
                if e.during_prompt is None and e.line.number < first_start and e.kind != "unreachable"
            ),
            None,
        )
        if above is not None:  # the Desktop app's "ComfyUI process exited (exit code ...)" above the log's tail
            return Focus(last, [], above)
        if facts.copy_cut is not None:  # the paste stops inside a line's stamp: cut when copied, ComfyUI ran on
            return Focus(last, [])
        return Focus(last, [], cut_short=True)
    if imported is not None:  # a pack that failed to import: the log's failure, though prompts ran after it
        return Focus(last, [imported])
    if facts.loose_error is not None and not ran and not _ran_after(last, facts.loose_error.line):
        return Focus(last, [facts.loose_error])  # a paste of an error's wording alone
    if last is not None and not with_failures and (outlived := _outlived(facts, last)) is not None:
        return Focus(last, [], outlived, outlived=True)
    return Focus(last, [])


def _memory(prompt: PromptLog) -> bool:
    """Whether a prompt's failure names memory running out (its message, or its exception's type alone: a traceback
    cut below a line that named it, "loading stable diffusion model: MemoryError")."""
    return any(
        f.oom_unload or memory_sign(f.message) or (f.exception_type or "").endswith(_BARE_MEMORY_ERRORS)
        for f in prompt.failures
    )


def _ran_unannounced(prompt: PromptLog) -> bool:
    """A prompt whose "got prompt" is above the paste, that sampled and loaded models (and was not left at ComfyUI's
    own retry of a decode in tiles, which the paste is about): it was running where the log stops."""
    return prompt.sampled and bool(prompt.models) and not prompt.fallbacks


def _ran_after(prompt: PromptLog | None, line: int) -> bool:
    """A failure at start-up (``line``) was followed by a run the log does not announce (no "got prompt" in it): a
    sampler ran after it."""
    return prompt is not None and prompt.sampled and prompt.last is not None and prompt.last[0] > line


def _outlived(facts: LogFacts, last: PromptLog) -> Ending | None:
    """A crash or a kill the log's last prompt outlived ("Segmentation fault (core dumped)" under a progress bar,
    then "Prompt executed"): a process that prompt started died. With no failure after it, it is what the paste
    shows."""
    return next(
        (e for e in reversed(facts.endings) if e.kind in ("crash", "killed") and e.during_prompt == last.index),
        None,
    )


_DIED = ("crash", "killed", "memory-kill", "cgroup-kill", "commit-exhausted", "unreachable", "backend-exit")


def _died_first(facts: LogFacts, failure: LogFailure) -> Ending | None:
    """ComfyUI's process died, and the failure after it is a client's (Krita's, a script's: no frame of
    ComfyUI's) that lost its server, or a traceback cut before it says what it raised: the death is what
    to explain."""
    if memory_sign(failure.message):  # (no client's words for a lost server: the dying process' own, saying why; a
        return None  # launcher's report that it ended printed under them is their consequence)
    said = ending_kind(failure.message.lower(), failure.message)  # how the failure's own words say a process ended
    if said == "backend-exit":  # a launcher raised that it ended
        at = failure.evidence[-1] if failure.evidence else LogLine(failure.line, failure.message)
        return Ending("backend-exit", at, None, raised=failure)
    if (failure.exception_type or "").endswith("CalledProcessError") and (m := _CHILD_SIGNAL.search(failure.message)):
        at = failure.evidence[-1] if failure.evidence else LogLine(failure.line, failure.message)
        return Ending("killed" if m.group(1) == "KILL" else "crash", at, None)  # the launcher's child, ComfyUI
    if said == "killed":  # a child's SIGKILL as a launcher raised it ("... returned non-zero exit status 137.")
        at = failure.evidence[-1] if failure.evidence else LogLine(failure.line, failure.message)
        return Ending("killed", at, None)
    if (failure.exception_type or "").endswith("CalledProcessError") and _CHILD_STATUS.search(failure.message):
        if said == "crash":  # its status a Windows crash code
            at = failure.evidence[-1] if failure.evidence else LogLine(failure.line, failure.message)
            return Ending("crash", at, None)  # ("... returned non-zero exit status 3221225477": an access violation)
    if (failure.exception_type or "").endswith("OSError") and failure.message.startswith(_CTYPES_FAULT):
        at = failure.evidence[-1] if failure.evidence else LogLine(failure.line, failure.message)
        aimdo = any("aimdo" in f.path for f in failure.frames)  # a native fault ctypes turned into an exception
        earlier = next((e for e in facts.endings if e.kind == "crash" and e.line.number < failure.line), None)
        return earlier or Ending("crash", at, None, in_dynamic_vram=aimdo, raised=failure)
    unsaid = failure.source == "traceback" and not failure.message and not failure.exception_type
    if not unsaid and (not failure.frames or any(_COMFY_CODE.search(f.path) for f in failure.frames)):
        return None
    return next((e for e in facts.endings if e.kind in _DIED and e.line.number < failure.line), None)


_CHILD_SIGNAL = re.compile(r"died with <Signals\.SIG(KILL|SEGV|ABRT|BUS|ILL|FPE): \d+>")
"""Python's ``subprocess.CalledProcessError`` for a child a signal ended (``Command '[..., 'launch.py']' died with
<Signals.SIGKILL: 9>.``): a launcher's words for how the process running ComfyUI died."""
_CHILD_STATUS = re.compile(r"returned non-zero exit status -?\d{9,10}\b")
"""``subprocess.CalledProcessError`` for a child that ended with a Windows status code (an NTSTATUS, in decimal)."""
_CTYPES_FAULT = ("exception: access violation", "exception: stack overflow", "exception: integer divide by zero")
"""How ctypes words a Windows structured exception in the DLL it called (``OSError: exception: access violation
reading 0x...``): a native crash, which Python survived only to report it."""
_COMFY_CODE = re.compile(
    r"(?:^|[\\/])(?:execution|nodes|server|main)\.py$|[\\/](?:comfy|comfy_extras|custom_nodes)[\\/]"
)
