"""Whether a paste stops inside the stamp its lines begin with: a log whose lines carry a time stamp (and a level)
that ends in a line holding only the start of one ("[20", "2025", "2024-08-09 13:42:10.419" above lines stamped
"2024-08-09 13:42:02.290 [Debug] [ComfyUI-0/STDERR] ...") was cut there when it was copied — a program writes its
stamp whole (ComfyUI's own log writes it, then the line: a stamp alone may end a line it wrote, never part of one).
So such a log shows no end of ComfyUI, only the end of what was pasted.
"""

from __future__ import annotations

import re

__all__ = ["Stamps"]

_STAMP = re.compile(
    r"(\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)?\]?)"  # the time
    r"((?: -)?(?: \[[A-Za-z]{3,9}\](?: \[[^\]\n]{1,40}\])?| [A-Z]{4,8}(?: -)?)? ?)"  # a level, a source, a dash
)
"""A line's stamp: ComfyUI's ``2025-05-08T15:38:48.529837 - ``, spdlog's ``[2025-04-07 20:32:10.146] [warning] ``,
SwarmUI's ``2024-08-09 13:42:02.290 [Debug] [ComfyUI-0/STDERR] ``, Python logging's ``2023-11-26 19:56:23,630 INFO ``."""
_MIN_STAMPED = 3
"""Stamped lines the log must hold before its last for its stamp to be known."""


def _shape(text: str) -> str:
    return text.translate(_DIGITS)


_DIGITS = str.maketrans("0123456789", "0000000000")


class Stamps:
    """Reads each raw line's stamp as the log goes; :meth:`cut_at` says whether the last line is part of one."""

    __slots__ = ("stamped", "bare", "shape", "time", "last", "last_bare", "last_stamped")

    def __init__(self) -> None:
        self.stamped = 0
        self.bare = 0
        """Stamped lines with nothing after their stamp (ComfyUI's own, above a progress bar)."""
        self.shape = ""
        self.time = 0
        self.last: tuple[int, str] | None = None
        self.last_bare = self.last_stamped = False

    def line(self, number: int, raw: str) -> None:
        text = raw.rstrip()
        if not text:
            return
        self.last, self.last_stamped, self.last_bare = (number, text), False, False
        if not ("0" <= text[:1] <= "9" or text[:1] == "["):
            return
        m = _STAMP.match(text)
        if m is None:
            return
        self.stamped += 1
        self.last_stamped = True
        self.last_bare = m.end() >= len(text)
        self.bare += self.last_bare
        if not self.last_bare:
            self.shape, self.time = _shape(m.group(0)), len(m.group(1))

    def cut_at(self) -> int | None:
        """The last line's number where it holds only the start of the stamp the lines before it begin with."""
        if self.last is None or not self.shape:
            return None
        number, text = self.last
        stamped = self.stamped - self.last_stamped
        bare = self.bare - self.last_bare
        if stamped < _MIN_STAMPED:
            return None
        # a stamp alone ends a line of ComfyUI's own log (its stamp, " - ", then what it prints) or of one that had
        # such lines: only a cut inside its time says the paste was cut
        whole = self.time if bare or self.shape.rstrip().endswith("-") else len(self.shape)
        return number if len(text) < whole and self.shape.startswith(_shape(text)) else None
