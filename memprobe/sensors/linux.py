"""Linux readings from ``/proc``: pure parsers over the texts, plus tiny readers.

The parsers take the file's text, so tests feed them recorded ``/proc`` files.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "SwapArea",
    "parse_kb_fields",
    "parse_swaps",
    "system_fields",
    "read_text",
    "read_overcommit_mode",
    "is_rotational",
]

_KIB = 1024


def parse_kb_fields(text: str, wanted: frozenset[str] | None = None) -> dict[str, int]:
    """``Key:  1234 kB`` lines (``/proc/meminfo``, ``/proc/<pid>/status``) -> ``{key: bytes}``.

    Values without a ``kB`` unit (``HugePages_Total: 0``) are kept as plain numbers; lines that
    are not ``key: number`` are skipped. With ``wanted``, only those keys are looked up, by
    direct search rather than line by line: this runs at 50 Hz.
    """
    if wanted is None:
        wanted = frozenset(line.partition(":")[0] for line in text.splitlines() if ":" in line)
    out: dict[str, int] = {}
    for key in wanted:
        start = 0
        while True:
            i = text.find(key + ":", start)
            if i < 0 or i == 0 or text[i - 1] == "\n":
                break
            start = i + 1  # found inside another key (e.g. "Active(anon):"): look further
        if i < 0:
            continue
        end = text.find("\n", i)
        parts = text[i + len(key) + 1:end if end >= 0 else len(text)].split()
        if not parts or not parts[0].isdigit():
            continue
        out[key] = int(parts[0]) * _KIB if len(parts) > 1 and parts[1] == "kB" else int(parts[0])
    return out


_MEMINFO_KEYS = frozenset(
    {"MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "SwapTotal", "SwapFree",
     "CommitLimit", "Committed_AS"}
)
_STATUS_KEYS = frozenset({"VmRSS", "RssAnon", "VmSwap"})


def system_fields(meminfo: str, status: str | None, overcommit_mode: int | None) -> dict[str, int | None]:
    """The :class:`~memprobe.snapshot.SystemMemory` fields from recorded ``/proc`` texts.

    Kernels before 3.14 have no ``MemAvailable``; then available is estimated as
    ``MemFree + Buffers + Cached`` (what ``free`` did then).
    """
    mem = parse_kb_fields(meminfo, _MEMINFO_KEYS)
    available = mem.get("MemAvailable")
    if available is None and "MemFree" in mem:
        available = mem["MemFree"] + mem.get("Buffers", 0) + mem.get("Cached", 0)
    swap_total = mem.get("SwapTotal")
    swap_free = mem.get("SwapFree")
    fields: dict[str, int | None] = {
        "ram_total_bytes": mem.get("MemTotal"),
        "ram_available_bytes": available,
        "commit_bytes": mem.get("Committed_AS"),
        "commit_limit_bytes": mem.get("CommitLimit"),
        "commit_peak_bytes": None,  # Linux keeps no system-wide commit peak
        "overcommit_mode": overcommit_mode,
        "swap_total_bytes": swap_total,
        "swap_used_bytes": swap_total - swap_free if swap_total is not None and swap_free is not None else None,
        "process_rss_bytes": None,
        "process_private_bytes": None,
    }
    if status is not None:
        proc = parse_kb_fields(status, _STATUS_KEYS)
        fields["process_rss_bytes"] = proc.get("VmRSS")
        if "RssAnon" in proc:
            fields["process_private_bytes"] = proc["RssAnon"] + proc.get("VmSwap", 0)
    return fields


@dataclass(frozen=True, slots=True)
class SwapArea:
    """One line of ``/proc/swaps``."""

    path: str
    kind: str
    """``file`` or ``partition``."""
    size_bytes: int
    used_bytes: int
    priority: int

    @property
    def is_zram(self) -> bool:
        """Compressed RAM, not disk: it adds no commit headroom of its own."""
        return self.path.startswith("/dev/zram")


def parse_swaps(text: str) -> list[SwapArea]:
    """``/proc/swaps`` -> swap areas (sizes there are KiB; spaces in paths are ``\\040``)."""
    areas: list[SwapArea] = []
    for line in text.splitlines()[1:]:
        parts = line.split()
        if len(parts) < 5:
            continue
        path = parts[0].replace("\\040", " ")
        try:
            areas.append(SwapArea(path, parts[1], int(parts[2]) * _KIB, int(parts[3]) * _KIB, int(parts[4])))
        except ValueError:
            continue
    return areas


def read_text(path: str) -> str:
    with open(path, encoding="ascii", errors="replace") as f:
        return f.read()


def read_overcommit_mode(path: str = "/proc/sys/vm/overcommit_memory") -> int | None:
    try:
        return int(read_text(path).strip())
    except (OSError, ValueError):
        return None


def is_rotational(path: str, sys_dev_block: str = "/sys/dev/block") -> bool | None:
    """Whether the disk that holds ``path`` (a swap file, or a swap partition's device) spins.

    ``True`` for an HDD, ``False`` for an SSD/NVMe, ``None`` when the kernel does not say
    (device-mapper, network and virtual disks often do not).
    """
    try:
        st = os.stat(path)
    except OSError:
        return None
    dev = st.st_rdev if stat.S_ISBLK(st.st_mode) else st.st_dev
    node = Path(sys_dev_block) / f"{os.major(dev)}:{os.minor(dev)}"
    try:
        node = node.resolve(strict=True)
    except OSError:
        return None
    for candidate in (node, node.parent):  # a partition's queue lives on its parent disk
        try:
            return (candidate / "queue" / "rotational").read_text().strip() == "1"
        except OSError:
            continue
    return None
