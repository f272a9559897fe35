"""Human-readable sizes. Memory is always carried in bytes; only the edges format it."""

from __future__ import annotations

__all__ = ["GIB", "MIB", "KIB", "fmt_bytes", "fmt_pair"]

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


def fmt_pair(used: int | None, total: int | None) -> str:
    """``used / total`` with the share in percent when both are known."""
    if used is None and total is None:
        return "n/a"
    text = f"{fmt_bytes(used)} / {fmt_bytes(total)}"
    if used is not None and total:
        text += f" ({100 * used / total:.0f}%)"
    return text
