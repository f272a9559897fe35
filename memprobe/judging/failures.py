"""Which memory ran out: classify a failure from its exception type and text, and recognise the
out-of-memory fallbacks ComfyUI takes silently (it logs them, then carries on).

>>> classify_failure("torch.OutOfMemoryError", "Allocation on device 0 would exceed allowed memory.")
'vram'
>>> classify_failure("OSError", "The paging file is too small for this operation to complete. (os error 1455)")
'commit-limit'
"""

from __future__ import annotations

from .._log import logger
from ..sensing.snapshot import SystemMemory
from .limits import AT_LIMIT

__all__ = ["FAILURE_KINDS", "MEMORY_KINDS", "classify_failure", "is_memory_failure", "detect_fallback", "FALLBACKS"]

MEMORY_KINDS = ("vram", "system-ram", "commit-limit", "cgroup-limit", "disk")
FAILURE_KINDS = (*MEMORY_KINDS, "other")

# Texts are matched lower-cased. Order matters: the CPU allocator's message wins over the type
# (torch raises OutOfMemoryError for CPU allocations too).
_SYSTEM_RAM_TEXTS = (
    "defaultcpuallocator: not enough memory",
    "defaultcpuallocator: can't allocate memory",
    "[enforce fail at alloc_cpu",
    "cannot allocate memory",
    "std::bad_alloc",
    "not enough memory resources are available",  # WinError 8
    "unable to allocate",  # numpy's ArrayMemoryError
)
_COMMIT_TEXTS = ("paging file is too small", "os error 1455", "winerror 1455")
_DISK_TEXTS = (
    "no space left on device",
    "errno 28]",
    "not enough space on the disk",
    "winerror 112",
    "os error 112",
    "disk quota exceeded",
)
_VRAM_TEXTS = (
    "cuda out of memory",
    "allocation on device",
    "hip out of memory",
    "xpu out of memory",
    "mps backend out of memory",
    "cuda error: out of memory",
    "cudnn_status_alloc_failed",
    "cublas_status_alloc_failed",
    "out of memory on device",
    "not enough gpu video memory",  # DirectML: "Could not allocate tensor with N bytes. There is not enough GPU video memory available!"
)


def classify_failure(
    exception_type: str | None,
    message: str | None,
    *,
    system: SystemMemory | None = None,
    compute_device: str = "cuda",
) -> str:
    """``vram``, ``system-ram``, ``commit-limit``, ``cgroup-limit``, ``disk`` or ``other``.

    ``exception_type`` is ComfyUI's ``module.QualName`` (bare for builtins). ``system`` is the
    snapshot at the failure: on Linux with strict overcommit (mode 2) an ``ENOMEM`` next to the
    commit limit is the commit limit; one next to the limit of ComfyUI's cgroup is that limit. ``compute_device="cpu"`` (ComfyUI ``--cpu``) makes a bare
    ``OutOfMemoryError`` a RAM failure.
    """
    type_name = (exception_type or "").rsplit(".", 1)[-1]
    text = (message or "").lower()
    if any(t in text for t in _COMMIT_TEXTS):
        return "commit-limit"
    if any(t in text for t in _DISK_TEXTS):
        return "disk"
    if any(t in text for t in _SYSTEM_RAM_TEXTS) or type_name in ("MemoryError", "ArrayMemoryError"):
        if _near_strict_commit_limit(system):
            return "commit-limit"
        if _near_cgroup_limit(system):
            return "cgroup-limit"
        return "system-ram"
    if any(t in text for t in _VRAM_TEXTS):
        return "vram"
    if type_name == "OutOfMemoryError" or "out of memory" in text:
        return "system-ram" if compute_device == "cpu" else "vram"
    return "other"


def is_memory_failure(kind: str) -> bool:
    return kind in MEMORY_KINDS


def _near_strict_commit_limit(system: SystemMemory | None) -> bool:
    if system is None or system.overcommit_mode != 2:
        return False
    if system.commit_bytes is None or not system.commit_limit_bytes:
        return False
    return system.commit_bytes >= AT_LIMIT * system.commit_limit_bytes


def _near_cgroup_limit(system: SystemMemory | None) -> bool:
    if system is None or system.cgroup_used_bytes is None or not system.cgroup_limit_bytes:
        return False
    return system.cgroup_used_bytes >= AT_LIMIT * system.cgroup_limit_bytes


# ComfyUI's own recoveries from an OOM: a wasted attempt, invisible unless one reads the log.
FALLBACKS: tuple[tuple[str, str], ...] = (
    ("ran out of memory when regular vae decoding", "tiled-vae-decode"),
    ("ran out of memory when regular vae encoding", "tiled-vae-encode"),
    ("ran out of memory while running softmax", "attention-fallback"),
    ("out of memory error, emptying cache and trying again", "attention-fallback"),
    ("out of memory error, increasing steps and trying again", "attention-fallback"),
)


def detect_fallback(message: str) -> str | None:
    """The fallback a ComfyUI log line reports (``tiled-vae-decode`` ...), or ``None``."""
    text = message.lower()
    if "memory" not in text:
        return None
    for needle, kind in FALLBACKS:
        if needle in text:
            logger.debug("Memory Probe: recognised fallback %s in %r", kind, message)
            return kind
    return None
