"""The compact text a Memory Probe node shows on the canvas."""

from __future__ import annotations

from .snapshot import Snapshot
from .units import fmt_bytes, fmt_pair

__all__ = ["probe_summary"]


def probe_summary(snap: Snapshot) -> str:
    """One line per memory: each GPU's VRAM, then RAM, then commit against its limit.

    >>> from memprobe.snapshot import SystemMemory
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
