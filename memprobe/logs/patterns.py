"""The line patterns of a ComfyUI log: exceptions, tracebacks, reports, validation errors, the
start-up banner, progress bars and how a process ends, in the languages users post in."""

from __future__ import annotations

import re

from .records import _PROGRESS as _PROGRESS
from .records import Frame, LogFailure

__all__: list[str] = []


_EXC_START = re.compile(r"!!! ?(?:Exception during processing|[^!\x00-\x7f][^!]{1,40}?) ?!!!\s?(.*)$")
"""ComfyUI's "!!! Exception during processing !!!", also as a browser translated it ("!!! 处理过程中发生异常 !!!")."""
_TRACEBACK = "Traceback (most recent call last):"
_FRAME = re.compile(r'^\s*File "(.+)", line (\d+), in (.+?)\s*$')
_FAULT_FRAME = re.compile(r'^\s*File "(.+)", line (\d+) in (\S+)\s*$')
"""A frame of the stack faulthandler prints at a native crash (no comma before ``in``)."""
_EXC_LINE = re.compile(
    r"^((?:[A-Za-z_][\w]*\.)*(?:_?[A-Z]\w*(?:Error|Exception|Exit|Interrupt)|Exception|KeyboardInterrupt))(?::(?:\s(.*)|$)|$)"
)
_CHAIN = (
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
)
_POPUP = re.compile(r"^Error occurred when executing ([\w .()\[\]|+/#-]+?):(?:\s*$|[`\s])", re.IGNORECASE)
"""The old error dialog; a class may hold brackets, bars and a hash (ComfyUI-3D-Pack's ``[Comfy3D] Convert 3DGS to
Mesh ...``, ELLA's ``T5TextEncode #ELLA``)."""
_THREAD = re.compile(r"^Exception in thread .*\((prompt_worker)\):")
_REPORT_FIELD = re.compile(r"^-\s+\*\*(.+?):\*\*\s*(.*)$")
_VALIDATE = re.compile(r"^Failed to validate prompt for output (\S+?):?$")
_VALIDATE_NODE = re.compile(r"^\*\s+(.+?)\s+(\S+):$")
_VALIDATE_REASON = re.compile(r"^-\s+(.+)$")
_MODEL_LINES = ("Requested to load ", "loaded ", "Model ", "Unloaded partially")
_TOTALS = re.compile(r"Total VRAM (\d+) MB, total RAM (\d+) MB")
_CGROUP = re.compile(r"RAM limited by cgroup to (\d+) MB")
_DEVICE = re.compile(r"^Device: (.+)$")
_CAPACITY = re.compile(
    r"total capac(?:i)?ty of ([\d.]+) ([GM])i?B|GPU \d+; ([\d.]+) ([GM])iB total capacity"
    r"|Device limit\s*:\s*([\d.]+) ([GM])iB"
)
_COMMAND = re.compile(r"(?:^|[>$#]\s*)(?:\S*[\\/])?python(?:3(?:\.\d+)?)?(?:\.exe)?\s+(?:-\S+\s+)*\S*main\.py\b(.*)$")
_USER_PATH = re.compile(r"[A-Za-z]:[\\/]+Users[\\/]+([^\\/:*?\"<>|\r\n]+?)[\\/]|/(?:home|Users)/([^/\s\"'<>]+)/")
_GENERIC_USERS = {"user", "users", "admin", "administrator", "public", "default", "root", "me", "shared", "runner"}
_VERSION_LINES = (
    (re.compile(r"^ComfyUI version: (\S+)"), "comfyui"),
    (re.compile(r"^ComfyUI frontend version: (\S+)"), "frontend"),
    (re.compile(r"^(?:\*\* )?Python version: (\S+)"), "python"),
    (re.compile(r"^pytorch version: (\S+)"), "torch"),
    (re.compile(r"^xformers version: (\S+)"), "xformers"),
    (re.compile(r"^ROCm version: (.+)$"), "rocm"),
    (re.compile(r"^### ComfyUI Revision: (.+)$"), "comfyui_revision"),
)
_REPORT_VERSIONS = {"ComfyUI Version": "comfyui", "PyTorch Version": "torch", "Python Version": "python"}
_REPORT_NAMES = frozenset(
    {"Node ID", "Node Type", "Exception Type", "Exception Message", "Arguments", "OS", "Embedded Python"}
    | {"Name", "Type", "Index", "VRAM Total", "VRAM Free", "Torch VRAM Total", "Torch VRAM Free", "Python Version"}
    | set(_REPORT_VERSIONS)
)
"""The English report's field names; another name is a translated field, read by its value."""
_REPORT_OPENERS = ("ComfyUI Error Report", "Error Details")
"""The report's title and its first heading: either opens a report (a paste may start at the second)."""
_PLAIN_HEADINGS = frozenset(
    {
        *_REPORT_OPENERS,
        "Stack Trace",
        "System Information",
        "Devices",
        "Logs",
        "Attached Workflow",
    }
)
"""The report's headings as a browser copies the rendered report: no ``#``, alone on their lines."""
_PLAIN_FIELD = re.compile(r"^(?:[-*•]\s+)?([A-Z][A-Za-z ]{1,24}):\s*(.*)$")
"""A field of the rendered report (``Node Type: KSampler``, ``- Node Type: KSampler``: no ``**``)."""
_NODE_ID_VALUE = re.compile(r"^\d+(?::\d+)*$")
_CLASS_VALUE = re.compile(r"^[A-Za-z_][\w .()|+-]{1,80}$")
_EXCEPTION_VALUE = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Interrupt|Exit)$")
_BANNER_HINT = re.compile(r"Total VRAM|RAM limited|vram state|Mac Version|AMD arch|ersion|Revision")
_BANNER_STARTS = ("Device: ", "Using ", "** ")
"""With :data:`_BANNER_HINT`, the cheap test before a start-up banner's line is read (anchors and character
classes among the alternatives would make it three times slower)."""
_LOADER_LINES = (
    "model weight dtype",
    "model_type ",
    "VAE load device",
    "CLIP/text encoder model load device",
    "Working with z of shape",
    "loaded straight to GPU",
    "missing {",
    "left over keys",
    "clip missing:",
    "Attempting to release mmap",  # ComfyUI-GGUF copies offloaded weights out of the file's mapping
)
_DIGITS = re.compile(r"\d+")
_SUMMARY = ("popup", "report", "message")


