"""Failures as ComfyUI's clients show them: the frontend's dialog (a node's class above its message, or run
together with it on one line), an API client's or a serverless worker's copy of ComfyUI's error payload, and a
line that names memory running out on its own."""

from __future__ import annotations

import re

from ..judging.custom_nodes import custom_node
from ..judging.failures import MEMORY_TEXTS, memory_sign
from ..judging.stages import builtin_class_titled, builtin_nodes
from .blocks import BlockReading, Mode
from .patterns import (
    _API_FIELD,
    _API_NODE,
    _BARE_CLASS,
    _CLASS_PREFIX,
    _CLASS_WORD,
    _CPP_TERMINATE,
    _NATIVE_STACK_LINE,
    _PROMPT_REFUSALS,
    _TITLE_WORD,
    _VALIDATE_NODE,
    _WORKER_ERROR,
    _known,
)
from .records import LogFailure, LogLine
from .text import LOG_LEVEL

__all__ = ["DialogReading", "is_node_class", "exception_name", "one_line_dialog", "payload_fields", "translated_title"]


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


class DialogReading(BlockReading):
    """The reader's part that reads a failure the way a client shows it."""

    lead: int
    bare_class: tuple[int, str] | None
    listed_node: tuple[int, str, str, str] | None
    api_class: tuple[int, str] | None

    def _popup(self, s: str, m: re.Match[str]) -> None:
        """The old error dialog's first line: "Error occurred when executing <class>:"."""
        inline = s[m.end() :]  # the dialog squashed onto one line (its message in code after a code title)
        if s[m.end() - 1] == "`":
            inline = inline.lstrip(" `") if inline.lstrip(" ")[:1] == "`" else ""
        class_type = m.group(1).strip()
        if s.endswith(":") and inline.strip().endswith(":") and len(s) < 120:  # "LayerMask: BiRefNetUltra:"
            class_type, inline = s[m.start(1) : -1].strip(), ""
        message = re.split(r'\s(?:file "|traceback \()', inline, maxsplit=1, flags=re.IGNORECASE)[0]
        self._open("popup", s, class_type=class_type, message=message.strip())
        self.mode = Mode.MESSAGE

    def _title(self, s: str) -> None:
        """A line that may name the node of the message under it: an error dialog's title (the failing node's class,
        alone), or ComfyUI's ``* <class> <id>:`` above an output's validation errors, their heading cut off."""
        if s[:2] == "* " and (m := _VALIDATE_NODE.match(s)) and m.group(2).replace(":", "").isdigit():
            self.listed_node = (self.n, m.group(1), m.group(2), s[:400])
            return
        if _BARE_CLASS.match(name := s.removesuffix(":").rstrip()):  # "KSampler", "KSampler:", "KSampler :": a title
            self.bare_class = (self.n, name)
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
        class_type = None
        message = s
        if (
            (m := _CLASS_PREFIX.match(s)) is not None
            and not LOG_LEVEL.fullmatch(m.group(1).upper())  # "ERROR: Unexpected bus error ...": a level, no node
            and (is_node_class(m.group(1)) or not s.lower().startswith(MEMORY_TEXTS))  # "DefaultCPUAllocator: ..."
        ):
            class_type, message = m.group(1), m.group(2)
        elif (m := _CLASS_WORD.match(s)) is not None and (
            is_node_class(m.group(1))
            or (
                self.n - self.lead <= 2 and _BARE_CLASS.match(m.group(1)) is not None and not exception_name(m.group(1))
            )
        ):  # "WanVideoSampler Allocation...", or a pack's class atop a one-line paste
            class_type, message = m.group(1), m.group(2)
        elif (
            self.bare_class is not None and self.bare_class[0] >= self.n - 2 and not exception_name(self.bare_class[1])
        ):
            class_type = self.bare_class[1]  # a blank line may part them
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
