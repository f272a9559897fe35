"""How a ComfyUI log says its process ended, as the reader meets it: whether a prompt was running, whether
anything of ComfyUI's was printed yet, and the ending filed (:func:`memprobe.logs.endings.ending_kind` names it).
:class:`EndingReading` is the reader's part that files them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .endings import ending_kind
from .records import Ending, LogFacts, LogFailure, LogLine, PromptLog

__all__ = ["EndingReading"]


class EndingReading:
    facts: LogFacts
    prompt: PromptLog
    n: int
    block: LogFailure | None
    launched_at: int
    served: bool

    if TYPE_CHECKING:  # the reader's

        def _ev(self, text: str) -> LogLine: ...

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

    def _ending(self, low: str, s: str, kind: str | None = None) -> None:
        kind = kind or ending_kind(low, s)
        if kind is None or (kind == "stopped" and (not self._running(or_active=True) or self._idle_since_start())):
            return  # Ctrl+C said only of a run: a server stopped while idle ended nothing
        if kind == "exited" and not self._printed():
            return  # the shell's prompt back, with nothing of ComfyUI's above it: nothing it ran had ended
        if (
            self.facts.endings
            and self.facts.endings[-1].kind == kind
            and self.facts.endings[-1].line.number >= self.n - 3
        ):
            return  # "...>pause" and "Press any key" are one ending
        during = self.prompt.index if self._running(or_active=True) else None
        self.facts.endings.append(Ending(kind, self._ev(s), during))
        del self.facts.endings[:-8]
