"""Linux readings from ``/proc``: pure parsers over the texts, plus tiny readers.

The parsers take the file's text, so tests feed them recorded ``/proc`` files.
"""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..._log import warn_once

__all__ = [
    "LinuxSystemReader",
    "SwapArea",
    "RssPeakReset",
    "parse_kb_fields",
    "parse_swaps",
    "system_fields",
    "sample_fields",
    "read_text",
    "read_overcommit_mode",
    "is_rotational",
]

_KIB = 1024


def parse_kb_fields(text: str, wanted: frozenset[str] | None = None) -> dict[str, int]:
    """``Key:  1234 kB`` lines (``/proc/meminfo``, ``/proc/<pid>/status``) -> ``{key: bytes}``.

    Values without a ``kB`` unit (``HugePages_Total: 0``) are kept as plain numbers; lines that
    are not ``key: number`` are skipped. With ``wanted``, only those keys are looked up, by
    direct search rather than line by line (every snapshot reads two files).
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
        parts = text[i + len(key) + 1 : end if end >= 0 else len(text)].split()
        if not parts or not parts[0].isdigit():
            continue
        out[key] = int(parts[0]) * _KIB if len(parts) > 1 and parts[1] == "kB" else int(parts[0])
    return out


_MEMINFO_KEYS = frozenset(
    {"MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "SwapTotal", "SwapFree", "CommitLimit", "Committed_AS"}
)
_STATUS_KEYS = frozenset({"VmRSS", "RssAnon", "VmSwap", "VmHWM"})


def system_fields(meminfo: str, status: str | None, overcommit_mode: int | None) -> dict[str, int | None]:
    """The :class:`~memprobe.sensing.snapshot.SystemMemory` fields from recorded ``/proc`` texts.

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
        "process_peak_rss_bytes": None,
    }
    if status is not None:
        proc = parse_kb_fields(status, _STATUS_KEYS)
        fields["process_rss_bytes"] = proc.get("VmRSS")
        fields["process_peak_rss_bytes"] = proc.get("VmHWM")
        if "RssAnon" in proc:
            fields["process_private_bytes"] = proc["RssAnon"] + proc.get("VmSwap", 0)
    return fields


_MEMINFO_ROW = re.compile(
    rb"^(MemTotal|MemFree|MemAvailable|Buffers|Cached|SwapTotal|SwapFree|CommitLimit|Committed_AS):\s+(\d+) kB", re.M
)
_STATUS_ROW = re.compile(rb"^(VmRSS|RssAnon|VmSwap):\s+(\d+) kB", re.M)


def sample_fields(meminfo: bytes, status: bytes | None) -> dict[str, int]:
    """The sampler's row (the metrics that move, see :func:`~memprobe.sensing.snapshot.metrics_of` with
    ``totals=False``) straight from the raw ``/proc`` bytes: one C-level scan per file and no
    intermediate records, because this runs on every tick of the sampler. Same figures as
    :func:`system_fields`; readings a file lacks are left out."""
    mem = dict(_MEMINFO_ROW.findall(meminfo))
    row: dict[str, int] = {}
    total, available = mem.get(b"MemTotal"), mem.get(b"MemAvailable")
    if total is not None:
        if available is not None:
            row["ram_used_bytes"] = (int(total) - int(available)) * _KIB
        elif b"MemFree" in mem:  # kernels before 3.14
            free = int(mem[b"MemFree"]) + int(mem.get(b"Buffers", 0)) + int(mem.get(b"Cached", 0))
            row["ram_used_bytes"] = (int(total) - free) * _KIB
    if b"Committed_AS" in mem:
        row["commit_bytes"] = int(mem[b"Committed_AS"]) * _KIB
    if b"CommitLimit" in mem:
        row["commit_limit_bytes"] = int(mem[b"CommitLimit"]) * _KIB
    if b"SwapTotal" in mem and b"SwapFree" in mem:
        row["swap_used_bytes"] = (int(mem[b"SwapTotal"]) - int(mem[b"SwapFree"])) * _KIB
    if status is not None:
        proc = dict(_STATUS_ROW.findall(status))
        if b"VmRSS" in proc:
            row["process_rss_bytes"] = int(proc[b"VmRSS"]) * _KIB
        if b"RssAnon" in proc:
            row["process_private_bytes"] = (int(proc[b"RssAnon"]) + int(proc.get(b"VmSwap", 0))) * _KIB
    return row


