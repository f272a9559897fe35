"""Read a ComfyUI log: what the console output (or ``comfyui.log``, the Desktop app's log, a pasted
error report) says about the machine, each prompt, the models it loaded, ComfyUI's silent
fallbacks and every failure, including a process that simply stopped.

Only reading here, no judgement (that is :mod:`memprobe.logs.explain`). Any input is accepted: text or
bytes in any encoding (UTF-8, UTF-16 from PowerShell, a Windows code page), CRLF, ANSI colours,
the prefixes of every logger and launcher (timestamps, ``ERROR:root:``, ``[info]``, docker-compose,
journald), truncated pastes, pastes flattened onto one line, binary junk. Memory stays bounded whatever
the size: lines come in pieces of at most :data:`memprobe.logs.text.MAX_LINE_CHARS`, and one longer than
:data:`memprobe.logs.text.FLAT_MAX_CHARS` is cut (:mod:`memprobe.logs.text` turns bytes into clean lines),
and only the last :data:`MAX_PROMPTS` prompts are kept (and the last :data:`MAX_FAILED_PROMPTS` before them that
failed: a session's failure is not forgotten because many prompts ran after it).

The reader is one state machine in five parts: this module dispatches each line; a failure
block is followed by :class:`~memprobe.logs.blocks.BlockReading` (its :class:`~memprobe.logs.blocks.Mode`
says what the next line can be); a failure said on a line of its own (a report, a refused prompt, the frontend's
dialog, an API client's payload, a memory error pasted alone) is read by :class:`~memprobe.logs.dialogs.DialogReading`; the start-up banner by
:class:`~memprobe.logs.machine.MachineReading`; the prompts' and the process' life (a prompt queued, its progress
bars, its end; the server up; how the process ended) by :class:`~memprobe.logs.lifecycle.EndingReading`.
The records it fills are in :mod:`memprobe.logs.records`, the patterns in :mod:`memprobe.logs.patterns`.

>>> facts = read_log("got prompt\\n!!! Exception during processing !!! Allocation on device\\n")
>>> facts.prompts[-1].failures[0].message
'Allocation on device'
"""

from __future__ import annotations

import re
from collections import deque
from typing import BinaryIO

from ..judging.failures import PLANNED_TILING, detect_fallback, memory_sign
from .blocks import Mode
from .dialogs import LOOSE_LINES, DialogReading, one_line_dialog
from .endings import SHELL_COMMAND, ending_hint
from .kills import OOM_KILLED_FALSE
from .lifecycle import EndingReading
from .machine import MachineReading
from .modellog import LOAD_KINDS, ModelLogLine, ModelLogReader
from .patterns import (  # what the reader's lines are tested against
    _ANSWERED,
    _BANNER_HINT,
    _BANNER_STARTS,
    _CAPACITY,
    _COMMAND,
    _COMPOSE,
    _CONTAINER_EXIT,
    _CONTAINER_PROMPT,
    _DISPLAYED,
    _EXC_START,
    _FAILED,
    _FAULT_FRAME,
    _FRAME,
    _GENERIC_USERS,
    _LAUNCH,
    _LOADER_LINES,
    _LOGGED_ERROR,
    _LOGURU_ERROR,
    _MANAGER_LINES,
    _MARKUP,
    _MODEL_LINES,
    _NOT_A_FAILURE,
    _NOTEBOOK_TRACEBACK,
    _ONE_SHOT,
    _QUIET_LEVEL,
    _SAYS_FAILED,
    _STARTUP,
    _TRACEBACK,
    _USER_PATH,
    _VAE_MODEL,
    _VAE_WORK,
)
from .records import Ending, Frame, LogFacts, LogFailure, LoggedException, LogLine, ModelLoad, PromptLog
from .shapes import paste_lines
from .stamps import Stamps
from .text import FENCES, TAKEN, clean

