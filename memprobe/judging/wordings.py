"""The words programs print when memory (or the disk) runs out, each table by the memory it names: the host's (glibc's
ENOMEM, numpy, Python), Windows' commit limit and the disk's, in the languages users post in (the GPU's:
:mod:`memprobe.judging.gpu_words`). :mod:`memprobe.judging.failures` judges a failure with them."""

from __future__ import annotations

import re

from .caps import OWN_LIMITS, STORE_LIMITS
from .gpu_words import VRAM_TEXTS

__all__ = [
    "COMMIT_TEXTS",
    "DISK_TEXTS",
    "FILE_EXHAUSTED",
    "GENERIC_ALLOCATION",
    "KILLED_CHILD_TEXTS",
    "MEMORY_TEXTS",
    "NAMED_MEMORY_ERROR",
    "MEMORY_LOCK_REFUSED",
    "NOT_A_FAILURE",
    "ORT_ARENA",
    "PINNED_TEXTS",
    "RAM_OOM",
    "SHM_FULL",
    "SHM_WRITE",
    "SPECIFIC_RAM_TEXTS",
    "SRUN_OOM",
    "FOUNDRY_OOM",
    "SYSTEM_RAM_TEXTS",
    "TENSORFLOW_OOM",
    "WENT_ON",
]

