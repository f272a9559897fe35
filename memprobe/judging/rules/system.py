"""System memory against the limit the OS enforces (RAM + swap, the commit limit, a container's
cgroup limit), an end nobody explained, and the disk."""

from __future__ import annotations

from ...format import GIB, fmt_bytes
from ...vocabulary import SYSTEM_KINDS
from ..doctor import suggest_pagefile
from ..facts import USAGE_WORDS, RunFacts, of_limit, short
from ..failures import (
    allocation_size_limit,
    dynamic_vram_reserve,
    malloc_async_assert,
    own_limit,
    pinned_host,
    shared_memory_full,
    store_limit,
)
from ..limits import CGROUP, COMMIT, MemoryLimit, disk_is_low, os_family
from .base import Suggestion, rule
from .firststep import impossible_request

__all__: list[str] = []


@rule("pinned-memory", needs=("failure",), tiers=("failure",))
def pinned_memory(f: RunFacts) -> list[Suggestion]:
    """CUDA's bare "out of memory" while ComfyUI page-locked host RAM (see
    :func:`memprobe.judging.failures.classify_failure`): pinned RAM has a ceiling of its own, below RAM +
    swap (on Windows, the shared GPU memory: half the RAM), so turn pinning off rather than add swap."""
    failure = f.failure
    if failure is None or not pinned_host(failure.kind, failure.message):
        return []
    offloaded = max((p.get("offloaded_bytes") or 0 for p in f.partials), default=0)
    return [
        Suggestion(
            "disable-pinned-memory",
            "failure",
            "Turn off ComfyUI's pinned memory",
            f"It failed at {f.label(f.failing_node())} with '{short(failure.message)}' while ComfyUI was pinning "
            "(page-locking) host RAM for weights it keeps off the GPU: CUDA's own error, not torch's VRAM "
            "allocator's, raised where no VRAM is allocated.",
            "Launch ComfyUI with --disable-pinned-memory (pinned memory is on by default on NVIDIA since "
            "November 2025); offloaded weights then stay in ordinary RAM, which can use the pagefile/swap. A "
            "larger pagefile does not help pinned RAM, which cannot be paged out.",
            offloaded or None,  # the offloaded weights are what ComfyUI pins
        )
    ]


@rule("dynamic-vram-reserve", needs=("failure",), tiers=("failure",))
def dynamic_vram_reserve_failed(f: RunFacts) -> list[Suggestion]:
    """Dynamic VRAM could not reserve a model's GPU address range: not memory running out; turn it off."""
    failure = f.failure
    if failure is None or not dynamic_vram_reserve(failure.message):
        return []
    if "unused regions" in (failure.message or ""):  # funchook's words: aimdo's hooks, not a reservation
        return _turn_off_dynamic_vram(
            f"'{short(failure.message)}' is funchook's: comfy-aimdo found no free address near the CUDA driver to "
            "place its hooks, so dynamic VRAM is off and ComfyUI falls back to its legacy loader (comfy-aimdo#74). "
            "That is not memory running out.",
            "If dynamic VRAM matters to you, report it to Comfy-Org/comfy-aimdo with this log.",
        )
    return _turn_off_dynamic_vram(
        f"It failed at {f.label(f.failing_node())} with '{short(failure.message)}': dynamic VRAM (comfy-aimdo) "
        "reserves GPU address space before it allocates (ten times a model's size for its weights, a range for its "
        "cast buffers), and the driver refused the reservation. That is not VRAM running out: virtual GPUs (vGPU, "
        "MIG) and ZLUDA lack the API, and many model loads can use the range up.",
        "Restarting ComfyUI frees a range used up by many loads.",
    )


