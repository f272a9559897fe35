"""A failure block of a ComfyUI log, line by line: ComfyUI's "!!! Exception during processing",
a bare traceback (chained ones too), the old popup, the frontend's error report, a refused prompt.
:class:`BlockReading` is the reader's part that follows one; its :class:`Mode` says what the next
line of the block can be."""

from __future__ import annotations

import re
from collections import deque
from enum import Enum
from typing import TYPE_CHECKING, Any

from .endings import ending_hint, ending_kind
from .patterns import (
    _API_CLASS_LINE,
    _CAPACITY,
    _CHAIN,
    _CLASS_VALUE,
    _DISPLAYED,
    _EXC_LINE,
    _EXCEPTION_VALUE,
    _FRAME,
    _MARKUP,
    _NODE_ID_VALUE,
    _PLAIN_FIELD,
    _PLAIN_HEADINGS,
    _REPORT_FIELD,
    _REPORT_FIELDS,
    _REPORT_NAMES,
    _REPORT_OPENERS,
    _REPORT_VERSIONS,
    _SUMMARY,
    _TRACEBACK,
    _VALIDATE,
    _VALIDATE_NODE,
    _VALIDATE_REASON,
    _frame_anchor,
    _known,
    _merge,
    _message_key,
)
from .records import Frame, LogFacts, LogFailure, LoggedException, LogLine, PromptLog
from .text import FENCES

__all__ = ["BlockReading", "Mode", "MAX_FAILURES", "MAX_FRAMES", "MAX_MESSAGE_LINES", "MAX_MESSAGE_CHARS"]

MAX_FAILURES = 8
MAX_FRAMES = 80
MAX_MESSAGE_LINES = 12
MAX_MESSAGE_CHARS = 2000
WRAP_WIDTH = 79
"""A line at least this long may have been wrapped by the console it was copied from (80 columns and wider):
in a traceback's frames, a line after it that starts nothing of its own is its tail."""


_RULE_CHARS = frozenset("_-=*~ ")
_MODULE_ERROR = re.compile(r"^(error): (.+)$")
"""A C extension's ``error`` as a traceback's last frame raised it, its module not printed (pygame's, as Ren'Py's
traceback shows it: "error: Out of memory")."""
_CLOCK_LINE = re.compile(r"\d\d:\d\d:\d\d[,.]\d+\b")
"""A line that begins with a clock time to the millisecond, what is left of a log record's stamp once its date was read
as a prefix (SABnzbd's "2019-06-21 07:22:37,239::INFO::[downloader:279] Pausing"): a record of its own, not more of
the exception's message above it."""


_WRAPPED = "Caught "
"""The start of torch's ``ExceptionWrapper`` message: "Caught <type> in DataLoader worker process N.", "... in replica
N on device N." (DataParallel), "... in pin memory thread for device N.", the caught exception's traceback below it."""
_SCRIPTED = "The following operation failed in the TorchScript interpreter."
"""torch's message for an error inside a scripted function: its own traceback ("Traceback of TorchScript ...") and the
error it raised follow, which is the failure."""


_KILLS = ("killed", "memory-kill", "cgroup-kill", "commit-exhausted")


def _a_kill(s: str) -> bool:
    """A line that says the process was killed, or memory ran out under it (the shell's ``zsh: killed``, Slurm's
    ``slurmstepd: error: Detected 1 oom-kill event(s)``, the kernel's ``Out of memory: Killed process``): its own
    line, never more of the exception's message above it."""
    return ending_hint(low := s.lower()) and ending_kind(low, s) in _KILLS


class Mode(Enum):
    """What the failure block being read expects next."""

    FRAMES = "frames"
    """a traceback's frames (``File "...", line N, in f``) and its exception line"""
    EXC_MESSAGE = "exc_message"
    """more lines of an exception's message"""
    AFTER_EXC = "after_exc"
    """a blank line after an exception: a chained traceback or ComfyUI's tips may follow"""
    MESSAGE = "message"
    """a popup's or report's message"""
    REPORT = "report"
    """the frontend's error report: its ``- **Field:** value`` lines and headings"""
    REPORT_TRACE = "report_trace"
    """the report's stack trace"""
    VALIDATION = "validation"
    """a refused prompt's nodes and reasons"""
    WORKFLOW = "workflow"
    """a report's attached workflow (skipped)"""


