"""The sizes an allocation error names — requested, total, free, allocated, reserved, the limit, what others held —
as facts the judgement uses (torch's CUDA allocator in each version, the CPU allocator, numpy, MPS, DirectML ...).

>>> message_sizes("CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 6.00 GiB total capacity)").requested_bytes
20971520
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

__all__ = ["MessageSizes", "message_sizes"]


@dataclass(frozen=True, slots=True)
class MessageSizes:
    """The sizes an allocation error names, in bytes (``None``: it does not say): what the failed
    allocation asked for, the device's (or the pool's) total, what was free, what torch had
    allocated and reserved, the limit it ran into and what other processes held."""

    requested_bytes: int | None = None
    total_bytes: int | None = None
    free_bytes: int | None = None
    allocated_bytes: int | None = None
    reserved_bytes: int | None = None
    limit_bytes: int | None = None
    others_bytes: int | None = None

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))

    def to_dict(self) -> dict[str, int]:
        return {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}

    @property
    def free_to_spare(self) -> bool:
        """The message says far more was free than the failed allocation asked for — at least 1 GiB, a tenth of the
        device and four times the request (PyTorch frees its cache and retries before it raises, and a fragmented
        cache shows as reserved, not free): what refused it was no shortage of that memory."""
        free, asked, total = self.free_bytes, self.requested_bytes, self.total_bytes
        if free is None or asked is None or (total and free > total):
            return False
        return free >= max(_PLENTY_FREE, _FREE_TIMES * asked, (total or 0) // _FREE_SHARE)


_PLENTY_FREE = 1024**3
_FREE_TIMES = 4
_FREE_SHARE = 10


_UNITS = {
    "": 1,
    "b": 1,
    "byte": 1,
    "bytes": 1,
    "k": 1024,
    "kb": 1024,
    "kib": 1024,
    "m": 1024**2,
    "mb": 1024**2,
    "mib": 1024**2,
    "g": 1024**3,
    "gb": 1024**3,
    "gib": 1024**3,
    "t": 1024**4,
    "tb": 1024**4,
    "tib": 1024**4,
}
_SIZE = r"([\d.,]+)\s*(?:(bytes|byte|[kmgt]i?b|[kmgt]|b)(?![a-z]))?"
_SIZE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (key, re.compile(pattern, re.IGNORECASE))
    for key, pattern in (
        ("requested_bytes", r"tried to allocate\s+" + _SIZE),
        ("requested_bytes", r"requested\s*:\s*" + _SIZE),
        ("requested_bytes", r"unable to allocate\s+" + _SIZE + r"\s+for an array"),
        ("requested_bytes", r"could not allocate tensor with\s+" + _SIZE),
        ("requested_bytes", r"failed to allocate\s+" + _SIZE),
        ("requested_bytes", r"requested buffer of size\s+" + _SIZE),  # ONNX Runtime's arena
        ("requested_bytes", r"cannot allocate vector of size\s+" + _SIZE),  # R
        (
            "requested_bytes",
            r"requested \d+(?:x\d+)+ \(" + _SIZE + r"\) array",
        ),  # MATLAB ("Requested 9x9 (61.4GB) array")
        ("requested_bytes", r"attempting to allocate\s+" + _SIZE),  # MLX's Metal allocator
        ("requested_bytes", r"memory allocation of\s+" + _SIZE + r"\s+failed"),  # Rust's global allocator (Polars)
        ("requested_bytes", r"(?<![a-z])(?:m|re)alloc of size\s+" + _SIZE + r"\s+failed"),  # Apache Arrow's, x264's
        ("requested_bytes", r"cannot allocate\s+(?:1x)?" + _SIZE + r"\s+bytes"),  # GDAL's ("... 1x2119895040 bytes")
        ("requested_bytes", r"allocate\s+" + _SIZE + r"\s+on device\s+\d"),  # NVIDIA DALI's
        ("requested_bytes", r"failed to cuda ?[cm]alloc\s+" + _SIZE),  # NCCL's, Faiss'
        ("total_bytes", r"total capac(?:i)?ty of\s+" + _SIZE),
        ("total_bytes", _SIZE + r"\s+total capacity"),
        ("limit_bytes", r"device limit\s*:\s*" + _SIZE),
        ("limit_bytes", r"max allowed:\s*" + _SIZE),
        ("free_bytes", r"of which\s+" + _SIZE + r"\s+is free"),
        ("free_bytes", r"free \(according to cuda\)\s*:\s*" + _SIZE),
        ("free_bytes", r";\s*" + _SIZE + r"\s+free\b"),
        ("allocated_bytes", r"currently allocated\s*:\s*" + _SIZE),
        ("allocated_bytes", _SIZE + r"\s+already allocated"),
        ("allocated_bytes", r"of the allocated memory\s+" + _SIZE + r"\s+is allocated by pytorch"),
        ("allocated_bytes", r"mps allocated:\s*" + _SIZE),
        ("reserved_bytes", _SIZE + r"\s+reserved in total by pytorch"),
        ("others_bytes", r"other allocations:\s*" + _SIZE),
    )
)


_REQUESTED = (
    *(pattern for key, pattern in _SIZE_PATTERNS if key == "requested_bytes"),
    re.compile(r"large alloc\s+" + _SIZE),  # tcmalloc's report of any large allocation ("... bytes == (nil)" when
    # refused), TensorFlow's GPU allocator's ("EigenAllocator for GPU ran out of memory when allocating 0"): read for
    re.compile(r"ran out of memory when allocating\s+" + _SIZE),  # an impossible size only, not as one it names
    re.compile(r"invalid memory alloc request size\s+" + _SIZE),  # PostgreSQL's (a length read as negative:
    # "... request size 18446744072631599008")
    re.compile(r"(?i)requested size:\s+" + _SIZE),  # METIS under MUMPS, SuperLU, SPRAL ("***Memory allocation failed
    # for OMETIS: cptr. Requested size: 18446744039349813296 bytes")
    re.compile(r"(?i)cannot allocate memory \(size=" + _SIZE),  # GNU MP's ("GNU MP: Cannot allocate memory
    # (size=18446744070406745120)": a negative size read unsigned)
    # gfortran's runtime ("Error allocating 94482252136877 bytes: Cannot allocate memory": CREST reading its input)
    re.compile(r"(?i)error allocating\s+" + _SIZE),
    re.compile(r"\(allocating\s+" + _SIZE),  # Vim's ("E342: Out of memory!  (allocating 18446744073709551615 bytes)")
    re.compile(r"bytes left, need\s+" + _SIZE),  # Kamailio's and OpenSIPS' pools ("not enough free shm memory
    # (2132025432 bytes left, need 18446744072258257520)")
    re.compile(r"mach_vm_map\(size=" + _SIZE),  # macOS' malloc ("malloc: can't allocate region", then "***
    # mach_vm_map(size=18446744071986823168) failed (error code=3)")
)
_NEGATIVE_REQUEST = re.compile(r"\ballocat(?:e|ing) -\d+ bytes\b")
"""A negative count of bytes asked for (LAMMPS' "Failed to allocate -156019200 bytes for array"): a size that
overflowed a 32-bit integer."""
_IMPOSSIBLE = 2**46
"""64 TiB at once: no machine holds that (the largest a few TiB of RAM)."""


def impossible_request(message: str | None) -> bool:
    """The message asks for 64 TiB or more at once, for nothing or for less than nothing, so a size went wrong (an
    integer overflow, a shape gone wild: ONNX Runtime's "requested buffer of size 4547406516732812544", tcmalloc's
    "large alloc 140113840283648 bytes", TensorFlow's "ran out of memory when allocating 0"), nothing ran out."""
    text = message or ""
    if _NEGATIVE_REQUEST.search(text):
        return True
    asked = next((m for pattern in _REQUESTED if (m := pattern.search(text))), None)
    if asked is None or (size := _scaled(*asked.groups())) is None:
        return False
    return size >= _IMPOSSIBLE or (size == 0 and not text[asked.end(1) : asked.end(1) + 1].isalnum())  # (not 0x...)


def _scaled(number: str, unit: str | None) -> float | None:
    try:
        return float(number.replace(",", "")) * _UNITS.get((unit or "").lower(), 1)
    except ValueError:
        return None


def _bytes(number: str, unit: str | None) -> int | None:
    scaled = _scaled(number, unit)
    return int(scaled) if scaled is not None and 0 <= scaled < 2**60 else None  # ROCm's "17179869184.00 GiB is free"
    # is no reading


def message_sizes(message: str | None) -> MessageSizes:
    """The sizes an out-of-memory message names (torch's CUDA/HIP/XPU/MPS texts, the CPU
    allocator's, numpy's, DirectML's), the first of each.

    >>> s = message_sizes("CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 6.00 GiB total capacity; "
    ...                   "5.20 GiB already allocated; 0 bytes free; 5.31 GiB reserved in total by PyTorch)")
    >>> s.requested_bytes, s.total_bytes, s.free_bytes
    (20971520, 6442450944, 0)
    >>> message_sizes("DefaultCPUAllocator: not enough memory: you tried to allocate 2359296 bytes.").requested_bytes
    2359296
    """
    if not message:
        return MessageSizes()
    text = message[:4000]
    found: dict[str, int] = {}
    for key, pattern in _SIZE_PATTERNS:
        if key in found:
            continue
        if (m := pattern.search(text)) is not None and (value := _bytes(m.group(1), m.group(2))) is not None:
            found[key] = value
    return MessageSizes(**found)