@rule("allocation-size-limit", needs=("failure",), tiers=("failure",))
def one_allocation_too_large(f: RunFacts) -> list[Suggestion]:
    """The GPU's runtime refused one allocation for its size, however much memory was free (IPEX on Intel's
    Alchemist cards cannot allocate a block over 4 GB): make the largest piece of work smaller."""
    failure = f.failure
    if failure is None or not allocation_size_limit(failure.message):
        return []
    sizes = failure.sizes
    asked = f" of {fmt_bytes(sizes.requested_bytes)}" if sizes.requested_bytes else ""
    held = (
        f" with {fmt_bytes(sizes.allocated_bytes)} of {fmt_bytes(sizes.total_bytes)} allocated"
        if sizes.allocated_bytes and sizes.total_bytes
        else ""
    )
    return [
        Suggestion(
            "smaller-allocation",
            "failure",
            "Make the largest single allocation smaller",
            f"It failed at {f.label(f.failing_node())}: the GPU's runtime refused one allocation{asked}{held} "
            "because of its size alone — Intel's Arc A-series "
            "(Alchemist) cannot allocate a block over 4 GB (with IPEX and with torch's own XPU backend). That is not VRAM "
            "running out.",
            "Shrink what one step holds at once: a tiled node (VAE Decode (Tiled), a tiled upscaler), a lower "
            "resolution or fewer frames, a batch of 1; PyTorch's max_split_size_mb does not lift the limit "
            "(newer Arc cards, Battlemage, do not have it).",
            None,
        )
    ]


@rule("own-limit", needs=("failure",), tiers=("failure",))
def own_memory_limit(f: RunFacts) -> list[Suggestion]:
    """The program stopped at a memory cap of its own (the JVM's heap, V8's, ImageMagick's policy, a database's
    limit): raise that cap, within the RAM there is — not the OS' limit, which was not the one reached."""
    failure = f.failure
    found = own_limit(failure.message) if failure is not None and failure.kind == "system-ram" else None
    if failure is None or found is None:
        return []
    cap, knob = found
    return [
        Suggestion(
            "raise-own-limit",
            "failure",
            f"Raise {cap}",
            f"It failed {failure.where} with '{short(failure.message)}': the program stopped at {cap}, a cap set "
            "for it below what the machine has.",
            f"Raise {knob}, within the RAM the machine has free; or give it less to hold at once. More swap or "
            "pagefile does not help while that cap is the one reached.",
            None,
        )
    ]


@rule("cuda-malloc-assert", needs=("failure",), tiers=("failure",))
def malloc_async_bug(f: RunFacts) -> list[Suggestion]:
    """PyTorch's cudaMallocAsync allocator tripped its own assertion: use torch's native allocator instead."""
    failure = f.failure
    if failure is None or not malloc_async_assert(failure.message):
        return []
    if "--disable-cuda-malloc" in f.argv:  # (ComfyUI then runs torch's native allocator: not this one's bug)
        return []
    return [
        Suggestion(
            "disable-cuda-malloc",
            "failure",
            "Switch off the cudaMallocAsync allocator",
            f"It failed at {f.label(f.failing_node())} with '{short(failure.message)}': PyTorch's cudaMallocAsync "
            "allocator, which ComfyUI turns on by default on NVIDIA, failed its own bookkeeping check (free + used "
            "above the card's total; pytorch/pytorch#139382). That is an allocator bug, not an out-of-memory error, "
            "but it shows up when the GPU is nearly full or shared with another program.",
            "Launch ComfyUI with --disable-cuda-malloc so torch uses its native caching allocator; if it then fails "
            "with 'CUDA out of memory', the GPU really was full and that error's advice applies.",
            None,
        )
    ]


@rule("dynamic-vram-crash", needs=("abrupt-end",), tiers=("failure",))
def dynamic_vram_crash(f: RunFacts) -> list[Suggestion]:
    """ComfyUI crashed natively inside dynamic VRAM's allocator (comfy-aimdo): turn dynamic VRAM off."""
    failure = f.failure
    if failure is None or failure.crashed_in != "comfy-aimdo":
        return []
    return _turn_off_dynamic_vram(
        f"ComfyUI crashed ({short(failure.evidence or failure.message, 120)}) in dynamic VRAM's native code "
        "(comfy-aimdo: its log, its frames or the model it had just staged are at the crash). Such crashes "
        "(access violations at start-up or while loading, on some drivers, ROCm on Windows, Blackwell) go away "
        "with dynamic VRAM off; they are not memory running out.",
        "If that ends the crashes, report them to Comfy-Org/comfy-aimdo with this log.",
    )