__all__ = [
    "read_log",
    "LogFacts",
    "PromptLog",
    "LogFailure",
    "LoggedException",
    "Frame",
    "LogLine",
    "ModelLoad",
    "Ending",
    "MAX_PROMPTS",
    "MAX_FAILED_PROMPTS",
]

MAX_PROMPTS = 32
MAX_FAILED_PROMPTS = 8

MAX_MODELS = 48
MAX_FALLBACKS = 8
"""A prompt keeps the first 8 of each kind of ComfyUI's recoveries (and counts them all)."""
MAX_CRASH_FRAMES = 32
_CLEANED_LINES = 4096
_CLEANED_CHARS = 256
"""How many lines, of at most how many characters, a reader keeps cleaned (about 3 MiB at the very most)."""


class _Reader(DialogReading, MachineReading, EndingReading):
    def __init__(self) -> None:
        self.facts = LogFacts()
        self.prompts: deque[PromptLog] = deque(maxlen=MAX_PROMPTS)
        self.prompt = PromptLog(index=0)
        self.prompts.append(self.prompt)
        self.failed_earlier: deque[PromptLog] = deque(maxlen=MAX_FAILED_PROMPTS)
        """Prompts that failed and then left :attr:`prompts` (a long session ran on after them)."""
        self.n = 0
        self.block: LogFailure | None = None
        self.exc: LoggedException | None = None
        self.mode: Mode | None = None
        """What the current block expects next (``None``: no block, or its end)."""
        self.chain: list[LoggedException] = []
        """The exceptions of the block read so far (a chained traceback has several)."""
        self.validation_node: LogFailure | None = None
        self.validation_extras: list[LogFailure] = []
        self.bare_class: tuple[int, str] | None = None
        """The last line that was only a node's class name (the frontend's dialog puts it above
        the message): its number and the name."""
        self.thread_refused: tuple[int, str] | None = None
        """The last line where a thread was refused ("pthread_create failed (EPERM)", the JVM's warning): its number
        and the line."""
        self.listed_node: tuple[int, str, str, str] | None = None
        """The last ``* <class> <id>:`` line outside a validation block (its heading cut off): its number, the node's
        class and id, the line, for the reasons listed under it."""
        self.vae_requested = False
        """The last model line asked for a VAE (its "loaded ..." line follows)."""
        self.planned_tiling: LogLine | None = None
        """Newer ComfyUI's "VAE decode needs more than the free VRAM; tiling directly." (the retry's warning follows)."""
        self.aimdo_lines: deque[int] = deque(maxlen=64)
        """Lines of comfy-aimdo (dynamic VRAM): its own log, its frames, a model staged for it."""
        self.ignored_at = -2
        """The line of Python's "Exception ignored in: ..." (the traceback after it was swallowed)."""
        self.launched_at = 0
        """The line where a shell's prompt launched ComfyUI (``C:\\ComfyUI>python main.py``), if one did."""
        self.ended = False
        """The log has been read to its end (what is still open was cut there)."""
        self.restart_asked = 0
        """The line of ComfyUI-Manager's "Restarting...", until the start-up it asked for begins."""
        self.startup_at = 0
        """The line of the last of a start-up's first lines (:data:`_STARTUP`)."""
        self.served = False
        """ComfyUI said it serves ("To see the GUI go to: ...", "Starting server"): its start-up had finished."""
        self.stopped = False
        """Ctrl+C stopped the server, and it has not served again since: what fails now is the launcher's."""
        self.service_at = -8
        """The line of a launcher's error panel that named ComfyUI's service (Intel AI Playground's ``Service:
        comfyui-backend``): its ``Exit Code:`` follows."""
        self.fields_above: list[tuple[int, str]] = []
        self.api_class: tuple[int, str] | None = None
        """The last line that was an error payload's class alone (``"node_type": "KSampler",``): its number, the class."""
        self.said_failed: LogFailure | None = None
        """The first line that says something failed (the failure of a paste with nothing ComfyUI prints in it)."""
        self.last_said: tuple[int, str] | None = None
        """The last line that said an error or a failure (its number, its text): another program's last word."""
        self.said_through = 0
        """The last line of that line's message (rich's handler wraps a long one onto lines indented under it)."""
        self.lead = 0
        """Lines before the paste's first (blank, a Markdown fence, ``<details>``): "the top of a paste" is after them."""
        self.texts = 0
        """Lines with text read so far (a fence and blank lines aside), up to 2 (more is "more than one")."""
        self.first_text: tuple[int, str] | None = None
        """The first of them: its number and (the start of) its text."""
        self.models = ModelLogReader()
        """Pairs each load line with the ``Requested to load`` before it (``memprobe.logs.modellog``)."""
        self.width = 0
        """The length of the line before the one being read: a console wraps at its width, and a line that long
        may go on in the next (``WRAP_WIDTH``)."""
        self.cut_frame: str | None = None
        """A traceback's frame line that is not whole (a console wrapped it): the next line may complete it."""
        self.notebook_frames = False
        """The traceback being read is IPython's (Jupyter's, Colab's): its frames are not Python's ``File`` lines."""
        self.frame_indent = 0
        """The indent of the traceback's last frame line."""
        self.flat_code = False
        """Its code line was not indented under it (a paste that lost its indents): more code may follow so."""
        self.displayed: tuple[LogLine, str] | None = None
        """The last line that named an exception's type alone after what was being done (:data:`_DISPLAYED`)."""
        self.stamps = Stamps()
        """Each line's time stamp: whether the paste stops inside one (:attr:`LogFacts.copy_cut`)."""
        self.cleaned: dict[str, str] = {}
        """Short lines already cleaned, and what :func:`clean` made of them: a long log repeats most of its lines
        (each prompt's model loads, bars, "got prompt"), and cleaning is a third of reading one."""

    def _activity(self, text: str, hint: str | None) -> None:
        self.prompt.last = (self.n, text, hint)

    def feed(self, raw: str, cut: bool) -> None:
        self.n += 1
        if raw is TAKEN:  # (a line the paste's shape added: counted, not read)
            return
        self.stamps.line(self.n, raw)
        if not self.facts.gpu_named and GPU_SIGN.search(raw) is not None:
            self.facts.gpu_named = True
        if cut:
            self.facts.cut_lines += 1
        if "\0" in raw:
            raw = raw.replace("\0", "")
        segments: tuple[str, ...] | list[str] = (raw,)
        if "\r" in raw:  # a console capture: the bar tqdm redrew in place; its first and last states count
            parts = [p for p in raw.split("\r") if p.strip()]
            segments = parts[:1] + parts[-1:] if len(parts) > 1 else parts
        if (
            raw.find("|", 0, 64) >= 0
            and (raw[:1].isalpha() or raw[:1] == ">")
            and "container" not in self.facts.machine
            and _COMPOSE.match(raw)
        ):
            self.facts.machine["container"] = "docker"  # docker compose's "comfyui  | " before each line
        for segment in segments:
            try:
                text = self.cleaned.get(segment)
                if text is None:
                    text = clean(segment)
                    if len(segment) <= _CLEANED_CHARS:
                        if len(self.cleaned) >= _CLEANED_LINES:  # a log whose lines are all new (stamped) costs
                            self.cleaned.clear()  # a look-up each; one that repeats itself fills this again
                        self.cleaned[segment] = text
                if ("earlyoom" in segment and "sending SIG" in segment) or (
                    "systemd-oomd" in segment and "Killed /" in segment
                ):  # journald's prefix named the program (an older systemd-oomd gives no reason on its line)
                    program = "earlyoom" if "earlyoom" in segment else "systemd-oomd"
                    self._ending(f"{program}: {text.lower()}", f"{program}: {text}")
                    continue
                if self.n > LOOSE_LINES:  # past a paste's length: its level no longer matters
                    self._line(text)
                else:
                    self._leveled_line(segment, text)
            except Exception:  # one odd line costs that line only
                self.mode = None
        self.width = len(raw)

    def _leveled_line(self, segment: str, text: str) -> None:
        """A line near the top, where its logger's level says what a loose error line is: one a logger warned of
        ("[warning] ... CUDA error") is not where a paste stopped; one Python's logging gave the level ERROR
        (a pack's "ERROR:root:Exporting to ONNX failed") is an error whatever its words, one the Desktop app logged at
        "[error]" when it says something failed."""
        loose, first = self.facts.last_loose, self.facts.loose_error
        outside = self.block is None and self.mode is None  # (not a traceback's line, nor a dialog's)
        self._line(text)
        level = segment[: max(segment.find(text), 0)]
        if self.facts.last_loose is not loose and "warn" in level.lower():
            self.facts.last_loose = loose
            if _NOT_A_FAILURE.search(text):  # a warning that it went on another way ("trying Latent2RGB fallback")
                self.facts.loose_error = first
        if (
            self.said_failed is None
            and outside
            and self.block is None
            and _SAYS_FAILED.search(text)
            and not _NOT_A_FAILURE.search(text)
            and not _QUIET_LEVEL.search(level)
        ):  # ("Failed to enqueue job for processing"; not a logger's warning that it will retry)
            self.said_failed = LogFailure("message", self.n, message=text, evidence=[self._ev(text)])
        if (
            outside
            and self.block is None
            and (_FAILED.search(text) or " not found" in text)
            and not _NOT_A_FAILURE.search(text)
            and not _QUIET_LEVEL.search(level)  # (uvicorn's "[INFO    ] uvicorn.error - Started server process")
        ):
            # (its words an error's, a failure's or a thing "not found": not a list of keys "missing")
            self.last_said, self.said_through = (self.n, text), self.n
        if (
            self.facts.loose_error is None
            and text
            and (
                (segment[:6] == "ERROR:" and _LOGGED_ERROR.match(segment))
                or (("[error]" in level.lower() or _LOGURU_ERROR.search(level)) and _FAILED.search(text))  # the Desktop
                # app's "[error] Error creating ...", loguru's "| ERROR    | worker:run:236 - Failed to run ..."
            )
        ):
            self.facts.loose_error = LogFailure("message", self.n, message=text, evidence=[self._ev(text)])
            self.facts.last_loose = self.facts.loose_error

    def _line(self, text: str) -> None:
        stripped = text.strip()
        if "aimdo" in text or "dynamic VRAM loading" in text:
            self.aimdo_lines.append(self.n)
        if ("Users" in text or "/home/" in text) and (m := _USER_PATH.search(text)):
            name = (m.group(1) or m.group(2) or "").strip()
            if len(name) >= 2 and name.lower() not in _GENERIC_USERS and len(self.facts.user_names) < 16:
                self.facts.user_names.add(name)
        if self.mode is Mode.WORKFLOW:
            if stripped.startswith(("## ", "# ")):
                self.mode = None
            else:
                return
        if not stripped:
            self._blank()
            if not self.texts:
                self.lead = self.n
            return
        if self.last_said is not None and text[:4] == "    " and self.said_through == self.facts.last_text:
            self.said_through = self.n  # (its message wrapped onto an indented line)
        self.facts.last_text = self.n
        if self.texts < 2:  # the paste's first lines: where it begins, and whether it is one line
            fence = stripped.startswith(FENCES) or _MARKUP.match(stripped)
            if not self.texts and fence:
                self.lead = self.n  # a fence or a <details> before the paste's first line: the paste begins after it
                return
            if not fence:  # (the fence that closes a one-line paste leaves it one line)
                self.texts += 1
                if self.texts == 1:
                    self.first_text = (self.n, stripped[:512])
        if self.block is not None and self._block_line(text, stripped):
            return
        self._plain(text, stripped)

    def _blank(self) -> None:
        if self.mode == Mode.EXC_MESSAGE:
            self.mode = Mode.AFTER_EXC
        elif self.mode == Mode.MESSAGE and self.block is not None and self.block.message:
            if self.block.exception_type == "panic":  # (a newer Rust's panic, its message below it: its causes may
                self.mode = Mode.AFTER_EXC  # follow, as after an older one's quoted message)
            else:
                self.mode = Mode.REPORT if self.block.source == "report" else Mode.FRAMES
        elif self.mode == Mode.VALIDATION:
            self.validation_node = None

    def _plain(self, text: str, s: str) -> None:
        """A line outside any failure block. Cheap substring tests gate every pattern: a long
        session is mostly progress bars and model loads."""
        if self.block is not None:
            self._close()
        if self.fields_above and s[:4] != "- **":
            self.fields_above = []
        if "%|" in s:
            if (exception := self._progress_bar(s)) is None:
                return
            s = exception
        if "pthread_create failed" in s:
            self.thread_refused = (self.n, s)
        if s.startswith(_MANAGER_LINES) and len(s) < 160 and "!!!" not in s and "rror" not in s:
            self._facts_line(text, s)  # the model manager's own line: half of a long log, none of the rest applies
            return
        if s[:6] == "Using " and s.endswith("attention in VAE"):  # ("Using split attention in VAE"): loading it
            self._activity(s, "load")
            return
        if self._exception_start(text, s) or self._lifecycle(s) or self._failure_line(text, s):
            return
        self._title(s)
        if ("OOMKilled" in s and OOM_KILLED_FALSE.search(s)) or (s[:7] == "Reason:" and s[7:].strip() == "Error"):
            self.facts.machine["oom_killed"] = False  # docker's state, kubectl's "Reason: Error" (not OOMKilled): its
            # memory cgroup's OOM killer did not end the container
        elif s.endswith("with result 'timeout'.") and "Failed" in s:  # systemd's SIGKILL when a stop timed out
            self.facts.machine["oom_killed"] = False  # ("zerotier-one.service: Failed with result 'timeout'.")
        if "137" in s and ("exit" in s or "Exited (" in s or "non-zero code" in s) and _CONTAINER_EXIT.search(s):
            self.facts.machine.setdefault("container", "docker")  # a container's exit code after SIGKILL
        elif ("@" in s or s.startswith("---> Running in ")) and _CONTAINER_PROMPT.search(s):
            self.facts.machine.setdefault("container", "docker")
        self._facts_line(text, s)

    def _exception_start(self, text: str, s: str) -> bool:
        """An exception's first line, a traceback's, a crash's stack: the block it opens is read from here on."""
        if s.startswith('Error loading "') and ".dll" in s:  # torch's DLL error alone (WinError 126's message)
            self._open("message", s, message=s, exception_type="OSError")
            self._close()
            return True
        if ("VAE" in s or "vae" in s or "latent" in s) and (m := _VAE_WORK.search(s)) and not memory_sign(s):
            coding = (m.group(1) or m.group(2)).lower()
            self._activity(s, "vae-decode" if coding == "de" else "vae-encode")  # a pack's own decode
        if "!!!" in s and (m := _EXC_START.search(s)):
            if m.start() > 0:  # a paste that lost its line breaks: the last thing logged before is on this line
                before = s[: m.start()]
                if (cut := max(before.rfind(k) for k in _LOADER_LINES)) >= 0:
                    self._activity(before[cut:].strip(), "load")
            message = m.group(1).split(_TRACEBACK)[0].strip()  # a paste that lost its line breaks
            self._open("exception", s, message=message)
            self.mode = Mode.EXC_MESSAGE if message else Mode.MESSAGE
            self.exc = None
            return True
        notebook = _NOTEBOOK_TRACEBACK.match(s) if s[-1:] == ")" else None  # IPython's head, the type before it
        if s.endswith(_TRACEBACK) or notebook is not None:
            block = self._open("traceback", s)
            headed = self.displayed if self.displayed is not None and self.displayed[0].number == self.n - 1 else None
            if headed is not None:  # its type, said above it: the line is evidence too
                block.evidence.insert(0, headed[0])
            said = headed[1] if headed is not None else notebook.group(1) if notebook is not None else None
            self.exc = LoggedException(said, "")
            self.mode = Mode.FRAMES
            self.notebook_frames = notebook is not None
            return True
        if s[-1:] in "nrt" and (m := _DISPLAYED.match(s)):  # (…Error, …Exception, …Interrupt)
            self.displayed = (self._ev(s), m.group(1))  # the traceback it heads follows
        if 'File "' in text and (m := _FAULT_FRAME.match(text)):
            crash = self.facts.endings[-1] if self.facts.endings else None
            if crash is None or crash.kind != "crash" or crash.line.number < self.n - 64:
                self._ending(s.lower(), s, kind="crash")  # faulthandler's stack, its header cut from the paste
                crash = self.facts.endings[-1]
            if len(crash.frames) < MAX_CRASH_FRAMES:
                crash.frames.append(Frame(m.group(1), int(m.group(2)), m.group(3)))
            return True
        if 'File "' in text and _FRAME.match(text):
            self._open("traceback", s)
            self.exc = LoggedException(None, "")
            self.mode = Mode.FRAMES
            self._block_line(text, s)
            return True
        return False

    def _facts_line(self, text: str, s: str) -> None:
        machine = self.facts.machine
        if s.startswith(_MODEL_LINES) and (line := self.models.feed(s)) is not None:
            if line.kind == "requested" and line.model_class and _VAE_MODEL.search(line.model_class):
                self._activity(s, "vae-decode" if self.prompt.sampled else "vae-encode")  # a VAE loads to run
                self.vae_requested = True
                return
            if line.kind in LOAD_KINDS and self.vae_requested:
                self.vae_requested = False
                self._add_model(self._model_load(line))
                return  # the VAE's own load: what it was loaded for is still under way
            self.vae_requested = False
            if line.kind in LOAD_KINDS:
                self._add_model(self._model_load(line))
            self._activity(s, None)
            return
        if ("emory" in s or "OOMed" in s or "VRAM " in s) and (kind := detect_fallback(s)):
            count = self.prompt.fallback_counts[kind] = self.prompt.fallback_counts.get(kind, 0) + 1
            planned = self.planned_tiling
            said = (
                planned if planned is not None and planned.number >= self.n - 3 and kind.startswith("tiled-") else None
            )
            if count <= MAX_FALLBACKS:  # (attention retried in slices: a line per step, all session long)
                self.prompt.fallbacks.append((kind, said or self._ev(s)))  # (its estimate's line, where it chose tiles)
            self._activity(s, {"tiled-vae-decode": "vae-decode", "tiled-vae-encode": "vae-encode"}.get(kind))
            return
        if PLANNED_TILING in s:  # newer ComfyUI: its estimate, not an attempt, chose tiles
            self.planned_tiling = self._ev(s)
            return
        if s.startswith(_LOADER_LINES) or (s.startswith("Using ") and s.endswith("attention in VAE")):
            self._activity(s, "load")
            return
        if "HTTP/" in s and _ANSWERED.search(s):  # a server around ComfyUI answered the request its work was for
            self.prompt.answered = self.n
            return
        if ending_hint(low := s.lower()):
            self._ending(low, s)
        if (s[1:3] == ":\\" or s.startswith(("(", "PS ")) or "@" in s[:48]) and (m := SHELL_COMMAND.match(low)):
            command = low[m.end() :]
            if self.launched_at and self.n > self.launched_at + 2 and not command.startswith("pause"):
                self._ending(low, s, kind="exited")  # what it launched had printed, then returned to the shell
            self.launched_at = (
                self.n if _LAUNCH.search(command) and not _ONE_SHOT.search(command) else 0
            )  # (a .bat echoes its commands this way)
        if s.startswith("Restarting..."):  # ComfyUI-Manager restarts ComfyUI (after an install): no ending
            self.restart_asked = self.n
        if s.startswith(_STARTUP):
            if self._running(or_active=True) and self._active_since(self.startup_at) and not self.restart_asked:
                self._ending(low, s, kind="restarted")  # a start-up in mid-prompt: it had ended
            self.startup_at, self.restart_asked = self.n, 0
        if s.startswith(_BANNER_STARTS) or _BANNER_HINT.search(s):
            self._banner(s)
            return
        if "main.py" in s and (m := _COMMAND.search(s)):
            self._args(m.group(1), s)
            if not machine.get("python_executable"):
                machine["python_executable"] = s.split("main.py")[0].rsplit(">", 1)[-1]
            return
        if ("capac" in s or "Device limit" in s) and (m := _CAPACITY.search(s)):
            self._capacity(m)

    def _model_load(self, line: ModelLogLine) -> ModelLoad:
        partial = line.kind == "partially-loaded"
        return ModelLoad(
            line.model_class,
            self.n,
            line.loaded_bytes,
            line.offloaded_bytes,
            partial,
            line.staged_bytes,
            line.usable_bytes,
        )

    def _add_model(self, model: ModelLoad) -> None:
        if len(self.prompt.models) < MAX_MODELS:
            self.prompt.models.append(model)

    def finish(self) -> LogFacts:
        self.ended = True
        self._close()
        facts = self.facts
        if facts.loose_error is None and not facts.endings and not self._printed():
            # a paste of nothing ComfyUI prints: the line that says what failed
            dialog = one_line_dialog(*self.first_text) if self.texts == 1 and self.first_text is not None else None
            facts.loose_error = dialog or self.said_failed
        elif (
            facts.loose_error is None
            and not facts.endings
            and not facts.prompt_count
            and not self.prompt.failures
            and (said := self.last_said) is not None
            and self.said_through >= facts.last_text
        ):  # another program's work, then its last line says what failed ("[FACEFUSION.CORE] Merging video failed")
            facts.loose_error = LogFailure("message", said[0], message=said[1], evidence=[LogLine(*said)])
        for ending in facts.endings:  # its stack follows a crash line; what it was staging precedes it
            if ending.kind == "crash":
                at = ending.line.number
                ending.in_dynamic_vram = any(at - 2 <= n <= at + 12 for n in self.aimdo_lines)
        facts.prompts = [*self.failed_earlier, *self.prompts]
        facts.lines = self.n
        facts.copy_cut = self.stamps.cut_at()
        return facts