def _message_key(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    return _DIGITS.sub("#", " ".join(first.lower().split()))[:120]  # a port or a size may differ between copies


def _frame_anchor(frames: list[Frame]) -> str:
    return frames[0].path if frames else ""


def _known(s: str) -> bool:
    """A line that starts something of its own (so it cannot continue an exception's message)."""
    return bool(
        s == "got prompt"
        or s.startswith(
            (
                "Prompt executed in",
                "Got an OOM",
                "Requested to load",
                "loaded ",
                "!!!",
                "Traceback (",
                "Error occurred when executing",
                "# ComfyUI",
                'File "',
                "During handling",
                "The above exception",
            )
        )
        or _PROGRESS.search(s)
    )


def _merge(into: LogFailure, other: LogFailure) -> None:
    """Two reports of one failure: keep the richer fields of each."""
    into.class_type = into.class_type or other.class_type
    into.node_id = into.node_id or other.node_id
    into.exception_type = into.exception_type or other.exception_type
    if len(other.message) > len(into.message) and _message_key(other.message) == _message_key(into.message):
        into.message = other.message
    into.message = into.message or other.message
    if len(other.frames) > len(into.frames):
        into.frames = other.frames
    into.causes = into.causes or other.causes
    into.oom_unload = into.oom_unload or other.oom_unload
    into.before = into.before or other.before
    into.before_hint = into.before_hint or other.before_hint
    if into.source in ("popup", "report", "message") and other.source not in ("popup", "report", "message"):
        into.source, into.line = other.source, other.line
    into.evidence = (into.evidence + [e for e in other.evidence if e not in into.evidence])[:12]