def _turn_off_dynamic_vram(why: str, then: str) -> list[Suggestion]:
    return [
        Suggestion(
            "disable-dynamic-vram",
            "failure",
            "Turn off dynamic VRAM",
            why,
            "Launch ComfyUI with --disable-dynamic-vram (ComfyUI then loads models by its estimates, as before "
            f"dynamic VRAM). {then}",
        )
    ]


@rule("system-memory", needs=("failure", "abrupt-end", "near-limit", "partial-load"), tiers=("failure", "pressure"))
def system_memory(f: RunFacts) -> list[Suggestion]:
    """System memory ran out at the limit the OS enforces (or came within 10 % of it): raise that
    limit. Linux's commit limit in overcommit mode 0/1 is not enforced: no evidence at all."""
    limit, failure = f.system, f.failure
    kind = failure.kind if failure is not None else None
    if failure is not None and pinned_host(kind, failure.message):
        return []  # pinned RAM: not the limit the OS enforces (pinned-memory says what helps)
    if failure is not None and failure.crashed_in == "window":
        return []  # the window's memory, not the server's (window-memory says what helps)
    if failure is not None and own_limit(failure.message) is not None:
        return []  # the program's own cap, not the OS' limit (own-limit says what helps)
    abrupt = failure is not None and failure.abrupt
    failed = kind in SYSTEM_KINDS  # RAM + swap, the commit limit or a container's limit ran out
    near = limit.near(f.peaks)
    if not (failed or near) or impossible_request(f) is not None:  # no limit raised makes that fit
        return []
    if kind == "commit-limit" and limit.name != COMMIT:  # e.g. os error 1455 from a run without OS facts
        limit = MemoryLimit(COMMIT, True, "commit_bytes", f.limit_of("commit_bytes"))
    if kind == "cgroup-limit" and limit.name != CGROUP:
        limit = MemoryLimit(CGROUP, True, "cgroup_used_bytes", f.limit_of("cgroup_used_bytes"))
    used = limit.used(f.peaks)
    if kind == "system-ram" and not abrupt and failure is not None and _room_left(f, limit, used):
        return [_not_the_system_limit(f, limit, used)]
    evidence = []
    if used is not None and limit.limit_bytes:
        where = "in the forecast" if f.source == "forecast" else "in this run"
        evidence.append(f"{USAGE_WORDS.get(limit.name, limit.name)} peaked at {of_limit(limit, used)} {where}")
    if failed and not abrupt and failure is not None:
        evidence.append(f"it failed at {f.label(f.failing_node())} with '{short(failure.message)}'")
    if abrupt and failure is not None:
        evidence.append(
            failure.evidence or "ComfyUI ended without an error during the run, with system memory exhausted"
        )
    offloaded = max(f.partials, key=lambda p: p.get("offloaded_bytes") or 0) if f.partials else None
    if offloaded and offloaded.get("offloaded_bytes"):
        at = f" at node {offloaded['node_id']}" if offloaded["node_id"] is not None else ""
        evidence.append(
            f"{fmt_bytes(offloaded['offloaded_bytes'])} of that are {offloaded['name']}'s weights, which "
            f"ComfyUI kept in RAM{at} because VRAM was short"
        )
    lowvram = [a for a in f.argv if a in ("--lowvram", "--novram", "--cpu")]
    pressure = (
        f" {' and '.join(lowvram)} {'moves' if len(lowvram) == 1 else 'move'} work into system RAM and "
        "raises this pressure."
        if lowvram
        else ""
    )
    title, change, adds = _system_remedy(f, limit, used)
    if failure is not None and failure.likely and f.source != "forecast":  # (a forecast has no kill to confirm)
        if failure.container:
            change = _CONFIRM["container"] + change
        elif os_family(f.os) == "Darwin":
            change = _CONFIRM["macos"] + change
        elif os_family(f.os) != "Windows":  # Windows has no OOM killer: an allocation fails there (1455)
            change = _CONFIRM["kernel"] + change
    return [
        Suggestion(
            "container-limit" if limit.name == CGROUP else "pagefile",
            "failure" if failed else "pressure",
            title,
            "; ".join(evidence) + ".",
            change + pressure,
            adds,
        )
    ]


