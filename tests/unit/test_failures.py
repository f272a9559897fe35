"""Which memory ran out, from real error texts; and ComfyUI's logged OOM fallbacks."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, load_json

from memprobe.judging.failures import classify_failure, detect_fallback, is_memory_failure
from memprobe.logs.explain import explain_log
from memprobe.sensing.snapshot import SystemMemory

CASES = load_json("error_texts.json")["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['node_type']}-{c['kind']}-{i}" for i, c in enumerate(CASES)])
def test_real_error_texts(case):
    assert classify_failure(case["exception_type"], case["message"]) == case["kind"]


def test_the_recorded_error_run_is_not_a_memory_failure():
    history = load_json("comfyui-0.3.64/history/error_runtime.json")
    error = next(data for event, data in history["status"]["messages"] if event == "execution_error")
    kind = classify_failure(error["exception_type"], error["exception_message"])
    assert kind == "other" and not is_memory_failure(kind)


def test_an_out_of_memory_error_on_a_cpu_only_comfyui_is_ram():
    assert classify_failure("torch.OutOfMemoryError", "out of memory", compute_device="cpu") == "system-ram"
    assert classify_failure("torch.OutOfMemoryError", "out of memory", compute_device="cuda") == "vram"


def test_enomem_at_the_strict_commit_limit_is_the_commit_limit():
    strict_full = SystemMemory(commit_bytes=99, commit_limit_bytes=100, overcommit_mode=2)
    heuristic = SystemMemory(commit_bytes=99, commit_limit_bytes=100, overcommit_mode=0)
    assert classify_failure("OSError", "[Errno 12] Cannot allocate memory", system=strict_full) == "commit-limit"
    assert classify_failure("OSError", "[Errno 12] Cannot allocate memory", system=heuristic) == "system-ram"


def test_dynamic_vrams_full_address_range_is_vram_though_raised_as_memory_error():
    # comfy-aimdo's ModelVBAR.alloc raises MemoryError("VBAR OOM") when a model's VRAM range is full
    assert classify_failure("MemoryError", "VBAR OOM") == "vram"
    assert classify_failure("MemoryError", "") == "system-ram"


def test_windows_commitment_limit_status_is_the_commit_limit():
    # NTSTATUS 0xC000012D (STATUS_COMMITMENT_LIMIT), as a dialog and as an exit code
    assert classify_failure(None, "Unable to start the application correctly (0xc000012d).") == "commit-limit"
    assert classify_failure(None, "Process exited with code 3221225773") == "commit-limit"


@pytest.mark.parametrize(
    "message",
    [  # ERROR_COMMITMENT_LIMIT's text in Windows' other languages, as "DLL load failed" prints it (no number)
        "DLL load failed while importing _C: Plik stronicowania jest za mały, aby ukończyć tę operację.",
        "DLL load failed while importing _C: Het wisselbestand is te klein om deze bewerking te voltooien.",
        "DLL load failed while importing _C: Stránkovací soubor je příliš malý pro dokončení této operace.",
        "DLL load failed while importing _C: Файл підкачки замалий для завершення операції.",
        "DLL load failed while importing _C: A lapozófájl túl kicsi a művelet végrehajtásához.",
    ],
)
def test_the_paging_file_in_windows_other_languages_is_the_commit_limit(message):
    assert classify_failure("ImportError", message) == "commit-limit"


def test_missing_type_and_text_is_other():
    assert classify_failure(None, None) == "other"


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.", "tiled-vae-decode"),
        ("Warning: Ran out of memory when regular VAE encoding, retrying with tiled VAE encoding.", "tiled-vae-encode"),
        (
            "ran out of memory while running softmax in  _get_attention_scores_no_kv_chunking, trying slower in place "
            "softmax instead",
            "attention-fallback",
        ),
        ("out of memory error, emptying cache and trying again", "attention-fallback"),
        ("out of memory error, increasing steps and trying again 4", "attention-fallback"),
        ("Got an OOM, unloading all loaded models.", None),  # that one follows a real failure
        ("Requested to load AutoencoderKL", None),
    ],
)
def test_fallback_log_lines(line, kind):
    assert detect_fallback(line) == kind


def test_no_fallback_appears_in_the_recorded_logs():
    from helpers import FIXTURES

    for log in (FIXTURES / "comfyui-0.3.64" / "logs").glob("*.log"):
        assert not [line for line in log.read_text().splitlines() if detect_fallback(line)], log.name


def test_enomem_next_to_the_cgroup_limit_is_the_cgroup_limit():
    from memprobe.sensing.snapshot import SystemMemory

    gib = 1024**3
    inside = SystemMemory(
        ram_total_bytes=24 * gib,
        ram_available_bytes=20 * gib,
        overcommit_mode=0,
        cgroup_limit_bytes=3 * gib,
        cgroup_used_bytes=int(2.9 * gib),
    )
    message = "[enforce fail at alloc_cpu.cpp:127] DefaultCPUAllocator: can't allocate memory"
    assert classify_failure("RuntimeError", message, system=inside) == "cgroup-limit"
    roomy = SystemMemory(ram_total_bytes=24 * gib, cgroup_limit_bytes=3 * gib, cgroup_used_bytes=gib)
    assert classify_failure("RuntimeError", message, system=roomy) == "system-ram"


def test_the_readers_cheap_gate_lets_every_memory_text_through():
    # the log reader tests a line against a cheap pattern before the tables: a text added to a table
    # but missed by the gate would never be seen in a one-line paste
    from memprobe.judging.failures import memory_gate
    from memprobe.judging.wordings import MEMORY_TEXTS
    from memprobe.logs.explain import explain_log

    assert [t for t in MEMORY_TEXTS if not memory_gate(t)] == []
    assert not memory_gate("loaded completely 9.5367431640625e+25 159.87335777282715 true")
    # e.g. a full disk in Spanish, whose words the others do not share
    doc = explain_log("Error: no queda espacio en el dispositivo\n")
    assert doc["failure"]["kind"] == "disk"


# ENOMEM and ENOSPC as glibc words them in the locales users post from (its own catalogs, libc.mo), printed
# by a shell or a tool in a container or a server set to that locale; one line each, as pasted.
@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("bash: fork: Nicht genügend Hauptspeicher verfügbar", "system-ram"),
        ("-bash: fork: Ne peut allouer de la mémoire", "system-ram"),
        ("bash: fork: No se pudo asignar memoria", "system-ram"),
        ("bash: fork: Não foi possível alocar memória", "system-ram"),
        ("bash: fork: Impossibile allocare memoria", "system-ram"),
        ("bash: fork: Nie można przydzielić pamięci", "system-ram"),
        ("-bash: fork: Невозможно выделить память", "system-ram"),
        ("bash: fork: 无法分配内存", "system-ram"),
        ("bash: fork: メモリを確保できません", "system-ram"),
        ("bash: fork: 메모리를 할당할 수 없습니다", "system-ram"),
        (
            "cp: Fehler beim Schreiben von 'models/flux1-dev.safetensors': Auf dem Gerät ist kein Speicherplatz mehr verfügbar",
            "disk",
        ),
        ("tar: models/x.safetensors: Impossible d'écrire: Aucun espace disponible sur le périphérique", "disk"),
        ("cp: erro ao escrever 'models/x.safetensors': Não há espaço disponível no dispositivo", "disk"),
        ("cp: errore di scrittura di 'models/x.safetensors': Spazio esaurito sul device", "disk"),
        ("cp: błąd zapisu 'models/x.safetensors': Brak miejsca na urządzeniu", "disk"),
        ("cp: ошибка записи 'models/x.safetensors': На устройстве не осталось свободного места", "disk"),
        ("cp: 写入'models/x.safetensors' 出错: 设备上没有空间", "disk"),
        ("cp: 'models/x.safetensors' の書き込みエラー: デバイスに空き領域がありません", "disk"),
        ("cp: 'models/x.safetensors' 쓰기 오류: 장치에 남은 공간이 없음", "disk"),
    ],
)
def test_glibcs_own_words_in_other_languages_name_their_memory(line: str, kind: str) -> None:
    from memprobe.logs.explain import explain_log

    assert classify_failure("OSError", line) == kind
    assert explain_log(line + "\n")["failure"]["kind"] == kind


# Allocation errors of the other libraries ComfyUI's custom nodes run on, each as the library prints it
# (the texts are the libraries' own: llama.cpp's ggml-cuda.cu and ggml-vulkan.cpp, the Vulkan and Metal
# result codes, ONNX Runtime's bfc_arena.cc, the CUDA driver API, HIP, Intel's SYCL runtimes, Colab, Kaggle).
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        (
            "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: "
            "out of memory",
            "vram",
        ),
        ("alloc_tensor_range: failed to allocate CUDA0 buffer of size 1879048192", "vram"),
        ("llama_model_load: error loading model: unable to allocate CUDA0 buffer", "vram"),
        ("alloc_tensor_range: failed to allocate ROCm0 buffer of size 5064192000", "vram"),
        ("ggml_vulkan: Device memory allocation of size 462323712 failed.", "vram"),
        ("ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory", "vram"),
        (
            "[METAL] Command buffer execution failed: Insufficient Memory "
            "(00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)",
            "vram",
        ),
        (
            "Non-zero status code returned while running Conv node. Status Message: bfc_arena.cc:376 "
            "onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size "
            "4718592000 (CUDAExecutionProvider)",
            "vram",
        ),
        (
            "Non-zero status code returned while running Conv node. Status Message: bfc_arena.cc:376 "
            "onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size 4718592000",
            "vram",  # its provider unnamed: the GPU's in every thread that said (DeepFaceLive, facefusion, TRELLIS ...)
        ),
        (
            "bfc_arena.cc:376 onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer "
            "of size 4718592000 (CPUExecutionProvider)",
            "system-ram",
        ),
        ("[2] Call to cuMemAlloc results in CUDA_ERROR_OUT_OF_MEMORY", "vram"),
        ("HIP error: hipErrorOutOfMemory", "vram"),
        (
            "Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) -5 (PI_ERROR_OUT_OF_RESOURCES)",
            "vram",
        ),
        ("Native API failed. Native API returns: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)", "vram"),
        ("UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", "vram"),
        ("Your session crashed after using all available RAM.", "system-ram"),
        ("Your notebook tried to allocate more memory than is available. It has restarted.", "system-ram"),
        ("[Errno 12] Cannot allocate memory", "system-ram"),
        # Ollama's refusal to load (its server's check against free RAM), raised by the Ollama packs' nodes
        ("model requires more system memory (9.9 GiB) than is available (7.6 GiB)", "system-ram"),
        # a program at a memory cap of its own: V8's heap limit (Node.js: an Electron app, a frontend build), the JVM's
        # -Xmx, ImageMagick's policy, Redis' maxmemory, ClickHouse's limit: the system RAM it allowed itself
        ("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", "system-ram"),
        ('Exception in thread "main" java.lang.OutOfMemoryError: Java heap space', "system-ram"),
        ("java.lang.OutOfMemoryError: GC overhead limit exceeded", "system-ram"),
        ("convert-im6.q16: cache resources exhausted `frame.png' @ error/cache.c/OpenPixelCache/4095.", "system-ram"),
        ("OOM command not allowed when used memory > 'maxmemory'.", "system-ram"),
        (
            "Code: 241. DB::Exception: Memory limit (total) exceeded: would use 64.00 GiB (attempt to allocate chunk "
            "of 4217828 bytes), maximum: 64.00 GiB. (MEMORY_LIMIT_EXCEEDED)",
            "system-ram",
        ),
        # PostgreSQL's palloc and DuckDB's buffer manager refused: the host's memory; Go's runtime the same
        ("ERROR:  out of memory DETAIL:  Failed on request of size 2048.", "system-ram"),
        ("Out of Memory Error: could not allocate block of size 2.0 GiB (10.2 GiB/10.8 GiB used)", "system-ram"),
        ("fatal error: out of memory", "system-ram"),
        # libiberty's xmalloc (gcc's cc1plus, ld), Rust's allocator after a progress bar's last figure
        ("cc1plus.exe: out of memory allocating 65536 bytes", "system-ram"),
        ("1.2 MiB/s in  1m 14s ETA: 14smemory allocation of 148512752 bytes failed", "system-ram"),
        # PostgreSQL's System V shared memory refused is no disk (its hint says so); its /dev/shm full is
        ("FATAL:  could not create shared memory segment: No space left on device", "other"),
        (
            'ERROR: could not resize shared memory segment "/PostgreSQL.2791547698" to 33554432 bytes: No space left '
            "on device (SQLSTATE 53100)",
            "disk",
        ),
        ("Error: ENOMEM: not enough memory, read", "system-ram"),  # Node's (libuv's) ENOMEM
        # a petabyte or more asked at once is a size gone wrong (an overflow), not memory running out
        ("Failed to allocate memory for requested buffer of size 4547406516732812544", "other"),
        ("CUDA out of memory. Tried to allocate 17179869184.00 GiB (GPU 0; 24.00 GiB total capacity)", "other"),
        ("CUDA out of memory. Tried to allocate 1536.00 GiB (GPU 0; 80.00 GiB total capacity)", "vram"),
        ("memory allocation of 2097152 bytes failed", "system-ram"),  # Rust's allocator (Polars), then abort
        ("GGML_ASSERT: ggml.c:4411: ctx->mem_buffer != NULL", "system-ram"),  # ggml's context got no buffer
        # PHP's memory_limit, the Kotlin daemon's heap: caps of their own, the RAM each allowed itself
        (
            "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)",
            "system-ram",
        ),
        ("Not enough memory to run compilation. Try to increase it via 'gradle.properties':", "system-ram"),
        # Julia's managed heap (vtjeng/MIPVerify.jl#97): the host's memory
        ("OutOfMemoryError()", "system-ram"),
        # LLVM's allocator failing at a size nothing could hold (flutter/flutter#100193, a Swift 5.6 bug): no memory
        ("LLVM ERROR: out of memory", "other"),
        # GHC's runtime when the OS refused its heap (jgm/pandoc#2648); Node's fork refused (askmike/gekko#1641)
        ("pandoc: out of memory (requested 5705302016 bytes)", "system-ram"),
        ("(node:248) UnhandledPromiseRejectionWarning: Unhandled promise rejection: Error: spawn ENOMEM", "system-ram"),
        # etcd preallocating its WAL where the file system cannot (etcd-io/etcd#3335): no memory, no full disk; the
        # same words for want of space are the disk's
        ("wal: failed to allocate space when creating new wal file (operation not supported)", "other"),
        ("wal: failed to allocate space when creating new wal file (no space left on device)", "disk"),
        # a limit on mappings, not on memory (solana-labs/solana's validators: "... Cannot allocate memory (os error
        # 12). Please increase sysctl vm.max_map_count")
        (
            "Failed to map the data file: Cannot allocate memory (os error 12). Please increase sysctl vm.max_map_count",
            "other",
        ),
        # df's row at 100 %: a full disk; a snap's image is always full (Mailu/Mailu#2520)
        ("/dev/nvme0n1p1   20G   20G   50M 100% /", "disk"),
        ("tmpfs              524288   524288          0 100% /mnt/mongo-ramdisk", "disk"),
        ("/dev/loop5       64M   64M     0 100% /snap/core20/1634", "other"),
        # and lj to lq: a Fortran code's own check (firemodels/fds#1266); METIS asking for 181 TB at once (mfem/mfem#4859);
        # paho-mqtt's MQTT_ERR_NOMEM for a socket's error (home-assistant/core#6247); NVIDIA's kernel driver out of VRAM
        # (NVIDIA/egl-wayland#185)
        ("ERROR: Memory allocation failed for OME_E in the routine INIT", "system-ram"),
        ("***Memory allocation failed for OMETIS: cptr. Requested size: 181419418625296 bytes", "other"),
        ("homeassistant.exceptions.HomeAssistantError: Error talking to MQTT: Out of memory.", "other"),
        ("Failed to allocate NVKMS memory for GEM object", "vram"),
    ],
)
def test_other_libraries_allocation_errors(message, kind):
    assert classify_failure("RuntimeError", message) == kind


def test_the_jvms_outofmemoryerror_is_not_torchs():
    # the JVM raises it at its own limits: on memory (its heap, its direct buffers: the RAM it allowed itself) and on
    # what is not memory (the threads it may start), never the GPU's
    jvm = "java.lang.OutOfMemoryError"
    assert classify_failure(jvm, "Java heap space") == "system-ram"
    assert (
        classify_failure(
            jvm, "Cannot reserve 4194304 bytes of direct buffer memory (allocated: 535498591, limit: 536870912)"
        )
        == "system-ram"
    )
    assert (
        classify_failure(
            jvm, "unable to create native thread: possibly out of memory or process/resource limits reached"
        )
        == "other"
    )
    # ... also where a paste's quote kept its exception's name from being read (georchestra/docker#286)
    assert (
        classify_failure(
            None, '"java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process'
        )
        == "other"
    )
    assert classify_failure("torch.OutOfMemoryError", "Allocation on device") == "vram"


def test_cudas_bare_out_of_memory_while_pinning_host_ram_is_that_ram():
    # ComfyUI pins offloaded weights (on by default on NVIDIA since PR #10656); CUDA's own error there is
    # host RAM (issues #10662, #11531, #14126; calcuis/gguf#51): ComfyUI-GGUF's mmap release, pin_memory
    bare = "CUDA error: out of memory\nSearch for `cudaErrorMemoryAllocation' in https://docs.nvidia.com/cuda/"
    assert classify_failure("torch.AcceleratorError", bare, during=["Attempting to release mmap (398)"]) == "system-ram"
    assert classify_failure("torch.AcceleratorError", bare, during=["load", "pin_memory"]) == "system-ram"
    assert classify_failure("torch.AcceleratorError", bare, during=["load", "forward"]) == "vram"
    # torch's own allocator ran out of VRAM, whatever it was doing
    allocator = "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 8.00 GiB total capacity)"
    assert classify_failure("torch.OutOfMemoryError", allocator, during=["pin_memory"]) == "vram"


# Other libraries' texts that ComfyUI's packs raise through, verbatim from the threads named.
LIBRARY_TEXTS = [
    (  # a TensorRT upscaler pack building its engine on the GPU
        "yuvraj108c/ComfyUI-Upscaler-Tensorrt#49",
        "[E] [virtualMemoryBuffer.cpp::nvinfer1::StdVirtualMemoryBufferImpl::resizePhysical::154] Error Code 2: "
        "OutOfMemory (Requested size was 3356491776 bytes.)",
        "vram",
    ),
    (  # TensorFlow naming the GPU it ran out on
        "iperov/DeepFaceLab#5438",
        "ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[10,128,64,64] and "
        "type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc",
        "vram",
    ),
    (  # Triton's kernel wants more of an SM's shared memory than it has: no memory ran out
        "thu-ml/SageAttention#234",
        "out of resource: shared memory, Required: 106496, Hardware limit: 65536. Reducing block sizes or "
        "`num_stages` may help.",
        "other",
    ),
    (  # the same through torch.compile, as a ComfyUI error report gave it (WanVideoSampler)
        "Zuntan03/EasyWanVideo#17",
        "RuntimeError: No valid triton configs. OutOfResources: out of resource: shared memory, Required: 165888, "
        "Hardware limit: 101376. Reducing block sizes or `num_stages` may help.",
        "other",
    ),
]


@pytest.mark.parametrize(("source", "message", "kind"), LIBRARY_TEXTS, ids=[c[0] for c in LIBRARY_TEXTS])
def test_other_libraries_texts(source, message, kind):
    assert classify_failure(None, message) == kind
    doc = explain_log(message)  # the same text pasted alone: the log reader agrees
    assert doc["failure"]["kind"] == kind
    assert doc["failure"]["node"]["class_type"] is None  # TensorFlow's exception name is no node's class


def test_a_device_out_of_memory_message_cut_mid_word_is_still_that_device():
    # ROCm/legacy-rocm-build#4846 (round p): the excerpt ends at "HIP out of m", right after ComfyUI's tiled retry
    for cut in ("HIP out of m", "CUDA out of mem", "XPU out of memor", "MPS backend out of me"):
        assert classify_failure("torch.OutOfMemoryError", cut) == "vram"
    assert classify_failure("RuntimeError", "ran out of mana") == "other"


# The search index's excerpts, and many pastes, begin mid-message: the head ("CUDA out of memory.",
# "Allocation on device", "DefaultCPUAllocator: not enough memory:") cut off. What is left still says which
# memory ran out. Real corpus lines, cut where an excerpt would begin.
@pytest.mark.parametrize(
    ("log", "cut_before", "kind"),
    [
        ("usdu_25_ultimatesdupscale_cuda_oom_1080ti.log", "Tried to allocate", "vram"),  # torch < 2.1
        ("usdu_25_ultimatesdupscale_cuda_oom_1080ti.log", "GiB total capacity;", "vram"),
        ("EchoMimic48_loadmodel_cuda_oom_popup.log", "Tried to allocate", "vram"),  # torch >= 2.1
        ("EchoMimic48_loadmodel_cuda_oom_popup.log", "GPU 0 has a total capacity", "vram"),
        ("EchoMimic48_loadmodel_cuda_oom_popup.log", "Including non-PyTorch memory", "vram"),
        ("EchoMimic48_loadmodel_cuda_oom_popup.log", "Of the allocated memory", "vram"),
        ("3DPack122_crm_allocation_console.log", "Requested", "vram"),  # the block under "Allocation on device"
        ("ComfyUI1368_sdxl_refiner_defaultcpuallocator_oneline.log", "you tried to allocate", "system-ram"),
    ],
)
def test_a_message_cut_before_its_head_still_names_its_memory(log, cut_before, kind):
    text = (FIXTURES / "logs" / log).read_text(encoding="utf-8")
    excerpt = text[text.index(cut_before) :]
    assert explain_log(excerpt)["failure"]["kind"] == kind
    assert explain_log(excerpt)["suggestions"]


def test_a_message_a_console_wrapped_names_its_memory_as_one_line_does():
    # rmbg_7's "Error in RMBG processing: Allocation on device", wrapped at 80 columns after "on"
    wrapped = "Error in image processing: Error in RMBG processing: Allocation on\ndevice"
    assert classify_failure("RuntimeError", wrapped) == "vram"
    assert classify_failure("RuntimeError", "CUDA out of\n  memory. Tried to allocate 2.00 GiB") == "vram"
