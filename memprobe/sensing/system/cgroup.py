"""Linux memory cgroups: the limit the kernel enforces on ComfyUI's own control group, the memory
charged to it, and how often the OOM killer acted there.

In a container (Docker, Kubernetes and cloud GPU pods, many CI and render-farm set-ups) this limit
ends ComfyUI, whatever ``MemTotal`` says. Both hierarchies are read (kernel docs
``admin-guide/cgroup-v1/memory.rst`` and ``admin-guide/cgroup-v2.rst``):

==================  =======================================  ==========================================
                    v2 (unified)                             v1 (``memory`` controller)
==================  =======================================  ==========================================
limit               ``memory.max`` (lowest of the ancestors)  ``memory.limit_in_bytes`` and
                                                             ``hierarchical_memory_limit`` (memory.stat)
in use              ``memory.current``                       ``memory.usage_in_bytes``
reclaimable cache   ``inactive_file`` (memory.stat)          ``total_inactive_file`` (memory.stat)
peak                ``memory.peak`` (kernel 5.19+)           ``memory.max_usage_in_bytes``
OOM kills           ``oom_kill`` in ``memory.events``        ``oom_kill`` in ``memory.oom_control``
limit reached       ``max`` in ``memory.events``             ``memory.failcnt``
==================  =======================================  ==========================================

"In use" here is the *working set*: usage minus the inactive file cache, which the kernel drops
before it kills anything (what ``docker stats`` and the kubelet report). The parsers take the
files' texts, so tests feed them recorded files; :class:`CgroupReader` reads the live ones.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "CgroupLocation",
    "CgroupMemory",
    "CgroupReader",
    "UNLIMITED_FROM",
    "locate",
    "memory_from_files",
    "inactive_file",
    "parse_keyed",
    "parse_limit",
    "read_vmstat_oom_kills",
]

UNLIMITED_FROM = 1 << 62
"""v1 writes "no limit" as the largest page-aligned signed 64-bit number (9223372036854771712)."""

V1_FILES = (
    "memory.limit_in_bytes",
    "memory.usage_in_bytes",
    "memory.max_usage_in_bytes",
    "memory.failcnt",
    "memory.oom_control",
    "memory.stat",
)
V2_FILES = ("memory.max", "memory.current", "memory.peak", "memory.events", "memory.stat")


@dataclass(frozen=True, slots=True)
class CgroupLocation:
    """Where ComfyUI's memory cgroup is: its hierarchy, its name there and its folder."""

    version: int
    """1 (the ``memory`` controller's own hierarchy) or 2 (the unified hierarchy)."""
    path: str
    """The cgroup as ``/proc/self/cgroup`` names it, e.g. ``/docker/3f0c...`` or ``/``."""
    directory: str
    """Its folder under the cgroup file system."""
    top: str
    """The mount point: the highest folder whose limit still applies (ancestors up to it count)."""


@dataclass(frozen=True, slots=True)
class CgroupMemory:
    """One reading of a memory cgroup. Sizes in bytes; ``None`` where the kernel does not say."""

    version: int
    path: str
    limit_bytes: int | None
    """The lowest limit of the cgroup and its ancestors; ``None`` when none is set."""
    usage_bytes: int | None
    """Everything charged to it, page cache included."""
    used_bytes: int | None
    """The working set: usage without the inactive file cache the kernel can drop."""
    peak_bytes: int | None
    oom_kills: int | None
    """Processes the OOM killer ended in this cgroup (and below it) since it was created."""
    limit_hits: int | None
    """How often usage ran into the limit (v2 ``max`` events, v1 ``failcnt``): reclaim, not yet a kill."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------------- parsers
def parse_limit(text: str | None) -> int | None:
    """A limit file (``memory.max``, ``memory.limit_in_bytes``) -> bytes, ``None`` for no limit."""
    value = (text or "").strip()
    if not value or value == "max" or not value.isdigit():
        return None
    number = int(value)
    return None if number >= UNLIMITED_FROM else number


def parse_keyed(text: str | None) -> dict[str, int]:
    """``key value`` lines (``memory.events``, ``memory.stat``, ``memory.oom_control``) -> ints."""
    out: dict[str, int] = {}
    for line in (text or "").splitlines():
        key, _, value = line.partition(" ")
        value = value.strip()
        if key and value.isdigit():
            out[key] = int(value)
    return out


def _number(text: str | None) -> int | None:
    value = (text or "").strip()
    return int(value) if value.isdigit() else None


def parse_proc_cgroup(text: str) -> dict[str, str]:
    """``/proc/<pid>/cgroup`` -> ``{"memory": v1 path, "unified": v2 path}`` (those present)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hierarchy, controllers, path = parts
        if hierarchy == "0" and controllers == "":
            out["unified"] = path
        elif "memory" in controllers.split(","):
            out["memory"] = path
    return out