def _room_left(f: RunFacts, limit: MemoryLimit, used: int | None) -> bool:
    """Measured: an allocation failed while the limit the OS enforces was far from reached, even
    with what it asked for (when the message says) added."""
    if f.source == "forecast" or used is None or not limit.limit_bytes or f.failure is None:
        return False
    requested = f.failure.sizes.requested_bytes or 0
    return used + requested < limit.limit_bytes * 0.5


def _not_the_system_limit(f: RunFacts, limit: MemoryLimit, used: int | None) -> Suggestion:
    failure = f.failure
    assert failure is not None and used is not None
    windows = os_family(f.os) == "Windows"
    return Suggestion(
        "process-limit",
        "failure",
        "Look for a limit of ComfyUI's own, not the system's",
        f"{USAGE_WORDS.get(limit.name, limit.name)} peaked at {of_limit(limit, used)} in this run, yet it failed "
        f"at {f.label(f.failing_node())} with '{short(failure.message)}'.",
        (
            "A 32-bit Python, or one allocation larger than RAM + pagefile, fails like this; more pagefile does "
            "not help."
            if windows
            else "Check the limits of the shell or service that starts ComfyUI: ulimit -v (address space), "
            "ulimit -d, systemd LimitAS=, a batch scheduler's per-job memory. Raise or remove it; more swap does "
            "not help while that cap is the one reached."
        ),
        None,
    )


_CONFIRM = {
    "kernel": "First confirm it was the kernel's OOM killer: journalctl -k | grep -i 'killed process' (or dmesg) "
    "for that time. Then: ",
    "macos": "First confirm that memory ran short: log show --last 1h --predicate 'eventMessage CONTAINS "
    "\"memorystatus\"' lists the processes macOS ended for memory (or watch Activity Monitor's Memory Pressure as it "
    "runs again). Then: ",
    "container": "First confirm it was the container's memory limit: docker inspect <container> --format "
    "'{{.State.OOMKilled}}' says true (Kubernetes: OOMKilled in kubectl describe pod). Then: ",
}


