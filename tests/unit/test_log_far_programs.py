"""Logs of programs far from ComfyUI whose failures sit in the same libraries and machines — robotics, data science,
rendering, serving, weather, video, edge devices, Windows tools, distributed training, notebooks, containers, medicine,
self-hosted apps, 3D perception, TensorFlow, Apple silicon, the browser, R and MATLAB, games, compilers, the JVM, LLM
servers, upscalers, GPU computing outside PyTorch, trainers, LLM front-ends, cluster jobs, the operating system's own
killers — as users paste them: the words each prints for memory running out, for a kill, a limit, a full disk. How
such programs end (the OOM killer's and a container's kills among them), and what only sounds like memory, are in
test_log_far_endings.py; a program's own memory cap in test_log_own_caps.py. Held-out rounds cc to mg
(tests/fixtures/logs/SOURCES.md cites each thread)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, assert_far_reading

from memprobe.format import fmt_bytes
from memprobe.judging.sizes import message_sizes
from memprobe.logs.explain import explain_log

LOGS = FIXTURES / "logs"

READINGS = [
    # -- the GPU's memory, in words no ComfyUI log uses
    # Improbable-AI/walk-these-ways#20: PhysX's "PxgCudaDeviceMemoryAllocator fail to allocate memory 339738624 bytes!!
    # Result = 2"; the allocator's name atop the paste is no node's class
    ("walk_these_ways_pxg_cuda_device_memory_allocator_fail.log", "vram", None),
    # vosen/ZLUDA#306, Blender's Cycles: "Out of memory in cuStreamCreate(&cuda_stream_, CU_STREAM_NON_BLOCKING)"
    ("zluda_blender_custreamcreate_out_of_memory.log", "vram", None),
    # Try/OpenGothic#53: Vulkan's "---crashlog(std::system_error(Out of device memory))---" on a 1 GB card
    ("opengothic_vulkan_out_of_device_memory.log", "vram", None),
    # NVlabs/instant-ngp#393: tiny-cuda-nn's "cudaMalloc(&rawptr, ...) failed with error out of memor" (cut)
    ("instant_ngp_testbed_cudamalloc_oom_70_images.log", "vram", None),
    # ecmwf-lab/ai-models-graphcast#18: XLA's "Failed to allocate request for 2.99GiB ... on device ordinal 0"
    ("ai_models_graphcast_jax_resource_exhausted.log", "vram", None),
    # google-deepmind/weathernext#7: "Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to
    # allocate ...", under the rematerialization's warning
    ("graphcast_training_xla_rematerialization_bfc_oom.log", "vram", None),
    # ant-media/Ant-Media-Server#939: FFmpeg's "Failed creating CUDA context for NVENC: 0x2" (CUDA_ERROR_OUT_OF_MEMORY)
    ("antmedia_nvenc_cuda_context_failed_0x2.log", "vram", None),
    # mlc-ai/mlc-llm#112: Adreno's "IOCTL_KGSL_GPUOBJ_ALLOC) failed: errno 12 Out of memory" (a phone's GPU)
    ("mlc_chat_android_adreno_kgsl_oom.log", "vram", None),
    # torch2trt#661: an older TensorRT's "Requested amount of memory (150994944 bytes) could not be allocated"
    ("jetson_nano_torch2trt_requested_memory.log", "vram", None),
    # rknn-toolkit2#44: Rockchip's "failed to malloc npu memory!, size: 59187712" (the NPU's memory)
    ("rk3568_android_failed_malloc_npu_memory_iommu.log", "vram", None),
    # deepbeepmeep/Wan2GP#2228: "gradio.exceptions.Error: OutOfMemoryError('CUDA out of memory. ...')"
    ("wan2gp_prompt_enhancer_gradio_cuda_oom.log", "vram", None),
    # open-mmlab/OpenPCDet#348: a CUDA op's check, "GPUassert: out of memory pcdet/ops/iou3d_nms/src/..."
    ("openpcdet_pvrcnn_iou3d_nms_gpuassert_oom.log", "vram", None),
    # Willyzw/HI-SLAM2#41: Thrust's "MemoryError: std::bad_alloc: cudaErrorMemoryAllocation: out of memory"
    ("hislam2_demo_distcuda2_bad_alloc_oom.log", "vram", None),
    # bes-dev/stable_diffusion.openvino#165, an Intel UHD iGPU: "[GPU] out of GPU resources" (ocl_engine.cpp)
    ("openvino_sd_intel_uhd_out_of_gpu_resources.log", "vram", None),
    # NVIDIA/cuml#5685: RAPIDS' RMM, "MemoryError: std::bad_alloc: out_of_memory: CUDA error at: ...rmm/..."
    ("cuml_umap_fit_rmm_out_of_memory.log", "vram", None),
    # dmlc/dgl#2548: "CUSPARSE ERROR: 2" (CUSPARSE_STATUS_ALLOC_FAILED)
    ("dgl_cusparse_csr2csc_alloc_failed.log", "vram", None),
    # riccardomusmeci/mlx-llm#22, osaurus-ai/osaurus#632: MLX's "[metal::malloc] Attempting to allocate 19081554496
    # bytes which is greater than the maximum allowed buffer size of 17179869184 bytes."
    ("mlx_llm_max_allowed_buffer_size_17k_tokens.log", "vram", None),
    ("osaurus_mlx_vision_metal_malloc_max_buffer.log", "vram", None),
    # OpenRA/OpenRA#21764: Unreal Engine's "Error, out of video memory trying to allocate a rendering resource"
    ("ue_game_out_of_video_memory_popup.log", "vram", None),
    # Interkarma/daggerfall-unity#2105: Unity's "D3D11: Failed to create RenderTexture (...), error 0x8007000e"
    ("daggerfall_unity_d3d11_rendertexture_8007000e.log", "vram", None),
    # sgl-project/sglang#4330: "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static." (its KV
    # pool, in the GPU's share it was given); safx/waifu2x-metal#3: Metal's "Insufficient Memory (IOAF code 8)"
    ("sglang_not_enough_memory_mem_fraction_static.log", "vram", None),
    ("waifu2x_metal_insufficient_memory.log", "vram", None),
    # ml-explore/mlx-examples#70: MLX's "[malloc_or_wait] Unable to allocate 12 bytes."; voicepaw/so-vits-svc-fork#245:
    # torch's OOM message cut to its last sentence ("If reserved memory is >> allocated memory try setting ...")
    ("mlx_lora_malloc_or_wait_unable_to_allocate.log", "vram", None),
    ("sovits_fork_infer_oom_fragment_line.log", "vram", None),
    # PaddlePaddle/PaddleFormers#2175: "RuntimeError:" with no message, its C++ stack, then its "Error Message Summary:"
    # ("Out of memory error on GPU 0. Cannot allocate 72.000000MB memory on GPU 0, ..."); pytorch/xla#2628: XLA's
    # "Resource exhausted: Ran out of memory in memory space smem" on a TPU
    ("paddlehub_animegan_v2_windows_gpu_oom.log", "vram", None),
    ("torch_xla_2628_smem_resource_exhausted.log", "vram", None),
    # NVIDIA/DALI#2836: "Error when executing Mixed operator ImageDecoder encountered: CUDA allocation failed"
    ("dali_tfrecord_imagedecoder_cuda_allocation_failed.log", "vram", None),
    # zai-org/ChatGLM-6B#767: "RuntimeError: The following operation failed in the TorchScript interpreter.", then its
    # TorchScript traceback and the error it raised, "RuntimeError: CUDA out of memory. Tried to allocate 34.00 MiB ..."
    ("chatglm6b_torchscript_gelu_cuda_oom.log", "vram", None),
    # Rudrabha/Wav2Lip#337: its "Image too big to run face detection on GPU. Please use the --resize_factor argument",
    # raised where torch's CUDA OOM was caught
    ("wav2lip_image_too_big_face_detection_gpu_oneline.log", "vram", None),
    # -- the host's memory
    # pola-rs/polars#23173: Rust's allocator, "memory allocation of 2097152 bytes failed", then abort
    ("polars_sink_parquet_memory_allocation_failed.log", "system-ram", None),
    # google-deepmind/weathernext#44, on a CPU: XLA's "RESOURCE_EXHAUSTED: Out of memory allocating 124867611608 bytes."
    ("graphcast_cpu_resource_exhausted_oneliner.log", "system-ram", None),
    # llama.cpp#1813: ggml's "GGML_ASSERT: ...ggml.c:4411: ctx->mem_buffer != NULL" on a 1.9 GB machine
    ("llama_cpp_gpt4all_backend_ggml_assert_mem_buffer_null.log", "system-ram", None),
    # Esri/arcgis-python-api#743: torch's "Caught RuntimeError in DataLoader worker process 0." above the "Original
    # Traceback" of what the worker raised, DefaultCPUAllocator's "can't allocate memory": the caught one is the cause
    ("arcgis_learn_dataloader_defaultcpuallocator.log", "system-ram", None),
    # swar/Swar-Chia-Plot-Manager#323: Microsoft's C runtime words ENOMEM "[Errno 12] Not enough space" (no disk)
    ("swar_chia_execv_errno12_not_enough_space.log", "system-ram", None),
    # kevalnagda/plant-disease-detection#2: pickle's "MemoryError: " with no message
    ("plant_disease_rpi_pickle_memoryerror.log", "system-ram", None),
    # carson-katri/dream-textures#221: a Blender add-on's "Error: MemoryError()", Python's MemoryError as its repr shows it
    ("dream_textures_intel_hd_memoryerror.log", "system-ram", None),
    # nextcloud/recognize#86: V8's "RangeError: Array buffer allocation failed" loading a model on a Raspberry Pi
    ("nextcloud_recognize_array_buffer_allocation_failed.log", "system-ram", None),
    # kosukeimai/wru#21, PoisonAlien/maftools#613: R's "Error: cannot allocate vector of size 3.2 Mb", "Error: vector
    # memory exhausted (limit reached?)"
    ("r_wru_predict_race_cannot_allocate_3_2mb.log", "system-ram", None),
    ("r_maftools_read_maf_vector_memory_exhausted.log", "system-ram", None),
    # flimfit/FLIMfit#380, cortex-lab/Suite2P#172: MATLAB's "Out of memory. Type HELP MEMORY for your options.",
    # "Requested 1024x1024x16800 (131.3GB) array exceeds maximum array size preference."
    ("matlab_flimfit_out_of_memory_fit.log", "system-ram", None),
    ("matlab_suite2p_array_exceeds_max_size_preference.log", "system-ram", None),
    # huggingface/transformers.js#953: WebAssembly's "[wasm] RangeError: Out of memory" on an iPhone
    ("transformersjs_ios_safari_no_backend_wasm_out_of_memory.log", "system-ram", None),
    # nodejs/node-gyp#985, shogo82148/actions-setup-mysql#111: MSVC's "fatal error C1060: compiler is out of heap
    # space", "LINK : fatal error LNK1102: out of memory"
    ("nodegyp_c1060_out_of_heap_space.log", "system-ram", None),
    ("mysql_ci_lnk1102_out_of_memory.log", "system-ram", None),
    # nshou/elasticsearch-kibana#1: "There is insufficient memory for the Java Runtime Environment to continue." (its
    # mmap refused, errno 12: not its heap)
    ("elasticsearch_kibana_docker_logs_insufficient_memory_jre.log", "system-ram", None),
    # CitiesSkylinesMods/TMPE#356: Unity's "DynamicHeapAllocator out of memory - Could not get memory for large
    # allocation"; carla-simulator/carla#3338: Unreal's "Ran out of memory allocating 1073807360 bytes with alignment"
    ("cities_skylines_dynamicheapallocator_out_of_memory.log", "system-ram", None),
    ("carla_docker_build_ue4_ran_out_of_memory.log", "system-ram", None),
    # omniosorg/pkg5#288: "pkg: There is not enough memory to complete the requested operation."
    ("pkg5_not_enough_memory_virtual.log", "system-ram", None),
    # PaddlePaddle/PaddleOCR#2199: "ResourceExhaustedError: Fail to alloc memory of 564023296 size, error code is 12."
    ("paddleocr_predict_system_cpu_fail_alloc_564mb.log", "system-ram", None),
    # -- full disks and /dev/shm
    # DLR-RM/BlenderProc#286: numpy's "OSError: Not enough free space to write 292626432 bytes" into /dev/shm
    ("blenderproc_dev_shm_not_enough_free_space.log", "disk", None),
    # pytorch/pytorch#16979: an old torch's "DataLoader worker (pid 125) is killed by signal: Bus error." in a pod
    ("pytorch_dataloader_shm_bus_error_kubernetes.log", "disk", None),
    # NVIDIA/flownet2-pytorch#43: an old torch's "unable to write to file </torch_...> at .../THAllocator.c:271"
    ("flownet2_docker_torch_shm_write_fail.log", "disk", None),
    # video-diffusion-speedrun#2: NCCL's "Error while creating shared memory segment /dev/shm/nccl-pZafXL ..."
    ("nccl_shm_segment_docker_oneline.log", "disk", None),
    # deviantony/docker-elk#219, rwynn/monstache#610: Elasticsearch's "flood stage disk watermark [95%] exceeded", a
    # write refused by the "read-only-allow-delete block" it sets
    ("elasticsearch_docker_elk_flood_stage_disk_watermark.log", "disk", None),
    ("monstache_es_bulk_flood_stage_read_only_block.log", "disk", None),
    # PaddlePaddle/Paddle#25211: its DataLoader's "It may be caused by insufficient shared storage space" (/dev/shm)
    ("paddle_dygraph_dataloader_shm_bus_error.log", "disk", None),
    # -- Windows' commit limit as tools print it; their codes, API names and runtimes are no node's class
    # graalvm/setup-graalvm#66: MSVC's "LNK1171: unable to load mspdbcore.dll (error code: 1455)"
    ("setup_graalvm_lnk1171_mspdbcore_1455.log", "commit-limit", None),
    # influxdata/influxdb#8229: "ThreadSanitizer failed to allocate 0x80000 (524288) bytes ... (error code: 1455)"
    ("influxdb_threadsanitizer_1455_appveyor.log", "commit-limit", None),
    # brimdata/zui#3022: Go's "VirtualAlloc of bytes failed with errno=1455"
    ("zui_virtualalloc_errno_1455.log", "commit-limit", None),
    # actions/runner-images#785: "OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(...) failed; error='The
    # paging file is too small ...'"
    ("runner_images_graalvm_commit_memory_oneline.log", "commit-limit", None),
    # -- 2026-12-05's rounds (ew to fk)
    # Nerogar/OneTrainer: torch's CUDA OOM under frames the poster elided ("  ... (recursive _apply calls) ...")
    ("onetrainer_flux_lora_oom_transformer_to.log", "vram", None),
    # PyCUDA's "MemoryError: cuMemAlloc failed: out of memory" (cryoSPARC); CuPy's "out of memory to allocate 205520896
    # bytes (total 16068929536 bytes)" on Chainer's "Exception in main training loop: " line
    ("cryosparc_pycuda_cumemalloc_out_of_memory_box_size.log", "vram", None),
    ("chainer_cupy5_py27_resnet_out_of_memory_to_allocate.log", "vram", None),
    # whisper-jax: XLA's allocator "Allocator (GPU_0_bfc) ran out of memory trying to allocate 5.0KiB" and its map, then
    # a notebook's XlaRuntimeError cut before its message
    ("whisper-jax_bfc-allocator_oom_large-v2.log", "vram", None),
    # torch-directml's "DML allocator out of memory!" (AUTOMATIC1111's DirectML fork); chaiNNer's "A VRAM
    # out-of-memory error has occurred."
    ("sdwebui-directml_dml_allocator_oom_after_sampling.log", "vram", None),
    ("chainner_pytorch_upscale_vram_oom_popup_amd.log", "vram", None),
    # pandas in a notebook: IPython's "MemoryError   Traceback (most recent call last)", its message cut
    ("pandas_read_csv_memoryerror_python_32bit.log", "system-ram", None),
    # gsplat's "Setting up CUDA (This may take a few minutes the first time)Killed"; a Tauri app's "Command exited with
    # signal: Some(9)"; Hadoop YARN's "is running ... beyond the 'VIRTUAL' memory limit"
    ("nerfstudio_gsplat_jit_setup_cuda_killed.log", "system-ram", "killed"),
    ("indextts-studio_cpu_signal-9.log", "system-ram", "killed"),
    ("tony_yarn_container_beyond_virtual_memory_limit.log", "cgroup-limit", "cgroup-kill"),
    # -- the rounds of 2026-12-06 (fl to fx)
    # vllm-project/vllm#2669: Ray's memory monitor, "... which exceeds the memory usage threshold of 0.95. Ray killed
    # this worker"; hakavlad/nohang#85: "Send SIGKILL to the victim"; systemd/systemd#32304: an older systemd-oomd's
    # "Killed /user.slice/..." under its candidates (a French journal)
    ("vllm_ray_worker_oom_asyncengine.log", "system-ram", "memory-kill"),
    ("nohang_desktop_sigkill_python_victim.log", "system-ram", "memory-kill"),
    ("systemd_oomd_killed_tmux_slack.log", "system-ram", "memory-kill"),
    # chenxie95/deeplearning_course_sjtu#20: slurmstepd's "Detected 1 oom-kill event(s) ... cgroup out-of-memory
    # handler" under the DataLoader's error, its own line (not more of that error's message)
    ("sjtu_dlcourse_image_caption_slurm_oom_kill_dataloader.log", "cgroup-limit", "cgroup-kill"),
    # systemd/systemd#36434: the kernel's "kswapd0: page allocation failure: order:0"; alicevision/AliceVision#920:
    # "Abnormal program termination: memory exhausted"
    ("systemd_oomd_not_triggered_kswapd_alloc_failure.log", "system-ram", None),
    ("alicevision_texturing_memory_exhausted.log", "system-ram", None),
    # ultralytics/ultralytics#1451: the excerpt cut inside "torch.cuda.OutOfMemoryErro"; deepspeedai/DeepSpeed#3869: the
    # OOM above the launcher's "sigkill_handler ... exits with return code = 1"; jjang-ai/vmlx#58: MLX's "[METAL] Command
    # buffer execution failed: Insufficient Memory"
    ("ultralytics_autobatch_281_rtx4090_cuda_oom.log", "vram", None),
    ("deepspeed_bloom-zero-inference-gtx1650_cuda-oom.log", "vram", None),
    ("vmlx_qwen35_35b_metal_insufficient_memory.log", "vram", None),
    # NVlabs/stylegan3#163: spawned workers' tracebacks interleaved, the first headless, a later "[WinError 1455]"
    ("stylegan3_train_memoryerror_winerror1455.log", "commit-limit", None),
    # millerscout/Kenshi-Mod-Manager#1834: Windows' full disk in Japanese ("ディスクに十分な空き領域がありません。")
    ("kenshi-mod-manager_savemodlist_disk-full_ja.log", "disk", None),
    # -- the later rounds of 2026-12-06 (gd to go)
    # QwenLM/Qwen-Image#77, Qwen-Image-Layered#13: the shell's "Killed" (已杀死) a terminal put between two progress
    # bars it redrew, over the next one's start ("16.52s/itKilledng checkpoint shards:  78%|"); PINTO0309/
    # openvino2tensorflow: a job's report with its process number alone ("70361 Killed                  openvino2...")
    ("qwen-image_edit_killed_loading_pipeline.log", "system-ram", "killed"),
    ("qwen-image-layered_killed_loading_pipeline.log", "system-ram", "killed"),
    ("openvino2tensorflow_vgg16_killed.log", "system-ram", "killed"),
    # OpenRLHF: only the tail of Ray's kill kept ("Refer to the documentation on how to address the out of memory
    # issue: https://docs.ray.io/.../ray-oom-prevention.html"), each line behind Ray's "(ActorModelRayActor pid=8249) "
    ("openrlhf_ray-oom_referencemodel-actor.log", "system-ram", "memory-kill"),
    # google-deepmind/alphafold#149: XLA's older "Resource exhausted: Out of memory while trying to allocate";
    # intel/ipex-llm: the 4 GB block limit, for 40 GiB on a 15 GiB card (the card's memory, whatever the limit);
    # GPUOpen's RPR for Blender: "RIF_ERROR_OUT_OF_VIDEO_MEMORY"; Unturned's Unity server: "System out of memory!"
    ("alphafold_unified-memory_38gib-docker.log", "vram", None),
    ("ipex-llm_vllm_4xa770_alloc_larger_than_4gb.log", "vram", None),
    ("rpr-blender_rif_out_of_video_memory_denoise.log", "vram", None),
    ("unity-unturned_server_physics_alloc_out_of_memory.log", "system-ram", None),
    # DeepSpeech: TensorFlow's "Resource exhausted: <the checkpoint's path>" (ENOSPC), its reason cut; Hugging Face
    # Spaces' "Workload Evicted, Storage Limit Exceeded (50G)"
    ("deepspeech_checkpoint_tempstate_resource_exhausted.log", "disk", None),
    # AaronJny/lotto#2: the op's "Resource exhausted: ...; No space left on device" above a chained traceback whose
    # first exception is TensorFlow's internal _FallbackException and whose last the paste cut off
    ("lotto_save_weights_no_space.log", "disk", None),
    ("hf-spaces_workload-evicted_storage-50g.log", "disk", None),
    # microsoft/tensorflow-directml#294: "Allocator (DmlAllocator) ran out of memory trying to allocate 5.49MiB";
    # NVIDIA/TensorRT#749: "GPU memory allocation error during getBestTactic"; microsoft/onnxruntime: nvcc's front end,
    # "catastrophic error : out of memory" compiling CUTLASS (the build machine's memory)
    ("tensorflow-directml_dmlallocator_oom_rtx2080.log", "vram", None),
    ("tensorrt_getbesttactic_gpu_alloc_error_p40.log", "vram", None),
    ("onnxruntime_build_windows_cutlass_catastrophic_oom.log", "system-ram", None),
    # -- the rounds of 2026-12-06 (gt to he)
    # vladmandic/sdnext: its log file's "ERROR  sd  errors  Processing: OutOfMemoryError" (torch's exception named in
    # place of its message); tinygrad on OpenCL: PyOpenCL's "MemoryError: clEnqueueMapBuffer failed:
    # MEM_OBJECT_ALLOCATION_FAILURE" (the device's buffer); stable-diffusion-burn: wgpu's panic, its message over
    # several lines and its causes after a blank one ("Caused by:" ... "Not enough memory left")
    ("sdnext_sdxl_img2img_batch4_oom_retries_hang.log", "vram", None),
    ("tinygrad_opencl_cifar_mem_object_alloc_failure.log", "vram", None),
    ("sd-burn_wgpu_create_buffer_notenoughmemory.log", "vram", None),
    # ComfyUI's JoyCaption nodes: accelerate's "You can't move a model that has some modules offloaded to cpu or disk",
    # under "Some parameters are on the meta device because they were offloaded to the cpu" (the model did not fit)
    ("joycaption-alpha-two_offloaded-to-cpu_cant-move.log", "vram", None),
    # -- the rounds of 2026-12-06 (hf to hm)
    # vLLM's KV cache refusal as olmOCR's reporter shortened it ("1.75 GiB KV cache is needed, available 0.13 GiB")
    ("olmocr_vllm_kv_cache_needed_4090.log", "vram", None),
    # -- the rounds of 2026-12-06 (hv to ik)
    # the GPU's memory refused in a library's own words: NVIDIA DALI's "Can't allocate 129499136 bytes on device 0."
    # (NVIDIA/DALI#1137), Faiss' "Failed to cudaMalloc 16000000000 bytes" (facebookresearch/faiss#648), NCCL's "NCCL
    # WARN Cuda failure 'out of memory'" (NVIDIA/TensorRT-LLM#1670) and "Failed to CUDA calloc 536870912 bytes"
    # (NVIDIA/nccl#2363), RMM's pool on the GPU, "Maximum pool size exceeded" under std::bad_alloc (rapidsai/cugraph#2769)
    ("dali_imagedecoder_cant-allocate-device.log", "vram", None),
    ("faiss_gpuindexflat_add_16gb_aborted.log", "vram", None),
    ("tensorrt-llm_triton-8xv100_nccl-cuda-oom.log", "vram", None),
    ("nccl_singleton-group_net-p2p-buffer-calloc.log", "vram", None),
    ("cugraph_from_edgelist_rmm_pool_exceeded.log", "vram", None),
    # the host's: a DataLoader kill as a paste retyped it ("worker(pid xxxxx) is killed by signal:killed",
    # NVlabs/GroupViT#12), Arrow's "realloc of size 2172846080 failed" (rom1504/img2dataset#443), Ray's memory monitor
    # ("More than 95% of the memory on node Local is used", ray-project/ray#4877), GDAL's "cannot allocate
    # 1x2119895040 bytes" (Circuitscape/Omniscape.jl#39), Go's "fatal error: runtime: out of memory"
    # (photoprism/photoprism#421)
    ("groupvit_dataloader-worker-killed_webdataset.log", "system-ram", None),
    ("img2dataset_arrowmemoryerror_realloc.log", "system-ram", None),
    ("ray_rllib_impala_raymemoryerror_16gb.log", "system-ram", None),
    ("omniscape_archgdal_memdataset_cannot_allocate.log", "system-ram", None),
    ("photoprism_indexing_fatal_out_of_memory.log", "system-ram", None),
    # GDAL's own check before it writes: "Free disk space available is 6349627392 bytes, whereas 50606296192 are at
    # least necessary" (pulibrary/figgy#7142)
    ("figgy_gdalwarp_free_disk_space_check.log", "disk", None),
    # the kernel's report of a memory cgroup at its OOM: "memory+swap: usage 117964800kB, limit 117964800kB" alone
    # (chaoyi-wu/RadFM#30), "memory: usage 6291460kB, limit 6291456kB" and "Memory cgroup stats for
    # /system.slice/docker-....scope" (blakeblackshear/frigate#8913), and beside "ffmpeg invoked oom-killer" (#5375)
    ("radfm_ddp-test_cgroup-memsw-limit.log", "cgroup-limit", "cgroup-kill"),
    ("frigate_docker_memcg_stats_6gb_limit.log", "cgroup-limit", "cgroup-kill"),
    ("frigate_beta7_cgroup_oom_syslog.log", "cgroup-limit", "cgroup-kill"),
    # -- 2026-12-06's rounds (il to je): the GPU's memory in miners', frameworks' and engines' words
    # Lolliedieb/lolMiner-releases#102, trexminer/T-Rex#1122: the Ethash DAG that no longer fits the card
    ("lolminer_insufficient_memory_dag_zombie_1050ti.log", "vram", None),
    ("trex_not_enough_free_memory_dag_conflux_2060.log", "vram", None),
    # cupy/cupy#2537: CuPy's older "Out of memory allocating 25,600,000 bytes (allocated so far: ...)" under Chainer
    ("chainer_cupy_oom_allocated_so_far.log", "vram", None),
    # MindNLP (candle-org/MindAct#1761), mindspore-lab/mindone#820: MindSpore's device allocator, "... alloc size : N
    # is more than total mem size : N" (an Ascend NPU's)
    ("mindnlp_gemma7b_npu_mem_total_exceeded.log", "vram", None),
    ("mindone_opensora_npu_alloc_exceeds_total.log", "vram", None),
    # dmlc/xgboost#6388: Thrust's "parallel_for failed: out of memory" under C++'s terminate
    ("xgboost_dask_gpu_oom_parallel_for_worker.log", "vram", None),
    # lightgbm-org/LightGBM#4480: Boost.Compute's "Memory Object Allocation Failure" (OpenCL's)
    ("lightgbm_gpu_opencl_memory_object_allocation_failure.log", "vram", None),
    # davisking/dlib#2445: dlib's "reason: CUDA Resources could not be allocated" (cuDNN's ALLOC_FAILED)
    ("dlib_cudnn_resources_not_allocated_4k.log", "vram", None),
    # carla-simulator/carla#8575: Unreal Engine's "Out of memory on Vulkan; MemoryTypeIndex=5, AllocSize=1.000MB"
    ("carla_ue5_0.10.0_out_of_memory_on_vulkan_launch.log", "vram", None),
    # NVIDIA/cudf-spark#8240: the RAPIDS Accelerator's "SplitAndRetryOOM: GPU OutOfMemory"
    ("spark-rapids_databricks_nds_gpu_oom_splitandretry.log", "vram", None),
    # apple/ml-stable-diffusion#188: Metal's "Failed to allocate private MTLBuffer for size 2717908992"
    ("ml-stable-diffusion_ipad-controlnet_mtlbuffer-alloc-failed.log", "vram", None),
    # -- kills and limits in other words
    # chombo-discharge#501: a Slurm site's job summary, "Job had an out of memory error.", under its cgroup's kills
    ("chombo-discharge_restart_oom_kill_events.log", "cgroup-limit", "cgroup-kill"),
    # explosion/spaCy#3659: zsh's job report with its process number ("[1]    22539 killed     sudo pip3 install spacy")
    ("spacy_pip_install_killed_2g_server.log", "system-ram", "killed"),
    # cardona/SwiftMistralCoreML#15: Xcode's "... has been killed by the operating system because it is using too much
    # memory." (iOS' kill)
    ("swiftmistralcoreml_iphone15pro_killed-too-much-memory.log", "system-ram", "memory-kill"),
    # THUDM/CogVLM#320: torchrun's root cause, "traceback : Signal 9 (SIGKILL) received by PID 11408"
    ("cogvlm_cogagent_torchrun_sigkill_ram.log", "system-ram", "killed"),
    # -- full disks: a solver's own check (AntaresSimulatorTeam/Antares_Simulator#775: "(probably not enough disk
    # space)"), Kubernetes' eviction of a pod whose emptyDir outgrew its limit (kserve/kserve#3792,
    # kserve/modelmesh-runtime-adapter#48: 'Usage of EmptyDir volume "models-dir" exceeds the limit "1536Mi"')
    ("antares_solver_disk_full_memory_report.log", "disk", None),
    ("kserve_modelmesh_triton_emptydir_evicted.log", "disk", None),
    ("modelmesh_adapter_models_dir_exceeds_limit.log", "disk", None),
    # -- the host's memory in the words of compilers, databases and servers (rounds jf to jy)
    # rust-lang/rustup#2365, #2229: Rust's "memory allocation of 148512752 bytes failed" right after a progress
    # bar's last figure ("ETA: 14smemory allocation of ..."), then "Aborted", on 512 MB boards
    ("rustup_pizero_unpack_alloc_failed.log", "system-ram", None),
    ("rustup_mips_update_alloc_failed.log", "system-ram", None),
    # phadej/trustee#11: cabal's "The build process was killed (i.e. SIGKILL). The typical reason for this is that
    # there is not enough memory available"; yuin/goldmark#159: go build's ".../compile: signal: killed"
    ("cabal_trustee_ghc_sigkill.log", "system-ram", None),
    ("goldmark_go_build_compile_signal_killed.log", "system-ram", "killed"),
    # swapmyvote/swapmyvote#996: PostgreSQL's "out of memory DETAIL:  Failed on request of size 2048" (palloc);
    # deepseek-ai/smallpond#2: DuckDB's "Out of Memory Error: could not allocate block of size 2.0 GiB"
    ("swapmyvote_pg_outofmemory_request_size_2048.log", "system-ram", None),
    ("smallpond_duckdb_ray_out_of_memory_2gib_block.log", "system-ram", None),
    # syncthing/syncthing#6981: Go's runtime, "fatal error: out of memory" (a NAS' 32-bit ARM); libvips/pyvips#395:
    # "vips_tracked: out of memory --- size == 26784MB"; duplicati/duplicati#4481: .NET's "Insufficient memory to
    # continue the execution of the program."
    ("syncthing_qnap_armv7_panic_grep_out_of_memory.log", "system-ram", None),
    ("pyvips_dzsave_vips_tracked_out_of_memory_26gb.log", "system-ram", None),
    ("duplicati_rpi_docker_insufficient_memory_aggregate.log", "system-ram", None),
    # a program at a memory cap of its own: V8's heap (jonamat/webpack-visualizer-plugin2#2, node-red/node-red#2766),
    # the JVM's heap and direct buffers (TeamAOF/All-of-Fabric-6#143, GemstoneGG/Velocity-CTD#521), ImageMagick's
    # policy (openzim/sotoki#147), Redis' maxmemory (rhubarbgroup/redis-cache#530), ClickHouse's limit
    # (ClickHouse/ClickHouse#21218), STAR's sorting memory (alexdobin/STAR#870): the system RAM it allowed itself
    ("webpack-visualizer-plugin2_heap_oom_filesystem-cache.log", "system-ram", None),
    ("node-red_heap_oom_socketio_stringify.log", "system-ram", None),
    ("allofabric6_heap_space_exception_ticking_world.log", "system-ram", None),
    ("velocity-ctd_direct_buffer_memory_config_session.log", "system-ram", None),
    ("sotoki_mogrify_cache_resources_exhausted.log", "system-ram", None),
    ("redis-cache_wp_oom_command_not_allowed_maxmemory.log", "system-ram", None),
    ("clickhouse_memory_limit_total_64gib_insert.log", "system-ram", None),
    ("star_not_enough_memory_bam_sorting_400gb.log", "system-ram", None),
    # snakemake/snakemake-executor-plugin-slurm#348: sacct's state column, "OUT_OF_ME+" (OUT_OF_MEMORY cut to ten
    # characters): the job's cgroup
    ("snakemake_slurm_jobstep_sacct_out_of_memory.log", "cgroup-limit", "cgroup-kill"),
    # electron/electron#36614: render-process-gone's details, "exitCode: -536870904, reason: oom": the window's
    ("electron_renderer_oom_exitcode.log", "system-ram", "window-oom"),
    # deepfakes/faceswap#973: its trainer's "You do not have enough GPU memory available to train the selected model";
    # ggml-org/llama.cpp#6987: Metal's "command buffer 6 failed with status 5", then "out of memory"
    ("faceswap_jetson_nano_not_enough_gpu_memory.log", "vram", None),
    ("llama.cpp_metal_status5_out-of-memory-msg.log", "vram", None),
    # -- the rounds of 2026-12-06's last session (jz to kg): PHP, R and Julia, web servers, browsers, slicers,
    # brokers, mobile builds, chip design
    # PHP's memory_limit: "Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes)" in
    # Composer (overtrue/easy-sms#257), Nextcloud's occ (nextcloud/server#8642), Psalm (psalm/psalm-vscode-plugin#191)
    ("composer_easy-sms_memory_solver.log", "system-ram", None),
    ("nextcloud_occ_memory_files-scan-128m.log", "system-ram", None),
    ("psalm-vscode_language-server_memory_512m.log", "system-ram", None),
    # V8's heap in a worker's stack, its fatal handler's frame "node::OOMErrorHandler" above "Error: Worker exited
    # unexpectedly" (facebook/astryx#1387)
    ("vitest_astryx_worker_oom_exited.log", "system-ram", None),
    # the Kotlin daemon's heap (damontecres/Wholphin#1237: "Not enough memory to run compilation. Try to increase it via
    # 'gradle.properties'"), Gradle's "java.lang.OutOfMemoryError (no error message)" (schwabe/ics-openvpn#1637), the
    # JVM's heap under a later Kotlin error (expo/expo#30413)
    ("wholphin_kotlin_not-enough-memory_compile.log", "system-ram", None),
    ("ics-openvpn_gradle_package-outofmemoryerror.log", "system-ram", None),
    ("expo_eas-local_gradle-java-heap-space.log", "system-ram", None),
    # Julia's "OutOfMemoryError()" in a 32-bit CI job (vtjeng/MIPVerify.jl#97); Bambu Studio's dialog "BambuStudio will
    # terminate because of running out of memory" (bambulab/BambuStudio#10899)
    ("mipverify-jl_julia_outofmemoryerror_x86_ci.log", "system-ram", None),
    ("bambustudio_fatal-error_out-of-memory-popup-loop.log", "system-ram", None),
    # full disks: Composer's "possibly out of free disk space" and "The disk hosting ... is full"
    # (grokability/snipe-it#6177), the Android emulator's "Not enough space to create userdata partition"
    # (google/android-emulator-container-scripts#215, ionic-team/native-run#52), Chromium's /dev/shm ("Less than 64MB of
    # free space in temporary directory for shared memory files: 0", rust-headless-chrome/rust-headless-chrome#426)
    ("snipe-it_composer_disk_full.log", "disk", None),
    ("emulator-container_userdata-partition_no-space.log", "disk", None),
    ("native-run_emulator_userdata-no-space.log", "disk", None),
    ("rust-headless-chrome_tmp_shm_free_space_zero.log", "disk", None),
    # -- and kh to ko: embedded builds, search engines, VMs, serverless, packaging, phones, audio, visualization
    # caps of their own: Android's ART heap ("Failed to allocate a 4792046832 byte allocation with 2097152 free bytes and
    # 253MB until OOM, target footprint ..., growth limit 268435456", bumptech/glide, facebook/fresco), iOS' limit on an
    # app ("EXC_RESOURCE -> NotificationServiceExtension[478] exceeded mem limit: ActiveHard 24 MB (fatal)",
    # nextcloud/talk-ios#1223; "EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded)",
    # yangKJ/Harbeth#33), ImageJ's ("<All available memory (247MB) has been> <used ...>", nolanlab/CODEX#59)
    ("glide_oom_executor_60byte.log", "system-ram", None),
    ("talk-ios_nse_exc_resource_24mb.log", "system-ram", None),
    ("harbeth_demo_exc_resource_high_watermark.log", "system-ram", None),
    ("codex_imagej_out-of-memory_247mb.log", "system-ram", None),
    # libiberty's line alone at the top ("out of memory allocating 5611 bytes after a total of 790239176 bytes", gcc's
    # genautomata: coolsnowwolf/lede#6368); VAPOR's "Not enough GPU RAM free (3686MB free, need at least 4122MB)"
    # (NCAR/VAPOR#3236)
    ("lede_vultr_genautomata_out_of_memory_allocating.log", "system-ram", None),
    ("vapor_volume-render_not-enough-gpu-ram.log", "vram", None),
    # BitBake's disk monitor: "No new tasks can be executed since the disk space monitor action is "STOPTASKS"!"
    # (qualcomm-linux/meta-qcom#1846)
    ("meta-qcom_diskmon_halt_nightly.log", "disk", None),
    # -- and kp to kw: game servers, security tools, Java servers, Bun and Deno, Windows tools, pipelines, editors,
    # chemistry. The host's memory in Bun's words ("oh no: Bun has ran out of memory.", oven-sh/bun#14781), GPU4PySCF's
    # ("RuntimeError: Out of CPU memory", pyscf/gpu4pyscf#235), Valve's tier0 ("***** OUT OF MEMORY! attempted allocation
    # size: 147962298 ****", CM2Walki/steamcmd#10); Psi4's own budget ("Error in: dpd_block_matrix: No memory left.",
    # psi4/psi4#2913)
    ("bun_oom_windows_aws-task.log", "system-ram", None),
    ("gpu4pyscf_df_out_of_cpu_memory_cderi.log", "system-ram", None),
    ("cm2walki-steamcmd_out-of-memory_memstd_1g-vps.log", "system-ram", None),
    ("psi4_ccsdt_dpd_block_matrix_no_memory_left.log", "system-ram", None),
    # SteamCMD's "Error! App '556450' state is 0x202 after update job." (0x202: no room on the disk;
    # jammsen/docker-the-forest-dedicated-server#33)
    ("the-forest-dedicated-server_steamcmd_0x202_wine-c0000135.log", "disk", None),
    # -- and kx to li: quantum simulators, GIS, document builds, media servers, Kubernetes, functional languages,
    # trading bots, IDEs, mail and chat servers, CI runners, blockchain nodes, scanners. The host's memory in GHC's
    # runtime's words ("ghc: out of memory (requested 1048576 bytes)", brendanhay/gogol#5; pandoc's, jgm/pandoc#2648) and
    # Hyper-V's ("Not enough memory in the system to start the virtual machine minikube", kubernetes/minikube#7552); a
    # C++ terminate naming a GPU library's ("what():  [custatevec] %out of memory in addQubitsToState",
    # NVIDIA/cuda-quantum#1884)
    ("ghc_stack_gogol_compute_out_of_memory.log", "system-ram", None),
    ("pandoc_mediawiki_plain_out_of_memory_request.log", "system-ram", None),
    ("minikube_hyperv_not_enough_memory_start_vm.log", "system-ram", None),
    ("cudaq_custatevec_oom_addqubitstostate_34_qubits.log", "vram", None),
    # the disk: df's row at 100 % (bigbluebutton/bigbluebutton#11185, a tmpfs; aws-samples/aws-scalable-big-blue-button-
    # example#66; Mailu/Mailu#2520, among snaps' images, always full); etcd's quota ("etcdserver: mvcc: database space
    # exceeded", etcd-io/etcd#11947); EDQUOT in Node's words ("Unknown system error -122", microsoft/vscode#44729);
    # Bitcoin Core's "Disk space is too low!" (raspibolt/raspibolt#699); GitHub's runner ("You are running out of disk
    # space. The runner will stop working when the machine runs out of disk space.", apache/camel-karaf#534)
    ("bigbluebutton_mongo_ramdisk_tmpfs_full.log", "disk", None),
    ("bbb_aws_appstack_root_disk_100pct.log", "disk", None),
    ("mailu_disk_full_df_clamav.log", "disk", None),
    ("etcdctl_put_mvcc_database_space_exceeded.log", "disk", None),
    ("vscode_extension_install_disk_quota_eqdquot_122.log", "disk", None),
    ("bitcoind_raspibolt_disk_space_too_low_root.log", "disk", None),
    ("github_actions_runner_low_disk_warning_karaf.log", "disk", None),
    # -- and lj to lq: time-series databases, emulators, solvers, desktop apps, document conversion, media managers,
    # proxies, Linux desktops. The host's memory in Fortran codes' own check ("ERROR: Memory allocation failed for OME_E
    # in the routine INIT", firemodels/fds#1266), LAMMPS' ("Failed to reallocate 1650272 bytes for array
    # comm:buf_send", lammps/lammps#3526); the GPU's in NVIDIA's kernel driver ("Failed to allocate NVKMS memory for
    # GEM object", NVIDIA/egl-wayland#185)
    ("fds_init_memory_allocation_failed_mesh_too_big.log", "system-ram", None),
    ("lammps_mvapich_comm_buf_send_realloc_failed.log", "system-ram", None),
    ("kde_wayland_nvidia_egl_nvkms_gem_alloc_vram.log", "vram", None),
    # -- and lr to mg: video editors, dashboards, e-book readers, reverse engineering, point clouds, password managers,
    # Ruby, CAD, NAS systems, renderers, robotics, OCR, app builds, protein models, single-cell omics. The host's memory
    # in MuPDF's "malloc (96707520 bytes) failed" (koreader/koreader#12227), Firefox's and Zotero's console ('[JavaScript
    # Error: "out of memory"]', retorquere/zotero-better-bibtex#2313), PocketBook's "Cannot allocate enough memory for
    # function bmp_alloc" (koreader/koreader#8917), LuaJIT's "./luajit: not enough memory" (koreader/koreader#11215),
    # Leptonica's "pixdata_malloc fail for data" (naptha/tesseract.js#704), a service's and an installer's own checks
    # ("Your system doesn't have enough FREE RAM to run", kevoreilly/CAPEv2#2613; "sqlservr: This program requires a
    # machine with at least 2000 megabytes of memory.", bitwarden/server#1054; "You must have a minimum of 1Gb available
    # memory (RAM+swap)", YunoHost-Apps/discourse_ynh#5); the GPU's in RAPIDS' RMM before 0.19 ("std::bad_alloc: RMM
    # failure at: ...pool_memory_resource.hpp:188: Maximum pool size exceeded.", neka-nat/cupoch#58); the disk below a
    # service's minimum ("Not enough free disk space! (Only 40353 MB!)", kevoreilly/CAPEv2#556)
    ("koreader_kobo_libra_mupdf_malloc_failed.log", "system-ram", None),
    ("zotero_bbt_export_js_out_of_memory_win32.log", "system-ram", None),
    ("koreader_pocketbook740_manga_bmp_alloc_memory.log", "system-ram", None),
    ("koreader_pocketbook_calibre_search_luajit_not_enough_memory.log", "system-ram", None),
    ("tesseractjs_pixdata_malloc_fail_large_image.log", "system-ram", None),
    ("capev2_processor_not_enough_free_ram_journal.log", "system-ram", None),
    ("bitwarden_mssql_requires_2000mb_memory.log", "system-ram", None),
    ("discourse_ynh_install_min_1gb_ram_swap.log", "system-ram", None),
    ("cupoch_occupancygrid_rmm_pool_exceeded.log", "vram", None),
    ("capev2_scheduler_not_enough_free_disk_space.log", "disk", None),
    # (mh to mo) the GPU miners' DAG in Claymore's and ethminer's words ("CUDA error - cannot allocate big buffer for
    # DAG", nicehash/NiceHashMiner#1102; "Creating DAG buffer failed: clCreateBuffer: CL_INVALID_BUFFER_SIZE (-61)",
    # ethereum-mining/ethminer#2069); a Vulkan buffer the device refused (Godot's "Can't create buffer of size:
    # 26357760, error -2.", Praytic/youtd2#273); DuckDB's block it could not pin into its limit ("Out of Memory Error:
    # failed to pin block of size 262144", duckdb/duckdb#6733); MySQL's tmpdir full ("Error writing file '...'
    # (Errcode: 28)", mysqljs/mysql#518; "Temporary file write failure in ALTER TABLE ...",
    # OllieJones/index-wp-mysql-for-speed#52)
    ("claymore_nicehash_gtx1060_3gb_cannot_allocate_dag.log", "vram", None),
    ("ethminer_rx5500xt_4gb_dag_invalid_buffer_size.log", "vram", None),
    ("godot4_game_vulkan_buffer_allocate_error_2_intel_hd4000.log", "vram", None),
    ("duckdb_tpch_q21_two_join_hashtables_oom.log", "system-ram", None),
    ("mysqljs_rds_tmp_errcode28_temp_table.log", "disk", None),
    ("mariadb_wp_index_alter_table_temp_file_write_failure.log", "disk", None),
    # (mp to mw) minikube's check before it starts ("Exiting due to RSRC_INSUFFICIENT_CONTAINER_MEMORY: docker only has
    # 1771MiB available", kubernetes/minikube#16958), R-INLA's ("Reason: Alloc failed / Message: Fail to calloc ...",
    # hrue/r-inla#111), FreeBSD's swap full ("swap_pager_getswapspace(16): failed", msimerson/Mail-Toaster-6#209),
    # ClamAV's write it could not finish ("... please check if there is enough disk space available",
    # bluesentry/bucket-antivirus-function#49), XNA's texture ("Texture2D creation failed! Error Code: Not enough
    # memory resources are available ... (0x8007000E)", ProjectStarlight/StarlightRiver#272)
    ("minikube_start_insufficient_container_memory.log", "system-ram", None),
    ("rinla_gmrflib_alloc_failed_calloc_rw1.log", "system-ram", None),
    ("mailtoaster_freebsd_swap_pager_getswapspace_failed.log", "system-ram", None),
    ("freshclam_lambda_tmp_buildcld_disk_space.log", "disk", None),
    ("tmodloader_starlightriver_texture2d_not_enough_memory.log", "vram", None),
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_programs_words_read_as_what_ran_out(name, kind, ending):
    assert_far_reading(name, kind, ending)


def test_x264s_failed_malloc_is_ram_in_no_vaes_stage():
    # k4yt3x/video2x#1370: "x264 [error]: malloc of size 1688186816 failed", then "Failed to initialize encoder": the
    # host's heap ran out in the video's encoder, no VAE's
    doc = explain_log((LOGS / "video2x_x264_malloc_failed_4x_encoder.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["stage"]) == ("system-ram", None) and doc["suggestions"]


def test_a_title_with_its_qualifier_in_brackets_names_its_node():
    # jags111/efficiency-nodes-comfyui#247: the dialog's title "KSampler (Efficient)" above its CUDA error
    doc = explain_log((LOGS / "efficiency_ksampler-hires_cuda-invalid-configuration.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("other", "KSampler (Efficient)")
    # a report's heading with words in brackets is no node ("Translated Report (Full Report Below)", macOS')
    doc = explain_log((LOGS / "komac_macos_zsh_killed_code_signature_report.log").read_bytes())
    assert doc["failure"]["node"]["class_type"] is None


def test_a_titles_words_joined_by_underscores_name_its_node_and_a_copy_without_code_marks_is_one_failure():
    # ai-dock/comfyui#132: the dialog's title "Joy_caption_two" (one capital, words joined by "_") above its message
    doc = explain_log((LOGS / "aidock-comfyui_joycaption2_triton-ops_missing.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("other", "Joy_caption_two")
    # huggingface/transformers#38717: the dialog's copy of the report's message, its leading "`" lost, is the same
    # failure: the report's node id stays
    doc = explain_log((LOGS / "transformers38717_bnb_to_not_supported_report.log").read_bytes())
    assert (doc["failure"]["node"]["class_type"], doc["failure"]["node"]["id"]) == ("Joy_caption_two_advanced", "64")


def test_a_layerstyle_nodes_whole_name_is_its_class():
    # chflame163/ComfyUI_LayerStyle (round gq): the old dialog on one line, "Error occurred when executing LayerMask:
    # RmBgUltra V2: [Errno 2] ..." - the pack's category and the node's name, then the error
    doc = explain_log((LOGS / "layerstyle_rmbgultrav2_missing_model_pth.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("other", "LayerMask: RmBgUltra V2")
    assert doc["failure"]["message"].startswith("[Errno 2] No such file or directory")


def test_stable_diffusion_cpps_decode_is_told_to_tile():
    # leejet/stable-diffusion.cpp#1621 (round fz): "decoding 1 latents", then ROCm's out of memory in the VAE's compute
    # buffer: the line before says it was decoding
    doc = explain_log((LOGS / "sd-cpp_rocm_oom_vae_decode_flux.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["stage"]) == ("vram", "vae-decode")
    assert doc["suggestions"][0]["id"] == "tiled-decode"


def test_macos_killed_9_gets_macos_advice():
    # invoke-ai/InvokeAI#2283: "invoke.sh: line 24: 10946 Killed: 9  .venv/bin/python ..." on an 8 GB M1 (macOS' bash
    # names the signal's number): no journalctl, no swap file to add
    doc = explain_log((LOGS / "invokeai_mac_m1_killed_9.log").read_bytes())
    assert doc["failure"]["kind"] == "system-ram" and doc["machine"]["os"] == "macOS"
    advice = doc["suggestions"][0]["try"]
    assert "memorystatus" in advice and "journalctl" not in advice and "swap file" not in advice


def test_a_downloads_finished_bar_is_no_samplers():
    # Blaizzy/mlx-vlm (the corpus' mlxvlm_qwen2vl_72b_metal_buffer_abort.log): Hugging Face's "Fetching 25 files: 100%"
    # above MLX's refused buffer: nothing sampled, so no decode to tile
    doc = explain_log((LOGS / "mlxvlm_qwen2vl_72b_metal_buffer_abort.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"][0]["id"] == "smaller-step"


def test_postgresqls_dev_shm_full_is_told_to_grow_it_and_its_shmget_is_no_disk():
    # aboutcode-org/vulnerablecode#1897: "could not resize shared memory segment ... No space left on device" in a
    # container's 64 MB /dev/shm; yandex-qatools/postgresql-embedded#157: shmget's ENOSPC, whose hint says it "does
    # *not* mean that you have run out of disk space"
    doc = explain_log((LOGS / "vulnerablecode_pg_resize_shm_segment_enospc.log").read_bytes())
    assert doc["failure"]["kind"] == "disk" and doc["suggestions"][0]["id"] == "grow-shared-memory"
    doc = explain_log((LOGS / "postgresql-embedded_macos_shmget_enospc.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and not doc["suggestions"]


def test_a_forecast_of_memory_running_out_is_none():
    # 0cc4m/KoboldAI: "Lazyloader failed, falling back to stock HF load. You may run out of RAM here."; the error
    # that follows it (a missing shard) is the failure
    assert explain_log("INFO | Loading model\nYou may run out of RAM here.\n")["failure"] is None
    doc = explain_log((LOGS / "koboldai-0cc4m_lazyloader_failed_may_run_out_of_ram_missing_file.log").read_bytes())
    assert doc["failure"]["kind"] == "other"
    # TensorFlow's pinned host allocator is the host's RAM, not the GPU's
    pinned = "W tensorflow/bfc_allocator.cc:485] Allocator (gpu_host_bfc) ran out of memory trying to allocate 2.0GiB\n"
    assert explain_log(pinned)["failure"]["kind"] == "system-ram"


def test_the_size_a_library_was_refused_is_a_fact_of_the_failure():
    # the request each library's own words name becomes the failure's requested size (the judgement weighs it
    # against the device or the machine): DALI's, Faiss', NCCL's, Arrow's, GDAL's
    for name, requested in (
        ("dali_imagedecoder_cant-allocate-device.log", 129499136),
        ("faiss_gpuindexflat_add_16gb_aborted.log", 16000000000),
        ("nccl_singleton-group_net-p2p-buffer-calloc.log", 536870912),
        ("img2dataset_arrowmemoryerror_realloc.log", 2172846080),
        ("omniscape_archgdal_memdataset_cannot_allocate.log", 2119895040),
    ):
        doc = explain_log((LOGS / name).read_bytes())
        assert message_sizes(doc["failure"]["message"]).requested_bytes == requested, name
        if doc["failure"]["kind"] == "vram":  # the first step for the GPU says what was asked of it
            assert f"{fmt_bytes(requested)} requested" in doc["suggestions"][0]["why"], name
