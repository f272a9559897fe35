"""Which memory ran out: classify a failure from its exception type and text, and recognise the
out-of-memory fallbacks ComfyUI takes silently (it logs them, then carries on).

>>> classify_failure("torch.OutOfMemoryError", "Allocation on device 0 would exceed allowed memory.")
'vram'
>>> classify_failure("OSError", "The paging file is too small for this operation to complete. (os error 1455)")
'commit-limit'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .._log import logger
from ..sensing.snapshot import SystemMemory
from ..vocabulary import AT_LIMIT, FAILURE_KINDS, KINDS
from .caps import OWN_LIMITS, STORE_LIMITS
from .gpu_words import (
    CUT_DEVICE_OOM,
    DEVICE_ALLOCATION,
    NAMES_GPU,
    OOM_SUMMARY_LINE,
    VRAM_TEXTS,
    WGPU_OOM,
    translated_device_oom,
)
from .sizes import impossible_request, message_sizes
from .wordings import (
    COMMIT_TEXTS,
    DISK_TEXTS,
    FILE_EXHAUSTED,
    FOUNDRY_OOM,
    GENERIC_ALLOCATION,
    KILLED_CHILD_TEXTS,
    MEMORY_LOCK_REFUSED,
    MEMORY_TEXTS,
    NAMED_MEMORY_ERROR,
    NOT_A_FAILURE,
    ORT_ARENA,
    PINNED_TEXTS,
    RAM_OOM,
    SHM_FULL,
    SHM_WRITE,
    SPECIFIC_RAM_TEXTS,
    SRUN_OOM,
    SYSTEM_RAM_TEXTS,
    TENSORFLOW_OOM,
    WENT_ON,
)

__all__ = [
    "shared_memory_full",
    "FAILURE_KINDS",
    "classify_failure",
    "is_memory_failure",
    "detect_fallback",
    "memory_gate",
    "planned_tiling",
    "PLANNED_TILING",
    "FALLBACKS",
    "memory_sign",
    "killed_child",
    "own_limit",
    "store_limit",
    "pinned_host",
    "dynamic_vram_reserve",
    "allocation_size_limit",
    "malloc_async_assert",
]


def shared_memory_full(message: str | None) -> bool:
    """Whether ``message`` says /dev/shm filled (:data:`SHM_FULL`), or a write to it found no space left (torch
    shares a tensor between processes through a file there: ``unable to write to file </torch_739_144252761_4>``)."""
    low = (message or "").lower()
    return (
        any(t in low for t in SHM_FULL)
        or SHM_WRITE.search(low) is not None
        or ("/dev/shm" in low and "space left" in low)  # (389 Directory Server's "No enough space left on device
        # (/dev/shm/slapd-…)")
    )


def own_limit(message: str | None) -> tuple[str, str] | None:
    """The memory cap set for the program that it stopped at, and the setting that raises it (:data:`OWN_LIMITS`).

    >>> own_limit("java.lang.OutOfMemoryError: Java heap space")
    ("the JVM's heap limit", "its -Xmx (a launcher's or a server's memory setting)")
    """
    low = (message or "").lower()
    if low.startswith(("metaspace", "direct buffer memory")):  # the JVM's "OutOfMemoryError: Metaspace", its type
        low = "outofmemoryerror: " + low  # read apart from its message
    return _limit_in(OWN_LIMITS, low)


def store_limit(message: str | None) -> tuple[str, str] | None:
    """The size a database was given that it filled, and the setting that raises it (:data:`STORE_LIMITS`).

    >>> store_limit("mdb_put failed: MDB_MAP_FULL: Environment mapsize limit reached(-30792)")[0]
    "LMDB's map size (the database's own maximum)"
    """
    return _limit_in(STORE_LIMITS, (message or "").lower())


def _limit_in(table: tuple[tuple[tuple[str, ...], str, str], ...], low: str) -> tuple[str, str] | None:
    """The first limit of ``table`` (its words, the limit, its setting) whose words ``low`` holds."""
    return next(((limit, knob) for words, limit, knob in table if any(w in low for w in words)), None)


def killed_child(message: str | None) -> bool:
    """Whether ``message`` says only that SIGKILL ended a worker (its memory kind is then inferred, not stated)."""
    low = (message or "").lower()
    return any(t in low for t in KILLED_CHILD_TEXTS)


_GATE_WORDS = (
    r"memor|alloc|paging|space|quota|oom|buffer size|buffer of size|hostbuffer|_resources|available ram|out of "
    r"|full|exhausted|100% /"
)
_MEMORY_GATE = re.compile(
    "|".join([_GATE_WORDS, *(re.escape(t) for t in MEMORY_TEXTS if t.isascii() and not re.search(_GATE_WORDS, t))])
)
"""A cheap test of a lower-cased ASCII line before :func:`memory_sign`: the words every memory (or disk)
failure shares (TensorFlow's full disk says only "Resource exhausted: <its file>") and every text of its tables
they miss (a line in another script passes without it: the localized texts). A case-blind pattern costs twice as
much; a character class among the alternatives three times (it defeats the engine's first-character search)."""


_DF_FULL = re.compile(r"^(?!/dev/loop)\S+(?:\s+\d[\d.,]*[kmgtpe]?i?){3}\s+100% /(?!snap/|media/|cdrom|run/media/)\S*$")
"""``df``'s row of a file system with nothing left (``/dev/nvme0n1p1   20G   20G   50M 100% /``, a tmpfs' ``tmpfs  524288
524288  0 100% /mnt/mongo-ramdisk``): a full disk, where a paste shows only that; not a snap's or a disc's image (they are
always full)."""


def _df_full(text: str) -> bool:
    """Whether one of ``text``'s first lines is :data:`_DF_FULL`'s row (the test tried only where "100% /" is)."""
    return "100% /" in text and any(_DF_FULL.match(line.strip().lower()) for line in text.splitlines()[:8])


_MAY_RUN_OUT = re.compile(r"\b(?:may|might|could|will likely) run out of\b")
_NATIVE_WARNING = re.compile(r"\.(?:cpp|cu|h) \(\d+\) : warning : ")
"""A native library's own warning, its source file and line before it (PhysX's)."""


def memory_gate(low: str) -> bool:
    """Whether a lower-cased line may name memory (or disk) running out: the test before :func:`memory_sign`."""
    return not low.isascii() or _MEMORY_GATE.search(low) is not None


def memory_sign(text: str) -> bool:
    """Whether a line names memory (or disk) running out: a one-line paste, a popup, a squashed
    report, ComfyUI's own OOM line. ``False`` for the fallbacks ComfyUI recovers from.

    >>> memory_sign("The paging file is too small for this operation to complete. (os error 1455)")
    True
    >>> memory_sign("Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.")
    False
    """
    low = _unguessed(text.lower())
    if detect_fallback(text) is not None or "(non oom)" in low:  # aimdo's "VRAM Allocation failed (non OOM)"
        return False
    if "process exited too early" in low:  # CircleCI's guess ("... probably means the system ran out of memory or
        return False  # someone called `kill -9`"): an ending
    if "was sent sigkill" in low:  # gunicorn's kill, which only guesses "Perhaps out of memory?": an ending
        return False
    if "srun: error:" in low:  # Slurm's "srun: error: h19c54: task 300: Out Of Memory": its cgroup's kill (an ending,
        low = SRUN_OOM.sub("", low)  # with slurmstepd's "oom-kill event(s)" above it), not a device's; also where a
        # page flattened the log into one line
    if "job had an out of memory error" in low:  # a Slurm site's job summary: its cgroup's kill (an ending), not a
        return False  # device's
    if any(w in low for w in WENT_ON):  # "continuing anyway": it went on
        return False
    if any(w in low for w in MEMORY_LOCK_REFUSED):  # memory left unlocked: it works all the same
        return False
    if _MAY_RUN_OUT.search(low):  # a forecast ("Lazyloader failed, falling back to stock HF load. You may run out of
        return False  # RAM here."): what fails, if anything, says so below
    if "if you encounter cuda out of memory" in low:  # Real-ESRGAN's hint under any error ("... try to set --tile")
        return False
    if NOT_A_FAILURE in low:  # TensorFlow's BFC allocator, whose caller will do without
        return False
    if _NATIVE_WARNING.search(low):  # PhysX's "PxgCudaMemoryAllocator.cpp (59) : warning : Failed to allocate pinned
        return False  # memory." after its CUDA errors: a warning, the library went on (its error is the failure)
    return (
        any(t in low for t in MEMORY_TEXTS)
        or (
            "out of memory" in low
            and (
                "error" in low
                or "tried to allocate" in low
                or "encodesession" in low
                or low.lstrip()[:7] == "what():"
                or _PROGRAM_OOM.fullmatch(low.strip()) is not None
            )
        )  # (C++'s terminate names its exception's words: "what():  [custatevec] %out of memory in addQubitsToState")
        or translated_device_oom(low)
        or RAM_OOM.search(low) is not None
        or _direct3d_oom(low)
        or FILE_EXHAUSTED.search(low) is not None
        or _df_full(low)
        or WGPU_OOM.search(low) is not None
        or DEVICE_ALLOCATION.search(low) is not None
    )


def classify_failure(
    exception_type: str | None,
    message: str | None,
    *,
    system: SystemMemory | None = None,
    compute_device: str = "cuda",
    during: Iterable[str] = (),
) -> str:
    """``vram``, ``system-ram``, ``commit-limit``, ``cgroup-limit``, ``disk`` or ``other``.

    ``exception_type`` is ComfyUI's ``module.QualName`` (bare for builtins). ``system`` is the
    snapshot at the failure: on Linux with strict overcommit (mode 2) an ``ENOMEM`` next to the
    commit limit is the commit limit; one next to the limit of ComfyUI's cgroup is that limit. ``compute_device="cpu"`` (ComfyUI ``--cpu``) makes a bare
    ``OutOfMemoryError`` a RAM failure. ``during``: what it was doing (the traceback's functions, the
    line logged just before): CUDA's bare "out of memory" while pinning host RAM is that RAM.

    >>> classify_failure("torch.AcceleratorError", "CUDA error: out of memory", during=["Attempting to release mmap (398)"])
    'system-ram'
    """
    type_name = (exception_type or "").rsplit(".", 1)[-1]
    text = " ".join(_unguessed((message or "").lower()).split())  # (a message a console wrapped: one line)
    if not type_name and (named := NAMED_MEMORY_ERROR.search(text)):  # the type said in place of the message
        type_name = "OutOfMemoryError" if named.group(1) == "outofmemoryerror" else "MemoryError"
    if (
        text == OOM_SUMMARY_LINE.lower()
    ):  # the line ComfyUI's handler of a device OOM logs first (torch's table follows)
        return "vram"
    if any(t in text for t in _NOT_EXHAUSTION) or allocation_size_limit(message) or impossible_request(message):
        return "other"
    if own_limit(message) is not None:
        return "system-ram"  # the share of it the program allowed itself (its heap's, its policy's cap)
    if _SIZE_LIMIT in text:  # (a block too big for the card itself: its memory, whatever the platform's limit)
        return "vram"
    if _COG_GUESS in text:  # Replicate's cog only guesses at memory: a SIGKILL (-9) on its platform is its limit's
        return "cgroup-limit" if "(exitcode -9)" in text else "other"
    if FOUNDRY_OOM.search(text):
        return "cgroup-limit"  # Cloud Foundry's end of an app instance at its quota, in its event's payload
    if _direct3d_oom(text):
        return "vram"  # DirectML's E_OUTOFMEMORY: the GPU's (ONNX Runtime's DML provider, torch-directml, Direct3D)
    if any(t in text.replace("nt_status_no_memory", "") for t in COMMIT_TEXTS):  # (Samba's status, on Unix: its RAM)
        return "commit-limit"
    if (
        any(t in text for t in DISK_TEXTS)
        or SHM_WRITE.search(text)
        or FILE_EXHAUSTED.search(text)
        or _df_full(message or "")
    ):
        return "disk"
    vram_text = (
        any(t in text for t in VRAM_TEXTS)
        or CUT_DEVICE_OOM.search(text.rstrip()) is not None
        or WGPU_OOM.search(text) is not None
        or DEVICE_ALLOCATION.search(text) is not None
        or translated_device_oom(text)
    )
    if (
        not vram_text
        and any(t in text for t in GENERIC_ALLOCATION)
        and (NAMES_GPU.search(text) or (ORT_ARENA in text and "cpu" not in text))
    ):
        vram_text = True  # "unable to allocate CUDA0 buffer", ONNX Runtime's arena on the CUDA provider
    elif vram_text and _pinning(text, during):
        return "system-ram"
    if vram_text and (not any(t in text for t in SPECIFIC_RAM_TEXTS) or any(t in text for t in _DEVICE_BAD_ALLOC)):
        return "vram"
    if (
        any(t in text for t in SYSTEM_RAM_TEXTS)
        or RAM_OOM.search(text)
        or (type_name in ("MemoryError", "ArrayMemoryError") and not vram_text)
    ):
        if _near_strict_commit_limit(system):
            return "commit-limit"
        if _near_cgroup_limit(system):
            return "cgroup-limit"
        return "system-ram"
    if vram_text:
        return "vram"
    if (exception_type or "").startswith(_JVM_PACKAGES):
        # the JVM's OutOfMemoryError at a limit on no memory (the threads it may start); with no words but its type (its
        # hs_err report's header repeats it: "# java.lang.OutOfMemoryError"), its heap or the native memory under it (a
        # JNI library's malloc: "There is insufficient memory for the Java Runtime Environment to continue" follows)
        bare = not text.replace("java.lang.outofmemoryerror", "").strip(" #:")
        return "system-ram" if type_name == "OutOfMemoryError" and bare else "other"
    if type_name == "OutOfMemoryError" or "out of memory" in text or TENSORFLOW_OOM in text:
        return "system-ram" if compute_device == "cpu" or "device:cpu" in text else "vram"
    return "other"


_PROGRAM_OOM = re.compile(r"[\w.+-]+: out of memory\.?")
"""A program's last word, its name first (GHC's runtime: "hledger: out of memory"): a bare "out of memory", whose
memory the log around it says (the host's where the log names no GPU), as a level's "ERROR: out of memory" is."""
_JVM_PACKAGES = ("java.", "javax.", "kotlin.")
"""A JVM's exception (``java.lang.OutOfMemoryError``), not torch's ``OutOfMemoryError``: the JVM raises it at its own
limits, none of them the GPU's — on memory (its heap, its direct buffers: :data:`OWN_LIMITS`) and on what is not memory
(the threads it may start: "unable to create native thread: possibly out of memory or process/resource limits
reached")."""
_AIMDO_RESERVE = (
    "vbar allocation failed",
    "vram reservation failed",  # comfy-aimdo's cast buffer (VRAMBuffer) could not reserve its address range
    "allocation failed (non oom)",
    "allocate memory in unused regions",
)
"""Raised as memory errors, not memory running out: comfy-aimdo (dynamic VRAM) could not reserve a model's
GPU virtual address range (``cuMemAddressReserve`` of ten times the model's size; a vGPU or ZLUDA has no
such API, or many loads used the range up), or a CUDA call other than an allocation failed (aimdo says
"non OOM"), or funchook found no free address near the CUDA driver to place aimdo's hooks ("Failed to
allocate memory in unused regions", comfy-aimdo#74: ComfyUI falls back to its legacy loader):
``--disable-dynamic-vram`` avoids it."""
_GUESSES = (
    "not enough gpu memory?",
    "possibly due to out of memory",
    "perhaps it ran out of memory",
    "probably out of disk space",
)
"""Memory guessed at before what failed: ColabFold's before any error of a prediction ("Could not predict X. Not Enough
GPU memory? INTERNAL: ..."), KaTrain's for any engine that died ("Engine died unexpectedly without sending output,
possibly due to out of memory: status 127"), Boogie's for a prover that died ("Prover died with no further output,
perhaps it ran out of memory or was killed."), InnoDB's for any file it could not size ("Could not set the file size of
'./ibdata1'. Probably out of disk space", its error 95 a file system that cannot preallocate): the error after it, the
status, the prover's error, the operating system's error number, says what failed."""


def _unguessed(low: str) -> str:
    """``low`` without the guesses at memory (:data:`_GUESSES`) said before what failed."""
    for guess in _GUESSES:
        low = low.replace(guess, "")
    return low


_SIZE_LIMIT = "allocate memory block with size larger than"  # Intel Arc (Alchemist) with IPEX: one over 4 GB
_COG_GUESS = "prediction failed for an unknown reason. it might have run out of memory?"
"""cog's ``FatalWorkerException`` (Replicate): its worker ended, the exit code in brackets; a guess, not a finding."""
_DML = (
    "dmlexecutionprovider",
    "bucketizedbufferallocator",
    "directml",
    "d3d11",
    "d3d12",
    "dx12",
    "createcommittedresource",
    "texture2d creation failed",  # XNA's and FNA's texture (tModLoader: "Texture2D creation failed! Error Code: Not
    # enough memory resources are available to complete this operation. (0x8007000E)")
)
_DML_OOM = ("8007000e", "e_outofmemory", "enough memory resources")
"""The out-of-memory HRESULT (0x8007000E, "Not enough memory resources are available to complete this operation")
said by DirectML or Direct3D (a texture, a committed resource): the GPU's memory, not Windows' error 8 of system
memory it words the same."""


def _direct3d_oom(low: str) -> bool:
    return any(t in low for t in _DML) and any(t in low for t in _DML_OOM)


_XPU_BLOCK_LIMIT = 4 * 1024**3
"""The largest block an Alchemist card's Level Zero driver allocates is just under 4 GiB (its maxMemAllocSize)."""
_NOT_EXHAUSTION = (
    *_AIMDO_RESERVE,
    "openencodesessionex failed: out of memory",  # NVENC's error 10 opening a session: on GeForce cards its limit
    "nvencopenencodesessionex: 10 ",  # on concurrent sessions or an unsupported driver, in the threads that quote it
    "(0 elements of",  # libtiff's "Failed to allocate memory for ... array (0 elements of 8 bytes each)": an overflowed
    # count, not memory (GDAL, after "Integer overflow in TIFFNumberOfTiles")
    "inotify",  # ENOSPC (errno 28) also means the inotify watch limit: "[Errno 28] inotify watch limit reached"
    "only has 0mib available",  # minikube reading no memory at all ("RSRC_INSUFFICIENT_SYS_MEMORY: System only has
    # 0MiB available"): its reading failed (kubernetes/minikube#11565), not the machine's RAM
    "failed to watch file",  # ... as the kubelet's log follower words it ("failed to watch file "/var/log/pods/...":
    # no space left on device")
    "networkreceive.read",  # Kafka's client sizing a receive buffer by what it read from a TLS listener it spoke
    # plaintext to ("java.lang.OutOfMemoryError: Java heap space ... at org.apache.kafka.common.network.NetworkReceive.
    # readFrom"): a TLS record read as a length, not the heap running short (its client lacks the SSL settings)
    "error watching",  # ... and a Go program's fsnotify ("unexpected error watching template ...: no space left on
    # device", ingress-nginx)
    "in static tls block",  # the dynamic loader's "cannot allocate memory in static TLS block": a library's load
    "could not create shared memory segment: no space left",  # PostgreSQL's shmget() refused (its hint: "This error
    # does *not* mean that you have run out of disk space"): System V shared memory's ids or the kernel's limit on it
    "could not create semaphores: no space left",  # ... its semget() at SEMMNI or SEMMNS (the same hint)
    "ignored (for causing prior/excessive gpu errors)",  # Metal's command buffer in error for another reason than
    "kiogpucommandbuffercallbackerrortimeout",  # memory (its status 5 is memory's where it says no other): ignored
    "(0000000e:internal error)",  # submissions, a timeout, an internal error
    "system.text.stringbuilder.tostring",  # .NET's OutOfMemoryException from a string over its length limit (2 GB,
    # 2^30 characters: SwarmUI's model list, PowerShell's StringBuilder), not the process' memory
    "ebsystemresourcemanager.c",  # SVT-HEVC's resource manager, whose "allocate memory failed, at ...
    # EbSystemResourceManager.c" follows a semaphore sem_open refused ("Too many open files"), not memory
    "undeveloped feature",  # Intel's Media SDK refusing what it does not support (MFX_ERR_UNSUPPORTED: QSVEncC's
    # "Failed to allocate frames: undeveloped feature.."), not memory
    "start capturing: no space left on device",  # V4L2's ENOSPC when a stream starts: the USB bus' bandwidth, not a
    "vidioc_streamon",  # disk (ustreamer's "Unable to start capturing: No space left on device", "VIDIOC_STREAMON")
    "storage space (available: -",  # ceph-mon that could not measure its disk ("... reached concerning levels of
    # available storage space (available: -2147483648% 0 B)": an overflowed reading, not a full disk)
    "v4l2src",  # GStreamer's camera source whose buffer pool would not start ("Failed to allocate required memory.
    # (13): gstv4l2src.c(658): gst_v4l2src_decide_allocation ()", "module v4l2src0 reported: Failed to allocate
    # required memory"): the driver's, not the RAM
    "too many memory regions",  # OpenBLAS' fixed table of thread buffers ("BLAS : Program is Terminated. Because you
    # tried to allocate too many memory regions."): too many threads, not memory (OpenBLAS#1882)
    "allocate write+execute memory",  # cffi's callback where the OS forbids it ("MemoryError: Cannot allocate
    # write+execute memory for ffi.callback()": macOS on Apple silicon, SELinux): a policy, not memory
    "error talking to mqtt: out of memory",  # paho-mqtt's MQTT_ERR_NOMEM, which it also returns for a socket's
    "on_disconnect 1: out of memory",  # errors (home-assistant/core#6247, a device's bad credentials): no memory
    "disconnected due to out of memory",  # Mosquitto 2.0's misleading reason for a client gone before its PUBACK
    # (eclipse/mosquitto#2525)
    "vm.max_map_count",  # a process at the kernel's limit on its memory mappings ("Failed to map the data file
    # (size: 786432): Cannot allocate memory (os error 12). Please increase sysctl vm.max_map_count"), RAM to spare
    "requested allocation size is too large",  # a Wasm runtime's allocator at its own bound (Substrate's "Failed to
    # allocate memory: "Requested allocation size is too large""): a size its heap cannot hold, not the machine's
    "unable to create native thread",  # the JVM at a limit on threads ("... possibly out of memory or process/resource
    # limits reached"), whether or not its exception's name was parsed
    "failed to allocate space when creating new wal file (op",  # etcd preallocating its WAL where the file system
    "failed to allocate space when creating a new wal (str",  # cannot ("operation not supported") or is damaged
    # ("structure needs cleaning"): not a full disk (that one says "no space left on device")
    "mlockall() failed",  # ... memcached's -k ("warning: -k invalid, mlockall() failed: Cannot allocate memory")
    "failed to lock memory",  # mlock refused (HashiCorp Vault: "failed to lock memory: cannot allocate memory"): the
    # limit on locked memory (ulimit -l, a container's), not memory running out
    "unable to allocate file descriptor table",  # the JVM sizing its table by an enormous open-files limit (a
    # container's nofile): "library initialization failed - unable to allocate file descriptor table - out of memory"
    "out of memory (14)",  # SQLite's SQLITE_CANTOPEN (14) that a Go driver words as memory (headscale: "unable to
    # open database file: out of memory (14)"): a path it could not open; memory running out is SQLITE_NOMEM (7)
    "pthread_create failed (eperm)",  # a thread refused by a policy (a container runtime's seccomp), not memory: the
    # JVM then says "There is insufficient memory ... Cannot create worker GC thread"
    "open /dev/ptmx: no space left",  # ENOSPC from the pseudo-terminals' limit, not a file system
    "selinux policy to the kernel: out of memory",  # the kernel refusing a policy ("Unable to save SELinux policy to
    # the kernel: Out of memory"): its own checks, not memory
    "failed to allocate randomx dataset using 1gb pages",  # XMRig without 1 GB pages reserved: it goes on in 2 MB ones
    "message queue out of memory",  # Godot's fixed queue of deferred calls, full (its size a project setting,
    # memory/limits/message_queue/max_size_kb), most often from a loop of calls or of errors
    "llvm error: out of memory",  # LLVM's allocator at a size nothing could hold, then abort: Swift 5.6 compiling one
    # pod, an OpenCL kernel's build with doubles, a JIT (in the four threads that quote it, more RAM did not help)
)
"""Worded as memory errors, not memory running out: :data:`_AIMDO_RESERVE`, and limits other than memory's — NVENC's
sessions, a count overflowed, inotify's watches, a TLS block, OpenBLAS' thread buffers, LLVM's request of a size
nothing could hold, cffi's write+execute memory a policy forbids (a platform's limit on one allocation's size:
:func:`allocation_size_limit`)."""
_DEVICE_BAD_ALLOC = (
    "bad_alloc: cudaerrormemoryallocation",
    "bad_alloc: out_of_memory: cuda error",
    "bad_alloc: out_of_memory: rmm failure",
    "bad_alloc: rmm failure",  # (RMM before 0.19: no "out_of_memory:")
)
"""Thrust's ``bad_alloc`` for a device allocation ("MemoryError: std::bad_alloc: cudaErrorMemoryAllocation: out of
memory", a CUDA extension's), RMM's (RAPIDS: "std::bad_alloc: out_of_memory: CUDA error at: ...", its pool's "...: RMM
failure at: ...: Maximum pool size exceeded"): the GPU's memory,
though C++ names it as the host's."""
_BARE_DEVICE_OOM = ("cuda error: out of memory", "cudaerrormemoryallocation")
"""CUDA's own error code, not torch's allocator ("CUDA out of memory. Tried to allocate ..."): a CUDA call
other than a device allocation failed."""
_PINNING = (
    "pin_memory",
    "pinned",
    "cudahostregister",
    "cudahostalloc",
    "hostbuffer",
    "read_file_slice",
    "attempting to release mmap",
    "partially_unload",
)
"""What ComfyUI does while it page-locks host RAM: pins offloaded weights (pinned memory, on by default on
NVIDIA since November 2025: ComfyUI PR #10656), dynamic VRAM's host buffers, the GGUF loader's mmap
release, moving weights off the GPU into pinned RAM. A bare CUDA "out of memory" there is host RAM:
ComfyUI issues #10662, #11531, #14126; ``--disable-pinned-memory`` turns it off."""


def _pinning(text: str, during: Iterable[str]) -> bool:
    if not any(t in text for t in _BARE_DEVICE_OOM) or "tried to allocate" in text:
        return False
    return any(p in d.lower() for d in during for p in _PINNING)


def pinned_host(kind: str | None, message: str | None) -> bool:
    """A system-memory failure whose message is CUDA's bare "out of memory": :func:`classify_failure`
    found it while host RAM was being pinned."""
    text = (message or "").lower()
    return kind == "system-ram" and any(t in text for t in _BARE_DEVICE_OOM + PINNED_TEXTS)


def allocation_size_limit(message: str | None) -> bool:
    """The platform refused one allocation for its size alone (Intel's Alchemist cards: 4 GB): IPEX says so (a block
    larger than the card's free memory, or than the card, is the card's memory running short all the same); torch's
    own XPU backend says "XPU out of memory" for a block of 4 GiB or more with more than that free (or, where it names
    no free memory, with what PyTorch held and the block together under the card's capacity)."""
    text = (message or "").lower()
    if _SIZE_LIMIT not in text and "xpu out of memory" not in text:
        return False
    sizes = message_sizes(message)
    asked, free, held, total = sizes.requested_bytes, sizes.free_bytes, sizes.allocated_bytes, sizes.total_bytes
    if _SIZE_LIMIT in text:  # (unless the block would not fit the card at all: its memory is short, whatever the limit)
        return not (
            asked is not None and ((free is not None and free < asked) or (total is not None and asked >= total))
        )
    if asked is None or asked < _XPU_BLOCK_LIMIT:
        return False
    if free is not None:
        return free > asked
    return held is not None and total is not None and held + asked < total  # (newer torch says no free figure)


def malloc_async_assert(message: str | None) -> bool:
    """PyTorch's cudaMallocAsync allocator failed its own bookkeeping check (``free_upper_bound +
    pytorch_used_bytes[device] <= device_total INTERNAL ASSERT FAILED at ...CUDAMallocAsyncAllocator.cpp``,
    pytorch/pytorch#139382): a bug of that allocator, hit near a full GPU, not an out-of-memory error."""
    return "free_upper_bound + pytorch_used_bytes" in (message or "")


def dynamic_vram_reserve(message: str | None) -> bool:
    """comfy-aimdo could not reserve a model's GPU address range (not memory running out)."""
    text = (message or "").lower()
    return any(t in text for t in _AIMDO_RESERVE)


def is_memory_failure(kind: str | None) -> bool:
    """A memory (VRAM or system memory) ran out; a full disk is not one."""
    return kind is not None and kind in KINDS and KINDS[kind].memory


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


# ComfyUI's own recoveries from an OOM: a wasted attempt, invisible unless one reads the log; and the driver's, where a
# pack's monitor says so.
FALLBACKS: tuple[tuple[str, str], ...] = (
    ("ran out of memory when regular vae decoding", "tiled-vae-decode"),
    ("ran out of memory when regular vae encoding", "tiled-vae-encode"),
    ("ran out of memory while running softmax", "attention-fallback"),
    ("out of memory error, emptying cache and trying again", "attention-fallback"),
    ("out of memory error, increasing steps and trying again", "attention-fallback"),
    ("oomed: switched to slice attention", "attention-fallback"),  # the VAE's attention ("scaled_dot_product_attention
    # OOMed: ...", comfy/ldm/modules/diffusionmodules/model.py); SeedVR2's monitor seeing the driver page VRAM out:
    ("paged to system ram", "vram-spill"),  # "VRAM overflow: 3.42GB paged to system RAM - severe slowdown expected."
    ("vram swap detected", "vram-spill"),
    ("vram exceeded physical limit", "vram-spill"),  # "VRAM exceeded physical limit by 2.15GB - OOM risk."
)


PLANNED_TILING = "tiling directly"
"""Newer ComfyUI's INFO line before its retry in tiles when its estimate, not an attempt, said the decode would not fit:
"VAE decode needs more than the free VRAM; tiling directly." (the warning that follows then reports no failed
attempt)."""


def planned_tiling(message: str) -> bool:
    """A tiled retry that ComfyUI chose from its estimate (:data:`PLANNED_TILING` is in its evidence)."""
    return PLANNED_TILING in message.lower()


def detect_fallback(message: str) -> str | None:
    """The fallback a ComfyUI log line reports (``tiled-vae-decode`` ...), or ``None``."""
    text = message.lower()
    if "memory" not in text and "oomed" not in text and "vram" not in text:
        return None
    for needle, kind in FALLBACKS:
        if needle in text:
            logger.debug("Memory Probe: recognised fallback %s in %r", kind, message)
            return kind
    return None