def _system_remedy(f: RunFacts, limit: MemoryLimit, used: int | None) -> tuple[str, str, int | None]:
    """The one change that raises (or relieves) the limit that ran short, phrased for its OS, and
    the headroom it adds."""
    family = os_family(f.os)
    ram = f.limit_of("ram_used_bytes")
    vram = max((g.get("vram_total_bytes") or 0 for g in f.context.get("gpus") or []), default=0) or None
    if limit.name == CGROUP:
        floor = limit.limit_bytes or used or 0
        target = -(-int(floor * 1.25) // GIB) * GIB
        to = f" to {target // GIB} GB or more" if target else " by a quarter or more"
        return (
            "Give the container more memory",
            f"Raise the memory limit of ComfyUI's container{to} (docker run --memory, "
            "compose mem_limit, Kubernetes resources.limits.memory, Slurm --mem, YARN "
            "memoryOverhead), or run a smaller workflow. Swap or RAM "
            "on the host does not help while the container's own limit is the one that is reached.",
            target - limit.limit_bytes if limit.limit_bytes else None,
        )
    advice = suggest_pagefile(ram, vram, peak_commit_bytes=used)
    size_bytes = advice.recommended_bytes if advice else 32 * GIB  # the smallest size the sizing table gives
    basis = f" ({advice.basis})" if advice else ""
    requested = f.failure.sizes.requested_bytes if f.failure is not None else None
    if requested and requested > (ram or 0) + size_bytes:  # one allocation alone outgrows that size
        size_bytes = -(-(requested - (ram or 0)) // GIB) * GIB
        basis = f" (one allocation alone asked for {fmt_bytes(requested)}{', more than the RAM' if ram else ''})"
    size = f"{size_bytes // GIB} GB"
    adds = max(0, size_bytes - (f.context.get("swap_total_bytes") or 0))
    check = (
        " If no setting of this step should need that much, lower the one that does (frames, resolution, a "
        "preview of every frame) instead."
        if requested and requested > 32 * GIB
        else ""
    )
    if family == "Windows":
        return (
            "Give Windows a larger fixed pagefile",
            f"Set a fixed pagefile of {size} (initial = maximum){basis} on a non-system SSD with free space — never "
            f"an HDD or a USB/removable drive. Memory compression is not a pagefile.{check}",
            adds,
        )
    if limit.name == COMMIT:  # Linux, vm.overcommit_memory = 2
        return (
            "Raise Linux's commit limit",
            f"Add swap (a {size} swap file on an SSD: CommitLimit = swap + RAM x vm.overcommit_ratio / 100){basis} "
            "or raise vm.overcommit_ratio; with strict overcommit, allocations beyond CommitLimit fail even with "
            f"RAM free.{check}",
            adds,
        )
    host = f.context.get("host")
    if host in _HOSTED and limit.name != COMMIT:
        return (
            "Use a runtime with more RAM",
            f"A hosted notebook ({_HOSTED[host]}) cannot add swap: pick a runtime with more RAM"
            f"{' (Runtime > Change runtime type: High-RAM, or a larger GPU)' if host == 'colab' else ''}, or load "
            f"less at once: the same model in lower precision (fp8, a GGUF quantisation), one large model at a time.{check}",
            None,
        )
    if family == "Darwin":
        return (
            "Free RAM for ComfyUI",
            "Close other programs before this workflow, and keep 20 GB or more free on the system volume: macOS "
            "swaps there, and ends programs when it cannot.",
            None,
        )
    return (
        "Add swap so RAM can overflow",
        f"Add swap (a {size} swap file on an SSD){basis} so the kernel's OOM killer stops ending ComfyUI when RAM is "
        f"full.{check}",
        adds,
    )


_HOSTED = {"colab": "Colab", "kaggle": "Kaggle, whose RAM is fixed"}
"""Hosted notebooks a log can show it ran in (``memprobe.logs.explain``'s ``host``)."""


@rule("window-memory", needs=("abrupt-end",), tiers=("failure",))
def window_memory(f: RunFacts) -> list[Suggestion]:
    """The window ComfyUI runs in ran out of memory (Electron's renderer of the Desktop app, a browser's page):
    the server is another process, whose RAM and limits are not what ran out."""
    failure = f.failure
    if failure is None or failure.crashed_in != "window":
        return []
    return [
        Suggestion(
            "reload-window",
            "failure",
            "Reload ComfyUI's window",
            "The window ComfyUI runs in ran out of memory (the log's line says so): its renderer is a process of its "
            "own, with a heap limit of its own, so the server's RAM, pagefile or swap is not what ran out.",
            "Reload the window (Ctrl+R; the queue and the outputs are the server's). If it recurs in long "
            "sessions, clear the queue's history and the previews, close other tabs, and try without the frontend "
            "extensions that keep state (panels, galleries), one at a time.",
        )
    ]


@rule("abrupt-end", needs=("abrupt-end",), tiers=("failure",))
def abrupt_end(f: RunFacts) -> list[Suggestion]:
    """ComfyUI ended without an error and without memory evidence: find out who ended it."""
    failure = f.failure
    if failure is None or not failure.abrupt or failure.kind in SYSTEM_KINDS:
        return []
    node = f.failing_node()
    where = f"during {f.label(node)}" if node else failure.when
    child = failure.crashed_in == "child"
    host = f.context.get("host")
    if host in _HOSTED:  # no system log to read there: the notebook's own RAM gauge says it
        check = (
            f"{_HOSTED[host].split(',')[0]} shows no system log: watch the RAM gauge (Resources) as it runs again — "
            "a notebook's process ended with no error (a bare '^C') is most often its RAM running out"
        )
    elif "Windows" in f.os:
        check = (
            "Open Event Viewer > Windows Logs > Application and look for errors 1000/1023 (python.exe) or "
            "'Resource-Exhaustion-Detector' at that time"
        )
    else:
        check = "Run 'journalctl -k | grep -i -E \"killed process|out of memory\"' (or dmesg) for that time"
    checked = failure.evidence or (
        "its last readings were not near a memory limit (sampled up to one second before)" if f.peaks else ""
    )
    stopped = (
        f"The log stops {where} without an error: ComfyUI stopped there, or the log was cut when it was copied"
        if failure.cut
        else f"{failure.who} stopped {where} without reporting an error"
    )
    return [
        Suggestion(
            "find-who-ended-it",
            "failure",
            "Find out what ended the process"
            if child
            else "If ComfyUI stopped there: find out what ended it"
            if failure.cut
            else "Find out what ended ComfyUI",
            stopped + (f"; {checked}." if checked else "."),
            check
            + (
                ". If it was, pick a runtime with more RAM, or load less at once (lower-precision weights, one large "
                "model at a time)."
                if host in _HOSTED
                else ". An out-of-memory kill there means RAM + pagefile/swap ran out (then add pagefile/swap); no "
                "such entry points to a crash or a manual stop instead."
            )
            + (
                " ComfyUI itself lived on: the node that started the process may have returned an empty result."
                if child
                else ""
            ),
        )
    ]


@rule("disk-space", needs=("failure", "disks"), tiers=("failure", "pressure"))
def disk_space(f: RunFacts) -> list[Suggestion]:
    """Low free disk where the pagefile, models or outputs live, or a write that failed for it."""
    snapshot = f.failure.snapshot if f.failure is not None else None
    disks = list((snapshot or {}).get("disks") or []) + list(f.machine.get("disks") or [])
    for area in (f.machine.get("swap") or {}).get("areas") or []:
        volume = area.get("volume") or {}
        if volume.get("total_bytes"):
            disks.append({"role": "pagefile", **volume})
    low = [
        d
        for d in disks
        if d.get("free_bytes") is not None and d.get("total_bytes") and disk_is_low(d["free_bytes"], d["total_bytes"])
    ]
    failed_disk = f.failure is not None and f.failure.kind == "disk"
    if not low and not failed_disk:
        return []
    evidence = [f"{d['role']}: {fmt_bytes(d['free_bytes'])} free of {fmt_bytes(d['total_bytes'])}" for d in low]
    if failed_disk and f.failure is not None:
        if shared_memory_full(f.failure.message):
            return [_grow_shared_memory(f"{f.label(f.failing_node())} failed with '{short(f.failure.message)}'.")]
        if (store := store_limit(f.failure.message)) is not None:
            return [_raise_store_limit(f"{f.label(f.failing_node())} failed with '{short(f.failure.message)}'", *store)]
        evidence.insert(0, f"{f.label(f.failing_node())} failed writing: {short(f.failure.message)}")
    where = ", ".join(sorted({d["role"] for d in low})) or "output"
    return [
        Suggestion(
            "free-disk",
            "failure" if failed_disk else "pressure",
            f"Free disk space ({where})",
            "; ".join(evidence) + ".",
            f"Free space on the {where} drive (keep 10% or more free there). Deleting old outputs frees "
            "disk, not VRAM.",
        )
    ]


def _grow_shared_memory(why: str) -> Suggestion:
    """/dev/shm full: a filesystem in memory with a size of its own, which freeing the disk does not grow."""
    return Suggestion(
        "grow-shared-memory",
        "failure",
        "Give /dev/shm more room",
        why + " /dev/shm is a filesystem in memory with a size of its own (a Docker container's is 64 MB unless "
        "it is given more), where data loader workers and Ray pass their data: it filled, not the disk.",
        "Start the container with a larger /dev/shm (docker run --shm-size=8g, or --ipc=host; on Kubernetes an "
        "emptyDir volume with medium: Memory mounted at /dev/shm), or have the loader use fewer worker processes "
        "(num_workers=0 loads in the main process and needs none).",
    )


def _raise_store_limit(why: str, size: str, knob: str) -> Suggestion:
    """A database filled the size it was given (LMDB's map size, etcd's quota): the drive may have room to spare."""
    return Suggestion(
        "raise-store-limit",
        "failure",
        f"Raise {size}",
        f"{why}: the database filled {size}, a size set for it, not the drive it lives on.",
        f"Raise {knob}, within the free space of its drive; freeing other files does not help while that size is "
        "the one reached.",
    )