# Texts are matched lower-cased, in the languages users post in (Windows' and glibc's own message catalogs).
PINNED_TEXTS = ("hostbuffer.read_file_slice failed", "hostbuffer allocation failed")
"""comfy-aimdo's pinned host buffer failed to take a slice of a model file (ComfyUI issue #14250, fixed by
``--disable-pinned-memory``; PR #15699), or to be allocated (comfy-aimdo 0.6): pinned host RAM."""
WENT_ON = (
    "continuing anyway",
    ", switching to",
    ", reducing batch size",
    "failed to allocate zero-copy buffer",  # librtlsdr, whose next line falls back to buffers in user space
)
"""A program's words that it went on past what it could not do (earlyoom's "Could not lock memory - continuing anyway:
Cannot allocate memory", XMRig's "failed to allocate RandomX dataset, switching to slow mode", a manager's "Due to a
network error, switching to local mode", a trainer's "Out of memory error, reducing batch size to 8"): neither a
failure nor memory running out."""
MEMORY_LOCK_REFUSED = ("warning: failed to mlock", "cannot lock down")
"""A program told its memory will not be locked in RAM (llama.cpp's "warning: failed to mlock ... Try increasing
RLIMIT_MLOCK", JACK's "Cannot lock down 82278944 byte memory area (Cannot allocate memory)"): RLIMIT_MEMLOCK, the limit
on locked memory, not memory running out; it goes on all the same."""
SRUN_OOM = re.compile(r"srun: error: \S+: tasks? [\d,-]+: out of memory")
"""Slurm's srun on the tasks its step's cgroup OOM handler killed ("srun: error: h19c54: task 300: Out Of Memory"): the
job's limit (an ending), not a device's memory."""
FOUNDRY_OOM = re.compile(r"\bstatus \d+ \(out of memory\)")
"""Cloud Foundry's end of an app instance at its memory quota ("Exited with status 255 (out of memory)", "Exit status
137 (out of memory)"): a container's limit, whether read as an ending or in a message."""
NOT_A_FAILURE = "indicates that this is not a failure"
"""TensorFlow's BFC allocator on a request whose caller does without it ("Allocator (GPU_0_bfc) ran out of memory trying
to allocate 2.14GiB ... The caller indicates that this is not a failure, but may mean that there could be performance
gains if more memory were available"): a warning, whatever its line's level."""
KILLED_CHILD_TEXTS = (
    "is killed by signal: killed",
    "is killed by signal:killed",  # ... as a paste retyped it ("DataLoader worker(pid xxxxx) is killed by signal:killed.")
    "terminated with signal sigkill",
    "worker unexpectedly exits with a connection error code",
    "exited prematurely: signal 9 (sigkill)",  # Celery's (billiard's) WorkerLostError for a pool worker
    "exited with 'signal 9 (sigkill)'",  # ... and its MainProcess' line above it
    "killed signal terminated program",  # gcc: "fatal error: Killed signal terminated program cc1plus"
    "fatal error: signal terminated program",  # ... the signal's name left out (a locale's catalog without it)
    "failed: (killed):",  # Bazel's action ("... failed: (Killed): tool failed: error executing command ...")
    "internal compiler error: killed (program",  # older gcc's words for the same ("... Killed (program cc1plus)")
    "was killed (i.e. sigkill)",  # cabal: "The build process was killed (i.e. SIGKILL). The typical reason for this is
    # that there is not enough memory available"
    "died due to signal 9",  # nvcc: "nvcc error   : 'ptxas' died due to signal 9 (Kill signal)"
    "died with signal 9 (kill)",  # bowtie2's and hisat2's wrappers ("(ERR): hisat2-align died with signal 9 (KILL)",
    "exited with value 137",  # "(ERR): bowtie2-align exited with value 137": 128 + SIGKILL's 9)
    "failed with error code -9",  # pip's legacy setup.py run ('Command "... setup.py ..." failed with error code -9')
    "exit status 9 (sigkill)",  # ArangoDB's supervisor ("child process 10617 terminated normally, exit status 9
    # (SIGKILL). will intentionally not start a new child process")
    "(waitpid returned 9",  # RQ's: "Work-horse was terminated unexpectedly (waitpid returned 9)" (CVAT's workers)
)
"""torch's words for a worker it started that SIGKILL ended (a DataLoader's, torch.multiprocessing's child), Ray's for
an actor's worker that vanished without an exception, Celery's for a pool worker SIGKILL ended (it lists the OOM killer's SIGKILL first among its "potential root
causes"; in both threads that quote it, vLLM's and OpenRLHF's, memory had run out): most often the kernel's OOM killer
— system RAM, inferred (:func:`killed_child`)."""
SYSTEM_RAM_TEXTS = (
    "defaultcpuallocator",  # torch's CPU allocator names itself only when it fails (in any translation)
    "couldn't set default memory limits",  # Leela Zero's: "LOW MEMORY SETTINGS! Couldn't set default memory limits.
    # The network you are using might be too big for the default settings on your system."
    "isn't enough memory to complete this action",  # Microsoft Office's dialog ("There isn't enough memory to
    # complete this action. Consider using 64-bit version of Excel."): the 32-bit process' address space
    "nt_status_no_memory",  # Samba's (smbd, winbindd: Unix daemons) for an allocation that failed, not Windows'
    "couldn't allocate enough memory",  # Yarn's zip library (a WebAssembly heap): "YN0001: │ Error: @actual-app/
    # web@npm:23.11.0: Couldn't allocate enough memory"
    "unable to malloc buffer of size",  # lrzip ("Unable to malloc buffer of size 11105056085 in this environment")
    "exceptions.memoryerror",  # Python 2's MemoryError as its type's repr prints it ("<type 'exceptions.MemoryError'>")
    "allocation error : not enough memory",  # libkiwix's ("===== Unhandled error : Allocation error : not enough
    # memory ==========")
    "can't allocate required memory",  # p7zip ("ERROR: Can't allocate required memory!")
    "requires more physical memory than is available",  # mksquashfs ("FATAL ERROR: mksquashfs requires more physical
    # memory than is available!")
    "memory allocation failed: attempting to allocate",  # GameMaker's runner ("Memory allocation failed: Attempting
    # to allocate 3813888 bytes")
    "[morecore] insufficient memory",  # klib's kalloc (minimap2's allocator) before it aborts
    "run out of contiguous memory",  # OpenToonz's and Tahoma2D's raster cache ("run out of contiguous memory")
    "memory allocation failed : growing",  # libxml2's ("internal buffer error : Memory allocation failed : growing
    # buffer": FontForge's UFO and SVG output)
    "exception class    : eoutofmemory",  # Delphi's, as madExcept reports it (HeidiSQL: "exception class    :
    # EOutOfMemory", "exception message  : Out of memory.")
    "vk_error_out_of_host_memory",  # Vulkan's refusal of the host's memory it needed (the driver's own allocations)
    'abort("oom")',  # Emscripten's heap that could not grow (ammo.js: 'Uncaught abort("OOM"). Build with -s
    "abort(oom)",  # ASSERTIONS=1 for more info', "Error: abort(OOM)")
    "imagebitmap could not be allocated",  # a browser's decoded image refused ("DOMException: The ImageBitmap could not
    # be allocated.": Chrome on Android at the device's memory)
    "outofmemoryexception: out of memory",  # Mono's, as Unity's console prints it without its namespace
    "sdl failed allocation",  # Paradox's games through SDL ("SDL failed allocation in pdx_audio. SDL Error: "Out of
    'sdl error: "out of memory"',  # memory"", "Failed to load audio ... SDL Error: "Out of memory"")
    "cannot run function - insufficient memory",  # autodE's check of the RAM a job is set to ("Cannot run function -
    # insufficient memory. Had 13.241933824 GB but required 16.0 GB.")
    "out of memory for dense node cache",  # osm2pgsql's cache asked of a machine without it ("Out of memory for dense
    # node cache, reduce --cache size")
    "insufficientmemorytoload",  # Milvus' query node refusing a segment its memory would not hold
    # ("err:InsufficientMemoryToLoad, ... OOM if load, ... usedMemAfterLoad = 60735 MB, currentAvailableMemCount = ...")
    "alloc_cpu.cpp",
    "[enforce fail at cpuallocator.cpp",  # torch < 1.5: "... posix_memalign(&data, gAlignment, nbytes) == 0. 12 vs 0"
    "[enforce fail at alloc_cpu",
    "cannot allocate memory",  # ENOMEM (an mmap, a fork)
    "catastrophic error: out of memory",  # the C++ front end nvcc runs (EDG's "... catastrophic error : out of memory"
    "catastrophic error : out of memory",  # compiling CUTLASS' templates): the build machine's memory, not the GPU's
    "system out of memory!",  # Unity's native allocator: "Could not allocate memory: System out of memory!"
    "std::bad_alloc",
    "gpu_host_bfc) ran out of memory",  # TensorFlow's allocator of pinned host RAM ("Allocator (gpu_host_bfc) ran out ...")
    "unable to allocate",  # numpy's ArrayMemoryError
    "arraymemoryerror",
    "cannot allocate array memory",  # numpy's C-level MemoryError (a video decoded into one array)
    "memory limit hit after loading",  # VideoHelperSuite stops a video load before RAM runs out
    "frames could be loaded within set memory limit",  # ... its 2024 wording ("Not all frames could be loaded ...")
    "insufficient system ram",  # ComfyUI-QwenVL: "Insufficient System RAM even for 4-bit quantization."
    "not enough memory resources are available",  # WinError 8
    "not enough memory to complete the requested operation",  # a tool's own ("pkg: There is not enough memory ...")
    "not enough storage is available to process this command",  # WinError 8 and 14 before Windows 8 (memory, not
    "not enough storage is available to complete this operation",  # the disk)
    "存储空间不足，无法处理此命令",  # the same, Chinese (WinError 8; 14: "存储器不足，无法完成此操作")
    "存储器不足，无法完成此操作",
    "메모리 리소스가 부족",
    "insufficient system resources exist to complete",  # WinError 1450: the kernel's pools and mapped views (a model
    "ressources système insuffisantes",  # mmapped on Windows; a small paging file), in French and Russian
    "недостаточно системных ресурсов",
    "zasoby systemowe nie wystarczają do ukończenia",  # ... in Polish (Hyper-V: "Maszyna wirtualna „DC” nie może
    "nicht genügend systemressourcen, um den angeforderten dienst",  # przydzielić 2048 MB pamięci RAM: ..."), German
    "can't allocate region",  # macOS' malloc: "malloc: can't allocate region ... mach_vm_map(size=...) failed"
    "[error]: malloc of size",  # x264's and x265's encoder (FFmpeg's libx264, a video written): "x264 [error]: malloc of
    # size 1688186816 failed" — the host's heap, not the GPU's
    "nicht genügend speicherressourcen",
    "ressources mémoire insuffisantes",
    "no hay suficientes recursos de memoria",
    "内存资源不足",
    "メモリ リソースが不足",
    "недостаточно ресурсов памяти",
    "nicht genügend hauptspeicher",  # ENOMEM in German
    "impossible d'allouer de la mémoire",
    "no se puede asignar memoria",
    # ENOMEM ("Cannot allocate memory") in glibc's own catalogs (libc.mo), as a shell or a tool prints it:
    "ne peut allouer de la mémoire",
    "no se pudo asignar memoria",
    "não foi possível alocar memória",
    "impossível alocar memória",
    "impossibile allocare memoria",
    "nie można przydzielić pamięci",
    "nelze alokovat paměť",
    "onvoldoende geheugen beschikbaar",
    "невозможно выделить память",
    "не вдалося розподілити пам",
    "bellek ayrılamadı",
    "无法分配内存",
    "無法配置記憶體",
    "メモリを確保できません",
    "메모리를 할당할 수 없습니다",
    "failed to allocate",  # "... memory", ONNX Runtime's "... memory for requested buffer", ggml's buffers
    "out of host memory",
    "runtime: out of memory",  # Go's runtime when the OS refused its heap ("fatal error: runtime: out of memory")
    "bad allocation",  # std::bad_alloc's words in Microsoft's C++ library ("Exception during initialization: bad allocation")
    "node running low on memory",  # Ray: "Task was killed due to the node running low on memory." (its OOM killer)
    "of the memory on node",  # Ray's older memory monitor: "RayOutOfMemoryError: More than 95% of the memory on node
    # Local is used (15.98 / 16.82 GB)" (it raised before the kernel's OOM killer would act)
    "not enough memory: you tried to allocate",  # torch's CPU allocator, its prefix cut
    "you tried to allocate",  # the same, cut further ("... you tried to allocate 26214400 bytes.")
    "requires more system memory",  # Ollama: "model requires more system memory (12.3 GiB) than is available"
    *PINNED_TEXTS,
    "after using all available ram",  # Google Colab: "Your session crashed after using all available RAM."
    *KILLED_CHILD_TEXTS,
    "more memory than is available",  # Kaggle: "Your notebook tried to allocate more memory than is available."
    "out of ram",  # what a user types in place of a log ("System RAM is full", "ran out of RAM")
    "ram is full",
    "ctx->mem_buffer != null",  # ggml's assert when malloc gave its context no buffer (GGML_ASSERT: ...ggml.c:4411)
    "enomem: not enough memory",  # Node's (libuv's) ENOMEM: "Error: ENOMEM: not enough memory, read"
    "spawn enomem",  # Node's child_process when fork was refused ("Error: spawn ENOMEM")
    "memory allocation failed for ",  # Fortran codes' own check of ALLOCATE's status (FDS: "ERROR: Memory allocation
    # failed for OME_E in the routine INIT")
    "failed to reallocate",  # LAMMPS ("ERROR on proc 617: Failed to reallocate 1650272 bytes for array comm:buf_send")
    "out-of-memory, texturing temporarily disabled",  # PCSX2's GSdx in a 32-bit process ("GSdx: out-of-memory, ...")
    "array buffer allocation failed",  # V8's RangeError for an ArrayBuffer it could not allocate (tfjs-node's models)
    "errno 12] not enough space",  # ENOMEM in Microsoft's C runtime ("OSError: [Errno 12] Not enough space")
    "resource_exhausted: out of memory allocating",  # XLA's CPU client ("... allocating 124867611608 bytes.")
    "cannot allocate vector of size",  # R: "Error: cannot allocate vector of size 3.8 Gb"
    "vector memory exhausted",  # R: "Error: vector memory exhausted (limit reached?)" (its cap on RAM and swap)
    "page allocation failure: order:",  # the kernel's own allocation failed ("kswapd0: page allocation failure: order:0")
    "virtual memory exhausted",  # gcc, cc1plus: "virtual memory exhausted: Cannot allocate memory"
    "termination: memory exhausted",  # AliceVision (Meshroom): "Abnormal program termination: memory exhausted"
    "out of memory. type help memory",  # MATLAB: "Out of memory. Type HELP MEMORY for your options."
    'out of memory. type "help memory"',  # ... its newer wording
    "array exceeds maximum array size preference",  # MATLAB: "Requested 1024x1024x16800 (131.3GB) array exceeds
    "exceeded the preset maximum array size",  # maximum array size preference" (by default, the machine's RAM)
    "dimension too large for octave's index type",  # Octave: "out of memory or dimension too large for ..."
    "rangeerror: out of memory",  # WebAssembly's memory (the browser's, Node's): "[wasm] RangeError: Out of memory"
    "out of memory: wasm memory",  # V8: "WebAssembly.instantiate(): Out of memory: wasm memory"
    "webassembly.memory(): could not allocate memory",
    "compiler is out of heap space",  # MSVC's C1060 and C1002 ("fatal error C1060: compiler is out of heap space")
    "lnk1102: out of memory",  # MSVC's linker ("LINK : fatal error LNK1102: out of memory")
    "insufficient memory for the java runtime environment",  # the JVM's own memory refused by the OS (mmap, errno 12;
    # not its heap: "# There is insufficient memory for the Java Runtime Environment to continue.")
    "could not get memory for large allocation",  # Unity's allocator ("DynamicHeapAllocator out of memory - ...")
    "ran out of memory allocating",  # Unreal Engine's ("Ran out of memory allocating 1073807360 bytes with alignment")
    "fail to alloc memory of",  # PaddlePaddle's on the host ("... size, error code is 12."; on a GPU it names the GPU)
    "vips_tracked: out of memory",  # libvips' own malloc ("vips_tracked: out of memory --- size == 26784MB")
    "insufficient memory to continue the execution of the program",  # .NET's OutOfMemoryException, its own words
    "nicht genügend speicher verfügbar, um das programm weiter auszuführen",  # ... in German, French and Spanish
    "mémoire insuffisante pour continuer l'exécution du programme",
    "memoria insuficiente para continuar con la ejecución del programa",
    "outofmemoryerror()",  # Julia's, on the host (the GPU's is CUDA.jl's OutOfGPUMemoryError)
    "out of cpu memory",  # GPU4PySCF's check of the host's ("RuntimeError: Out of CPU memory")
    "bun has ran out of memory",  # Bun's crash report ("oh no: Bun has ran out of memory.")
    "bun has run out of memory",
    "out of memory! attempted allocation size",  # Valve's tier0 (SteamCMD, Source servers: "***** OUT OF MEMORY!
    "fatal assertion failed: out of memory",  # attempted allocation size: 147962298 ****", then memstd.cpp's assert)
    ": out of memory (requested ",  # GHC's runtime when the OS refused its heap ("pandoc: out of memory (requested
    # 5705302016 bytes)", "ghc: out of memory (requested 1048576 bytes)")
    "not enough memory in the system to start the virtual machine",  # Hyper-V: the host's RAM for the VM's
    "outofmemory,microsoft.hyperv",  # ... the same refusal's error id in PowerShell ("FullyQualifiedErrorId :
    # OutOfMemory,Microsoft.HyperV.PowerShell.Commands.StartVM", its message in the system's language)
    "terminate because of running out of memory",  # Bambu Studio's and OrcaSlicer's dialog ("BambuStudio will
    # terminate because of running out of memory.")
    "fatal error: out of memory",  # Go's runtime ("fatal error: out of memory" then its goroutines: Syncthing, a
    # Go server's panic log)
    "failed on request of size",  # PostgreSQL's backend ("ERROR:  out of memory DETAIL:  Failed on request of size 2048")
    "out of memory error: could not allocate block",  # DuckDB's buffer manager ("... block of size 2.0 GiB (10.2 GiB/10.8
    "out of memory error: failed to allocate block",  # GiB used)"; its limit is 80 % of the machine's RAM by default)
    "out of memory error: failed to pin block",  # ... a block it could not bring back into that limit ("... of size 262144")
    "luajit: not enough memory",  # LuaJIT's interpreter at an allocation refused (KOReader: "./luajit: not enough
    "lua: not enough memory",  # memory"); Lua's own words for LUA_ERRMEM
    "cannot allocate enough memory for function",  # PocketBook's inkview ("... for function bmp_alloc")
    "pixdata_malloc fail",  # Leptonica's ("Error in pixCreateNoInit: pixdata_malloc fail for data"), Tesseract's images
    'javascript error: "out of memory"',  # Firefox's and Zotero's console: SpiderMonkey's heap, the host's RAM
    "enough free ram to run",  # CAPE's processor refusing below its minimum ("Your system doesn't have enough FREE RAM
    # to run")
    "requires a machine with at least",  # SQL Server on Linux ("sqlservr: This program requires a machine with at
    # least 2000 megabytes of memory."): the machine's RAM below what it starts with
    "available memory (ram+swap)",  # an installer's check ("You must have a minimum of 1Gb available memory (RAM+swap)")
    "rsrc_insufficient_container_memory",  # minikube's checks before it starts ("Exiting due to
    "rsrc_insufficient_sys_memory",  # RSRC_INSUFFICIENT_CONTAINER_MEMORY: docker only has 1771MiB available, less than
    "rsrc_insufficient_req_memory",  # the required 1800MiB for Kubernetes"): the machine's (or Docker's VM's) RAM
    "message: fail to calloc",  # R-INLA's GMRFLib ("Reason: Alloc failed / Message: Fail to calloc nmemb=128976896
    # elements of size=8 bytes")
    "swap_pager_getswapspace",  # FreeBSD's kernel with its swap full ("swap_pager_getswapspace(16): failed"), and
    "swap_pager: out of swap space",  # ... its pager killing for it ("swap_pager: out of swap space")
    "system.outofmemoryexception",  # .NET's, in any language ("Exception of type 'System.OutOfMemoryException' was
    # thrown.", "Ausnahme vom Typ "System.OutOfMemoryException" wurde ausgelöst."): the process' memory, a 32-bit one's
    # address space most often
    "not enough physical memory is available",  # VMware's power-on refused ("Not enough physical memory is available
    # to power on this virtual machine with its configured settings.")
    "available memory is too low",  # oVirt's scheduler ("... did not satisfy internal filter Memory because its
    # available memory is too low (487.000000 MB) to run the VM.")
    *(word for words, _cap, _knob in OWN_LIMITS for word in words),  # the RAM a program allowed itself
)
GENERIC_ALLOCATION = (
    "failed to allocate",
    "unable to allocate",
    "cannot allocate memory",
    "bad allocation",
    "ran out of memory allocating",
    "fail to alloc memory of",  # PaddlePaddle's allocator ("ResourceExhaustedError: Fail to alloc memory of 564023296 size")
    "failed to reallocate",
)
"""Host-memory texts other libraries also print for a GPU's memory (ONNX Runtime's arena, llama.cpp's
buffers): a GPU named beside them makes them VRAM."""
TENSORFLOW_OOM = "oom when allocating tensor"
"""TensorFlow's out-of-memory (``ResourceExhaustedError``), on whichever device its message ends with
(``... on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc``); older versions leave the
device out: then it is read as torch's bare "out of memory" is."""
ORT_ARENA = "bfcarena::allocaterawinternal"
"""ONNX Runtime's arena refusing a buffer, its provider unnamed: the CPU provider has one too, but a host allocation
fails so only where the commit limit is reached (Linux kills instead); in the logs people post (face swappers,
background removal, TensorRT-less ONNX nodes) it was the GPU's every time (five threads of five)."""
SPECIFIC_RAM_TEXTS = tuple(t for t in SYSTEM_RAM_TEXTS if t not in GENERIC_ALLOCATION)
COMMIT_TEXTS = (
    "paging file is too small",
    "paging file is to small",  # as users retype it
    "os error 1455",
    "winerror 1455",
    "error 1455",
    "error code: 1455",  # a tool's own report of the Win32 error (the MSVC linker's LNK1171, ThreadSanitizer's mmap)
    "errno=1455",  # Go's runtime on VirtualAlloc ("VirtualAlloc of 0 bytes failed with errno=1455")
    "auslagerungsdatei ist zu klein",
    "fichier de pagination est insuffisant",
    "archivo de paginación es demasiado pequeño",
    "arquivo de paginação é muito pequeno",
    "file di paging è insufficiente",
    "ページング ファイルが小さすぎ",
    "페이징 파일이 너무 작",
    "файл подкачки слишком мал",
    "页面文件太小",
    "分頁檔太小",
    "plik stronicowania",  # Windows' word for the paging file in Polish, Dutch, Czech, Ukrainian, Hungarian,
    "wisselbestand is te klein",  # Swedish and Turkish (ERROR_COMMITMENT_LIMIT's message, which a "DLL load
    "stránkovací soubor",  # failed" prints without its number)
    "файл підкачки",
    "lapozófájl",
    "växlingsfilen är för liten",
    "disk belleği dosyası",
    "system is low on virtual memory",
    "0xc000012d",  # STATUS_COMMITMENT_LIMIT: the application could not start or went on without commit
    "3221225773",  # the same status as an exit code
    "-1073741523",
    "status_commitment_limit",
    "0xc0000017",  # STATUS_NO_MEMORY: "Not enough virtual memory or paging file quota is available", an exit code
    "3221225495",
    "-1073741801",
    "status_no_memory",
    "insufficient virtual memory",  # Intel Fortran's runtime on Windows ("forrtl: severe (41): insufficient virtual
    # memory", fds5.exe's frames under it)
)
SHM_FULL = (
    "insufficient shared memory (shm)",  # torch's DataLoader: "Unexpected bus error encountered in worker. ..."
    "workers are out of shared memory",  # ... "is killed by signal: Bus error. It is possible that dataloader's ..."
    "is killed by signal: bus error",  # ... older torch's "DataLoader worker (pid 125) is killed by signal: Bus error."
    # (no hint): a worker's bus error writing its batch into a /dev/shm that filled, in every thread that quotes it
    "error while creating shared memory segment /dev/shm",  # NCCL's ("... /dev/shm/nccl-pZafXL (size 7340384)")
    "could not resize shared memory",  # PostgreSQL's parallel query in /dev/shm ("... segment "/PostgreSQL.638321836"
    # to 16777216 bytes: No space left on device": a Docker container's 64 MB)
    "memory available in /dev/shm",  # Ray's object store: "System memory request exceeds memory available in ..."
    "insufficient shared storage space",  # PaddlePaddle's DataLoader: "It may be caused by insufficient shared storage ..."
    "free space in temporary directory for shared memory files",  # Chromium's ("Less than 64MB of free space in ...: 0")
)
"""/dev/shm full: a filesystem in memory of its own size (a container's is 64 MB unless it is given more), read as
a full disk (its remedy is its size, not RAM's)."""
SHM_WRITE = re.compile(r"unable to write to file </torch_[\d_]+>(?::? no space left|\s*$| at \S*thallocator\.c)")
"""torch sharing a tensor between processes through a file in /dev/shm that it could not write: for want of space
(``... </torch_739_144252761_4>: No space left on device (28)``; older versions left the reason unsaid)."""
FILE_EXHAUSTED = re.compile(
    r"resource[ _]exhausted: (?!/job:)[^\s;]*[/\\]|^(?!.*watch).*: enospc\.?$|the partition with \S*\s*is too full!"
    r"|could not extend file \"[^\"]*\": wrote only \d+ of \d+ bytes"
)
"""TensorFlow's status for a file it could not write for want of space (its ENOSPC is RESOURCE_EXHAUSTED, the file's
path first: "Resource exhausted: checkpoints/model.ckpt.tempstate4953...; No space left on device", the reason
sometimes cut off); a program's own error that ends in ENOSPC's name ("Failed to create log directory /APM/LOGS:
ENOSPC"; not a file watcher's, whose ENOSPC is the inotify limit); Debian's MySQL script refusing to start ("ERROR:
The partition with /var/lib/mysql is too full!"); PostgreSQL's short write to a table's file, its hint "Check free disk
space" ('could not extend file "base/16384/49834.8": wrote only 4096 of 8192 bytes at block 1174869')."""
DISK_TEXTS = (
    "no space left on device",
    "errno 28]",
    "os error 28)",
    "not enough space on the disk",
    "not enough free space to write",  # numpy's tofile/save: "OSError: Not enough free space to write 292626432 bytes"
    "possibly out of free disk space",  # Composer: "... Only 8192 of 44635 bytes written, possibly out of free disk space"
    "is full, this may be the cause of the following exception",  # ... "The disk hosting /root/.composer is full, ..."
    "not enough space to create userdata partition",  # the Android emulator ("... Available: 4189.42 MB at ...")
    "state is 0x202 after update job",  # SteamCMD's "Error! App '556450' state is 0x202 after update job." (0x202: not
    # enough disk space; its other states are other errors)
    "since the disk space monitor action is",  # BitBake's ("No new tasks can be executed since the disk space monitor
    # action is "STOPTASKS"!", "Immediately halt since ... "HALT"!"): its build folder's disk ran low
    *SHM_FULL,
    "winerror 112",
    "os error 112",
    "disk quota exceeded",
    "space quota exceeded",  # OpenZFS' receive into a dataset at its quota ("cannot receive new filesystem stream:
    # destination wwwpool space quota exceeded")
    "': out of space",  # libzfs' ENOSPC ("cannot create 'root/root': out of space")
    "(error -28)",  # the kernel's ENOSPC in a file system's own words ("BTRFS: Transaction aborted (error -28)")
    "% disk usage exceeds ",  # django-health-check's disk check ("health-check: warning: 603a12ee426c 92.9% disk
    # usage exceeds 90%": CVAT's server)
    "full osd(s)",  # Ceph's health ("HEALTH_ERR 1 full osd(s); 13 pool(s) full")
    "reached concerning levels of available storage space",  # ceph-mon below 'mon data avail crit'
    "check if there is enough disk space",  # ClamAV's freshclam on a write it could not finish ("ERROR: buildcld:
    # Can't add daily.hsb to new daily.cld - please check if there is enough disk space available")
    "rsrc_docker_storage",  # minikube's check of Docker's disk ("Exiting due to RSRC_DOCKER_STORAGE: Docker is out of
    "rsrc_podman_storage",  # disk space! (/var is at 100% of capacity)")
    "(errcode: 28)",  # MySQL's and MariaDB's ENOSPC ("Error writing file '/rdsdbdata/tmp/MYsm18GI' (Errcode: 28)")
    "temporary file write failure",  # ... ER_TEMP_FILE_WRITE_FAILURE: its tmpdir full under an ALTER TABLE's copy
    "unknown system error -122",  # EDQUOT as Node (libuv) names it on Linux ("Error: Unknown system error -122: ...
    # mkdir '/home/…/.config/Code/logs/…'")
    "no enough space left on device",  # 389 Directory Server's ("bdb_no_diskspace - No enough space left on device
    # (/dev/shm/slapd-…)")
    *(word for words, _size, _knob in STORE_LIMITS for word in words),  # a database at the size it was given
    # (LMDB's map size, etcd's quota)
    "disc quota exceeded",  # macOS' EDQUOT
    "quota disco superata",  # EDQUOT in glibc's Italian, Russian and Traditional Chinese
    "превышена дисковая квота",
    "磁碟配額已滿",
    "low on resource: ephemeral-storage",  # Kubernetes: the node's disk, a container's or a pod's local storage
    "local ephemeral storage limit",
    "ephemeral local storage usage exceeds",
    "storage limit exceeded",  # Hugging Face Spaces: "Workload Evicted, Storage Limit Exceeded (50G)" (its disk)
    "storage quota has been exceeded",  # Google Drive (Colab): "Google Drive storage quota has been exceeded"
    "low disk space: ",  # Plex's check before a transcode ("Low disk space: 36.87GB source file, 13.77GB capacity, 4GB
    # available on "/config/.../Transcode/Sync+/..."")
    "not have enough disk space to",  # an installer's own check ("Bloxstrap does not have enough disk space to
    # download and install Roblox.")
    "not enough disk space",  # a solver's own check (Antares: "... (probably not enough disk space)")
    "not enough free disk space! (only",  # a service's own guard (CAPE: "Not enough free disk space! (Only 40353 MB!)";
    # not huggingface_hub's warning before a download that goes on, "Not enough free disk space to download the file")
    "disk space is too low",  # Bitcoin Core ("Error: Disk space is too low!", then it shuts down)
    "machine runs out of disk space",  # GitHub Actions' runner ("You are running out of disk space. The runner will
    # stop working when the machine runs out of disk space. Free space left: 66 MB")
    "usage of emptydir volume",  # Kubernetes evicted the pod: "Usage of EmptyDir volume "models-dir" exceeds the limit"
    "insufficient disk space",  # ComfyUI-FluxTrainer: "Insufficient disk space. Required: 2.0GB. Available: 1.36GB"
    "free disk space available is",  # GDAL's own check before it writes (CHECK_DISK_FREE_SPACE): "Free disk space
    # available is 6349627392 bytes, whereas 50606296192 are at least necessary"
    "not enough space on disk",  # Stability Matrix: "Not enough space on disk. Need 6.5 GiB but only have 2.1 GiB"
    "not enough free space on the selected drive",  # ... and its data folder's
    # the Desktop app's installer: "Insufficient space - minimum free space: 10 GB" (ComfyUI_frontend's
    # install.insufficientFreeSpace, in each language it ships), whole: its halves alone are words of other lines
    "insufficient space - minimum free space",
    "空间不足 - 最小可用空间",
    "空間不足 - 最低可用空間",
    "空き容量が不足しています - 最低限の空き容量",
    "공간이 부족합니다 - 최소한의 여유 공간",
    "espace insuffisant - espace libre minimum",
    "espacio insuficiente - espacio libre mínimo",
    "недостаточно места — минимально необходимое свободное место",
    "مساحة غير كافية - الحد الأدنى للمساحة الحرة",
    "yetersiz alan - minimum boş alan",
    "espaço insuficiente - espaço livre mínimo",
    "nicht genügend speicherplatz – mindestens erforderlicher freier speicherplatz",
    "spazio insufficiente - spazio libero minimo",
    "מקום לא מספיק - מקום פנוי מינימלי",
    "فضای کافی وجود ندارد - حداقل فضای آزاد",
    "flood stage disk watermark",  # Elasticsearch: its disk past the flood stage, every index made read-only, a write
    "flood-stage watermark",  # then refused ("disk usage exceeded flood-stage watermark, index has read-only-allow-delete
    "read-only-allow-delete",  # block", older: "[FORBIDDEN/12/index read-only / allow delete (api)]")
    "index read-only / allow delete",
    "kb available on filesystem",  # opkg (OpenWrt): "verify_pkg_installable: Only have 0kb available on filesystem
    # /overlay, pkg luci-app-firewall needs 11"
    ",enospc}",  # Erlang's ENOSPC in a file error's tuple (Mnesia: "Cannot open log file "/opt/.../DECISION_TAB.TMP":
    "file: enospc)",  # {file_error,"...",enospc}", "(could not write core file: enospc)")
    "limited free space on the disk",  # OrientDB's OLowDiskSpaceException (Nexus Repository: "... due to limited
    # free space on the disk (868 MB). The database is now working in read-only mode.")
    "because database is full",  # Kodi's words for SQLite's SQLITE_FULL ("Insertion failed because database is full")
    "(not enough free disk space)",  # pacman ("error: failed to commit transaction (not enough free disk space)")
    "error: not enough free disk space",
    "min-free-space-size",  # Flatpak's (OSTree's) guard ("opcode close: min-free-space-size 500MB would be exceeded")
    "of free disk space to update",  # Steam's bootstrap ("Steam needs at least 100MB of free disk space to update.")
    "not enough space on the var partition",  # Waydroid's own check (SteamOS' small /var)
    "extents needed, but only",  # LVM ("Insufficient free space: 41183 extents needed, but only 24498 available")
    "free space in thin",  # ... its thin pool ("Cannot create new thin volume, free space in thin pool
    # qubes_dom0/vm-pool reached threshold.")
    "0x80070070",  # ERROR_DISK_FULL (112) as an HRESULT, whatever the language of its message
    "spazio su disco insufficiente",
    "disk space currently at 100%",  # Security Onion's sensor check ("* disk space currently at 100%")
    "killed due to exceeding jobfs quota",  # PBS Pro at a job's local disk (NCI Gadi: "Job 143560526.gadi-pbs killed
    # due to exceeding jobfs quota. Quota: 15.0GB, Used: 15.0GB")
    "install_failed_insufficient_storage",  # Android's package manager: the device's (an emulator's) storage full
    "insufficient space on disk",  # Syncthing's check ("insufficient space on disk for database (...): 1.0 % < 1 %")
    "out of disk space",  # a program's own check ("Out of disk space, exiting. Quitting": Browsertrix's crawler)
    "file system is full",  # the BSD kernels' and macOS' ENOSPC for a write ("/vol: write failed, file system is full")
    "filesystem is full",
    "disk usage is not within je.",  # Berkeley DB Java Edition's DiskLimitException ("Disk usage is not within
    # je.maxDisk or je.freeDisk limits and write operations are prohibited": Heritrix' crawl state)
    "not enough free space available for volume",  # LINSTOR's storage pool ("Not enough free space available for
    # volume 0 of resource 'snap_pm-6ae4d75b_vzdump'.": a Proxmox backup's snapshot)
    "out of holding space",  # Amanda's holding disk ("FAILED [out of holding space in degraded mode]")
    "not enough space in game folder",  # CKAN's check before it installs ("Need to store 13.2 GiB to ..., but only
    "free up space on that device",  # 7.2 GiB is available! Free up space on that device or change your settings")
    "check that you have enough space on the disk",  # STAR's own reading of an output file it could not write
    # ("Solution: check that you have enough space on the disk")
    "disk full",  # what a user types, a tool's status ("Disk full", "the disk is full")
    "disk is full",
    "auf dem datenträger ist nicht genügend speicherplatz",
    "kein speicherplatz mehr verf",  # (its "ü" lost to a wrong code page: "verfÃ¼gbar")
    "espace insuffisant sur le disque",
    "aucun espace disponible sur le périphérique",
    "no hay espacio suficiente en el disco",
    "no queda espacio en el dispositivo",
    "espaço insuficiente no disco",
    "磁盘空间不足",
    "ディスク領域が不足",
    "ディスクに十分な空き領域がありません",  # Windows' ERROR_DISK_FULL (112) in Japanese, Korean, Traditional Chinese
    "디스크 공간이 부족합니다",
    "磁碟空間不足",
    "недостаточно места на диске",
    # ENOSPC ("No space left on device") and EDQUOT in glibc's own catalogs (libc.mo):
    "não há espaço disponível no dispositivo",
    "sem espaço livre no dispositivo",
    "spazio esaurito sul device",
    "brak miejsca na urządzeniu",
    "na zařízení není volné místo",
    "geen ruimte meer over op apparaat",
    "на устройстве не осталось свободного места",
    "недостатньо місця на пристрої",
    "aygıt üzerinde boş yer yok",
    "设备上没有空间",
    "裝置上已無多餘空間",
    "デバイスに空き領域がありません",
    "장치에 남은 공간이 없음",
    "der zugewiesene plattenplatz (quota) ist überschritten",
    "超出磁盘限额",
)
NAMED_MEMORY_ERROR = re.compile(
    r"(?:^|(?<=\s))(?<!function )(?:torch\.(?:cuda\.)?)?(outofmemoryerror|memoryerror)(?![\w.:])(?!\s*[=\"'(])"
)
"""A memory error's class named alone, where a log printed it in place of its message (SD.Next's log file: ``ERROR
sd errors Processing: OutOfMemoryError``): read as that type (not Java's ``java.lang.OutOfMemoryError``, OpenCV's
``cv::OutOfMemoryError`` or its "in function OutOfMemoryError", Android's ``Throwing OutOfMemoryError "Failed to
allocate ...``)."""


