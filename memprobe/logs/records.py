"""What a ComfyUI log says, as read: the lines the reading rests on, each prompt, its failures,
the models it loaded, and how the process ended (:mod:`memprobe.logs.reader` fills them)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LogLine", "Frame", "LoggedException", "LogFailure", "ModelLoad", "Ending", "PromptLog", "LogFacts"]

_PROGRESS = re.compile(r"(\d{1,3})?%\|[^|]*\|\s*([\d.]+)([kMG]?)/([\d.]+)([kMG]?)")


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
    "ComfyUI Error Report"), ``validation`` (the prompt was refused), ``message`` (an exception
    line on its own) or ``import`` (a custom node pack failed to import at start-up)."""

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
    after_sampling: bool = False
    """It failed right after a sampler's progress bar reached its end (the log names no later step)."""
    oom_unload: bool = False
    """ComfyUI's handler of a device OOM ran after it: it logged "Got an OOM, unloading all loaded models." (or the
    "Memory summary:" it logs first since 2026)."""


@dataclass(slots=True)
class ModelLoad:
    name: str | None
    line: int
    loaded_bytes: int | None = None
    offloaded_bytes: int | None = None
    partial: bool = False
    staged_bytes: int | None = None
    """Dynamic VRAM (current ComfyUI): the weights staged for on-demand loading, not bytes loaded."""
    usable_bytes: int | None = None
    """The VRAM ComfyUI let the load use (its log's ``MB usable``), where the line says it."""


@dataclass(slots=True)
class Ending:
    """How the process ended without an error: ``pause`` (the portable build's "Press any key"),
    ``killed`` (SIGKILL), ``crash`` (a segfault, an access violation), ``memory-kill`` (the kernel's
    or earlyoom's OOM killer, a cgroup limit), ``commit-exhausted`` (Windows' low virtual memory)."""

    kind: str
    line: LogLine
    during_prompt: int | None = None
    in_dynamic_vram: bool = False
    """A crash among comfy-aimdo's lines (its log, its frames, a model it just staged): dynamic VRAM's native code."""
    frames: list[Frame] = field(default_factory=list)
    """Python's stack at a crash as faulthandler prints it after the crash line (most recent call first)."""
    raised: LogFailure | None = None
    """The error Python raised for this end, where one did (ctypes' "exception: access violation ...", a launcher's
    "server process exited"): the node it names."""


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
    """ComfyUI's recoveries (a decode retried in tiles, attention retried in slices): the first
    :data:`memprobe.logs.reader.MAX_FALLBACKS` of each kind; :attr:`fallback_counts` counts them all."""
    fallback_counts: dict[str, int] = field(default_factory=dict)
    last: tuple[int, str, str | None] | None = None
    """The last thing it did: (line number, text, stage hint); "progress" is judged when read."""
    oom_unload: bool = False
    running: tuple[str, str] | None = None
    """The node an API client said it was executing (its class, its id): Replicate's cog-comfyui logs
    ``Executing node 8, title: VAE Decode, class type: VAEDecode``."""
    sampled: bool = False
    """A sampler's progress bar ran to its end in this prompt (a VAE loaded after it decodes)."""
    answered: int = 0
    """The line where a server around ComfyUI's code last answered a request with success (0: none)."""

    @property
    def last_activity(self) -> LogLine | None:
        return LogLine(self.last[0], self.last[1][:400]) if self.last else None

    @property
    def just_sampled(self) -> bool:
        """The last thing it logged was a sampler's progress bar at its end."""
        return self.last is not None and self.last[2] == "progress" and bar_finished(self.last[1])

    @property
    def last_hint(self) -> str | None:
        if not self.last:
            return None
        hint = self.last[2]
        if hint == "progress":
            text = self.last[1]
            m = _PROGRESS.search(text)
            if m is None:
                return None
            loading = text[: m.start()].lstrip().lower().startswith("loading")
            if not _running(m):  # a finished bar: what runs next is not in the log
                return None
            return "load" if loading else "sampling"  # a loader's bar: "Loading transformer parameters: 0%|"
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
    loose_error: LogFailure | None = None
    """The first line near the top that reads as an error message with nothing around it (a one-line paste of
    Python's own wording, a library's error line): explained when nothing else failed."""
    last_loose: LogFailure | None = None
    """The last such line (within the first :data:`memprobe.logs.dialogs.LOOSE_LINES`): a log that stops right after it,
    in the middle of a prompt, stopped at that error."""
    import_failure: LogFailure | None = None
    """The first custom node pack that failed to import at start-up (explained when nothing else failed)."""
    import_line: LogFailure | None = None
    """The first of ComfyUI's own lines for a pack that failed to import ("(IMPORT FAILED)", "Cannot import ... module
    for custom nodes"), for a paste without the traceback (:attr:`import_failure` outranks it)."""
    user_names: set[str] = field(default_factory=set)
    gpu_named: bool = False
    """Whether any line names a GPU, its stack or ComfyUI (:data:`memprobe.logs.reader.GPU_SIGN`): where none does, a
    bare "out of memory" is the host's, not the GPU's that ComfyUI's own bare words most often mean."""
    lines: int = 0
    last_text: int = 0
    """The number of the log's last line with text (blank lines, or a quote's bare "> ", may follow it)."""
    cut_lines: int = 0
    copy_cut: int | None = None
    """The log's last line, where it stops inside the time stamp (and level) that begins each of its lines — "[20",
    "2025" under "2025-05-08T15:38:48.529837 - ...": no program writes part of its stamp, so the paste was cut there
    when it was copied (:class:`memprobe.logs.stamps.Stamps`)."""
    evidence: dict[str, LogLine] = field(default_factory=dict)
    """Where a machine fact or version came from (key -> line)."""

    @property
    def failures(self) -> list[LogFailure]:
        return [f for p in self.prompts for f in p.failures]


def bar_finished(text: str) -> bool:
    """A sampler's progress bar (not a loader's or a download's) that reached its total."""
    m = _PROGRESS.search(text)
    return m is not None and not _running(m) and not text[: m.start()].lstrip().lower().startswith(_FETCHING)


_FETCHING = ("loading", "fetching", "downloading")
"""The labels of bars that load or fetch (Hugging Face's "Loading checkpoint shards", "Fetching 25 files")."""


def _running(m: re.Match[str]) -> bool:
    """A progress bar that has not reached its total."""
    return _count(m.group(2), m.group(3)) < _count(m.group(4), m.group(5))


def _count(number: str, suffix: str) -> float:
    try:
        value = float(number)
    except ValueError:
        return 0.0
    return value * {"k": 1e3, "M": 1e6, "G": 1e9}.get(suffix, 1)
