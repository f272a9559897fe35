"""Which limit ends ComfyUI when system memory runs out, on the system at hand: every judgement
(advice, the doctor, the panel's limit line) is made against that one.

=========================================  ===========================  ===============================
system                                     the limit that is enforced   what counts against it
=========================================  ===========================  ===============================
Linux in a memory cgroup whose limit is    the cgroup's limit           the cgroup's memory in use
below RAM (Docker, Kubernetes, GPU pods)   (its OOM killer ends it)     (``cgroup_used_bytes``)
Windows                                    commit limit (RAM +          commit charge (``commit_bytes``)
                                           pagefiles)
Linux, ``vm.overcommit_memory = 2``        ``CommitLimit``              ``Committed_AS``
Linux, overcommit 0 (default) or 1; macOS  RAM + swap (then the OOM     RAM in use + swap in use
                                           killer, or macOS's jetsam)
=========================================  ===========================  ===============================

In Linux's modes 0 and 1 ``CommitLimit`` is only informative: ``Committed_AS`` passes it freely
(CUDA maps huge virtual ranges; browsers commit memory they never touch), so a commit near or
above it is no pressure at all (kernel ``Documentation/mm/overcommit-accounting.rst``).

>>> limit = system_limits("Linux", overcommit_mode=0, ram_total=24 * 2**30, swap_total=0)[0]
>>> limit.name, limit.enforced, limit.metric
('RAM', True, 'ram_used_bytes')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..vocabulary import AT_LIMIT, NEAR_LIMIT

__all__ = [
    "MemoryLimit",
    "NEAR_LIMIT",
    "AT_LIMIT",
    "LOW_DISK_SHARE",
    "LOW_DISK_BYTES",
    "disk_is_low",
    "system_limits",
    "vram_limit",
    "os_family",
]


LOW_DISK_SHARE = 0.05
LOW_DISK_BYTES = 10 * 1024**3
"""A volume is low on space below 5 % free or below 10 GiB free (a pagefile or a model needs more)."""


def disk_is_low(free_bytes: int | None, total_bytes: int | None) -> bool:
    """Whether a volume is low on space.

    >>> disk_is_low(8 * 1024**3, 2 * 1024**4), disk_is_low(60 * 1024**3, 1024**4)
    (True, False)
    """
    if free_bytes is None or not total_bytes:
        return False
    return free_bytes < LOW_DISK_SHARE * total_bytes or free_bytes < LOW_DISK_BYTES


CGROUP = "container limit (cgroup)"
COMMIT = "commit limit"


@dataclass(frozen=True, slots=True)
class MemoryLimit:
    """A ceiling, the metric that runs into it, and whether the OS enforces it."""

    name: str
    """Short label: ``VRAM``, ``RAM``, ``RAM + swap``, ``commit limit``, ``container limit (cgroup)``."""
    enforced: bool
    """``False`` for a number that is only informative (Linux ``CommitLimit`` in overcommit mode 0/1)."""
    metric: str
    """The metric that counts against it (a series of the run's timeline)."""
    limit_bytes: int | None
    plus_swap: bool = False
    """RAM + swap: the swap in use counts too (``swap_used_bytes`` is added to ``metric``)."""

    def used(self, values: Mapping[str, Any]) -> int | None:
        """What counts against the limit in ``values`` (a metrics or peaks mapping)."""
        base = values.get(self.metric)
        if base is None:
            return None
        return int(base) + (int(values.get("swap_used_bytes") or 0) if self.plus_swap else 0)

    def share(self, values: Mapping[str, Any]) -> float | None:
        used = self.used(values)
        return used / self.limit_bytes if used is not None and self.limit_bytes else None

    def near(self, values: Mapping[str, Any], margin: float = NEAR_LIMIT) -> bool:
        """Pressure: an enforced limit within ``1 - margin`` of being reached."""
        share = self.share(values)
        return self.enforced and share is not None and share >= margin

    def to_dict(self) -> dict[str, Any]:
        return {
            "limit_name": self.name,
            "limit_enforced": self.enforced,
            "metric": self.metric,
            "limit_bytes": self.limit_bytes,
        }


def os_family(name: str | None) -> str:
    """``Windows``, ``Linux``, ``Darwin`` or ``""`` from ``platform.system()``, a run's
    ``context.os`` (``"Linux 6.18.4"``) or ``sys.platform`` (``win32``, ``linux``, ``darwin``)."""
    text = (name or "").strip().lower()
    for prefix, family in (("win", "Windows"), ("linux", "Linux"), ("darwin", "Darwin"), ("macos", "Darwin")):
        if text.startswith(prefix):
            return family
    return ""


def vram_limit(index: int, total_bytes: int | None) -> MemoryLimit:
    return MemoryLimit("VRAM", True, f"gpu{index}_used_bytes", total_bytes)


def system_limits(
    system: str,
    *,
    overcommit_mode: int | None = None,
    ram_total: int | None = None,
    swap_total: int | None = None,
    commit_limit: int | None = None,
    cgroup_limit: int | None = None,
) -> list[MemoryLimit]:
    """The limits of system memory on ``system`` (``platform.system()`` or a run's ``os``): the one
    the OS enforces first, then (for the record) one that is only informative. Unknown figures are
    ``None``; an unknown overcommit mode on Linux is taken as the default, 0."""
    family = os_family(system)
    out: list[MemoryLimit] = []
    if family == "Linux" and cgroup_limit and (not ram_total or cgroup_limit < ram_total):
        out.append(MemoryLimit(CGROUP, True, "cgroup_used_bytes", cgroup_limit))
    if family == "Windows" or (family == "Linux" and overcommit_mode == 2):
        out.append(MemoryLimit(COMMIT, True, "commit_bytes", commit_limit))
    else:
        swap = swap_total or 0
        total = ram_total + swap if ram_total else None
        out.append(MemoryLimit("RAM + swap" if swap else "RAM", True, "ram_used_bytes", total, plus_swap=bool(swap)))
        if family == "Linux" and commit_limit:
            out.append(
                MemoryLimit(
                    f"{COMMIT} (not enforced: overcommit mode {overcommit_mode or 0})",
                    False,
                    "commit_bytes",
                    commit_limit,
                )
            )
    return out
