"""Failures said on a line of their own, as ComfyUI's clients show them or users paste them: an error report's
title, a refused prompt, the frontend's dialog (a node's class above its message, or run together with it on one
line), an API client's or a serverless worker's copy of ComfyUI's error payload, ComfyUI's own OOM lines, an
exception's line, and a line that names memory running out on its own."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..judging.custom_nodes import custom_node
from ..judging.failures import memory_gate, memory_sign
from ..judging.gpu_words import OOM_SUMMARY_LINE, OOM_UNLOAD_LINE
from ..judging.stages import builtin_class_titled, builtin_nodes
from ..judging.wordings import MEMORY_TEXTS
from .blocks import BlockReading, Mode
from .patterns import (
    _API_CLASS_LINE,
    _API_FIELD,
    _API_NODE,
    _BARE_CLASS,
    _BARE_MEMORY_ERRORS,
    _CLASS_PREFIX,
    _CLASS_VALIDATION,
    _CLASS_WORD,
    _CPP_TERMINATE,
    _CUT_TORCH_OOM,
    _EXC_LINE,
    _FALLBACKS,
    _HARMLESS,
    _IMPORT_FAILED,
    _INTERRUPT_REQUESTS,
    _LOOSE_ERROR,
    _NAN_CAST,
    _NAN_LATENT,
    _NATIVE_STACK_LINE,
    _NODE_INFO,
    _NODE_THREW,
    _NOTICES,
    _OUT_OF_RANGE,
    _OUTPUT_REASONS,
    _PROMPT_REFUSALS,
    _QUALIFIED_CLASS,
    _REPORT_OPENERS,
    _RUBY_RAISE,
    _RUST_PANIC,
    _SWARM_ERRORED,
    _TITLE_WORD,
    _VALIDATE,
    _VALIDATE_NODE,
    _VALIDATION_MESSAGES,
    _WARNS,
    _WORKER_ERROR,
    _known,
)
from .records import LogFailure, LoggedException, LogLine
from .text import LOG_LEVEL

__all__ = [
    "DialogReading",
    "LOOSE_LINES",
    "is_node_class",
    "exception_name",
    "one_line_dialog",
    "payload_fields",
    "translated_title",
]


def is_node_class(name: str) -> bool:
    return name in builtin_nodes() or custom_node(name) is not None


def exception_name(name: str) -> bool:
    """An exception's name where a node's class could stand (TensorFlow's ``ResourceExhaustedError (see above
    for traceback): OOM ...``, the browser's ``InternalError`` above its message)."""
    return name.endswith(("Error", "Exception")) and not is_node_class(name)


def translated_title(s: str) -> str | None:
    """The node's class in the error dialog's title as a page translator renders it (``执行 KSampler 时出错：``,
    ``Erro ao executar VAEDecode:``): a short line ending in a colon, naming one class ComfyUI or the table knows."""
    if len(s) > 120 or s[-1:] not in (":", "：") or 'File "' in s:
        return None
    names = {w for w in _TITLE_WORD.findall(s) if is_node_class(w)}
    return names.pop() if len(names) == 1 else None


def one_line_dialog(n: int, s: str) -> LogFailure | None:
    """A paste of one line that begins with a node's class (the error dialog's title and message run together:
    ``ApplyPulidFlux pickle data was truncated``): the failure it shows, at that node."""
    if (m := _CLASS_WORD.match(s)) is None or _known(s):
        return None
    class_type, message = m.group(1), m.group(2)
    if not (is_node_class(class_type) or (_BARE_CLASS.match(class_type) and not exception_name(class_type))):
        return None
    return LogFailure("popup", n, message=message, class_type=class_type, evidence=[LogLine(n, s)])


def payload_fields(s: str, start: int, end: int) -> dict[str, str]:
    """The error payload's fields in ``s[start:end]`` (the first of each name)."""
    fields: dict[str, str] = {}
    for m in _API_FIELD.finditer(s, start, end):
        fields.setdefault(m.group(1), m.group(2) if m.group(2) is not None else m.group(3) or "")
    return fields


_SUMMARY_LINES = 16
"""How far below an exception raised without a message its message may follow (a native library's summary)."""
LOOSE_LINES = 400
"""How far into a log a loose error line is looked for (a paste, not a session's console)."""


