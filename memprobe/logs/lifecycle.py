"""The life of ComfyUI's process and of its prompts as the reader meets it: a prompt queued, run, finished or
interrupted, the server up, a pack that failed to import at start-up, and how the process ended — whether a prompt
was running, whether anything of ComfyUI's was printed yet, and the ending filed
(:func:`memprobe.logs.endings.ending_kind` names it). :class:`EndingReading` is the reader's part that reads them."""

from __future__ import annotations

import re
from collections import deque
from typing import TYPE_CHECKING, Any

from ..judging.failures import memory_gate
from .blocks import Mode
from .endings import ENDING_HINT, backend_exit_kind, ending_kind, killed_on_bar
from .modellog import ModelLogReader
from .patterns import _EXECUTING, _INTERRUPT_REQUESTS, _POPUP, _THREAD, _VAE_BAR
from .records import Ending, Frame, LogFacts, LogFailure, LogLine, PromptLog, bar_finished
from .text import clean

__all__ = ["EndingReading"]

_TRITON_OFF = "A matching Triton is not available"
"""xformers' line before the traceback of its failed ``import triton`` (older releases print it whole; newer ones say
``Error caught was: ...``): it runs without its Triton kernels, nothing failed."""
_OWN_KILL = ("WORKER TIMEOUT", "NO MERCY")
"""A server's words before it kills a worker of its own that did not answer in time (gunicorn's arbiter: "WORKER TIMEOUT
(pid:7)", then "... was sent SIGKILL!" or "Worker with pid 7284 was terminated due to signal 9"; uWSGI's master:
"... is taking too much time to die...NO MERCY !!!", then "... died, killed by signal 9"): the timeout is the failure,
not the kill."""
_SERVER_KILLS = ("was sent sigkill", "killed by signal 9", "terminated due to signal 9")
"""The server's words for its kill of a worker (gunicorn's arbiter, uWSGI's master), lower-cased."""
_LABEL_MAX = 80
"""A progress bar's own label (``Steps:``, ``Sampling 4 frames``) is shorter; a longer one holds what was printed
before the bar on its line."""


