"""How a paste was changed on its way to an issue thread, undone from what its first lines show: rows hard-wrapped at
a console's width joined back (:func:`unwrapped`), an indent as a whole taken off (:func:`indented`), a blank line
after each line taken out (:func:`spaced`), a viewer's line numbers taken off (:func:`numbered`);
:func:`paste_lines` applies them to :func:`memprobe.logs.text.iter_lines`, then a logger's prefix no table knows
(:func:`memprobe.logs.text.learned_prefix`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice, pairwise
from typing import BinaryIO

from .text import MAX_LINE_CHARS, TAKEN, iter_lines, learned_prefix

__all__ = ["SHAPE_HEAD", "indented", "numbered", "paste_lines", "spaced", "unwrapped"]


_ROW_END = frozenset("|+=-*#║╗╝┃│┤┐┘━─═])")
"""How a table's or a banner's row, a progress bar or a stack's frame ends (a padded line, in two spaces): a
line of the wrap's width that ends so is a line of its own, not a piece of a longer one."""
_WHOLE_FRAME = re.compile(r'^ *File ".+", line \d+, in \S+$')
"""A traceback's frame line, whole."""


_PADDED_PLACE = re.compile(r" {2}(?:[\w.-]+\.py(?::\d+)?(?: :: [A-Z]+)?|\d+(?:\.\d+)?s ?)$")
"""Where a logger padded its line to the console's width to print its place on the right (rich's
``train_network.py:1006``, Forge Neo's ``memory_management.py :: INFO``), or a tool its time (docker compose's
``✔ Container comfyui  Started      2.9s``): a line of its own, not a wrapped row."""


def _row(line: str, width: int) -> bool:
    """Whether ``line`` is a row a wrap at ``width`` cut from a longer line."""
    return (
        len(line) == width
        and line[-1] not in _ROW_END
        and line[-2:] != "  "
        and not _WHOLE_FRAME.match(line)
        and not _PADDED_PLACE.search(line)
    )


_DIGITS = re.compile(r"\d+")
_CONSOLE_WIDTHS = (80, 100, 120)
"""The widths a console wraps at by default (Windows' old console 80, its Terminal 120)."""


_OWN_LINE = re.compile(r"[a-z]+(?::| \|)")
"""A line that begins as a log's own (``error:``, ``warning:``, ``comfyui-1  |``): not a row's words going on."""


def _goes_on(last: str, after: str) -> bool:
    """Whether ``after`` goes on with the words a wrap cut after ``last``: inside a word (its lower-case letters or
    digits, a capital's capitals, a name's part after ``_``), or at a space (``Out of `` / ``memory``, ``cudaSuccess``
    / `` (2 vs. 0)``; not ``... `` / ``error: ...``)."""
    first = after[:1]
    if last.isalnum():
        return (
            first.islower()
            or first.isdigit()
            or (last.isupper() and first.isupper())
            or first == "_"
            or (first == " " and after[1:2].strip() != "")
        )
    return (last == "_" and first.isalnum()) or (last == " " and first.islower() and not _OWN_LINE.match(after))


def _cut_in_a_word(lines: list[tuple[str, bool]], width: int) -> bool:
    """A paste copied from a console that wrapped it at its usual width, cut inside a word or at a space: rows of
    exactly that width the next line goes on from (:func:`_goes_on`: ``... this operatio`` / ``n``, ``exit status 32``
    / ``21225495.``, ``NODE_CLASS_MAPP`` / ``INGS.``, ``backward_data_workspace`` / ``_size_in_bytes)``), one in a
    paste of a few lines (an error's line or two), two in a longer one; not a log's next line, ``... dtype:
    torch.float16`` / ``Requested to load SAM``; not a line that begins as this one does, ``2022-07-06 15:37:03.100
    ... flags: 0x2`` / ``2022-07-06 15:37:03.102 ...``."""
    if width not in _CONSOLE_WIDTHS:
        return False
    cuts = sum(
        _row(line, width)
        and _goes_on(line[-1], after)
        and not line.lstrip().startswith("File ")
        and after[:12] != line[:12]  # (the next line begins as this one does: a log's own, its stamp's date)
        for (line, _), (after, _) in pairwise(lines)  # (a frame's line cut short before its code's line: no wrap)
    )
    return cuts >= 2 or (cuts == 1 and len(lines) <= 6)


def unwrapped(
    lines: list[tuple[str, bool]],
) -> Callable[[Iterable[tuple[str, bool]]], Iterator[tuple[str, bool]]] | None:
    """A paste hard-wrapped at a console's width (each longer line cut into rows of exactly that width), as a
    function that joins each such row to the line after it; ``None`` where a log's first ``lines`` show no wrap.
    A wrap shows as at least three different rows of the widest length (60 to 400 characters; rows that differ only
    in their numbers are one), none ending as :data:`_ROW_END` says, each followed by a line that begins otherwise
    (what repeats is a log's own lines); in a paste of a few lines, as one row cut inside a word at a console's usual
    width (:func:`_cut_in_a_word`)."""
    width = max((len(line) for line, cut in lines if not cut), default=0)
    if not 60 <= width <= 400:
        return None
    rows = {
        _DIGITS.sub("", line)  # (a log's own line repeated with other numbers is one row: "Remaining ... = 3049.98")
        for (line, _), (after, _) in pairwise(lines)
        if _row(line, width) and after[:12] != line[:12]
    }
    if len(rows) < 3 and not _cut_in_a_word(lines, width):
        return None

    def join(source: Iterable[tuple[str, bool]]) -> Iterator[tuple[str, bool]]:
        held = ""
        for line, cut in source:
            if line is TAKEN:
                yield line, cut
            elif _row(line, width) and len(held) < MAX_LINE_CHARS:
                held += line
                yield TAKEN, False  # (the joined line is numbered as its last row)
            else:
                yield held + line, cut
                held = ""
        if held:
            yield held, False

    return join