GPU_SIGN = re.compile(
    r"cuda|gpu|vram|nvidia|rocm|\bhip\b|\bmps\b|xpu|torch|comfy|radeon|geforce|directml|vulkan|opencl|metal\b"
    r"|tensorflow|tinygrad|\bjax\b|\bmlx\b|onnx|paddle|mxnet|theano|keras|ggml|llama|\bnpu\b|zluda|cudnn|cublas"
    r"|\bd3d1[12]\b|device memory|tensor|dram buffer|outofmemoryerror"
    r"|rendering error|opengl|glerror|gl_out_of_memory|glhardware"
    r"|\bvae\b|lora|sampler|diffusion|latent|\bunet\b|safetensors|got prompt|prompt executed"  # (ComfyUI's words,
    r"|exception during processing|error occurred when executing",  # where a paste has no other)
    re.IGNORECASE,
)
"""A GPU, its stack (CUDA, ROCm, MPS, XPU, DirectML, Vulkan, OpenCL, Metal), a framework that runs on it, or ComfyUI,
named anywhere in a log."""


def read_log(source: str | bytes | BinaryIO) -> LogFacts:
    """Everything the log says. Never raises on odd input: a line it cannot read costs that line."""
    reader = _Reader()
    for line, cut in paste_lines(source):
        reader.feed(line, cut)
    return reader.finish()
