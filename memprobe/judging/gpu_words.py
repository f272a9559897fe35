"""The words torch's allocators and the GPU stacks print when a device's memory runs out (CUDA, ROCm, MPS, XPU, NPU,
Vulkan, OpenCL, Metal; the libraries on them: RAPIDS, MLX, vLLM, the GPU miners), as pastes cut or translate them, and
the names that say a GPU. :mod:`memprobe.judging.wordings` holds the other memories' words."""

from __future__ import annotations

import re

__all__ = [
    "CUT_DEVICE_OOM",
    "DEVICE_ALLOCATION",
    "NAMES_GPU",
    "OOM_HANDLER_LINES",
    "OOM_SUMMARY_LINE",
    "OOM_UNLOAD_LINE",
    "VRAM_TEXTS",
    "WGPU_OOM",
    "translated_device_oom",
]

# Texts are matched lower-cased, in the languages users post in.
OOM_UNLOAD_LINE = "Got an OOM, unloading all loaded models"
OOM_SUMMARY_LINE = "Memory summary:"
OOM_HANDLER_LINES = (OOM_SUMMARY_LINE, OOM_UNLOAD_LINE)
"""What ComfyUI's handler of a device OOM logs (``execution.py``, under ``model_management.is_oom``): torch's memory
summary (since 2026), then the unloading. Either alone, the error not pasted, is that OOM."""
NAMES_GPU = re.compile(
    r"\b(?:cuda\d*|gpu\d*|vram|hip|rocm\d*|vulkan\d*|metal|xpu|sycl\d*|cudaexecutionprovider|device ordinal)\b(?! ?host)"
)
VRAM_TEXTS = (
    "cuda out of memory",
    "allocation on device",
    "would exceed allowed memory",
    "hip out of memory",
    "failed in faiss::gpu::stackdevicememory",  # Faiss' temporary GPU memory it could not reserve ("Faiss assertion
    # 'err == cudaSuccess' failed in faiss::gpu::StackDeviceMemory::Stack::Stack(int, size_t)"): cudaMalloc refused
    "xpu out of memory",
    "npu out of memory",
    "mps backend out of memory",
    "invalid buffer size:",  # Metal: one allocation over the GPU's largest buffer (MPS: "Invalid buffer size: 5.53 GB")
    "cuda error: out of memory",
    "hip error: out of memory",
    "cudaerrormemoryallocation",
    "cudnn_status_alloc_failed",
    "cuda allocation failed",  # NVIDIA DALI's operators ("Error when executing Mixed operator ImageDecoder ...")
    "image too big to run face detection on gpu",  # Wav2Lip (and its forks' nodes) re-raising torch's CUDA OOM
    "cublas_status_alloc_failed",
    "out of memory on device",
    "not enough gpu video memory",  # DirectML: "Could not allocate tensor with N bytes. There is not enough GPU video memory available!"
    "could not allocate tensor with",
    OOM_UNLOAD_LINE.lower(),  # ComfyUI itself, after a device OOM
    "ran out of memory on your gpu",  # the frontend's tip (current ComfyUI)
    "not enough gpu ram",  # VAPOR's volume renderer: "Not enough GPU RAM free (3686MB free, need at least 4122MB)"
    "not enough gpu memory",  # the newer frontend's toast ("Generation failed: Not enough GPU memory. Try ...")
    "insufficient free vram",  # packs' own checks before they allocate ("Insufficient free VRAM: need ~1.1 GB")
    "insufficient vram",
    "insufficient gpu vram",  # ComfyUI-QwenVL: "Insufficient GPU VRAM even for 4-bit quantization."
    "too large for this gpu",  # SeedVR2, re-raising torch's OOM: "VAE decode failed - tensor too large for this GPU"
    "not enough vram",
    "vram oom",
    "failed to allocate nvkms memory",  # NVIDIA's kernel driver for a Wayland compositor's buffers ("Failed to
    # allocate NVKMS memory for GEM object" in dmesg, with VRAM exhausted)
    "dml allocator out of memory",  # torch-directml's heap ("[W ...dml_heap_allocator.cc:120] DML allocator out of memory!")
    "vram out-of-memory",  # chaiNNer's ("A VRAM out-of-memory error has occurred. Please try using a more extreme ...")
    "out of vram",  # a pack's own word, or what a user types in place of a log ("ran out of VRAM during decode")
    "vram insu",  # ... in French, Spanish, Portuguese ("VRAM insuffisante", "VRAM insuficiente")
    "nicht genügend vram",
    "显存不足",  # Chinese: VRAM (显存) short, overflowing, "blown"
    "显存溢出",
    "爆显存",
    "vram不足",  # Japanese
    "vramが足りない",
    "vram 부족",  # Korean
    "недостаточно видеопамяти",  # Russian
    "insufficient gpu memory",
    "devoured all of the memory",  # SUPIR's own hint after a torch OOM
    "vbar oom",  # comfy-aimdo (dynamic VRAM): the model's VRAM address range is full (raised as MemoryError)
    "vram grow failed",  # comfy-aimdo's cast buffer could not grow ("VRAM grow failed: 2147483648 bytes")
    "vram allocation failed",  # comfy-aimdo's fault-in: a page did not fit even after evicting others ("Fault failed: 2")
    "cudamalloc failed",  # llama.cpp's CUDA backend (LLM/VLM nodes)
    "failed to cudamalloc",  # Faiss' GPU indexes ("... allocMemorySpace ...; details: Failed to cudaMalloc 16000000000 bytes")
    "cuda failure 'out of memory'",  # NCCL's check of a CUDA call ("NCCL WARN Cuda failure 'out of memory'"), and its
    "failed to cuda calloc",  # allocation's own line ("NCCL WARN Failed to CUDA calloc 10485760 bytes"): its buffers on
    "failed to cuda malloc",  # the GPU ("ncclUnhandledCudaError ... Failed to CUDA calloc 536870912 bytes")
    "error code 2: outofmemory",  # TensorRT building an engine: its GPU buffer could not grow ("Requested size was ...")
    "cuda_error_out_of_memory",  # the CUDA driver API's name (numba, pycuda, cupy)
    "gl error :gl_out_of_memory",  # Chromium's GPU process on a WebGL call ("[.Offscreen-For-WebGL-0AC02980]GL ERROR
    # :GL_OUT_OF_MEMORY : glTexImage2D: <- error from previous GL command")
    "hiperroroutofmemory",
    "out_of_device_memory",  # Intel's Level Zero / unified runtime (XPU)
    "[gpu] out of gpu resources",  # OpenVINO's GPU plugin (ocl_engine.cpp), an Intel iGPU's shared memory full
    "to avoid cl_out_of_resources",  # OpenVINO's GPU plugin: "... reduce memory consumption (...) to avoid CL_OUT_OF_..."
    "mem_object_allocation_failure",  # OpenCL's own code for a device buffer it could not allocate (CL_..., or as
    # PyOpenCL names it: "pyopencl._cl.MemoryError: clEnqueueMapBuffer failed: MEM_OBJECT_ALLOCATION_FAILURE")
    "outofdevicememory",  # Vulkan (vk::Device::allocateMemory: ErrorOutOfDeviceMemory)
    "not enough memory, use lower resolution",  # AUTOMATIC1111's split attention, from the GPU's free memory
    "vkallocatememory failed -2",  # ncnn's Vulkan (Real-ESRGAN-, RIFE-, waifu2x-ncnn-vulkan): VK_ERROR_OUT_OF_DEVICE_MEMORY
    "pi_error_out_of_resources",  # Intel's SYCL runtime when a device allocation fails (IPEX on Arc)
    "ur_result_error_out_of_resources",  # the same in its newer unified runtime
    "failed to allocate private mtlbuffer",  # Metal Performance Shaders: a buffer in the GPU's own storage ("failed
    # assertion `Failed to allocate private MTLBuffer for size 2717908992'")
    "callbackerroroutofmemory",  # Metal: kIOGPUCommandBufferCallbackErrorOutOfMemory (Apple silicon's GPU)
    "command buffer execution failed: insufficient memory",  # MLX's Metal ("[METAL] Command buffer execution failed:
    # Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)")
    "insufficient memory (ioaf code 8)",  # ... its MTLCommandBufferErrorOutOfMemory ("... Code=8 "Insufficient Memory
    # (IOAF code 8)"")
    "device memory allocation of size",  # ggml's Vulkan backend
    "error code 2: outofmemory",  # TensorRT ("[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::145] ...")
    "devicememoryallocator fail to allocate",  # PhysX (Isaac Gym, Isaac Sim): "PxgCudaDeviceMemoryAllocator fail to ..."
    "gpu memory allocation error during",  # TensorRT's builder: "Internal error: GPU memory allocation error during
    # getBestTactic: ..."
    "(dmlallocator) ran out of memory trying to allocate",  # TensorFlow-DirectML's allocator (the GPU's, like _bfc's)
    "requested amount of gpu memory",  # TensorRT: "Requested amount of GPU memory (N bytes) could not be allocated"
    "failed creating cuda context for nvenc: 0x2",
    "gpuassert: out of memory",  # the CUDA ops' check macro (OpenPCDet's "GPUassert: out of memory pcdet/ops/...")
    "there may not be enough free memory for allocation to succeed",  # older TensorRT ("Requested amount of memory")
    "failed with status 5",  # Metal's command buffer in error (ggml's "command buffer 0 failed with status 5"), its
    # reason the next line when said ("Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)",
    # "out of memory"): the GPU's memory in every thread that quotes it alone (chatglm.cpp, llama-gpt, llama.cpp)
    "you do not have enough gpu memory available",  # faceswap's trainer ("... to train the selected model at the
    # selected settings"), the OOM it caught
    "failed to malloc npu memory",  # Rockchip's RKNN runtime: the NPU's memory ("failed to malloc npu memory, size: ...")
    "kgsl_sharedmem_alloc ioctl failed",  # Qualcomm Adreno's driver: the phone GPU's allocation (Android's logcat)
    "(ioctl_kgsl_gpuobj_alloc) failed: errno 12",  # FFmpeg's NVENC: cuCtxCreate's CUDA_ERROR_OUT_OF_MEMORY
    "_bfc) ran out of memory trying to allocate",  # TensorFlow's and XLA's allocator ("Allocator (GPU_0_bfc) ran out
    # of memory trying to allocate 5.0KiB"), without its "The caller indicates that this is not a failure"
    "resource_exhausted: out of memory while trying to allocate",  # XLA's GPU allocator (JAX, TensorFlow's XLA)
    "resource exhausted: out of memory while trying to allocate",  # ... as its older releases word it (AlphaFold 2)
    "ran out of memory in memory space",  # XLA on a TPU ("Resource exhausted: Ran out of memory in memory space hbm")
    "out of device memory",  # Vulkan's VK_ERROR_OUT_OF_DEVICE_MEMORY as its C++ wrappers word it (std::system_error)
    "cumemalloc failed: out of memory",  # PyCUDA's allocator (a MemoryError it raises: "cuMemAlloc failed: out of memory")
    "out of memory to allocate",  # CuPy's OutOfMemoryError ("out of memory to allocate 205520896 bytes (total ...)")
    "bytes (allocated so far:",  # ... its older wording (Chainer's: "Out of memory allocating 25,600,000 bytes
    # (allocated so far: 3,635,267,072 bytes).")
    "out of memory in cumemalloc(",  # Blender's Cycles: "CUDA error: Out of memory in cuMemAlloc(&device_pointer, ...)"
    "out of memory in custreamcreate(",  # ... its queue's stream, the card full (or ZLUDA's translation failing)
    "system is out of gpu",  # ... "System is out of GPU memory", "System is out of GPU and shared host memory"
    "out of memory on vulkan",  # ... its Vulkan RHI ("Out of memory on Vulkan; MemoryTypeIndex=5, AllocSize=1.000MB")
    "out of video memory",  # Unreal Engine: "Out of video memory trying to allocate a rendering resource"
    "out_of_video_memory",  # ... as a code names it (AMD's Radeon Image Filters: "RIF_ERROR_OUT_OF_VIDEO_MEMORY")
    "failed with error out of memor",  # tiny-cuda-nn (instant-ngp): "cudaMalloc(&rawptr, ...) failed with error out of memory"
    "enough gpu ram to fit the quantized model",  # transformers: a quantized model's modules would go to CPU or disk
    "can't move a model that has some modules offloaded to cpu or disk",  # accelerate: device_map="auto" put part of a
    # model on the CPU because it did not fit the GPU, and the node's .to() then fails ("Some parameters are on the
    # meta device because they were offloaded to the cpu" above it)
    # torch's CUDA allocator message with its head cut off (an excerpt that starts mid-message):
    "already allocated;",  # torch < 2.1: "... (GPU 0; 8.00 GiB total capacity; 7.2 GiB already allocated; ...)"
    "has a total capacity of",  # torch ≥ 2.1: "GPU 0 has a total capacity of 7.63 GiB of which 5.12 MiB is free."
    "including non-pytorch memory",  # "Including non-PyTorch memory, this process has 7.2 GiB memory in use."
    "is allocated by pytorch, and",  # "Of the allocated memory 6.9 GiB is allocated by PyTorch, and ..."
    "try setting max_split_size_mb to avoid fragmentation",  # its last sentence alone ("If reserved memory is >> ...")
    "free (according to cuda)",  # the block under "Allocation on device 0 would exceed allowed memory"
    "ran out of memory, skipping batch",  # fairseq's and Lightning-based tools' catch of torch's CUDA OOM: work lost
    # vLLM: the GPU memory left for its KV cache after the weights, within gpu_memory_utilization of the card
    "no available memory for the cache blocks",  # v0: "ValueError: No available memory for the cache blocks. ..."
    "larger than the available kv cache memory",  # v1: "... 4.50 GiB KV cache is needed, which is larger than ..."
    "gib kv cache is needed",  # ... its size alone, the rest cut or shortened ("1.75 GiB KV cache is needed, available ...")
    "can be stored in kv cache",  # "The model's max seq len (4096) is larger than the maximum number of tokens ..."
    "try to increase --mem-fraction-static",  # SGLang: its KV pool, in the GPU's share it was given ("Not enough memory.
    # Please try to increase --mem-fraction-static.")
    "rmm_error_out_of_memory",  # ... its older releases ("RMM call in line 68 ... failed with result RMM_ERROR_OUT_OF_MEMORY")
    "out_of_memory: cuda error",  # RAPIDS' RMM (cuDF, cuML): "std::bad_alloc: out_of_memory: CUDA error at: ..."
    "gpu outofmemory",  # the RAPIDS Accelerator for Spark ("com.nvidia.spark.rapids.jni.SplitAndRetryOOM: GPU OutOfMemory")
    "maximum pool size exceeded",  # ... its pool on the GPU ("RMM failure at: .../mr/device/pool_memory_resource.hpp")
    "cusparse_status_alloc_failed",  # cuSPARSE's device allocation, by its name or its number (DGL: "CUSPARSE ERROR: 2")
    "cusparse error: 2",
    "[malloc_or_wait] unable to allocate",  # MLX's Metal allocator (Apple silicon's GPU, in unified memory)
    "is more than total mem size",  # MindSpore's device allocator (Ascend, GPU): "TotalUsedMemStatistics : N plus
    # ... alloc size : N is more than total mem size : N"
    "cuda resources could not be allocated",  # dlib's words for cuDNN's CUDNN_STATUS_ALLOC_FAILED ("code: 2, reason: ...")
    "outofmemory(device)",  # gfx-hal's and gpu-alloc's allocation error under wgpu (nannou: "AllocationError(
    # OutOfMemory(Device))"); its host memory's is OutOfMemory(Host)
    "outofdevicememory",  # gpu-alloc's AllocationError::OutOfDeviceMemory, ash's ERROR_OUT_OF_DEVICE_MEMORY
    "memory object allocation failure",  # OpenCL's CL_MEM_OBJECT_ALLOCATION_FAILURE as Boost.Compute words it (LightGBM)
    "parallel_for failed: out of memory",  # Thrust's system_error for a kernel's device allocation (XGBoost's gpu_hist)
    # the GPU miners' DAG (Ethash, its size growing each epoch) that no longer fits the card: lolMiner's "GPU 0:
    # insufficient memory for DAG epoch 381.", T-Rex's "Device does not have enough free memory to hold the DAG ..."
    "insufficient memory for dag",
    "enough free memory to hold the dag",
    "cannot allocate big buffer for dag",  # Claymore's ("CUDA error - cannot allocate big buffer for DAG. Check readme.txt")
    "creating dag buffer failed",  # ethminer's ("cl-0 Creating DAG buffer failed: clCreateBuffer: CL_INVALID_BUFFER_SIZE")
    "rmm failure at:",  # RAPIDS' memory manager, its device pool ("std::bad_alloc: RMM failure at: ...
    # pool_memory_resource.hpp:188: Maximum pool size exceeded.": cuDF, cuML, cupoch)
    "failed to allocate memory on videocore",  # a Raspberry Pi's GPU memory (its gpu_mem share: "[vc_sm_ioctl_alloc]:
    # failed to allocate memory on videocore (status: 0, ...)", Kodi's hardware decoder)
    "greater than the maximum allowed buffer size",  # MLX's Metal allocator: one buffer over what the GPU takes
    # ("[metal::malloc] Attempting to allocate 73359820800 bytes which is greater than the maximum allowed ...")
)
CUT_DEVICE_OOM = re.compile(r"\b(?:cuda|hip|xpu|npu|mps backend) out of m(?:e(?:m(?:o(?:r)?)?)?)?$")
"""A device's out-of-memory message cut mid-word where the paste (or the page it was copied from)
ended: ``HIP out of m``."""
DEVICE_ALLOCATION = re.compile(
    r"\ballocate \d+ bytes on device \d+|\bcan't create buffer of size: \d+, error -2\b"
    r"|\bcould not allocate [\w ]{0,40}buffers? for (?:the )?(?:cuda|gpu)\b"
    r"|\bcu(?:mem|module|ctx|array|graph|launch|stream|event)\w* failed:? out of memory"
    r"|\bcreate(?:bitstream|input)buffer failed: out of memory"
    r'|\bdevice "[^"]+" does not have enough memory'  # FluidX3D's own check ('Error: Device "NVIDIA GeForce GTX 1050 Ti"
    # does not have enough memory.')
)
"""An allocation refused on a numbered device (NVIDIA DALI's: "Can't allocate 129499136 bytes on device 0."), a
Vulkan buffer the device refused for its memory (Godot's "Can't create buffer of size: 26357760, error -2.", -2 being
VK_ERROR_OUT_OF_DEVICE_MEMORY), a buffer for the GPU's work (Guppy's "Could not allocate shared buffer for CUDA
basecaller."), a call of CUDA's driver API (xpra's "cuModuleLoadDataEx failed: out of memory"), NVENC's buffers on the
card (ffmpeg's "CreateBitstreamBuffer failed: out of memory (10)"; its session's refusal with the same code is a limit
on sessions, not memory): the GPU's."""
WGPU_OOM = re.compile(r"\b(?:wgpu error|error in surface::configure)\b.{0,400}?\bnot enough memory left\b", re.S)
"""wgpu's ``DeviceError::OutOfMemory`` under its error's causes (``wgpu error: Validation Error`` ... ``In
Device::create_buffer`` ... ``Not enough memory left``; a surface's, as a panic's message: ``Error in
Surface::configure: Validation Error`` ... ``Not enough memory left.``): the GPU's, which Vulkan, Metal or Direct3D
refused."""
_SHORT_OF_MEMORY = re.compile(
    r"内存不足|内存溢出|記憶體不足|メモリ(?:が|の)?不足|메모리(?:가)? 부족|недостаточно памяти|не хватает памяти|нехватка памяти"
    r"|nicht genügend (?:\w+-)?speicher|speicher (?:ist )?erschöpft|mémoire (?:\w+ )?insuffisante|court de mémoire"
    r"|sin memoria|memoria (?:\w+ )?insuficiente|no hay suficiente memoria|sem memória|memória (?:\w+ ){0,2}insuficiente"
    r"|memoria (?:\w+ )?esaurita|memoria (?:\w+ ){0,2}insufficiente|bellek yetersiz|belleği yok|brak pamięci"
    r"|لا توجد ذاكرة|אין מספיק זיכרון|حافظه (?:\S+ ){0,2}کافی نیست"
)
_GPU_WORD = re.compile(r"(?<![a-z])(?:cuda|hip|gpu|vram|xpu)(?![a-z])|显卡|グラフィック|그래픽")
"""torch's "CUDA out of memory" as a browser or a user translates it ("CUDA 内存不足。尝试分配 20.00 MiB",
"Nicht genügend CUDA-Speicher"), and the frontend's own toast in each language it ships ("Memoria GPU
insufficiente", "Yeterli GPU belleği yok", "אין מספיק זיכרון GPU": ``errorCatalog.runtimeErrors.out_of_memory``
in ComfyUI_frontend 1.58's locales): memory short, in the languages users post in, beside a GPU's name. Memory short
alone ("内存不足", "недостаточно памяти") does not say which memory."""


def translated_device_oom(low: str) -> bool:
    return _SHORT_OF_MEMORY.search(low) is not None and _GPU_WORD.search(low) is not None
