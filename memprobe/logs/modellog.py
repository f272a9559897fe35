"""ComfyUI's own model-manager log lines, parsed: which model it loaded, how much of it went onto
the compute device, how much it left offloaded in RAM, and what it unloaded.

Every ComfyUI release since 2024 prints these at INFO level; the wording changed twice, and all
three forms are understood (values are MiB in the log, bytes here)::

    Requested to load SDXL
    loaded completely 9.5367431640625e+25 4897.05 True                      # <= 0.3.67
    loaded partially 5892.7 5892.6 0                                        # <= 0.3.67
    loaded completely; 1199.53 MB usable, 242.03 MB loaded, full load: True  # Oct 2025 on
    loaded partially; 5334.55 MB usable, 5283.48 MB loaded, 1136.00 MB offloaded, 48.00 MB buffer reserved, lowvram patches: 0
    Unloaded partially: 781.53 MB freed, 857.88 MB remains loaded, 28.13 MB buffer reserved, lowvram patches: 0
    0 models unloaded.
    Model WAN21 prepared for dynamic VRAM loading. 27251MB Staged. 400 patches attached.   # dynamic VRAM (comfy-aimdo)

A line may carry any prefix (log timestamps, ``[INFO]``, ``root - INFO -``, ANSI colours, a tqdm bar
that ended without a newline). :func:`parse_model_line` reads one line; :class:`ModelLogReader`
reads them in order and names each load after the ``Requested to load`` line before it;
:func:`models_from_log` does that for a whole log (what ``memprobe explain`` needs).

>>> line = parse_model_line("loaded partially; 5334.55 MB usable, 5283.48 MB loaded, 1136.00 MB offloaded, "
...                         "48.00 MB buffer reserved, lowvram patches: 0")
>>> line.kind, line.loaded_bytes, line.offloaded_bytes
('partially-loaded', 5540130324, 1191182336)
>>> [m["name"] for m in models_from_log(["Requested to load SD1ClipModel",
...                                       "loaded completely 9.5367431640625e+25 235.84423828125 True"])]
['SD1ClipModel']
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["ModelLogLine", "ModelLogReader", "parse_model_line", "models_from_log", "LOAD_KINDS"]

MIB = 1024**2
UNLIMITED_MB = 1e20
"""ComfyUI logs 1e32 bytes (9.5e25 MB) as the usable memory of a load that may take everything."""

LOAD_KINDS = ("loaded", "partially-loaded", "dynamic-prepared")

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_NUM = r"([0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"
_REQUESTED = re.compile(r"Requested to load (\S+)")
_LOADED_NEW = re.compile(
    r"loaded (completely|partially);\s*(?:" + _NUM + r" MB usable,)?\s*" + _NUM + r" MB loaded"
    r"(?:, " + _NUM + r" MB offloaded)?(?:, " + _NUM + r" MB buffer reserved)?"
    r"(?:, lowvram patches: (\d+))?(?:, full load: (True|False))?"
)
_LOADED_OLD = re.compile(r"loaded (completely|partially) " + _NUM + " " + _NUM + r" (True|False|\d+)\b")
_UNLOADED_PARTIALLY = re.compile(
    r"Unloaded partially: " + _NUM + r" MB freed, " + _NUM + r" MB remains loaded"
    r"(?:, " + _NUM + r" MB buffer reserved)?(?:, lowvram patches: (\d+))?"
)
_MODELS_UNLOADED = re.compile(r"\b(\d+) models? unloaded\.")
_DYNAMIC = re.compile(
    r"Model (\S+) prepared for dynamic VRAM loading\. (\d+)\s*MB Staged\. (\d+) patches attached\."
    r"(?: Force pre-loaded (\d+) weights: (\d+) KB\.)?"
)


@dataclass(slots=True)
class ModelLogLine:
    """One model-manager line. Sizes are bytes; ``None`` where this line (or this ComfyUI
    version's wording) does not say. Not frozen: a frozen dataclass is built six times slower, and
    half the lines of a long log are these (nothing changes one once parsed).

    ``kind`` is one of ``requested`` (``Requested to load X``), ``loaded`` (``loaded completely``),
    ``partially-loaded`` (``loaded partially``: the rest stays offloaded in RAM),
    ``partially-unloaded`` (``Unloaded partially``: weights moved off the device to make room),
    ``models-unloaded`` (``N models unloaded.``) or ``dynamic-prepared`` (dynamic VRAM staged the
    model; it loads weights on demand).
    """

    kind: str
    model_class: str | None = None
    """The model's class as ComfyUI names it (``SDXL``, ``Flux``, ``SD1ClipModel``, ``AutoencoderKL``)."""
    loaded_bytes: int | None = None
    """On the compute device after the load (or, when unloading, what remains there)."""
    offloaded_bytes: int | None = None
    """Left in RAM (the offload device); only the Oct 2025+ wording says it."""
    usable_bytes: int | None = None
    """What ComfyUI allowed the load to use; ``None`` when unlimited or not said."""
    freed_bytes: int | None = None
    buffer_bytes: int | None = None
    staged_bytes: int | None = None
    """Dynamic VRAM: the model's weights staged for on-demand loading."""
    count: int | None = None
    """``models-unloaded``: how many; ``dynamic-prepared``/loads: lowvram patches attached."""
    full_load: bool | None = None
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _bytes(mb: str | None) -> int | None:
    if mb is None:
        return None
    value = float(mb)
    return None if value >= UNLIMITED_MB else round(value * MIB)


def parse_model_line(line: str, *, load_name: str | None = None) -> ModelLogLine | None:
    """The model-manager fact in ``line``, or ``None`` when it has none. Never raises on text.
    ``load_name``: the model class a load line is named after (``ModelLogReader`` knows it)."""
    if "load" not in line:  # every line of interest says load/unloaded/loading: a cheap first test
        return None
    text = (_ANSI.sub("", line) if "\x1b" in line else line).strip()
    # a substring test before each regex: most lines of a long log are none of these
    if "Requested to load" in text:
        match = _REQUESTED.search(text)
        return ModelLogLine("requested", model_class=match[1], text=text) if match else None
    if "loaded completely" in text or "loaded partially" in text:
        match = _LOADED_NEW.search(text) if ";" in text else None  # the Oct 2025 wording has "loaded completely;"
        if match:
            partial = match[1] == "partially"
            full = match[7]
            return ModelLogLine(
                "partially-loaded" if partial else "loaded",
                model_class=load_name,
                usable_bytes=_bytes(match[2]),
                loaded_bytes=_bytes(match[3]),
                offloaded_bytes=_bytes(match[4]) if partial else 0,
                buffer_bytes=_bytes(match[5]),
                count=int(match[6]) if match[6] else None,
                full_load=None if full is None else full == "True",
                text=text,
            )
        match = _LOADED_OLD.search(text)
        if match:
            partial = match[1] == "partially"
            last = match[4]
            return ModelLogLine(
                "partially-loaded" if partial else "loaded",
                model_class=load_name,
                usable_bytes=_bytes(match[2]),
                loaded_bytes=_bytes(match[3]),
                offloaded_bytes=None if partial else 0,
                count=int(last) if partial and last.isdigit() else None,
                full_load=(last == "True") if not partial else False,
                text=text,
            )
    if "Unloaded partially" in text and (match := _UNLOADED_PARTIALLY.search(text)):
        return ModelLogLine(
            "partially-unloaded",
            freed_bytes=_bytes(match[1]),
            loaded_bytes=_bytes(match[2]),
            buffer_bytes=_bytes(match[3]),
            count=int(match[4]) if match[4] else None,
            text=text,
        )
    if "dynamic VRAM" in text and (match := _DYNAMIC.search(text)):
        return ModelLogLine(
            "dynamic-prepared", model_class=match[1], staged_bytes=int(match[2]) * MIB, count=int(match[3]), text=text
        )
    if "unloaded." in text and (match := _MODELS_UNLOADED.search(text)):
        return ModelLogLine("models-unloaded", count=int(match[1]), text=text)
    return None


_UNPARSED = ModelLogLine("unparsed")
"""What the memory of parsed lines gives for a line it has not seen (``None`` is a line with no fact)."""
_PARSED_LINES = 1024
_PARSED_CHARS = 256


class ModelLogReader:
    """Reads model lines in the order ComfyUI printed them and names each load: ComfyUI prints
    ``Requested to load A`` (and B, ...) first, then one load line per model in the same order.

    A load line without a pending request (a model already loaded that ComfyUI loads further)
    stays unnamed. Call :meth:`reset` at the start of each prompt.
    """

    def __init__(self) -> None:
        self._pending: deque[str] = deque(maxlen=16)
        self._parsed: dict[tuple[str, str | None], ModelLogLine | None] = {}
        """Lines parsed already (a long log loads the same models with the same words each prompt); what
        :func:`parse_model_line` returns is never changed, so a line read twice gives the same object."""

    def reset(self) -> None:
        self._pending.clear()

    def feed(self, line: str) -> ModelLogLine | None:
        key = (line, self._pending[0] if self._pending else None)
        parsed = self._parsed.get(key, _UNPARSED)
        if parsed is _UNPARSED:
            parsed = parse_model_line(line, load_name=key[1])
            if len(line) <= _PARSED_CHARS:
                if len(self._parsed) >= _PARSED_LINES:
                    self._parsed.clear()
                self._parsed[key] = parsed
        if parsed is None:
            return None
        if parsed.kind == "requested" and parsed.model_class:
            self._pending.append(parsed.model_class)
        elif parsed.kind in ("loaded", "partially-loaded") and self._pending:
            self._pending.popleft()  # the load was named after it
        elif (
            parsed.kind == "dynamic-prepared" and parsed.model_class is not None and parsed.model_class in self._pending
        ):
            self._pending.remove(parsed.model_class)
        return parsed


def models_from_log(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Every model load a log shows, in order: ``{name, kind, loaded_bytes, offloaded_bytes,
    usable_bytes, staged_bytes, line}`` (``line`` counts from 1). ``name`` is the model class from
    the ``Requested to load`` line, ``None`` when the log did not name it. A prompt start
    (``got prompt``) forgets unanswered requests."""
    reader = ModelLogReader()
    out = []
    for number, line in enumerate(lines, 1):
        if "got prompt" in line:
            reader.reset()
        parsed = reader.feed(line)
        if parsed is None or parsed.kind not in LOAD_KINDS:
            continue
        out.append(
            {
                "name": parsed.model_class,
                "kind": parsed.kind,
                "loaded_bytes": parsed.loaded_bytes,
                "offloaded_bytes": parsed.offloaded_bytes,
                "usable_bytes": parsed.usable_bytes,
                "staged_bytes": parsed.staged_bytes,
                "line": number,
            }
        )
    return out