def parse_mountinfo(text: str) -> dict[str, tuple[str, str]]:
    """``/proc/<pid>/mountinfo`` -> ``{"memory" | "unified": (root, mount point)}`` of the cgroup
    file systems. ``root`` is the folder of the hierarchy that is mounted there: a container without
    its own cgroup namespace sees only its own cgroup, mounted as if it were the top."""
    out: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 3:
            continue
        root, point = (_unescape(f) for f in fields[3:5])
        fstype, options = tail[0], tail[2].split(",")
        if fstype == "cgroup2":
            out.setdefault("unified", (root, point))
        elif fstype == "cgroup" and "memory" in options:
            out.setdefault("memory", (root, point))
    return out


def _unescape(field: str) -> str:
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def locate(
    proc_cgroup: str, mountinfo: str, *, has_memory: Callable[[str, int], bool] | None = None
) -> CgroupLocation | None:
    """ComfyUI's memory cgroup from the texts of ``/proc/self/cgroup`` and ``/proc/self/mountinfo``.

    The v1 ``memory`` controller wins where it is mounted (hybrid systems mount v2 without the
    memory controller); ``has_memory(folder, version)`` tells whether a v2 folder has the memory
    controller (default: its ``memory.current`` exists). ``None`` when there is no memory cgroup.
    """
    paths, mounts = parse_proc_cgroup(proc_cgroup), parse_mountinfo(mountinfo)
    check = has_memory or (lambda folder, version: os.path.exists(posixpath.join(folder, "memory.current")))
    for key, version in (("memory", 1), ("unified", 2)):
        if key not in paths or key not in mounts:
            continue
        root, point = mounts[key]
        path = paths[key]
        folder = _folder(point, root, path)
        if version == 2 and not (check(folder, 2) or path == "/"):
            continue
        return CgroupLocation(version, path, folder, point)
    return None


def _folder(point: str, root: str, path: str) -> str:
    """The cgroup's folder: ``path`` relative to the mounted ``root``; when the cgroup lies outside
    it (a container that sees its own cgroup as the top), the mount point itself."""
    root = root.rstrip("/") or "/"
    if root == "/":
        relative = path.lstrip("/")
    elif path == root or path.startswith(root + "/"):
        relative = path[len(root) :].lstrip("/")
    else:
        return point
    return posixpath.normpath(posixpath.join(point, relative)) if relative else point


def memory_from_files(
    version: int, path: str, files: Mapping[str, str | None], ancestor_limits: tuple[str | None, ...] = ()
) -> CgroupMemory:
    """A :class:`CgroupMemory` from the texts of the cgroup's files (``V1_FILES``/``V2_FILES``; a
    missing one is ``None``). ``ancestor_limits`` are the v2 ``memory.max`` texts of its parents."""
    stat = parse_keyed(files.get("memory.stat"))
    if version == 1:
        limits = [
            parse_limit(files.get("memory.limit_in_bytes")),
            parse_limit(str(stat.get("hierarchical_memory_limit", ""))),
        ]
        usage = _number(files.get("memory.usage_in_bytes"))
        inactive = stat.get("total_inactive_file", stat.get("inactive_file"))
        peak = _number(files.get("memory.max_usage_in_bytes"))
        oom_kills = parse_keyed(files.get("memory.oom_control")).get("oom_kill")
        hits = _number(files.get("memory.failcnt"))
    else:
        limits = [parse_limit(files.get("memory.max")), *(parse_limit(t) for t in ancestor_limits)]
        usage = _number(files.get("memory.current"))
        inactive = stat.get("inactive_file")
        peak = _number(files.get("memory.peak"))
        events = parse_keyed(files.get("memory.events"))
        oom_kills, hits = events.get("oom_kill"), events.get("max")
    set_limits = [limit for limit in limits if limit is not None]
    used = max(0, usage - inactive) if usage is not None and inactive is not None else usage
    return CgroupMemory(version, path, min(set_limits) if set_limits else None, usage, used, peak, oom_kills, hits)