def indented(
    lines: list[tuple[str, bool]],
) -> Callable[[Iterable[tuple[str, bool]]], Iterator[tuple[str, bool]]] | None:
    """A paste indented as a whole (a Markdown code block's four spaces, a quote's tab): every one of a log's first
    ``lines`` that holds text begins with the same run of at least four spaces (or a tab); the function that takes
    it off each line, or ``None``."""
    texts = [line for line, _ in lines if line.strip()]
    shifted = [line for line in texts if line[:1] in (" ", "\t")]
    if len(shifted) < 3 or len(shifted) < 0.8 * len(texts):  # (a flattened line's pieces lose the indent)
        return None
    indent = min(len(line) - len(line.lstrip(" \t")) for line in shifted)
    common = shifted[0][:indent]
    if (common.strip(" ") and common != "\t" * indent) or (common[0] == " " and indent < 4):
        return None
    if not all(line.startswith(common) for line in shifted):
        return None
    if (
        indent >= 6
        and common[0] == " "
        and all(line[indent:].startswith('File "') for line in shifted if line[indent] != " ")
    ):
        indent -= 2  # a paste that begins inside a traceback: its frames sit two in from the error line that ends it
        common = common[:indent]

    def dedent(source: Iterable[tuple[str, bool]]) -> Iterator[tuple[str, bool]]:
        for line, cut in source:
            yield (line if line is TAKEN else line[indent:] if line.startswith(common) else line.lstrip(" \t")), cut

    return dedent


def spaced(
    lines: list[tuple[str, bool]],
) -> Callable[[Iterable[tuple[str, bool]]], Iterator[tuple[str, bool]]] | None:
    """A paste with a blank line after each of its lines (a terminal's or a page's copy that made each line a
    paragraph): at least six lines with text among a log's first ``lines``, none followed by another. The function
    that takes those blanks out (a run of 2k + 1 blank lines was k of the log's own), or ``None``."""
    texts = [i for i, (line, _) in enumerate(lines) if line.strip()]
    if len(texts) < 6 or any(j == i + 1 for i, j in pairwise(texts)):
        return None

    def undouble(source: Iterable[tuple[str, bool]]) -> Iterator[tuple[str, bool]]:
        blanks = 0
        for line, cut in source:
            if not line.strip():
                blanks += 1
                continue
            own = (blanks - 1) // 2 if blanks else 0
            for i in range(blanks):
                yield ("", False) if i < own else (TAKEN, False)
            blanks = 0
            yield line, cut
        for _ in range(blanks):
            yield TAKEN, False

    return undouble


_LINE_NUMBER = re.compile(r" *(\d{1,6})\.(?: |$)")


def numbered(
    lines: list[tuple[str, bool]],
) -> Callable[[Iterable[tuple[str, bool]]], Iterator[tuple[str, bool]]] | None:
    """A paste copied with its viewer's line numbers (pastebin's ``  5. - **Node Type:** ...``): each of a log's
    first ``lines`` begins with a number and a dot, one more than the line before, from 1 in a log of fewer than
    four lines (two lines numbered from 3 are a list's). The function that takes the numbers off (with the space
    after them), or ``None``."""
    found = [_LINE_NUMBER.match(line) for line, _ in lines]
    if not found or not all(found):
        return None
    numbers = [int(m.group(1)) for m in found if m]
    if any(b != a + 1 for a, b in pairwise(numbers)) or (len(numbers) < 4 and numbers[0] != 1):
        return None

    def unnumber(source: Iterable[tuple[str, bool]]) -> Iterator[tuple[str, bool]]:
        for line, cut in source:
            m = None if line is TAKEN else _LINE_NUMBER.match(line)
            yield (line[m.end() :] if m else line), cut

    return unnumber


SHAPE_HEAD = 40
"""How many first lines of a log its paste's shape (a wrap, an indent, a logger's prefix) is learned from."""


def paste_lines(source: str | bytes | BinaryIO) -> Iterator[tuple[str, bool]]:
    """:func:`iter_lines`, with what a log's first lines show of how it was pasted undone: a viewer's line numbers
    taken off (:func:`numbered`), a blank line after each line taken out (:func:`spaced`), rows hard-wrapped at a
    console's width joined (:func:`unwrapped`), an indent as a whole taken off (:func:`indented`), then a logger's
    prefix no table here knows (:func:`learned_prefix`). A line taken out comes as :data:`TAKEN`."""
    lines = iter_lines(source)
    head = list(islice(lines, SHAPE_HEAD))
    for undo in (numbered, spaced, unwrapped, indented):
        if (fix := undo([item for item in head if item[0] is not TAKEN])) is not None:
            lines = fix(chain(head, lines))
            head = list(islice(lines, SHAPE_HEAD))
    strip = learned_prefix(line for line, _ in head if line is not TAKEN)
    lines = chain(head, lines)
    return lines if strip is None else ((strip(line), cut) for line, cut in lines)