class HeapFree:
    """The bytes glibc's ``malloc`` holds free for reuse in this process (``mallinfo2()``: the free chunks
    of every arena, less the top chunk, whose pages may never have been touched). glibc keeps what a node
    freed instead of giving it back to the kernel, so the process's RSS after the node stays up by that
    much — up to 190 MB after one 512² sampling on the CPU here — and the next node reuses it before its
    RSS grows again. The forecast takes it off the levels it learns from and forecasts from.

    Walking the arenas takes each one's lock for as long as it has free chunks to count (0.1 ms for a
    few thousand, 30 ms for 200,000), so it is read at the start and end of the nodes the forecast learns
    from when ComfyUI computes on the CPU, never by the sampler, and no more after a read took over
    :attr:`MAX_READ_S`. ``None`` (for good, after one warning) where the C library has no
    ``mallinfo2`` (musl, glibc before 2.33)."""

    MAX_READ_S = 0.005
    """A read slower than this is the last (5 ms: 40,000 free chunks or so)."""

    def __init__(self) -> None:
        self._call: Any = None
        self.available = True

    def read(self) -> int | None:
        if not self.available:
            return None
        try:
            if self._call is None:
                self._call = _mallinfo2()
            started = time.perf_counter()
            info = self._call()
            took = time.perf_counter() - started
        except (OSError, AttributeError) as exc:
            self.available = False
            warn_once("mallinfo2", "Memory Probe: cannot read the C library's free heap (%s)", exc)
            return None
        if took > self.MAX_READ_S:  # a heap of many free chunks: not worth its cost (the forecast does without)
            self.available = False
            warn_once("mallinfo2-slow", "Memory Probe: reading the free heap took %.0f ms; not read again", took * 1000)
        return max(0, int(info.fordblks) - int(info.keepcost))


def _mallinfo2() -> Any:
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks")
        ] + [("fordblks", ctypes.c_size_t), ("keepcost", ctypes.c_size_t)]

    # PyDLL: called holding the GIL, so its time is the walk's own, not a wait for another thread to let go
    call = ctypes.PyDLL(None).mallinfo2  # AttributeError where the C library has none
    call.restype = MallInfo2
    call.argtypes = []
    return call


class RssPeakReset:
    """Restarts this process's peak RSS (``VmHWM`` in ``/proc/self/status``) by writing ``5`` to
    ``/proc/self/clear_refs`` (Linux 4.0 and later): from then on ``VmHWM`` is the highest RSS
    since the reset, kept by the kernel itself (it raises the mark before any page leaves the
    process: munmap, ``MADV_DONTNEED``/``MADV_FREE``, reclaim), so a spike between two sampler
    readings is not missed.

    The counter is the process's, so whatever else reads it sees the restarted value too:
    ``getrusage(RUSAGE_SELF).ru_maxrss`` and the maximum RSS that ``/usr/bin/time -v`` reports
    at exit follow ``VmHWM``. A kernel or sandbox that refuses the write (older kernels, gVisor)
    is reported once and the RSS peak falls back to the sampler.
    """

    def __init__(self, path: str = "/proc/self/clear_refs") -> None:
        self.path = path
        self.available = True
        self._fd: int | None = None
        self._pid = -1

    def reset(self) -> bool:
        """Restart the counter; ``False`` when this system does not allow it (then never again)."""
        if not self.available:
            return False
        try:
            pid = os.getpid()
            if self._fd is None or self._pid != pid:  # after a fork, /proc/self is another process
                self._fd = os.open(self.path, os.O_WRONLY)
                self._pid = pid
            os.write(self._fd, b"5")
            return True
        except OSError as exc:
            self.available = False
            warn_once(
                "clear-refs",
                "Memory Probe: cannot restart the peak RSS counter through %s (%s); per-node "
                "RSS peaks come from the sampler",
                self.path,
                exc,
            )
            return False


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


