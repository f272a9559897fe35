"""Whether a paste stops inside the stamp its lines begin with: a log whose lines carry a time stamp (and a level)
that ends in a line holding only the start of one ("[20", "2025", "2024-08-09 13:42:10.419" above lines stamped
"2024-08-09 13:42:02.290 [Debug] [ComfyUI-0/STDERR] ...") was cut there when it was copied — a program writes its
stamp whole (ComfyUI's own log writes it, then the line: a stamp alone may end a line it wrote, never part of one).
So such a log shows no end of ComfyUI, only the end of what was pasted.
"""

from __future__ import annotations

import re
from collections import deque

__all__ = ["Stamps"]

_STAMP = re.compile(
    r"(\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)?\]?)"  # the time
    r"((?: -)?(?: \[[A-Za-z]{3,9}\](?: \[[^\]\n]{1,40}\])?| [A-Z]{4,8}(?: -)?)? ?)"  # a level, a source, a dash
)
"""A line's stamp: ComfyUI's ``2025-05-08T15:38:48.529837 - ``, spdlog's ``[2025-04-07 20:32:10.146] [warning] ``,
SwarmUI's ``2024-08-09 13:42:02.290 [Debug] [ComfyUI-0/STDERR] ``, Python logging's ``2023-11-26 19:56:23,630 INFO ``."""
_MIN_STAMPED = 3
"""Stamped lines the log must hold just before its last for its stamp to be known."""
_WINDOW = 32
"""The lines before the last that are read for the stamp (the reader keeps only these: a long log costs nothing)."""
_DIGITS = str.maketrans("0123456789", "0000000000")


class Stamps:
    """The log's last lines, kept as it is read; :meth:`cut_at` says whether its last line is part of a stamp."""

    __slots__ = ("recent",)

    def __init__(self) -> None:
        self.recent: deque[tuple[int, str]] = deque(maxlen=_WINDOW + 1)

    def line(self, number: int, raw: str) -> None:
        if raw and not raw.isspace():
            self.recent.append((number, raw))

    def cut_at(self) -> int | None:
        """The last line's number where it holds only the start of the stamp the lines before it begin with."""
        if not self.recent:
            return None
        number, last = self.recent[-1][0], self.recent[-1][1].rstrip()
        stamps = [m for _, raw in list(self.recent)[:-1] if (m := _STAMP.match(raw.rstrip())) is not None]
        whole = [m for m in stamps if m.end() < len(m.string)]  # a stamp, then what the line says
        if len(stamps) < _MIN_STAMPED or not whole:
            return None
        shape = whole[-1].group(0).translate(_DIGITS)
        # a stamp alone ends lines of ComfyUI's own log (its stamp, " - ", then what it prints) or of one that has
        # such lines: only a cut inside its time says the paste was cut
        bare = len(whole) < len(stamps) or shape.rstrip().endswith("-")
        limit = len(whole[-1].group(1)) if bare else len(shape)
        return number if len(last) < limit and shape.startswith(last.translate(_DIGITS)) else None