class BlockReading:
    """The reader's part that reads one failure block at a time and files it in its prompt."""

    facts: LogFacts
    prompt: PromptLog
    prompts: deque[PromptLog]
    n: int
    block: LogFailure | None
    exc: LoggedException | None
    mode: Mode | None
    chain: list[LoggedException]
    validation_node: LogFailure | None
    validation_extras: list[LogFailure]
    ignored_at: int
    served: bool
    ended: bool
    stopped: bool
    width: int
    cut_frame: str | None
    notebook_frames: bool
    frame_indent: int
    flat_code: bool
    fields_above: list[tuple[int, str]]
    """The report-shaped fields (``- **Tipo de nó:** KSampler``) just above, outside a block: a translated report
    cut above its headings opens at its exception's type, and its node's fields were these."""

    if TYPE_CHECKING:  # the machine facts of a report, read by MachineReading; an ending, filed by the reader

        def _version(self, key: str, value: str, s: str) -> None: ...
        def _args(self, rest: str, s: str) -> None: ...
        def _os(self, name: str, s: str) -> None: ...
        def _capacity(self, m: re.Match[str]) -> None: ...
        def _device(self, value: str, s: str) -> None: ...
        def _ending(self, low: str, s: str, kind: str | None = None) -> None: ...

    def _ev(self, text: str) -> LogLine:
        return LogLine(self.n, text[:400])

    def _open(self, source: str, text: str, **fields: Any) -> LogFailure:
        self._close()
        self.notebook_frames = False
        if self.prompt.running is not None and not fields.get("class_type"):  # the node a client said was running
            fields["class_type"], fields["node_id"] = (
                self.prompt.running[0],
                fields.get("node_id") or self.prompt.running[1],
            )
        failure = LogFailure(
            source=source,
            line=self.n,
            evidence=[self._ev(text)],
            before=self.prompt.last_activity,
            before_hint=self.prompt.last_hint,
            after_sampling=self.prompt.just_sampled,
            **fields,
        )
        self.block = failure
        return failure

    def _close(self) -> None:
        """Commit the failure being read (merging it with the same failure reported twice)."""
        block, self.block = self.block, None
        if self.exc is not None and block is not None:
            self._finish_exception(block)
        self.exc, self.mode, self.validation_node, self.chain = None, None, None, []
        if block is None:
            return
        message, machine = block.message, self.facts.machine
        if (
            "vram_total_from_error_bytes" not in machine
            and ("capac" in message or "Device limit" in message)
            and (m := _CAPACITY.search(message))
        ):
            self._capacity(m)  # the device's size, in its out-of-memory message ("Device limit : 8.00 GiB")
            if "vram_total_from_error_bytes" in machine and block.evidence:
                self.facts.evidence["vram_total_from_error_bytes"] = block.evidence[-1]
        if block.source == "traceback" and block.line == self.ignored_at + 1:
            return  # "Exception ignored in: <function HostBuffer.__del__ ...>": Python went on
        if block.source == "traceback" and any(
            f.function in ("load_custom_node", "execute_prestartup_script", "init_external_custom_nodes")
            for f in block.frames
        ):
            self.facts.import_failures += 1
            if self.facts.import_failure is None:
                block.source = "import"
                self.facts.import_failure = block
            return
        if (
            block.source in ("traceback", "message")
            and not block.message
            and not block.exception_type
            and not block.frames
            and not (block.source == "traceback" and self.ended and block.line >= self.facts.last_text - 2)
        ):  # (a traceback the log ends in, cut before its first frame, is an error: the log was cut there)
            return
        if (
            (block.exception_type or "").endswith("KeyboardInterrupt")
            and block.source in ("traceback", "thread")
            and (self.facts.prompt_count or self.served)
        ):  # Ctrl+C, said by Python, once ComfyUI served: a stop (of a run, or of an idle server), not a hung start-up
            self._ending("keyboardinterrupt", block.evidence[-1].text, kind="stopped")
            self.stopped = True
            return
        if self.stopped:
            return  # raised after Ctrl+C stopped the server: the launcher's (a notebook's cell), not a run's
        found = self._same_failure(block)
        if found is not None:
            prompt, target = found
            _merge(target, block)
            if prompt is not self.prompt and block.source not in _SUMMARY:  # it belongs where the log shows it
                prompt.failures.remove(target)
                self.prompt.failures.append(target)
        elif len(self.prompt.failures) < MAX_FAILURES:
            self.prompt.failures.append(block)
        if block.source == "validation" and found is None:
            self.prompt.failures.extend(self.validation_extras[:MAX_FAILURES])
        self.validation_extras = []

    def _same_failure(self, block: LogFailure) -> tuple[PromptLog, LogFailure] | None:
        """A failure pasted twice (the log's block and the dialog's or report's copy of it)."""
        key = _message_key(block.message)
        for prompt in reversed(self.prompts):
            for failure in reversed(prompt.failures):
                if block.source not in _SUMMARY and failure.source not in _SUMMARY:
                    continue
                if prompt is not self.prompt and "message" in (block.source, failure.source):
                    continue  # an exception line of an earlier prompt is an earlier occurrence
                same_message = key and _message_key(failure.message) == key
                same_trace = not key and block.frames and _frame_anchor(block.frames) == _frame_anchor(failure.frames)
                if same_message or same_trace:
                    return prompt, failure
        return None

    def _finish_exception(self, block: LogFailure) -> None:
        """File the exception just read; the last of a chain is the one the block reports (torch's re-raise of a
        worker's exception, "Caught RuntimeError in DataLoader worker process 0." above the "Original Traceback" of
        the exception it caught, comes after that exception, its cause)."""
        exc, self.exc = self.exc, None
        if exc is not None and (exc.type or exc.frames or exc.message):
            self.chain.append(exc)
        if not self.chain:
            return
        wrappers = [e for e in self.chain[:-1] if e.message.startswith(_WRAPPED)]
        *causes, final = [e for e in self.chain if e not in wrappers] + wrappers
        block.causes = causes
        if final.frames:
            block.frames = final.frames
        if final.type:
            block.exception_type = final.type
        first = block.message.splitlines()[0] if block.message else None
        longer = first is not None and final.message.startswith(first) and len(final.message) > len(block.message)
        scripted = block.message.startswith(_SCRIPTED)
        if final.message and (not block.message or longer or scripted or block.source in ("traceback", "thread")):
            block.message = final.message

    def _block_line(self, text: str, s: str) -> bool:
        """Lines that continue the failure being read. ``True`` when the line was used."""
        block, mode = self.block, self.mode
        if block is None:
            return False
        if mode == Mode.VALIDATION:
            if m := _VALIDATE_NODE.match(s):
                self._validation_node(m.group(1), m.group(2), s)
                return True
            if s == "* (prompt):":  # the errors of the prompt as a whole (its outputs'), under no node
                self.validation_node = None
                return True
            if m := _VALIDATE_REASON.match(s):
                node = self.validation_node
                if node is not None and not node.message:
                    node.message = m.group(1)
                    node.evidence.append(self._ev(s))
                return True
            if s.startswith("Output will be ignored") or _VALIDATE.match(s):
                if m := _VALIDATE.match(s):
                    block.evidence.append(self._ev(s))
                self.validation_node = None
                return True
            if s.startswith("invalid prompt:") or s.startswith("Prompt outputs failed validation"):
                self._end_validation(s)
                return True
            if s.endswith(":") and not s.startswith("-"):  # the frontend's "CheckpointLoaderSimple:"
                self._validation_node(s[:-1].strip(), None, s)
                return True
            self._end_validation(None)
            return False
        if mode in (Mode.REPORT, Mode.REPORT_TRACE) and (s.startswith("#") or s in _PLAIN_HEADINGS):
            return self._report_heading(s)
        if mode == Mode.REPORT and (
            (m := _REPORT_FIELD.match(s)) or ((m := _PLAIN_FIELD.match(s)) and m.group(1) in _REPORT_NAMES)
        ):
            self._report_field(m.group(1), m.group(2), s)
            return True
        if mode == Mode.MESSAGE and block.source == "popup" and not block.message and s.lstrip("# ") in _REPORT_OPENERS:
            self.block = self.mode = None  # the toast's "Node threw an error" above the report it opened: the report
            return False  # says it all
        if mode == Mode.MESSAGE and not (s == _TRACEBACK or s.endswith(_TRACEBACK)):
            if s.startswith("File ") or _FRAME.match(text):
                self.mode = Mode.FRAMES
            elif s.startswith(("- **", "## ")) or (block.source == "report" and s in _PLAIN_HEADINGS):
                self.mode = Mode.REPORT
                return self._block_line(text, s)
            else:
                if not block.message and set(s) <= _RULE_CHARS:  # a dialog's rule ("____") above its message
                    return True
                if len(block.message.splitlines()) < MAX_MESSAGE_LINES and len(block.message) < MAX_MESSAGE_CHARS:
                    block.message = f"{block.message}\n{s}" if block.message else s
                if block.class_type is None and s[:1] == '"' and (m := _API_CLASS_LINE.match(s)):
                    block.class_type = m.group(1)  # the refused node's class, in the payload quoted as JSON
                return True
        if s == _TRACEBACK or s.endswith(_TRACEBACK):
            if self.exc is not None:
                self._finish_exception(block)
            self.exc = LoggedException(None, "")
            self.notebook_frames = False
            self.mode = Mode.FRAMES if self.mode != Mode.REPORT_TRACE else Mode.REPORT_TRACE
            return True
        if s in _CHAIN:
            if self.exc is not None:
                self._finish_exception(block)
            self.mode = Mode.FRAMES
            return True
        if mode in (Mode.FRAMES, Mode.REPORT_TRACE, Mode.EXC_MESSAGE, Mode.AFTER_EXC):
            cut, self.cut_frame = self.cut_frame, None
            if cut is not None and self.width >= WRAP_WIDTH and _FRAME.match(cut + text):
                text = cut + text  # a frame the console wrapped, whole again
            elif mode != Mode.EXC_MESSAGE and s.startswith('File "') and not _FRAME.match(text):
                self.cut_frame = text  # its tail may follow (a SyntaxError's frame, which names no function, stays so)
                return True
            if m := _FRAME.match(text):
                self.frame_indent = len(text) - len(text.lstrip())
                if self.exc is None:
                    self.exc = LoggedException(None, "")
                if len(self.exc.frames) < MAX_FRAMES:
                    self.exc.frames.append(Frame(m.group(1), int(m.group(2)), m.group(3)))
                elif self.exc.frames:
                    self.exc.frames[-1] = Frame(m.group(1), int(m.group(2)), m.group(3))
                if self.mode in (Mode.EXC_MESSAGE, Mode.AFTER_EXC):
                    self.mode = Mode.FRAMES
                return True
            if mode == Mode.EXC_MESSAGE and (s.startswith(FENCES) or _MARKUP.match(s)):
                self.mode = Mode.AFTER_EXC  # the paste's fence or </details>: the message ended before it
                return True
            # the web UI's line heading the next traceback ("loading ...: MemoryError"), not this message's
            if mode == Mode.EXC_MESSAGE and s[-1:] in "nrt" and _DISPLAYED.match(s):
                return False
            if mode == Mode.EXC_MESSAGE and not _known(s) and not _a_kill(s) and not _CLOCK_LINE.match(s):
                holder: LoggedException | LogFailure = self.exc if self.exc is not None else block
                if len(holder.message.splitlines()) < MAX_MESSAGE_LINES and len(holder.message) < MAX_MESSAGE_CHARS:
                    holder.message = f"{holder.message}\n{s}" if holder.message else s
                return True
            if (
                mode in (Mode.FRAMES, Mode.REPORT_TRACE)
                and (
                    m := _EXC_LINE.match(s)
                    or (_MODULE_ERROR.match(s) if self.exc is not None and self.exc.frames else None)
                )
                and (self.exc is None or self.exc.frames or mode == Mode.FRAMES)
            ):
                if self.exc is None:
                    self.exc = LoggedException(None, "")
                self.exc.type, self.exc.message = m.group(1), (m.group(2) or "").strip()
                block.evidence.append(self._ev(s))
                self.mode = Mode.EXC_MESSAGE
                return True
            if mode == Mode.FRAMES and self.notebook_frames and not _known(s):
                return True  # IPython's frames, not Python's ("<ipython-input-13-b36d> in <module>", "Cell In[33], line
                # 9", "----> 4 df = pd.read_csv(path)", "~/lib/parsers.py in parser_f(...)"): its error comes last
            if mode in (Mode.FRAMES, Mode.REPORT_TRACE) and self.exc is not None and self.exc.frames:
                if s.startswith("[Previous line repeated") or s[:1] in ("^", "~") or s.startswith("...<"):
                    return True  # (a caret line: alone, or with the code line a flattened paste put after it)
                if not s.strip("\"'"):  # the quote an app's report closes its quoted frames with, its error below
                    return True  # (Ultimate Vocal Remover's 'Traceback Error: "  File ...' ... '"', 'MemoryError: ...')
                if not s.strip(".…[] ") or s.startswith(("...", "…", "[...", "(...")):  # frames a poster left out
                    return True  # ("...", "[...]", "... (recursive _apply calls) ..."): the traceback goes on below
                last = self.exc.frames[-1]
                if last.code is None and not _known(s):  # the source line (its indent may be lost to a prefix)
                    last.code = s[:300]
                    self.flat_code = len(text) - len(text.lstrip()) <= self.frame_indent
                    return True
                if (text.startswith("    ") or self.width >= WRAP_WIDTH or self.flat_code) and not _known(s):
                    return True  # more of a multi-line statement (also where the paste lost the code's indent, under
                    # its frame's), or the tail of a line the console wrapped
            if mode == Mode.REPORT_TRACE and (s.startswith("```") or s == "text"):  # the fence, or its label rendered
                return True
            if mode == Mode.FRAMES and block.source == "popup" and not self.exc and not _known(s):
                return True
        if mode == Mode.AFTER_EXC and s.startswith("TIPS:"):
            return True
        if mode == Mode.AFTER_EXC and block.exception_type == "panic" and s == "Caused by:" and self.exc is None:
            block.message = f"{block.message}\n{s}"  # the error's causes below its message, after a blank line
            self.mode = Mode.EXC_MESSAGE  # (wgpu's: "wgpu error: Validation Error", then "Caused by:", "In
            return True  # Device::create_buffer", "Not enough memory left")
        return False

    def _validation_node(self, class_type: str, node_id: str | None, s: str) -> None:
        block = self.block
        assert block is not None
        if block.class_type is None:
            block.class_type, block.node_id = class_type, node_id
            block.evidence.append(self._ev(s))
            self.validation_node = block
        else:
            extra = LogFailure(
                source="validation", line=self.n, class_type=class_type, node_id=node_id, evidence=[self._ev(s)]
            )
            if len(self.validation_extras) < MAX_FAILURES - 1:
                self.validation_extras.append(extra)
            self.validation_node = extra

    def _end_validation(self, s: str | None) -> None:
        block = self.block
        if s is not None and block is not None:
            block.evidence.append(self._ev(s))
            if s.startswith("invalid prompt"):
                self.prompt.ended, self.prompt.ended_line = "invalid", self._ev(s)
        self._close()

    def _report_fields(self, text: str, s: str) -> bool:
        """A report cut above its headings, opened by its fields: an English one by its own field names (``- **Node
        Type:** VAEDecode``); one a browser translated by its exception's type (``- **Tipo de exceção:**
        torch.OutOfMemoryError``), with the node's fields just above it."""
        if s.startswith(_REPORT_FIELDS):
            self._open("report", s)
            self.mode = Mode.REPORT
            self._block_line(text, s)
            return True
        if not s.startswith("- **") or (m := _REPORT_FIELD.match(s)) is None:
            return False
        if not _EXCEPTION_VALUE.match(m.group(2).strip()):
            self.fields_above = [*self.fields_above[-3:], (self.n, s)]  # (a node's id and class, maybe)
            return False
        above, self.fields_above = self.fields_above, []
        at = self.n
        try:
            self.n, opener = above[0] if above else (at, s)
            self._open("report", opener)
            self.mode = Mode.REPORT
            for self.n, field in above:  # (each field's evidence keeps its own line)
                self._block_line(field, field)
        finally:
            self.n = at
        self._block_line(text, s)
        return True

    def _report_heading(self, s: str) -> bool:
        title = s.lstrip("#").strip().lower()
        if title == "stack trace":
            self.mode = Mode.REPORT_TRACE
            self.exc = LoggedException(None, "")
        elif title in ("error details", "comfyui error report", "system information", "devices"):
            if self.exc is not None and self.block is not None:
                self._finish_exception(self.block)
            self.mode = Mode.REPORT
        elif title.startswith("attached workflow"):
            self._close()
            self.mode = Mode.WORKFLOW
        elif self.block is not None and not (self.block.exception_type or self.block.message):
            self.mode = Mode.REPORT  # a translated "Error Details": the fields still to come
        else:  # "## Logs", "## Additional Context": the report ends, the log itself follows
            self._close()
        return True

    def _translated_field(self, value: str, s: str) -> bool:
        """A field of a report the browser translated (``- **Tipo de nó:** KSampler``): the labels
        change, the order and the values do not — the node's id, its class, the exception's type."""
        block = self.block
        assert block is not None
        if block.node_id is None and block.class_type is None and _NODE_ID_VALUE.match(value):
            block.node_id = value
        elif block.exception_type is None and _EXCEPTION_VALUE.match(value):  # (before a class: "torch.…Error")
            block.exception_type = value
        elif block.class_type is None and block.exception_type is None and _CLASS_VALUE.match(value):
            block.class_type = value
            block.evidence.append(self._ev(s))
        else:
            return False
        return True

    def _report_field(self, name: str, value: str, s: str) -> None:
        block = self.block
        assert block is not None
        value = value.strip()
        if name == "Node ID":
            block.node_id = value or None
        elif name == "Node Type":
            block.class_type = value or None
            block.evidence.append(self._ev(s))
        elif name == "Exception Type":
            block.exception_type = value or None
        elif name == "Exception Message" or (name not in _REPORT_NAMES and block.exception_type and not block.message):
            if block.exception_type and value.startswith(f"{block.exception_type}:"):
                value = value[len(block.exception_type) + 1 :].lstrip()  # newer reports repeat the type there
            block.message = value
            block.evidence.append(self._ev(s))
            self.mode = Mode.MESSAGE
        elif name not in _REPORT_NAMES and self._translated_field(value, s):
            return
        elif name in _REPORT_VERSIONS:
            self._version(_REPORT_VERSIONS[name], value.split()[0] if value else value, s)
        elif name == "Arguments":
            self._args(value, s)
        elif name == "OS":
            self._os({"nt": "Windows", "posix": "Linux/macOS"}.get(value, value), s)
        elif name == "Embedded Python" and value == "true":
            self.facts.machine.setdefault("install_hint", "portable")
        elif name == "Name" and ":" in value and "gpu_name" not in self.facts.machine:
            self._device(value, s)
        elif name == "VRAM Total" and value.isdigit() and "vram_total_bytes" not in self.facts.machine:
            self.facts.machine["vram_total_bytes"] = int(value)
            self.facts.evidence["vram_total_bytes"] = self._ev(s)