def inactive_file(version: int, stat_text: str) -> int | None:
    """The inactive file cache (which the kernel reclaims before it kills) from ``memory.stat``:
    ``total_inactive_file`` in v1 (this cgroup and below), ``inactive_file`` in v2."""
    key = "\ntotal_inactive_file " if version == 1 else "\ninactive_file "
    text = "\n" + stat_text
    i = text.find(key)
    if i < 0:
        return None
    end = text.find("\n", i + len(key))
    value = text[i + len(key) : end if end >= 0 else None].strip()
    return int(value) if value.isdigit() else None


# ---------------------------------------------------------------------------- the live reader
class CgroupReader:
    """Reads ComfyUI's own memory cgroup. Every method answers ``None`` where there is none (not
    Linux, no memory controller) or a file cannot be read; it never raises."""

    STAT_REFRESH_S = 0.5

    def __init__(self, proc_cgroup: str = "/proc/self/cgroup", mountinfo: str = "/proc/self/mountinfo") -> None:
        try:
            with open(proc_cgroup, encoding="utf-8", errors="replace") as f:
                cgroup_text = f.read()
            with open(mountinfo, encoding="utf-8", errors="replace") as f:
                mounts_text = f.read()
            self.location = locate(cgroup_text, mounts_text)
        except OSError:
            self.location = None
        self._fds: dict[str, int] = {}
        self._inactive: int | None = None
        self._stat_read_at = -1e9

    def read(self) -> CgroupMemory | None:
        """Every reading of the cgroup (a dozen small files: not for the 50 Hz path)."""
        loc = self.location
        if loc is None:
            return None
        names = V1_FILES if loc.version == 1 else V2_FILES
        files = {name: _read(posixpath.join(loc.directory, name)) for name in names}
        if all(text is None for text in files.values()):
            return None
        ancestors: list[str | None] = []
        if loc.version == 2:
            folder = loc.directory
            while folder.rstrip("/") != loc.top.rstrip("/") and folder not in ("/", ""):
                folder = posixpath.dirname(folder)
                ancestors.append(_read(posixpath.join(folder, "memory.max")))
        return memory_from_files(loc.version, loc.path, files, tuple(ancestors))

    def working_set(self) -> int | None:
        """The cgroup's memory in use now: its usage (one ``pread`` on a file kept open) minus the
        inactive file cache, which ``memory.stat`` gives and is re-read at most every half second
        (the kernel computes that file, ~15 µs; the usage costs ~2 µs)."""
        loc = self.location
        if loc is None:
            return None
        usage = _number(self._pread("memory.usage_in_bytes" if loc.version == 1 else "memory.current"))
        if usage is None:
            return None
        now = time.monotonic()
        if now - self._stat_read_at >= self.STAT_REFRESH_S:
            self._stat_read_at = now
            self._inactive = inactive_file(loc.version, self._pread("memory.stat") or "")
        return max(0, usage - self._inactive) if self._inactive is not None else usage

    def oom_kills(self) -> int | None:
        """The cgroup's OOM-kill count alone (``memory.events`` in v2, ``memory.oom_control`` in v1):
        one ``pread`` on a file kept open, for every run's start (a full :meth:`read` is a dozen files)."""
        loc = self.location
        if loc is None:
            return None
        return parse_keyed(self._pread("memory.oom_control" if loc.version == 1 else "memory.events")).get("oom_kill")

    def _pread(self, name: str) -> str | None:
        fd = self._fds.get(name)
        try:
            if fd is None:
                assert self.location is not None
                fd = self._fds[name] = os.open(posixpath.join(self.location.directory, name), os.O_RDONLY)
            return os.pread(fd, 16384, 0).decode("ascii", "replace")
        except OSError:
            return None


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def read_vmstat_oom_kills(text: str) -> int | None:
    """``oom_kill`` of ``/proc/vmstat``: every OOM kill on the machine since boot (kernel 4.13+)."""
    return parse_keyed(text).get("oom_kill")
