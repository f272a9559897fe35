"""A log's bytes as clean lines: any encoding (UTF-8, UTF-16 from PowerShell, a Windows code
page), CRLF, a browser's no-break spaces, a web page's HTML entities, ANSI colours and the
prefixes of every logger and launcher removed, each line cut at :data:`MAX_LINE_CHARS` so that
memory stays bounded whatever the input. What the lines say is :mod:`memprobe.logs.reader`'s job.

>>> [clean(line) for line, _ in iter_lines(b"[2025-01-02 10:11:12.345] [info]  got prompt\\r\\n")]
['got prompt']
"""

from __future__ import annotations

import codecs
import html
import io
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

__all__ = ["iter_lines", "clean", "MAX_LINE_CHARS"]

MAX_LINE_CHARS = 8192
"""A longer line is cut there; the rest of it is skipped (and counted)."""
_CHUNK = 1 << 20


# ---------------------------------------------------------------------------- decoding
def _readlines(readline: Any, newline: Any) -> Iterator[tuple[Any, bool]]:
    """Lines from a stream's ``readline`` (C speed), each cut at :data:`MAX_LINE_CHARS` (``True``
    when cut); the rest of a cut line is read and dropped piecewise, never held whole."""
    while line := readline(MAX_LINE_CHARS + 1):
        if line.endswith(newline):
            yield line, False
            continue
        if len(line) <= MAX_LINE_CHARS:  # the last line, without its newline
            yield line, False
            return
        yield line[:MAX_LINE_CHARS], True
        while (rest := readline(_CHUNK)) and not rest.endswith(newline):
            pass


_SPACES = dict.fromkeys((0xA0, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000), " ") | dict.fromkeys(
    (0x200B, 0xFEFF), None
)
"""Spaces a browser or chat app puts in a copied log (no-break, thin, ideographic) are plain spaces;
zero-width ones go."""
_ENTITY = re.compile(r"&(?:gt|lt|amp|quot|apos|nbsp|#\d{2,5}|#x[0-9a-fA-F]{2,4});")
"""A log copied out of a web page's source keeps its HTML entities (``&gt;``, ``&#39;``)."""


_ODD_SPACE = re.compile(f"[{''.join(map(chr, _SPACES))}]")
"""Any of :data:`_SPACES`, found at C speed (a progress bar's blocks are not ASCII either)."""


def _plain(line: str) -> str:
    if not line.isascii() and _ODD_SPACE.search(line):
        line = line.translate(_SPACES)
    if "&" in line and ";" in line and _ENTITY.search(line):
        line = html.unescape(line).translate(_SPACES)
    return line


def iter_lines(source: str | bytes | BinaryIO) -> Iterator[tuple[str, bool]]:
    """Decoded lines of a log given as text, bytes or a binary stream (line ends stripped)."""
    if isinstance(source, str):
        for line, cut in _readlines(io.StringIO(source, newline="\n").readline, "\n"):
            yield _plain(line.rstrip("\r\n")), cut
        return
    stream = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    if not hasattr(stream, "peek"):
        stream = io.BufferedReader(stream)  # type: ignore[type-var]
    head = stream.peek(4096)[:4096]
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (
        len(head) >= 64 and head.count(b"\0") > len(head) // 3
    ):
        encoding = (
            "utf-16"
            if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
            else ("utf-16-le" if head[1:2] == b"\0" else "utf-16-be")
        )
        text = io.TextIOWrapper(stream, encoding=encoding, errors="replace", newline="\n")
        for line, cut in _readlines(text.readline, "\n"):
            yield _plain(line.rstrip("\r\n")), cut
        return
    if head.startswith(codecs.BOM_UTF8):
        stream.read(len(codecs.BOM_UTF8))
    for raw, cut in _readlines(stream.readline, b"\n"):
        try:
            line = raw.rstrip(b"\r\n").decode("utf-8")
        except UnicodeDecodeError:  # a Windows code page (or junk): readable enough, never an error
            line = raw.rstrip(b"\r\n").decode("cp1252", errors="replace")
        yield (line if line.isascii() and "&" not in line else _plain(line)), cut


# ---------------------------------------------------------------------------- cleaning
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|←\[[0-9;]*m|\[(?:\d{1,2};)*\d{1,2}m(?=\S)")
_ISO_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,6} - ?")
_PREFIX = re.compile(
    r"^(?:"
    r"\(pid=\d+\)\s*"  # ray workers
    r"|>\s?"  # a quoted paste
    r"|[A-Za-z][\w.-]*(?:-\d+)?\s+\|\s"  # docker compose "comfyui-1  | "
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [\w.@/-]+(?:\[\d+\])?: "  # journald
    r"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?(?:\s*-\s*|\s+|$)"  # timestamps
    r"|\[\d\d:\d\d:\d\d(?:[.,]\d+)?\]\s*"
    r"|\d\d:\d\d:\d\d\.\d{3} (?=\[)"  # SwarmUI's "11:04:36.672 [Warning] [ComfyUI-0/STDERR] "
    r"|\[ComfyUI-\d+/STD(?:OUT|ERR)\]\s*"
    r"|\[(?i:info|warn|warning|error|debug|verbose)\]\s*"  # ComfyUI Desktop's "[info]", others' "[INFO]"
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]*:"  # python logging's default format
    r"|[\w.]+ - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - "  # "root - ERROR - "
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+(?=\S)(?!-)"  # "INFO Requested to load" (after a stamp)
    r")"
)
_PREFIX_FIRST = frozenset("([>0123456789")
_RICH = re.compile(r"^\s*(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s{2,}(.*?)\s{2,}[\w.]+\.py:\d+\s*$")


def clean(text: str) -> str:
    r"""The log line without colours, without the prefixes loggers and launchers add, and without
    the backticks of a line pasted as Markdown code (``\`...\```, but not a ```` ``` ```` fence) or the
    stars of one set in bold."""
    if "\x1b" in text or "←[" in text or "[0m" in text:
        text = _ANSI.sub("", text)
    if " - " in text and "T" in text:
        text = _ISO_STAMP.sub("", text)
    if "    " in text and ("ERROR" in text or "INFO" in text or "WARNING" in text) and (rich := _RICH.match(text)):
        text = rich.group(1)
    else:
        head = text[:48]
        if ":" in head or "|" in head or head[:1] in _PREFIX_FIRST:
            for _ in range(4):  # prefixes stack: "[2025-...] [info]  got prompt"
                m = _PREFIX.match(text)
                if not m or not m.group(0):
                    break
                text = text[m.end() :]
        text = text.rstrip()
    if (text[:1] == "`" or text[-1:] == "`") and "```" not in text:
        text = text.strip("`").rstrip()
    if text[:2] == "**" and text[-2:] == "**" and len(text) > 4:  # a line set in bold: "**Error occurred when ...:**"
        text = text[2:-2].strip()
    return text
