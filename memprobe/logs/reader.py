"""Read a ComfyUI log: what the console output (or ``comfyui.log``, the Desktop app's log, a pasted
error report) says about the machine, each prompt, the models it loaded, ComfyUI's silent
fallbacks and every failure, including a process that simply stopped.

Only reading here, no judgement (that is :mod:`memprobe.logs.explain`). Any input is accepted: text or
bytes in any encoding (UTF-8, UTF-16 from PowerShell, a Windows code page), CRLF, ANSI colours,
the prefixes of every logger and launcher (timestamps, ``ERROR:root:``, ``[info]``, docker-compose,
journald), truncated pastes, binary junk. Memory stays bounded whatever the size: lines longer
than :data:`memprobe.logs.text.MAX_LINE_CHARS` are cut (:mod:`memprobe.logs.text` turns bytes into
clean lines), and only the last :data:`MAX_PROMPTS` prompts are kept.

>>> facts = read_log("got prompt\\n!!! Exception during processing !!! Allocation on device\\n")
>>> facts.prompts[-1].failures[0].message
'Allocation on device'
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..format import MIB
from ..judging.failures import detect_fallback
from .modellog import LOAD_KINDS, ModelLogReader
from .text import clean, iter_lines

__all__ = ["read_log", "LogFacts", "PromptLog", "LogFailure", "LoggedException", "Frame", "LogLine",
           "ModelLoad", "Ending"]

MAX_PROMPTS = 32
MAX_FAILURES = 8
MAX_MODELS = 48
MAX_FRAMES = 80
MAX_MESSAGE_LINES = 12
MAX_MESSAGE_CHARS = 2000


# ---------------------------------------------------------------------------- records
@dataclass(slots=True)
class LogLine:
    """One line of the log the reading rests on: its number (1-based) and its cleaned text."""

    number: int
    text: str


@dataclass(slots=True)
class Frame:
    path: str
    line: int
    function: str
    code: str | None = None


@dataclass(slots=True)
class LoggedException:
    type: str | None
    message: str
    frames: list[Frame] = field(default_factory=list)


@dataclass(slots=True)
class LogFailure:
    """A failure as the log reports it. ``source``: ``exception`` (ComfyUI's "!!! Exception during
    processing"), ``traceback`` (a bare one), ``thread`` (the prompt worker itself died),
    ``popup`` (the old "Error occurred when executing X" dialog), ``report`` (the frontend's
    "ComfyUI Error Report"), ``validation`` (the prompt was refused) or ``message`` (an exception
    line on its own)."""

    source: str
    line: int
    message: str = ""
    exception_type: str | None = None
    class_type: str | None = None
    node_id: str | None = None
    frames: list[Frame] = field(default_factory=list)
    causes: list[LoggedException] = field(default_factory=list)
    """Earlier exceptions of a chained traceback ("During handling of the above exception"), oldest first."""
    evidence: list[LogLine] = field(default_factory=list)
    before: LogLine | None = None
    """The last thing the prompt did before this failure (a progress bar, a model load, a fallback)."""
    before_hint: str | None = None
    """The stage that last thing belongs to, where it says (``sampling``, ``load``, ``vae-decode``)."""
    oom_unload: bool = False
    """ComfyUI logged "Got an OOM, unloading all loaded models." after it."""


@dataclass(slots=True)
class ModelLoad:
    name: str | None
    line: int
    loaded_bytes: int | None = None
    offloaded_bytes: int | None = None
    partial: bool = False
    staged_bytes: int | None = None
    """Dynamic VRAM (current ComfyUI): the weights staged for on-demand loading, not bytes loaded."""


@dataclass(slots=True)
class Ending:
    """How the process ended without an error: ``pause`` (the portable build's "Press any key"),
    ``killed`` (SIGKILL), ``crash`` (a segfault, an access violation), ``memory-kill`` (the kernel's
    or earlyoom's OOM killer, a cgroup limit), ``commit-exhausted`` (Windows' low virtual memory)."""

    kind: str
    line: LogLine
    during_prompt: int | None = None


@dataclass(slots=True)
class PromptLog:
    index: int
    """0 is what the log shows before the first "got prompt" (a fragment, the start-up)."""
    started: LogLine | None = None
    ended: str | None = None
    """``executed``, ``interrupted`` or ``invalid``; ``None`` while the log shows it running."""
    ended_line: LogLine | None = None
    failures: list[LogFailure] = field(default_factory=list)
    models: list[ModelLoad] = field(default_factory=list)
    fallbacks: list[tuple[str, LogLine]] = field(default_factory=list)
    last: tuple[int, str, str | None] | None = None
    """The last thing it did: (line number, text, stage hint); "progress" is judged when read."""
    oom_unload: bool = False

    @property
    def last_activity(self) -> LogLine | None:
        return LogLine(self.last[0], self.last[1][:400]) if self.last else None

    @property
    def last_hint(self) -> str | None:
        if not self.last:
            return None
        hint = self.last[2]
        if hint == "progress":
            m = _PROGRESS.search(self.last[1])
            return "sampling" if m and _running(m) else None
        return hint


@dataclass
class LogFacts:
    versions: dict[str, str] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=dict)
    """``gpu_name``, ``device``, ``allocator``, ``vram_total_bytes``, ``ram_total_bytes``,
    ``ram_limit_bytes`` (cgroup), ``vram_state``, ``attention``, ``os``, ``python_executable``,
    ``comfyui_path``, ``vram_total_from_error_bytes``."""
    args: list[str] = field(default_factory=list)
    prompts: list[PromptLog] = field(default_factory=list)
    prompt_count: int = 0
    endings: list[Ending] = field(default_factory=list)
    import_failures: int = 0
    user_names: set[str] = field(default_factory=set)
    lines: int = 0
    cut_lines: int = 0
    evidence: dict[str, LogLine] = field(default_factory=dict)
    """Where a machine fact or version came from (key -> line)."""

    @property
    def failures(self) -> list[LogFailure]:
        return [f for p in self.prompts for f in p.failures]


# ---------------------------------------------------------------------------- line patterns
_EXC_START = re.compile(r"!!! ?Exception during processing ?!!!\s?(.*)$")
_TRACEBACK = "Traceback (most recent call last):"
_FRAME = re.compile(r'^\s*File "(.+)", line (\d+), in (.+?)\s*$')
_EXC_LINE = re.compile(r"^((?:[A-Za-z_][\w]*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt)|Exception|KeyboardInterrupt))(?::(?:\s(.*)|$)|$)")
_CHAIN = ("During handling of the above exception, another exception occurred:",
          "The above exception was the direct cause of the following exception:")
_POPUP = re.compile(r"^Error occurred when executing (.+?):\s*$")
_THREAD = re.compile(r"^Exception in thread .*\((prompt_worker)\):")
_REPORT_FIELD = re.compile(r"^-\s+\*\*(.+?):\*\*\s*(.*)$")
_VALIDATE = re.compile(r"^Failed to validate prompt for output (\S+?):?$")
_VALIDATE_NODE = re.compile(r"^\*\s+(.+?)\s+(\S+):$")
_VALIDATE_REASON = re.compile(r"^-\s+(.+)$")
_PROGRESS = re.compile(r"(\d{1,3})?%\|[^|]*\|\s*([\d.]+)([kMG]?)/([\d.]+)([kMG]?)")
_MODEL_LINES = ("Requested to load ", "loaded ", "Model ", "Unloaded partially")
_TOTALS = re.compile(r"Total VRAM (\d+) MB, total RAM (\d+) MB")
_CGROUP = re.compile(r"RAM limited by cgroup to (\d+) MB")
_DEVICE = re.compile(r"^Device: (.+)$")
_CAPACITY = re.compile(r"total capac(?:i)?ty of ([\d.]+) ([GM])i?B|GPU \d+; ([\d.]+) ([GM])iB total capacity"
                       r"|Device limit\s*:\s*([\d.]+) ([GM])iB")
_COMMAND = re.compile(r"(?:^|[>$#]\s*)(?:\S*[\\/])?python(?:3(?:\.\d+)?)?(?:\.exe)?\s+(?:-\S+\s+)*\S*main\.py\b(.*)$")
_USER_PATH = re.compile(r"[A-Za-z]:[\\/]+Users[\\/]+([^\\/:*?\"<>|\r\n]+?)[\\/]|/(?:home|Users)/([^/\s\"'<>]+)/")
_GENERIC_USERS = {"user", "users", "admin", "administrator", "public", "default", "root", "me", "shared", "runner"}
_VERSION_LINES = (
    (re.compile(r"^ComfyUI version: (\S+)"), "comfyui"),
    (re.compile(r"^ComfyUI frontend version: (\S+)"), "frontend"),
    (re.compile(r"^(?:\*\* )?Python version: (\S+)"), "python"),
    (re.compile(r"^pytorch version: (\S+)"), "torch"),
    (re.compile(r"^xformers version: (\S+)"), "xformers"),
    (re.compile(r"^ROCm version: (.+)$"), "rocm"),
    (re.compile(r"^### ComfyUI Revision: (.+)$"), "comfyui_revision"),
)
_REPORT_VERSIONS = {"ComfyUI Version": "comfyui", "PyTorch Version": "torch", "Python Version": "python"}
_BANNER_HINT = re.compile(r"Total VRAM|RAM limited|vram state|^Device: |^Using |^\*\* |Mac Version|AMD arch|[Vv]ersion|Revision")
_ENDING_HINT = re.compile(r"(?i)pause|key|taste|touche|tecla|tasto|клавиш|キー|키|kill|oom|out of memory|exit|fault|dumped|"
                          r"fatal|violation|c0000005|3221225477|1073741819|resource-exhaustion|virtual memory")
_LOADER_LINES = ("model weight dtype", "model_type ", "VAE load device", "CLIP/text encoder model load device",
                 "Working with z of shape", "loaded straight to GPU", "missing {", "left over keys", "clip missing:")
_PAUSE = ("press any key to continue", "请按任意键继续", "drücken sie eine beliebige taste", "appuyez sur une touche",
          "presione una tecla", "pulse cualquier tecla", "premere un tasto", "нажмите любую клавишу",
          "続行するには何かキーを押してください", "계속하려면 아무 키나 누르십시오", "press a key to continue")
_CRASH = ("segmentation fault", "core dumped", "fatal python error", "windows fatal exception", "access violation",
          "3221225477", "-1073741819", "0xc0000005", "exit code 139", "exited with code 139")
_MEMORY_KILL = ("out of memory: killed process", "oom-kill:", "invoked oom-killer", "memory cgroup out of memory",
                "oom_reaper", "oomkilled")
_COMMIT_EXHAUSTED = ("resource-exhaustion-detector", "low virtual memory condition")


_SUMMARY = ("popup", "report", "message")


def _message_key(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    return " ".join(first.lower().split())[:120]


def _frame_anchor(frames: list[Frame]) -> str:
    return frames[0].path if frames else ""


# ---------------------------------------------------------------------------- the reader
class _Reader:
    def __init__(self) -> None:
        self.facts = LogFacts()
        self.prompts: deque[PromptLog] = deque(maxlen=MAX_PROMPTS)
        self.prompt = PromptLog(index=0)
        self.prompts.append(self.prompt)
        self.n = 0
        self.block: LogFailure | None = None
        self.exc: LoggedException | None = None
        self.mode: str | None = None
        """What the current block expects next: ``frames``, ``exc_message``, ``message``
        (a popup's or report's message), ``report``, ``report_trace``, ``validation``, ``workflow``."""
        self.chain: list[LoggedException] = []
        """The exceptions of the block read so far (a chained traceback has several)."""
        self.validation_node: LogFailure | None = None
        self.validation_extras: list[LogFailure] = []
        self.models = ModelLogReader()
        """Pairs each load line with the ``Requested to load`` before it (``memprobe.logs.modellog``)."""

    # ------------------------------------------------------------------ helpers
    def _ev(self, text: str) -> LogLine:
        return LogLine(self.n, text[:400])

    def _activity(self, text: str, hint: str | None) -> None:
        self.prompt.last = (self.n, text, hint)

    def _open(self, source: str, text: str, **fields: Any) -> LogFailure:
        self._close()
        failure = LogFailure(source=source, line=self.n, evidence=[self._ev(text)], before=self.prompt.last_activity,
                             before_hint=self.prompt.last_hint, **fields)
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
        if block.source == "traceback" and any(f.function in ("load_custom_node", "execute_prestartup_script",
                                                              "init_external_custom_nodes") for f in block.frames):
            self.facts.import_failures += 1
            return
        if block.source in ("traceback", "message") and not block.message and not block.exception_type and not block.frames:
            return
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
        """File the exception just read; the last of a chain is the one the block reports."""
        exc, self.exc = self.exc, None
        if exc is not None and (exc.type or exc.frames or exc.message):
            self.chain.append(exc)
        if not self.chain:
            return
        *causes, final = self.chain
        block.causes = causes
        if final.frames:
            block.frames = final.frames
        if final.type:
            block.exception_type = final.type
        first = block.message.splitlines()[0] if block.message else None
        longer = first is not None and final.message.startswith(first) and len(final.message) > len(block.message)
        if final.message and (not block.message or longer or block.source in ("traceback", "thread")):
            block.message = final.message

    # ------------------------------------------------------------------ per line
    def feed(self, raw: str, cut: bool) -> None:
        self.n += 1
        if cut:
            self.facts.cut_lines += 1
        if "\0" in raw:
            raw = raw.replace("\0", "")
        segments: tuple[str, ...] | list[str] = (raw,)
        if "\r" in raw:  # a console capture: the bar tqdm redrew in place; its first and last states count
            parts = [p for p in raw.split("\r") if p.strip()]
            segments = parts[:1] + parts[-1:] if len(parts) > 1 else parts
        for segment in segments:
            try:
                text = clean(segment)
                if "earlyoom" in segment and "sending SIG" in segment:  # journald's prefix named the program
                    self._ending("earlyoom " + text.lower(), "earlyoom: " + text)
                    continue
                self._line(text)
            except Exception:  # one odd line costs that line only
                self.mode = None

    def _line(self, text: str) -> None:
        stripped = text.strip()
        if ("Users" in text or "/home/" in text) and (m := _USER_PATH.search(text)):
            name = (m.group(1) or m.group(2) or "").strip()
            if len(name) >= 2 and name.lower() not in _GENERIC_USERS and len(self.facts.user_names) < 16:
                self.facts.user_names.add(name)
        if self.mode == "workflow":
            if stripped.startswith(("## ", "# ")):
                self.mode = None
            else:
                return
        if not stripped:
            self._blank()
            return
        if self.block is not None and self._block_line(text, stripped):
            return
        self._plain(text, stripped)

    def _blank(self) -> None:
        if self.mode == "exc_message":
            self.mode = "after_exc"
        elif self.mode == "message" and self.block is not None and self.block.message:
            self.mode = "report" if self.block.source == "report" else "frames"
        elif self.mode == "validation":
            self.validation_node = None

    def _block_line(self, text: str, s: str) -> bool:
        """Lines that continue the failure being read. ``True`` when the line was used."""
        block, mode = self.block, self.mode
        if block is None:
            return False
        if mode == "validation":
            if m := _VALIDATE_NODE.match(s):
                self._validation_node(m.group(1), m.group(2), s)
                return True
            if (m := _VALIDATE_REASON.match(s)) and self.validation_node is not None:
                node = self.validation_node
                if not node.message:
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
        if mode in ("report", "report_trace") and s.startswith("#"):
            return self._report_heading(s)
        if mode == "report" and (m := _REPORT_FIELD.match(s)):
            self._report_field(m.group(1), m.group(2), s)
            return True
        if mode == "message" and not (s == _TRACEBACK or s.endswith(_TRACEBACK)):
            if s.startswith("File ") or _FRAME.match(text):
                self.mode = "frames"
            elif s.startswith("- **") or s.startswith("## "):
                self.mode = "report"
                return self._block_line(text, s)
            else:
                if len(block.message.splitlines()) < MAX_MESSAGE_LINES and len(block.message) < MAX_MESSAGE_CHARS:
                    block.message = f"{block.message}\n{s}" if block.message else s
                return True
        if s == _TRACEBACK or s.endswith(_TRACEBACK):
            if self.exc is not None:
                self._finish_exception(block)
            self.exc = LoggedException(None, "")
            self.mode = "frames" if self.mode != "report_trace" else "report_trace"
            return True
        if s in _CHAIN:
            if self.exc is not None:
                self._finish_exception(block)
            self.mode = "frames"
            return True
        if mode in ("frames", "report_trace", "exc_message", "after_exc"):
            if m := _FRAME.match(text):
                if self.exc is None:
                    self.exc = LoggedException(None, "")
                if len(self.exc.frames) < MAX_FRAMES:
                    self.exc.frames.append(Frame(m.group(1), int(m.group(2)), m.group(3)))
                elif self.exc.frames:
                    self.exc.frames[-1] = Frame(m.group(1), int(m.group(2)), m.group(3))
                if self.mode in ("exc_message", "after_exc"):
                    self.mode = "frames"
                return True
            if mode == "exc_message" and not _known(s):
                holder: LoggedException | LogFailure = self.exc if self.exc is not None else block
                if len(holder.message.splitlines()) < MAX_MESSAGE_LINES and len(holder.message) < MAX_MESSAGE_CHARS:
                    holder.message = f"{holder.message}\n{s}" if holder.message else s
                return True
            if mode in ("frames", "report_trace") and (m := _EXC_LINE.match(s)) and (self.exc is None or self.exc.frames
                                                                                       or mode == "frames"):
                if self.exc is None:
                    self.exc = LoggedException(None, "")
                self.exc.type, self.exc.message = m.group(1), (m.group(2) or "").strip()
                block.evidence.append(self._ev(s))
                self.mode = "exc_message"
                return True
            if mode in ("frames", "report_trace") and self.exc is not None and self.exc.frames:
                if s.startswith("[Previous line repeated") or set(s) <= set("^~ ") or s.startswith("...<"):
                    return True
                last = self.exc.frames[-1]
                if last.code is None and not _known(s):  # the source line (its indent may be lost to a prefix)
                    last.code = s[:300]
                    return True
                if text.startswith("    ") and not _known(s):
                    return True  # more of a multi-line statement
            if mode == "report_trace" and s.startswith("```"):
                return True
            if mode == "frames" and block.source == "popup" and not self.exc and not _known(s):
                return True
        if mode == "after_exc" and s.startswith("TIPS:"):
            return True
        return False

    def _plain(self, text: str, s: str) -> None:
        """A line outside any failure block. Cheap substring tests gate every pattern: a long
        session is mostly progress bars and model loads."""
        if self.block is not None:
            self._close()
        if "%|" in s:
            self.prompt.last = (self.n, s, "progress")
            if (load := s.find("Requested to load ")) > 0:
                self._facts_line(s[load:], s[load:])
            return
        if "!!!" in s and (m := _EXC_START.search(s)):
            message = m.group(1).split(_TRACEBACK)[0].strip()  # a paste that lost its line breaks
            self._open("exception", s, message=message)
            self.mode = "exc_message" if message else "message"
            self.exc = None
            return
        if s.endswith(_TRACEBACK):
            self._open("traceback", s)
            self.exc = LoggedException(None, "")
            self.mode = "frames"
            return
        if 'File "' in text and _FRAME.match(text):
            self._open("traceback", s)
            self.exc = LoggedException(None, "")
            self.mode = "frames"
            self._block_line(text, s)
            return
        first = s[0]
        if first == "g" and (s == "got prompt" or s.startswith("got prompt ")):
            self._new_prompt(s)
            return
        if first == "P":
            if s.startswith("Prompt executed in "):
                self.prompt.ended, self.prompt.ended_line = "executed", self._ev(s)
                return
            if s.startswith("Processing interrupted"):
                self.prompt.ended, self.prompt.ended_line = "interrupted", self._ev(s)
                return
            if s.startswith("Prompt outputs failed validation"):
                self._open("validation", s)
                self.mode = "validation"
                return
        if first == "E":
            if s.startswith("Exception in thread") and _THREAD.match(s):
                self._open("thread", s)
                self.mode = "frames"
                return
            if s.startswith("Error occurred when executing") and (m := _POPUP.match(s)):
                self._open("popup", s, class_type=m.group(1).strip())
                self.mode = "message"
                return
        if first == "#" and "ComfyUI Error Report" in s:
            self._open("report", s)
            self.mode = "report"
            return
        if first == "F" and s.startswith("Failed to validate prompt") and _VALIDATE.match(s):
            self._open("validation", s)
            self.mode = "validation"
            return
        if first == "G" and s.startswith("Got an OOM, unloading all loaded models"):
            self.prompt.oom_unload = True
            if self.prompt.failures:
                self.prompt.failures[-1].oom_unload = True
                self.prompt.failures[-1].evidence.append(self._ev(s))
            return
        if ": " in s and ("Error" in s or "Exception" in s or "Interrupt" in s) and (m := _EXC_LINE.match(s)) and m.group(2):
            self._open("message", s, exception_type=m.group(1), message=m.group(2).strip())
            self.mode = "exc_message"
            self.exc = LoggedException(m.group(1), m.group(2).strip())
            return
        self._facts_line(text, s)

    def _new_prompt(self, s: str) -> None:
        self.facts.prompt_count += 1
        self.prompt = PromptLog(index=self.facts.prompt_count, started=self._ev(s))
        self.prompts.append(self.prompt)
        self.models.reset()

    def _validation_node(self, class_type: str, node_id: str | None, s: str) -> None:
        block = self.block
        assert block is not None
        if block.class_type is None:
            block.class_type, block.node_id = class_type, node_id
            block.evidence.append(self._ev(s))
            self.validation_node = block
        else:
            extra = LogFailure(source="validation", line=self.n, class_type=class_type, node_id=node_id,
                               evidence=[self._ev(s)])
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

    def _report_heading(self, s: str) -> bool:
        title = s.lstrip("#").strip().lower()
        if title == "stack trace":
            self.mode = "report_trace"
            self.exc = LoggedException(None, "")
        elif title in ("error details", "comfyui error report", "system information", "devices"):
            if self.exc is not None and self.block is not None:
                self._finish_exception(self.block)
            self.mode = "report"
        elif title.startswith("attached workflow"):
            self._close()
            self.mode = "workflow"
        else:  # "## Logs", "## Additional Context": the report ends, the log itself follows
            self._close()
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
        elif name == "Exception Message":
            block.message = value
            block.evidence.append(self._ev(s))
            self.mode = "message"
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

    # ------------------------------------------------------------------ facts outside failures
    def _facts_line(self, text: str, s: str) -> None:
        machine = self.facts.machine
        if s.startswith(_MODEL_LINES) and (line := self.models.feed(s)) is not None:
            if line.kind in LOAD_KINDS:
                self._add_model(ModelLoad(line.model_class, self.n, line.loaded_bytes, line.offloaded_bytes,
                                          line.kind == "partially-loaded", line.staged_bytes))
            self._activity(s, None)
            return
        if "emory" in s and (kind := detect_fallback(s)):
            self.prompt.fallbacks.append((kind, self._ev(s)))
            self._activity(s, {"tiled-vae-decode": "vae-decode", "tiled-vae-encode": "vae-encode"}.get(kind))
            return
        if s.startswith(_LOADER_LINES) or (s.startswith("Using ") and s.endswith("attention in VAE")):
            self._activity(s, "load")
            return
        if _BANNER_HINT.search(s):
            self._banner(s)
            return
        if "main.py" in s and (m := _COMMAND.search(s)):
            self._args(m.group(1), s)
            if not machine.get("python_executable"):
                machine["python_executable"] = s.split("main.py")[0].rsplit(">", 1)[-1]
            return
        if ("capac" in s or "Device limit" in s) and (m := _CAPACITY.search(s)):
            self._capacity(m)
        if _ENDING_HINT.search(s):
            self._ending(s.lower(), s)

    def _banner(self, s: str) -> None:
        machine = self.facts.machine
        if m := _TOTALS.search(s):
            machine["vram_total_bytes"] = int(m.group(1)) * MIB
            machine["ram_total_bytes"] = int(m.group(2)) * MIB
            self.facts.evidence["vram_total_bytes"] = self.facts.evidence["ram_total_bytes"] = self._ev(s)
        elif m := _CGROUP.search(s):
            machine["ram_limit_bytes"] = int(m.group(1)) * MIB
            self.facts.evidence["ram_limit_bytes"] = self._ev(s)
        elif s.startswith("Set vram state to: "):
            machine["vram_state"] = s.split(": ", 1)[1].strip()
        elif m := _DEVICE.match(s):
            self._device(m.group(1), s)
        elif s.startswith("Using directml with device:"):
            machine["device"] = "directml"
            if name := s.split(":", 1)[1].strip():
                machine["gpu_name"] = name
            self.facts.evidence["device"] = self._ev(s)
        elif s.startswith("Using ") and "attention" in s and "VAE" not in s:
            machine.setdefault("attention", s[len("Using "):])
        elif s.startswith("** Platform:"):
            self._os(s.split(":", 1)[1].strip(), s)
        elif s.startswith("** Python executable:"):
            machine["python_executable"] = s.split(":", 1)[1].strip()
        elif s.startswith("** ComfyUI Path:"):
            machine["comfyui_path"] = s.split(":", 1)[1].strip()
        elif s.startswith("Mac Version"):
            self._os("macOS", s)
        elif s.startswith("AMD arch:"):
            machine["amd_arch"] = s.split(":", 1)[1].strip()
        else:
            for pattern, key in _VERSION_LINES:
                if m := pattern.match(s):
                    self._version(key, m.group(1).strip(), s)
                    if key == "python" and "python_build" not in machine:
                        machine["python_build"] = s
                    return

    def _ending(self, low: str, s: str) -> None:
        kind = None
        if low.endswith(">pause") or any(p in low for p in _PAUSE):
            kind = "pause"
        elif any(p in low for p in _MEMORY_KILL) or ("earlyoom" in low and "sending sig" in low):
            kind = "memory-kill"
        elif any(p in low for p in _COMMIT_EXHAUSTED):
            kind = "commit-exhausted"
        elif re.search(r"(?:^|\s)killed(?:\s|$)", low) and (len(s) < 24 or "python" in low or "main.py" in low):
            kind = "killed"
        elif "exited with code 137" in low or "exit code 137" in low or "exit code -9" in low:
            kind = "killed"
        elif any(p in low for p in _CRASH):
            kind = "crash"
        if kind is None:
            return
        if self.facts.endings and self.facts.endings[-1].kind == kind and self.facts.endings[-1].line.number >= self.n - 3:
            return  # "...>pause" and "Press any key" are one ending
        running = self.prompt.started is not None and self.prompt.ended is None and not self.prompt.failures
        self.facts.endings.append(Ending(kind, self._ev(s), self.prompt.index if running else None))
        del self.facts.endings[:-8]

    def _add_model(self, model: ModelLoad) -> None:
        if len(self.prompt.models) < MAX_MODELS:
            self.prompt.models.append(model)

    def _device(self, value: str, s: str) -> None:
        machine = self.facts.machine
        device, _, rest = value.partition(" ")
        name, _, allocator = rest.rpartition(" : ")
        if not name:
            name, allocator = rest, ""
        machine["device"] = "directml" if device.startswith("privateuseone") else device
        if name.strip():
            machine["gpu_name"] = name.strip()
        if allocator.strip():
            machine["allocator"] = allocator.strip()
        if device == "mps":
            self._os("macOS", s)
        self.facts.evidence["device"] = self._ev(s)

    def _capacity(self, m: re.Match[str]) -> None:
        groups = [g for g in m.groups() if g]
        if len(groups) >= 2 and "vram_total_from_error_bytes" not in self.facts.machine:
            value = float(groups[0]) * (1024**3 if groups[1] == "G" else MIB)
            if 0 < value < 2**50:
                self.facts.machine["vram_total_from_error_bytes"] = int(value)
                self.facts.evidence["vram_total_from_error_bytes"] = self._ev(m.string)

    def _version(self, key: str, value: str, s: str) -> None:
        if value and key not in self.facts.versions:
            self.facts.versions[key] = value[:80]
            self.facts.evidence[f"version_{key}"] = self._ev(s)

    def _args(self, rest: str, s: str) -> None:
        tokens = rest.replace("main.py", " ").split()
        args = [t for t in tokens if t and not t.lower().endswith(("main.py", "python.exe"))]
        if args and not self.facts.args:
            self.facts.args = args[:40]
            self.facts.evidence["args"] = self._ev(s)

    def _os(self, name: str, s: str) -> None:
        if name and "os" not in self.facts.machine:
            self.facts.machine["os"] = name
            self.facts.evidence["os"] = self._ev(s)

    def finish(self) -> LogFacts:
        self._close()
        facts = self.facts
        facts.prompts = list(self.prompts)
        facts.lines = self.n
        return facts


def _known(s: str) -> bool:
    """A line that starts something of its own (so it cannot continue an exception's message)."""
    return bool(s == "got prompt" or s.startswith(("Prompt executed in", "Got an OOM", "Requested to load", "loaded ",
                                                   "!!!", "Traceback (", "Error occurred when executing", "# ComfyUI",
                                                   "File \"", "During handling", "The above exception"))
                or _PROGRESS.search(s))


def _running(m: re.Match[str]) -> bool:
    """A progress bar that has not reached its total."""
    return _count(m.group(2), m.group(3)) < _count(m.group(4), m.group(5))


def _count(number: str, suffix: str) -> float:
    try:
        value = float(number)
    except ValueError:
        return 0.0
    return value * {"k": 1e3, "M": 1e6, "G": 1e9}.get(suffix, 1)


def _merge(into: LogFailure, other: LogFailure) -> None:
    """Two reports of one failure: keep the richer fields of each."""
    into.class_type = into.class_type or other.class_type
    into.node_id = into.node_id or other.node_id
    into.exception_type = into.exception_type or other.exception_type
    if len(other.message) > len(into.message) and _message_key(other.message) == _message_key(into.message):
        into.message = other.message
    into.message = into.message or other.message
    if len(other.frames) > len(into.frames):
        into.frames = other.frames
    into.causes = into.causes or other.causes
    into.oom_unload = into.oom_unload or other.oom_unload
    into.before = into.before or other.before
    into.before_hint = into.before_hint or other.before_hint
    if into.source in ("popup", "report", "message") and other.source not in ("popup", "report", "message"):
        into.source, into.line = other.source, other.line
    into.evidence = (into.evidence + [e for e in other.evidence if e not in into.evidence])[:12]


def read_log(source: str | bytes | BinaryIO) -> LogFacts:
    """Everything the log says. Never raises on odd input: a line it cannot read costs that line."""
    reader = _Reader()
    for line, cut in iter_lines(source):
        reader.feed(line, cut)
    return reader.finish()