class _ProcFile:
    """A ``/proc`` file kept open and re-read with ``pread`` (no open/close per reading)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._pid = -1

    def read(self) -> str:
        return self.read_bytes().decode("ascii", "replace")

    def read_bytes(self) -> bytes:
        pid = os.getpid()
        if self._fd is None or self._pid != pid:  # after a fork, /proc/self is another process
            self._fd = os.open(self.path, os.O_RDONLY)
            self._pid = pid
        return os.pread(self._fd, 65536, 0)


class LinuxSystemReader:
    """Linux: ``/proc/meminfo`` and ``/proc/self/status`` kept open, the overcommit mode, and the
    memory cgroup (whose use is sampled only when it has a limit: only then does it bound ComfyUI)."""

    platform = "linux"
    SETTINGS_REFRESH_S = 10.0
    """Settings an administrator changes (overcommit mode, the cgroup's limit) are re-read this often."""

    def __init__(self) -> None:
        from .cgroup import CgroupReader

        self._meminfo = _ProcFile("/proc/meminfo")
        self._status = _ProcFile("/proc/self/status")
        self._vmstat = _ProcFile("/proc/vmstat")
        self._boot_id: str | None = None
        self._meminfo_text: str | None = None
        self._meminfo_at = -1e9
        self._cgroup: CgroupReader | None = None
        self._cgroup_limit: int | None = None
        self._overcommit: int | None = None
        self._settings_read_at = -1e9
        self.unreadable: dict[str, str] = {}
        self.rss_peak_reset = RssPeakReset()
        self.heap_free = HeapFree()

    def fields(self, max_age_s: float = 0.0) -> dict[str, int | None]:
        """Every field now; ``max_age_s`` lets the system-wide ``/proc/meminfo`` of a reading that
        recent stand (a node's start, right after the previous node's end) — the process's own
        ``/proc/self/status`` is always read."""
        now = time.monotonic()
        if max_age_s and self._meminfo_text is not None and now - self._meminfo_at <= max_age_s:
            meminfo = self._meminfo_text
        else:
            meminfo = self._meminfo_text = self._meminfo.read()
            self._meminfo_at = now
        raw_status = self._status_bytes()
        status = raw_status.decode("ascii", "replace") if raw_status is not None else None
        self._refresh_settings()
        fields = system_fields(meminfo, status, self._overcommit)
        if self._cgroup_limit is not None:
            fields["cgroup_limit_bytes"] = self._cgroup_limit
            fields["cgroup_used_bytes"] = self._cgroup_reader().working_set()
        return fields

    def sample(self) -> dict[str, int]:
        """Two ``pread`` calls and two regular-expression scans (and the cgroup's use when limited)."""
        row = sample_fields(self._meminfo.read_bytes(), self._status_bytes())
        self._refresh_settings()
        if self._cgroup_limit is not None:
            used = self._cgroup_reader().working_set()
            if used is not None:
                row["cgroup_used_bytes"] = used
        return row

    def cgroup(self) -> Any:
        try:
            return self._cgroup_reader().read()
        except Exception as exc:  # a sensor never raises to its caller
            warn_once("cgroup-read", "Memory Probe: cannot read the memory cgroup (%s)", exc)
            return None

    def oom_kills(self) -> dict[str, int | str | None]:
        from .cgroup import read_vmstat_oom_kills

        out: dict[str, int | str | None] = {"boot_id": None, "system": None, "cgroup": None, "cgroup_path": None}
        try:  # read at every run's start: the boot id once, two files kept open
            if self._boot_id is None:
                self._boot_id = read_text("/proc/sys/kernel/random/boot_id").strip() or None
            out["boot_id"] = self._boot_id
            out["system"] = read_vmstat_oom_kills(self._vmstat.read())
        except OSError as exc:
            warn_once("proc-vmstat", "Memory Probe: cannot read the OOM-kill counter (%s)", exc)
        try:
            reader = self._cgroup_reader()
            if reader.location is not None:
                out["cgroup"], out["cgroup_path"] = reader.oom_kills(), reader.location.path
        except Exception as exc:  # a sensor never raises to its caller
            warn_once("cgroup-oom", "Memory Probe: cannot read the cgroup's OOM kills (%s)", exc)
        return out

    def _status_bytes(self) -> bytes | None:
        try:
            return self._status.read_bytes()
        except OSError as exc:
            warn_once("proc-self-status", "Memory Probe: cannot read /proc/self/status (%s)", exc)
            return None

    def _cgroup_reader(self) -> Any:
        if self._cgroup is None:
            from .cgroup import CgroupReader

            self._cgroup = CgroupReader()
        return self._cgroup

    def _refresh_settings(self) -> None:
        now = time.monotonic()
        if now - self._settings_read_at > self.SETTINGS_REFRESH_S:
            self._overcommit = read_overcommit_mode()
            self._settings_read_at = now
            cgroup = self.cgroup()
            self._cgroup_limit = cgroup.limit_bytes if cgroup is not None else None