class EndingReading:
    facts: LogFacts
    prompt: PromptLog
    prompts: deque[PromptLog]
    failed_earlier: deque[PromptLog]
    models: ModelLogReader
    n: int
    block: LogFailure | None
    mode: Mode | None
    launched_at: int
    served: bool
    stopped: bool
    service_at: int
    ignored_at: int

    if TYPE_CHECKING:  # the reader's

        def _ev(self, text: str) -> LogLine: ...
        def _open(self, source: str, text: str, **fields: Any) -> LogFailure: ...
        def _close(self) -> None: ...
        def _popup(self, s: str, m: re.Match[str]) -> None: ...
        def _activity(self, text: str, hint: str | None) -> None: ...
        def _plain(self, text: str, s: str) -> None: ...
        def _facts_line(self, text: str, s: str) -> None: ...

    def _lifecycle(self, s: str) -> bool:
        """A prompt's and the server's life: a prompt queued, run, finished, interrupted; the server up, its exit;
        the old error dialog's first line."""
        first = s[0]
        if any(w in s for w in _OWN_KILL):
            self._timed_out_worker()
        if first == "g" and (s == "got prompt" or s.startswith("got prompt ")):
            self._new_prompt(s)
            return True
        if first == "P":
            if s.startswith("Prompt executed in "):
                self.prompt.ended, self.prompt.ended_line = "executed", self._ev(s)
                self.prompt.running = None
                return True
            if s.startswith("Processing interrupted"):
                self._interrupted(s)
                return True
            if s.startswith("Python process exited with code 1 "):  # the Desktop app: its server raised and ended
                self._open("message", s, message=s)
                self._close()
                return True
            if s.startswith("Prompt outputs failed validation"):
                self._open("validation", s)
                self.mode = Mode.VALIDATION
                return True
        if first in "ST" and s.startswith(("To see the GUI go to", "Starting server")):
            self.served, self.stopped = True, False
        if first == "S" and s.startswith("Service: ") and "comfyui" in s.lower():
            self.service_at = self.n
        if first == "E" and s.startswith("Executing node ") and (m := _EXECUTING.match(s)):
            self.prompt.running = (m.group(2), m.group(1))
            self._activity(s, None)
            return True
        if first == "A" and s.startswith(_TRITON_OFF):
            self.ignored_at = self.n  # (the traceback on the next line is one xformers caught)
            return True
        if first in "Ee":
            if s.startswith("Exit Code: ") and self.service_at >= self.n - 3:  # the panel's "Exit Code: Unknown"
                self._ending(s.lower(), s, kind=backend_exit_kind(s.lower()))
                return True
            if s.startswith("Exception ignored in") or s.endswith("Exception in ASGI application"):
                self.ignored_at = self.n  # Python swallowed it (a __del__, a callback), or a web request's (uvicorn's,
                return True  # in the Gradio apps built on ComfyUI's backend): no failure of a run
            if s.startswith("Exception in thread") and _THREAD.match(s):
                self._open("thread", s)
                self.mode = Mode.FRAMES
                return True
            if s[:29].lower() == "error occurred when executing" and (m := _POPUP.match(s)):
                self._popup(s, m)
                return True
        elif "rror occurred when executing" in s[:36] and (m := _POPUP.match(s)):  # after a mark ("：Error ...")
            self._popup(s, m)
            return True
        return False

    def _import_failed(self, s: str, m: re.Match[str]) -> None:
        """ComfyUI's own line for a pack that failed to import (the traceback above it, where the paste has it, is
        the import failure explained)."""
        if self.facts.import_line is not None:
            return
        folder = (m.group(1) or m.group(2) or m.group(4)).strip()
        self.facts.import_line = LogFailure(
            "import",
            self.n,
            message=m.group(3) or (s.strip() if m.group(4) else ""),
            frames=[Frame(folder.rstrip("\\/") + "/__init__.py", 1, "<module>")],  # where the pack is
            evidence=[self._ev(s)],
        )

    def _interrupted(self, s: str) -> None:
        if self.prompt.ended is None:
            self.prompt.ended, self.prompt.ended_line = "interrupted", self._ev(s)

    def _new_prompt(self, s: str) -> None:
        self.facts.prompt_count += 1
        self.stopped = False
        self.prompt = PromptLog(index=self.facts.prompt_count, started=self._ev(s))
        if len(self.prompts) == self.prompts.maxlen and self.prompts[0].failures:
            self.failed_earlier.append(self.prompts[0])  # (it is about to leave the window of recent prompts)
        self.prompts.append(self.prompt)
        self.models.reset()

    def _running(self, or_active: bool = False) -> bool:
        """A prompt was started (``or_active``: or did something, its start cut from the paste), has not ended
        and has not failed."""
        began = self.prompt.started is not None or (or_active and self.prompt.last is not None)
        return began and self.prompt.ended is None and not self.prompt.failures

    def _idle_since_start(self) -> bool:
        """ComfyUI served, and no prompt has run since: what it did was its start-up's (a pack's install)."""
        prompt = self.prompt
        return self.served and prompt.index == 0 and not prompt.models  # (a download's bar is no sampler's)

    def _active_since(self, line: int) -> bool:
        """The prompt started, or last did something, after ``line`` (not the lines of one start-up)."""
        started = self.prompt.started.number if self.prompt.started is not None else 0
        return max(started, self.prompt.last[0] if self.prompt.last else 0) > line

    def _printed(self) -> bool:
        """Whether anything ComfyUI (or what launched it) prints was read: a launch, a prompt, a model, a banner's
        fact, a failure, a pack's import."""
        facts = self.facts
        return bool(
            self.launched_at
            or facts.prompt_count
            or self.prompt.last is not None
            or self.prompt.failures
            or facts.versions
            or facts.machine.keys() - {"os", "container"}
            or facts.import_failure
            or facts.import_line
            or facts.loose_error
            or self.block is not None
        )

    def _timed_out_worker(self) -> None:
        """A server's word that it timed a worker out (:data:`_OWN_KILL`): its kills just above were its own (a paste
        that shows the timeout only after the kill it made, "Worker with pid 5100 was terminated due to signal 9" then
        "WORKER TIMEOUT (pid:5294)"), not an end of the process."""
        self.facts.endings[:] = [
            e
            for e in self.facts.endings
            if not (
                e.kind == "killed"
                and e.line.number >= self.n - 64
                and any(w in e.line.text.lower() for w in _SERVER_KILLS)
            )
        ]

    def _ending(self, low: str, s: str, kind: str | None = None) -> None:
        kind = kind or ending_kind(low, s)
        if kind is None or (
            kind == "stopped"
            and (self.served or self._printed())
            and (not self._running(or_active=True) or self._idle_since_start())
        ):
            return  # Ctrl+C said only of a run: a server stopped while idle ended nothing (another program's work, pasted
            # without a line of ComfyUI's, was stopped mid-way: "Reading video frames...", then "^C")
        if kind == "exited" and not self._printed():
            return  # the shell's prompt back, with nothing of ComfyUI's above it: nothing it ran had ended
        if (
            self.facts.endings
            and self.facts.endings[-1].kind == kind
            and self.facts.endings[-1].line.number >= self.n - 3
        ):
            return  # "...>pause" and "Press any key" are one ending
        if (
            kind == "killed"
            and any(w in low for w in _SERVER_KILLS)
            and any(
                e is not None and any(w in e.message for w in _OWN_KILL)
                for e in (self.facts.loose_error, self.facts.last_loose)
            )
        ):
            return  # a server's own kill of the worker it had timed out: the timeout is the failure
        if (
            kind == "crash"
            and "leaked semaphore" in low
            and self.facts.endings
            and self.facts.endings[-1].line.number >= self.n - 3
        ):
            return  # Python's resource tracker, after the death just reported ("zsh: killed", then its warning)
        during = self.prompt.index if self._running(or_active=True) else None
        self.facts.endings.append(Ending(kind, self._ev(s), during))
        del self.facts.endings[:-8]

    def _progress_bar(self, s: str) -> str | None:
        """A sampler's progress bar (its last state): the exception printed right after it on its line, if one was."""
        label = s[: s.find("%|")]
        if len(label) > _LABEL_MAX and memory_gate(label.lower()):  # an error printed before the bar on its line
            before = label.rstrip("0123456789 ")  # (a page flattened them: "...OutOfMemoryError: ... Steps:   0%|")
            self._plain(before, before)
        work = _VAE_BAR.search(label) if ("VAE" in label or "vae" in label) and not bar_finished(s) else None
        hint = ("vae-decode" if work.group(1).lower() == "de" else "vae-encode") if work else "progress"
        self.prompt.last = (self.n, s, hint)  # (a VAE's own bar running: "[Tiled VAE]: Executing Decoder Task Queue")
        if not self.prompt.sampled and "100%" in s and bar_finished(s):
            self.prompt.sampled = True
        if (load := s.find("Requested to load ")) > 0:
            self._facts_line(s[load:], s[load:])
        if killed_on_bar(s):  # the kernel ended the process while a bar was drawn
            self._ending("killed", "Killed")
        end = s.find("]", s.find("%|"))  # the bar's own end: what follows was printed on its line
        rest = s[end + 1 :].lstrip() if end > 0 else ""
        after = clean(rest) if rest else ""  # ("...it/s][INFO] Interrupting prompt")
        low = after.lower()
        if after and ENDING_HINT.search(low) and ending_kind(low, after):  # "...it/s]Fatal Python error: Segmentation"
            self._ending(low, after)
        elif after.startswith(_INTERRUPT_REQUESTS):  # "...4.50s/it][INFO] Interrupting prompt 6c52..."
            self._interrupted(after)
        elif after and "!!!" not in s and "%|" not in after and memory_gate(low):  # a line printed on the bar's:
            self._plain(after, after)  # "...48.13it/s] ERROR lora ...weight CUDA out of memory. Tried to allocate"
        if "!!!" not in s:
            return None
        return s[s.index("!!!") :]  # an exception printed right after a progress bar, on its line