RAM_OOM = re.compile(
    r"(?<![a-z])ram oom(?![a-z])|\bframes but only \d+ can fit in memory\b"
    r"|m(?<![a-z] m)emory allocation of \d+ bytes failed"  # Rust's (after a progress bar's "ETA: 14s"; not a device's)
    r"|(?:^|: )out of memory allocating \d+ bytes"  # libiberty's xmalloc (gcc's cc1plus, ld, gdb: "cc1plus.exe: out of memory
    # allocating 65536 bytes after a total of ...")
    r"|\b(?:m|c|re)alloc (?:of )?\(?(?:\d+ x )?\d+ bytes\)? failed"  # MuPDF's ("could not run page: malloc (96707520 bytes)
    # failed": KOReader, a reader; "error: malloc of 2482272 bytes failed"; its WebAssembly build's "calloc (1 x 4144
    # bytes) failed")
    r"|(?<![a-z])(?:m|re)alloc of size \d+ failed"  # Apache Arrow's allocator ("pyarrow.lib.ArrowMemoryError: realloc of
    # size 2172846080 failed": Hugging Face datasets, img2dataset), x264's ("x264 [error]: malloc of size ... failed")
    r"|\bcannot allocate (?:\d+x)?\d+ bytes\b"  # GDAL's CPLE_OutOfMemory ("ERROR 2: ...memdataset.cpp, 1277: cannot
    # allocate 1x403621047200 bytes"): its rasters in the host's memory
    r"|^tcmalloc: large alloc \d+ bytes == \(nil\)"  # gperftools' malloc refused (Colab's Python links it)
    r"|(?<![a-z_.])memoryerror\(\)"  # Python's MemoryError as its repr shows it (a Blender add-on's "Error: MemoryError()")
    r"|\ballocation of [\d.]+ [kmgt]i?b for \w+ failed"  # bwa-mem2's index ("Allocation of 40.69 GB for suffix_array
    # failed.")
    r"|^(?!.*(?:cuda|gpu|\bhip\b|vram|device|vulkan|opencl))(?:.*(?::|\]) )?not enough memory[.!]?$"  # a program's own
    # last word, on none of a GPU's ("Scripting: Loading sandbox: not enough memory", "SyntaxError: line 59214: not
    # enough memory"), after a method's name (CloudCompare's "[ccPointCloud::resize] Not enough memory!"), or Lua's
    # alone on its line (LÖVE's crash screen: "Thread error (Thread: 0x028be119b0e0)", then "not enough memory")
    r"|\bmmap\((?:\.\.\.)?prot_none(?:\.\.\.)?\) failed"  # Mono's GC reserving its heap (Unity's games on Linux:
    # RimWorld's, Oxygen Not Included's "mmap(...PROT_NONE...) failed", then SIGABRT)
    r"|^\w+: insufficient memory +\d+$"  # NWChem's errquit at its memory directive's share ("fock_rep_txs: insufficient
    # memory            176307258")
    r"|(?<![a-z_])malloc failed\b"  # a program's own check of malloc ("x265 malloc failed"; not cudaMalloc's)
    r"|(?<!cannot )(?<!unable to )allocate memory failed"  # SVT-AV1's and SVT-HEVC's allocator ("SvtMalloc[fatal]:
    # allocate memory failed, at ..."), not a line's end run into the next ("Cannot allocate memory" "Failed to ...")
    r"|:fatal:memory\.cc\(\d+\)\] out of memory"  # Chromium's own end at a refused allocation ("[545:7:0917/
    # 113950.453756:FATAL:memory.cc(38)] Out of memory. size=262144": an Electron app, a kiosk's browser)
    r"|out of memory trying to allocate \d+ bytes, exiting"  # Macaulay2's heap (the Boehm GC's: " *** out of memory
    # trying to allocate 64 bytes, exiting ***")
    r"|^(?:\S+: )?zmalloc: out of memory trying to allocate \d+"  # Redis' allocator and the code built on it (wrk:
    # "zmalloc: Out of memory trying to allocate 800000040 bytes", then an abort)
    r"|\bch_(?:m|c|re)alloc of \d+ (?:elems of \d+ )?bytes failed"  # OpenLDAP's slapd ("ch_calloc of 1048576 elems
    r"|\bch_malloc\.c:\d+: ch_(?:m|c|re)alloc: assertion"  # of 704 bytes failed", its connection table sized by the
    # open-files limit), and the assertion it stops at after it, alone where the paste kept no debug output
    r"|instance of '[\w:]*outofmemoryexception'"  # a C++ exception named for it that nobody caught ("terminate called
    # after throwing an instance of 'Minisat::OutOfMemoryException'"), unlike std::bad_alloc (a crash, as the log reader
    # reads it)
    r"|(?<!fatal : )(?<!fatal   : )(?<!object )memory allocation failure"  # a program's own ("terminating: memory
    # allocation failure", ZeroTier); not the CUDA runtime's fatal line before it aborts (a crash), nor OpenCL's
)
"""What a user types for system memory running out ("RAM OOM"; not "VRAM OOM"), VideoHelperSuite's meta batch
refused for RAM ("Meta Batch set to 256 frames but only 97 can fit in memory"), Rust's global allocator before it
aborts ("memory allocation of 2097152 bytes failed": Polars, tokenizers, safetensors' Rust core), Python's MemoryError
as its repr shows it, raised without a message, Arrow's, GDAL's and bwa-mem2's allocations refused, a program's own
"memory allocation failure", "malloc failed" or last word ": not enough memory", SVT's allocator, a C++ exception named
for memory running out."""


MEMORY_TEXTS: tuple[str, ...] = COMMIT_TEXTS + DISK_TEXTS + SYSTEM_RAM_TEXTS + VRAM_TEXTS + (TENSORFLOW_OOM,)
"""Every text that names memory (or disk) running out, lower-cased."""