_CATEGORY_TITLES = frozenset(("LayerMask", "LayerStyle", "LayerUtility", "LayerColor", "LayerFilter"))
"""ComfyUI_LayerStyle's categories, which begin each of its nodes' names ("LayerMask: SegmentAnythingUltra V2")."""
_TITLE_REST = re.compile(r"\s*([A-Z][\w .()-]{0,40}?):\s")
"""The rest of such a name, before the error's own colon."""
_PROSE_LABELS = frozenset(
    ("Solution", "Hint", "Note", "Reason", "Cause", "Tip", "Suggestion", "Details", "Description")
)
"""The words a program's own text puts before a sentence, no node's class (STAR's "Solution: check that you have
enough space on the disk")."""
_DIAGNOSTIC_CODE = re.compile(r"^[A-Z]{1,4}\d{3,5}$")
"""A compiler's or linker's diagnostic code before its message (MSVC's ``LNK1171``, ``C1060``), no node's class."""


class DialogReading(BlockReading):
    """The reader's part that reads a failure said on a line of its own, as a client shows it or a user pastes it."""

    lead: int
    bare_class: tuple[int, str] | None
    thread_refused: tuple[int, str] | None
    listed_node: tuple[int, str, str, str] | None
    api_class: tuple[int, str] | None

    if TYPE_CHECKING:  # the reader's (its life's part: memprobe.logs.lifecycle)

        def _interrupted(self, s: str) -> None: ...
        def _import_failed(self, s: str, m: re.Match[str]) -> None: ...

    def _failure_line(self, text: str, s: str) -> bool:
        """A failure said on a line of its own: a report, a refused prompt, an API client's payload, an exception's
        line, ComfyUI's own OOM lines, a memory error pasted alone."""
        first = s[0]
        if (
            first == "#"
            and "ComfyUI" in s
            and (
                "ComfyUI Error Report" in s or (s.startswith("# ") and len(s) < 60)  # or a translated title
            )
        ) or (first in "#CE" and s.lstrip("# ") in _REPORT_OPENERS):  # cut, or copied rendered
            self._open("report", s)
            self.mode = Mode.REPORT
            return True
        if s.startswith(_INTERRUPT_REQUESTS):  # the user asked for it: the run ends here, not a failure
            self._interrupted(s)
            return True
        if first == "F" and s.startswith("Failed to validate prompt") and (m := _VALIDATE.match(s)):
            said = s[m.end() - 1 :] if m.end() < len(s) else ""  # an older ComfyUI's reason on the line
            self._open("validation", s, message=said)
            self.mode = Mode.VALIDATION
            return True
        if (at := s.find(_SWARM_ERRORED)) >= 0:  # SwarmUI quoting ComfyUI's refusal, its JSON on the lines under it
            self._open("message", s, message=s[at + len(_SWARM_ERRORED) :])
            self.mode = Mode.MESSAGE
            return True
        if " - " in s and (m := _CLASS_VALIDATION.match(s)) and m.group(2).startswith(_VALIDATION_MESSAGES):
            self._open("message", s, message=m.group(2), class_type=m.group(1))
            self._close()
            return True
        if "retrieving information" in s and (m := _NODE_INFO.search(s)):
            self._open("popup", s, class_type=m.group(1), message=s[m.end() :])  # the traceback under it is that node's
            self.mode = Mode.MESSAGE
            return True
        if ("IMPORT FAILED" in s or "module for custom nodes" in s) and (m := _IMPORT_FAILED.search(s)):
            self._import_failed(s, m)
            return True
        if (first == "G" and s.startswith(OOM_UNLOAD_LINE)) or (
            first == "M" and (s == OOM_SUMMARY_LINE or s.startswith(OOM_SUMMARY_LINE + " |"))  # (its table on its line)
        ):  # ComfyUI's handler of a device OOM (is_oom); since 2026 it logs torch's memory summary first
            self.prompt.oom_unload = True
            if self.prompt.failures:
                self.prompt.failures[-1].oom_unload = True
                self.prompt.failures[-1].evidence.append(self._ev(s))
            else:  # the excerpt has ComfyUI's own OOM line but not the exception: a device OOM still
                self._open("message", s, message=OOM_SUMMARY_LINE if first == "M" else s, oom_unload=True)
            return True
        if ("exception_message" in s or "node_errors" in s) and self._api_error(s):
            return True  # (an API client's exception may carry it: "RuntimeError: ["execution_error", {...}]")
        if "Node Type: " in s and self._worker_error(s):
            return True
        if first in "-EN" and self._report_fields(text, s):  # a report cut above its headings: its fields alone
            return True
        if (
            (": " in s or "：" in s)
            and ("Error" in s or "Exception" in s or "Interrupt" in s)
            and (m := _EXC_LINE.match(s))
            and m.group(2)
            and not m.group(2).startswith("Failed to fetch")  # the browser's: its server had gone (an ending's)
        ):
            titled = self._title_above()  # the dialog's title above the exception it shows: "KSamplerAdvanced"
            named = titled if titled is not None and is_node_class(titled) else None  # (not "ComfyUI", "ROCm")
            self._open("message", s, exception_type=m.group(1), message=m.group(2).strip(), class_type=named)
            self.mode = Mode.EXC_MESSAGE
            self.exc = LoggedException(m.group(1), m.group(2).strip())
            return True
        if (
            first == "-"
            and s[:2] == "- "
            and s[2:].startswith(_OUTPUT_REASONS)
            and (self.bare_class is None or self.bare_class[0] < self.n - 2)  # (under its node's class: a dialog)
        ):  # one of an output's errors as ComfyUI lists them ("  - Value not in list: ..."), its heading cut off:
            listed = self.listed_node if self.listed_node and self.listed_node[0] == self.n - 1 else None
            failure = self._open(  # that output was skipped, and what ran out in the rest of the prompt comes first
                "validation", s, message=s[2:], class_type=listed and listed[1], node_id=listed and listed[2]
            )
            self._close()
            if listed:  # ("* VRAM_Debug 754:" above: its node, and the next reason's)
                failure.evidence.insert(0, LogLine(listed[0], listed[3]))
                self.listed_node = (self.n, *listed[1:])
            return True
        if first in "VREBCPi" and (
            s.startswith(_VALIDATION_MESSAGES) or (s.startswith("Value ") and _OUT_OF_RANGE.match(s))
        ):
            refused = payload_fields(s, 0, len(s)) if s.startswith("invalid prompt: ") else {}
            self._open("message", s, message=s, class_type=refused.get("class_type"))  # (a missing node's class)
            self._close()  # the frontend's dialog for a prompt ComfyUI refused, or the server's line
            return True
        if (
            s[-1] in "r:"
            and s.rstrip(":").endswith(_BARE_MEMORY_ERRORS)
            and (m := _EXC_LINE.match(s.removeprefix("(Worker) ")))
        ):  # "MemoryError" alone, or with its colon and no message ("MemoryError: ", pickle's; CellProfiler's worker's
            # "(Worker) MemoryError:")
            self._open("message", s, exception_type=m.group(1), message="")
            self.mode = Mode.EXC_MESSAGE
            self.exc = LoggedException(m.group(1), "")
            return True
        if s[-1] == ")" and ":" in s and (m := _RUBY_RAISE.match(s)):  # Ruby's uncaught exception (its backtrace below)
            self._open("message", s, exception_type=m.group(2), message=m.group(1))
            self._close()
            return True
        if first == "t" and s.startswith("thread '") and (m := _RUST_PANIC.match(s)):
            message = m.group(1) or m.group(2) or ""
            self._open("message", s, exception_type="panic", message=message)
            self.mode = Mode.EXC_MESSAGE if message else Mode.MESSAGE  # (its message below it: until a blank line)
            return True
        if first == "t" and _CUT_TORCH_OOM.match(s):  # torch's out-of-memory line, the paste cut inside its name
            name = "torch.cuda.OutOfMemoryError" if "cuda." in s else "torch.OutOfMemoryError"
            self._open("message", s, exception_type=name, message="")
            self.mode = Mode.EXC_MESSAGE
            self.exc = LoggedException(name, "")
            return True
        if first == '"' and (m := _API_CLASS_LINE.match(s)):
            self.api_class = (self.n, m.group(1))
        if first == "E" and s.startswith(_FALLBACKS):
            return True
        if memory_gate(s.lower()) and self._memory_paste(s):
            return True
        if s.startswith(_NODE_THREW):  # the newer frontend's toast, its title "<node> failed" above it
            near = self.bare_class is not None and self.bare_class[0] >= self.n - 2
            self._open("popup", s, class_type=self.bare_class[1] if near and self.bare_class else None, message="")
            self.mode = Mode.MESSAGE
            return True
        if self._dialog(s):
            return True
        if (_NAN_CAST in s or s.startswith(_NAN_LATENT)) and not self.prompt.failures:  # a black image: NaN pixels
            self._open("message", s, message=s)
            self._close()
            return True
        if (
            self.n <= LOOSE_LINES
            and _LOOSE_ERROR.search(s)
            and not s.startswith(_NOTICES)
            and not _WARNS.match(s)
            and not _HARMLESS.search(s)
        ):
            self.facts.last_loose = LogFailure("message", self.n, message=s, evidence=[self._ev(s)])
            self.facts.loose_error = self.facts.loose_error or self.facts.last_loose
        return False

    def _popup(self, s: str, m: re.Match[str]) -> None:
        """The old error dialog's first line: "Error occurred when executing <class>:"."""
        inline = s[m.end() :]  # the dialog squashed onto one line (its message in code after a code title)
        if s[m.end() - 1] == "`":
            inline = inline.lstrip(" `") if inline.lstrip(" ")[:1] == "`" else ""
        class_type = m.group(1).strip()
        if s.endswith(":") and inline.strip().endswith(":") and len(s) < 120:  # "LayerMask: BiRefNetUltra:"
            class_type, inline = s[m.start(1) : -1].strip(), ""
        elif class_type in _CATEGORY_TITLES and (rest := _TITLE_REST.match(inline)):  # "LayerMask: RmBgUltra V2: ..."
            class_type, inline = f"{class_type}: {rest.group(1)}", inline[rest.end() :]
        message = re.split(r'\s(?:file "|traceback \()', inline, maxsplit=1, flags=re.IGNORECASE)[0]
        self._open("popup", s, class_type=class_type, message=message.strip())
        self.mode = Mode.MESSAGE

    def _title(self, s: str) -> None:
        """A line that may name the node of the message under it: an error dialog's title (the failing node's class,
        alone), or ComfyUI's ``* <class> <id>:`` above an output's validation errors, their heading cut off."""
        if s[:2] == "* " and (m := _VALIDATE_NODE.match(s)) and m.group(2).replace(":", "").isdigit():
            self.listed_node = (self.n, m.group(1), m.group(2), s[:400])
            return
        if _BARE_CLASS.match(name := s.removesuffix(":").rstrip()) or _QUALIFIED_CLASS.match(name):
            self.bare_class = (self.n, name)  # "KSampler", "KSampler:", "KSampler :", "KSampler (Efficient)": a title
        elif s.endswith(" failed") and (named := s[:-7] if is_node_class(s[:-7]) else builtin_class_titled(s[:-7])):
            self.bare_class = (self.n, named)  # the newer frontend's toast title: "VAE Encode Audio failed"
        elif len(s) <= 40 and " " in s and s[0].isupper() and (titled := builtin_class_titled(s)):  # "VAE Decode"
            self.bare_class = (self.n, titled)
        elif (
            len(s) <= 64 and " " in s and custom_node(name) is not None
        ):  # "LayerMask: SegmentAnythingUltra V2", "FILM VFI"
            self.bare_class = (self.n, name)
        elif s[-1] in ":：" and (named := translated_title(s)):  # "Erro ao executar VAEDecode:"
            self.bare_class = (self.n, named)

    def _title_above(self) -> str | None:
        """The dialog's title just above (a line or two): the failing node's class alone on a line, taken as one at
        the top of a paste, or for a class ComfyUI or the custom node table knows."""
        if self.bare_class is None or self.bare_class[0] < self.n - 2:
            return None
        line, class_type = self.bare_class
        return class_type if line - self.lead <= 3 or is_node_class(class_type) else None

    def _dialog(self, s: str) -> bool:
        """The frontend's error dialog as users copy it: the failing node's class alone on a line (its title),
        its message on the next."""
        if (class_type := self._title_above()) is None or _known(s):
            return False
        if exception_name(class_type):  # "InternalError" above its message: the browser's console, no node
            self._open("popup", s, exception_type=class_type, message=s)
        else:
            self._open("popup", s, class_type=class_type, message=s)
        self.mode = Mode.MESSAGE
        return True

    def _api_error(self, s: str) -> bool:
        """ComfyUI's own error payload as an API client logs it (a bot, a worker, a plugin): the
        ``execution_error`` event (``node_id``, ``node_type``, ``exception_message``, ``exception_type``) or
        ``/prompt``'s refusal (``node_errors``, each with its ``class_type`` and errors)."""
        at = s.find("node_errors")
        fields = payload_fields(s, max(at, 0), len(s))  # a refused prompt: its nodes' errors, not its summary
        if not fields and at > 0:  # no node's error ("node_errors": {}): the refusal's own
            fields = payload_fields(s, 0, at)
        class_type = fields.get("node_type") or fields.get("class_type")
        if class_type is None and self.api_class is not None and self.api_class[0] >= self.n - 12:
            class_type = self.api_class[1]  # the payload as indented JSON: its class a few lines above
        if "exception_message" in fields:
            message, exception_type = fields["exception_message"], fields.get("exception_type")
        elif "message" in fields and (class_type or fields.get("type") in _PROMPT_REFUSALS):  # a refused prompt
            message = ": ".join(v for v in (fields["message"], fields.get("details")) if v)  # (its first error)
            exception_type = None
        else:
            return False
        node = _API_NODE.search(s) if "node_id" not in fields else None
        node_id = fields.get("node_id") or (node.group(1) if node else None)
        self._open("message", s, message=message, class_type=class_type, node_id=node_id, exception_type=exception_type)
        self._close()
        return True

    def _memory_paste(self, s: str) -> bool:
        """A line that names memory running out on its own (a one-line paste, a popup's text, a
        report squashed into one line): a failure, with its node where the paste names it —
        ``KSampler : XPU out of memory ...``, or the node's class alone on the line before."""
        if (
            (s.startswith(_CPP_TERMINATE) and "std::bad_alloc" in s)
            or not memory_sign(s)
            or _NATIVE_STACK_LINE.search(s)
        ):
            return False
        said = self.prompt.failures[-1] if self.prompt.failures else None
        if said is not None and said.source == "traceback" and not said.message and said.evidence:
            if self.n - said.evidence[-1].number <= _SUMMARY_LINES:  # its message printed below it, after a C++ stack
                said.message = s  # (PaddlePaddle's "RuntimeError:", then its "Error Message Summary:")
                said.evidence.append(self._ev(s))
                return True
        class_type = None
        message = s
        if (
            (m := _CLASS_PREFIX.match(s)) is not None
            and not LOG_LEVEL.fullmatch(m.group(1).upper())  # "ERROR: Unexpected bus error ...": a level, no node
            and not (m.group(1).isupper() and ("_" in m.group(1) or not is_node_class(m.group(1))))  # a macro's name
            # ("GGML_ASSERT: ggml.c:4411: ..."), a library's ("BLAS : Program is Terminated. Because you tried to ...")
            and not _DIAGNOSTIC_CODE.match(m.group(1))  # a tool's own code ("LNK1171: unable to load mspdbcore.dll")
            and m.group(1) not in _PROSE_LABELS  # a program's advice ("Solution: check that you have enough space ...")
            and (is_node_class(m.group(1)) or not s.lower().startswith(MEMORY_TEXTS))  # "DefaultCPUAllocator: ..."
        ):
            class_type, message = m.group(1), m.group(2)
        elif (
            (m := _CLASS_WORD.match(s)) is not None
            and (
                is_node_class(m.group(1))
                or (
                    self.n - self.lead <= 2
                    and _BARE_CLASS.match(m.group(1)) is not None
                    and not exception_name(m.group(1))
                    and not m.group(1).endswith("Allocator")  # a library's allocator naming itself (PhysX's)
                    and (m.group(2).lower().startswith(MEMORY_TEXTS) or _EXC_LINE.match(m.group(2)) is not None)
                )  # (its message next: not a sentence whose subject it is, "VirtualAlloc of bytes failed", "OpenJDK 64-Bit")
            )
        ):  # "WanVideoSampler Allocation...", or a pack's class atop a one-line paste
            class_type, message = m.group(1), m.group(2)
        elif (
            self.bare_class is not None and self.bare_class[0] >= self.n - 2 and not exception_name(self.bare_class[1])
        ):
            class_type = self.bare_class[1]  # a blank line may part them
        if self.thread_refused is not None and self.n - self.thread_refused[0] <= 6 and "Java Runtime" in s:
            message = f"{self.thread_refused[1]}\n{message}"  # the JVM calls a thread it was refused memory ("Failed
            # to start thread ... pthread_create failed (EPERM)", "#", then "There is insufficient memory for the Java
            # Runtime Environment to continue.", a blank line after each where a page spaced them): the refusal says why
        self._open("message", s, message=message.strip(), class_type=class_type)
        self.mode = Mode.EXC_MESSAGE
        self.exc = None
        return True

    def _worker_error(self, s: str) -> bool:
        """A serverless worker's words for ComfyUI's ``execution_error`` (RunPod's worker-comfyui: ``Node Type: X,
        Node ID: N, Message: ...``)."""
        if (m := _WORKER_ERROR.search(s)) is None:
            return False
        message = m.group(3).replace('\\"', '"').strip()
        self._open("message", s, message=message, class_type=m.group(1).strip(), node_id=m.group(2).strip())
        self._close()
        return True
