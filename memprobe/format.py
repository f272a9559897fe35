"""Human-readable figures, as ``js/format.js`` writes them in the panel: sizes (memory is always
carried in bytes; only the edges format it) and the compact text a Memory Probe node shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .sensing.snapshot import Snapshot

__all__ = ["GIB", "MIB", "KIB", "fmt_bytes", "fmt_pair", "fmt_pct", "probe_summary"]

KIB = 1024
MIB = 1024**2
GIB = 1024**3


def fmt_bytes(value: int | float | None) -> str:
    """``3.6 GiB``, ``512 MiB``; ``n/a`` for a missing reading."""
    if value is None:
        return "n/a"
    size = float(value)
    sign = "-" if size < 0 else ""
    size = abs(size)
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if size >= scale:
            return f"{sign}{size / scale:.1f} {unit}"
    return f"{sign}{size:.0f} B"


def fmt_pct(part: int | float | None, whole: int | float | None) -> str:
    """``13 %`` (``<1 %`` for a sliver), as the panel writes a share; ``n/a`` when unknown."""
    if part is None or not whole:
        return "n/a"
    pct = 100 * part / whole
    return "<1 %" if 0 < pct < 1 else f"{round(pct)} %"


def fmt_pair(used: int | None, total: int | None) -> str:
    """``used / total`` with the share in percent when both are known."""
    if used is None and total is None:
        return "n/a"
    text = f"{fmt_bytes(used)} / {fmt_bytes(total)}"
    if used is not None and total:
        text += f" ({100 * used / total:.0f}%)"
    return text


def probe_summary(snap: Snapshot) -> str:
    """One line per memory: each GPU's VRAM, then RAM, then commit against its limit.

    >>> from memprobe.sensing.snapshot import Snapshot, SystemMemory
    >>> print(probe_summary(Snapshot(0, 0, system=SystemMemory(ram_total_bytes=8 * 2**30, ram_available_bytes=6 * 2**30))))
    RAM 2.0 GiB / 8.0 GiB (25%)
    Commit n/a
    """
    lines = []
    for gpu in snap.gpus:
        name = f" {gpu.name}" if gpu.name else ""
        line = f"GPU{gpu.index}{name}: VRAM {fmt_pair(gpu.device_used_bytes, gpu.device_total_bytes)}"
        if gpu.shared_used_bytes:
            line += f", shared {fmt_bytes(gpu.shared_used_bytes)}"
        lines.append(line)
    s = snap.system
    lines.append(f"RAM {fmt_pair(s.ram_used_bytes, s.ram_total_bytes)}")
    lines.append(f"Commit {fmt_pair(s.commit_bytes, s.commit_limit_bytes)}")
    return "\n".join(lines)


_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": KIB, "m": 1000**2, "mb": 1000**2, "mib": MIB}
_UNITS.update({"g": 1000**3, "gb": 1000**3, "gib": GIB, "t": 1000**4, "tb": 1000**4, "tib": 1024 * GIB})


def parse_size(text: str) -> int:
    """``8GiB``, ``8 GB``, ``12884901888`` -> bytes (GB is 10^9, GiB 2^30, as cards and files are sold);
    :class:`ValueError` with what is expected.

    >>> parse_size("8GiB"), parse_size("1.5 gb"), parse_size("4096")
    (8589934592, 1500000000, 4096)
    """
    import re

    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*", text or "")
    if m is None or m.group(2).lower() not in _UNITS:
        raise ValueError(f"{text!r} is not a size: write it like 8GiB, 12GB or 12884901888")
    value = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if value <= 0:
        raise ValueError(f"{text!r} is not a size above zero")
    return value
