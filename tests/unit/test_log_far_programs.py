"""Logs of programs far from ComfyUI whose failures sit in the same libraries and machines — robotics, data science,
rendering, serving, weather, video, edge devices, Windows tools, distributed training, notebooks, containers, medicine,
self-hosted apps, 3D perception, TensorFlow, Apple silicon, the browser, R and MATLAB, games, compilers, the JVM, LLM
servers, upscalers, GPU computing outside PyTorch, trainers, LLM front-ends, cluster jobs, the operating system's own
killers — as users paste them: the words each prints for memory running out, for a kill, a limit, a full disk, an end,
and what only sounds like one. Held-out rounds cc to go (tests/fixtures/logs/SOURCES.md cites each thread)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

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
    # -- kills, read as the OOM killer's (a container's limit's where the log shows a container)
    # OpenRLHF/OpenRLHF#187: Ray's "Worker unexpectedly exits with a connection error code 2 ... (1) The process is
    # killed by SIGKILL by OOM killer ..." (memory ran out, as in vLLM's thread)
    ("openrlhf_actor_dead_sigkill_docker_500g.log", "system-ram", None),
    # Celery's "WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) ...')" (conda-incubator/conda-store#120);
    # in docker compose's prefixed log (JeffreyCA/spleeter-web#92), its container's limit
    ("conda_store_celery_worker_sigkill_docker_2gb.log", "system-ram", None),
    ("spleeter_web_celery_worker_sigkill_compose.log", "cgroup-limit", None),
    # ollama#9685: Go's "llama runner process has terminated: signal: killed"; livepeer/go-livepeer#230: "Error from
    # ffmpeg: signal: killed"
    ("ollama_jetson_orin_gemma27b_runner_signal_killed.log", "system-ram", "killed"),
    ("livepeer_video_segmenter_ffmpeg_signal_killed.log", "system-ram", "killed"),
    # je-santos/MPLBM-UT#92: MPICH's "BAD TERMINATION ... EXIT CODE: 9"; horovod#469: Open MPI's "exited on signal 9
    # (Killed)."
    ("mplbm_mpi_bad_termination_exit_code_9.log", "system-ram", "killed"),
    ("horovod_mpirun_rank7_signal9_keras.log", "system-ram", "killed"),
    # nextcloud/recognize#26: Symfony's "The process has been signaled with signal "9"."
    ("nextcloud_recognize_classify_signal_9.log", "system-ram", "killed"),
    # sieren/Homepoint#45: gcc's "fatal error: Killed signal terminated program cc1plus" on a Raspberry Pi
    ("rpi_esp_idf_cc1plus_killed.log", "system-ram", None),
    # arrayfire/arrayfire#189: older gcc's "c++: internal compiler error: Killed (program cc1plus)" in a 256 MB VM
    ("arrayfire_vm_256mb_cc1plus_killed.log", "system-ram", None),
    # keras-team/keras#3476: the shell's "Killed" on Keras' progress line ("... - loss: 2.1371Killed"); the thread never
    # found why (disputed: the convention for an unexplained kill)
    ("keras_fit_killed_mid_epoch.log", "system-ram", "killed"),
    # vespa-engine/sample-apps#548: "ERROR: Command 'pip3 install ...' returned code 137" (a CI job's limit, in the
    # thread: disputed)
    ("vespa_pip_returned_code_137_ci.log", "system-ram", "killed"),
    # easydiffusion/easydiffusion#1254: "on_sd_start.sh: line 89: 106100 Killed uvicorn ..." (one line: no paste's
    # break before "Killed" behind the job's number)
    ("easydiffusion_on_sd_start_killed_uvicorn.log", "system-ram", "killed"),
    # pytorch/xla#4863: the signal's name alone, "SIGKILL", as a runner printed it
    ("torch_xla_4863_training_sigkill_host_ram.log", "system-ram", "killed"),
    # DaKanji#7: Android's "lowmemorykiller: Kill 'sh.eliza.pebble.kanji' (25702) ... to free 4223760kB rss"
    ("android_executorch_lowmemorykiller.log", "system-ram", "memory-kill"),
    # abertschi/postcards#36: the kernel's OOM report, its "Free swap = 0kB" under "kernel:"
    ("raspberrypi_kernel_oom_postcards.log", "system-ram", "memory-kill"),
    # ooolabdev/ooosplat#52: macOS' panic report, "... 100% of segments limit (BAD) with 12 swapfiles and LOW swap space"
    ("ooosplat_macos_watchdog_panic_low_swap.log", "system-ram", "memory-kill"),
    # aedocw/epub2tts-chatterbox#20: macOS' kernel, "memorystatus: killing largest compressed process python3.11 [5844] 43350 MB"
    ("epub2tts_chatterbox_macos_memorystatus_kill.log", "system-ram", "memory-kill"),
    # -- the limits of a container, a job, a pod, and what keeps a 137 from them
    # yahoo/TensorFlowOnSpark#134: "Container killed by YARN for exceeding memory limits"
    ("tfos_yarn_container_killed_virtual_memory.log", "cgroup-limit", "cgroup-kill"),
    # catboost/catboost#1814: "slurmstepd: error: Exceeded job memory limit"
    ("catboost_slurm_exceeded_job_memory_limit.log", "cgroup-limit", "cgroup-kill"),
    # NOAA-EMC/global-workflow#1361: slurmstepd's oom-kill event, then "srun: error: h19c54: task 300: Out Of Memory"
    ("gfs_global_workflow_gdasfcst_srun_oom.log", "cgroup-limit", "cgroup-kill"),
    # dask/dask-gateway#139: "Cluster ... stopped unexpectedly: Container stopped with exit code 137"
    ("dask_gateway_scheduler_exit137.log", "cgroup-limit", "killed"),
    # hackingthemarkets/tradekit#2: docker build's "The command '/bin/sh -c pip3 install ...' returned a non-zero code:
    # 137" under pip's "Killed"
    ("docker_compose_pip_torch_killed_137_mac.log", "cgroup-limit", "killed"),
    # kubernetes#19825, coderaiser/cloudcmd#440: docker inspect's "ExitCode": 137 beside "OOMKilled": false;
    # kubernetes#122256: kubectl's "Reason: Error" over "Exit Code: 137": a SIGKILL no memory cgroup sent
    ("docker_inspect_exit137_oomkilled_false.log", "abrupt", "killed"),
    ("cloudcmd_docker_state_exit137_oomkilled_false.log", "abrupt", "killed"),
    ("k8s_pod_exit137_reason_error.log", "abrupt", "killed"),
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
    # -- ends: crashes, and kernels or backends gone
    # LeCAR-Lab/ASAP#35: PhysX's "... : warning : Failed to allocate pinned memory." after its CUDA errors, then a
    # segfault: the warning is no RAM failure, the process crashed
    ("asap_isaacgym_hoi_4000_envs_physx_segfault.log", "abrupt", "crash"),
    # isl-org/Open3D#2109: coredumpctl's "Process 9600 (python) of user 1000 dumped core."
    ("open3d_coredump_sigsegv_journal.log", "abrupt", "crash"),
    # catboost/catboost#491: glibc's Russian "Аварийный останов" (Aborted)
    ("catboost_multiclass_abort_ru.log", "abrupt", "crash"),
    # lmstudio-bug-tracker#1078: "(Exit code: 18446744072635810000)": a negative status read as 64 bits unsigned
    ("lmstudio_failed_to_load_unknown_exit_code.log", "abrupt", "crash"),
    # fluent-ffmpeg#1299: "ffmpeg was killed with signal SIGSEGV": its child crashed
    ("fluent_ffmpeg_docker_killed_sigsegv.log", "abrupt", "crash"),
    # autonomys/space-acres#56: Windows' "Faulting application name: space-acres.exe", whatever app it was
    ("space_acres_faulting_vcruntime_event.log", "abrupt", "crash"),
    # marella/ctransformers#189: "GGML_ASSERT: ...llama.cpp:453: data": ggml aborts
    ("ctransformers_ggml_assert_data.log", "abrupt", "crash"),
    # satijalab/seurat#5601: RStudio's "R Session Aborted / R encountered a fatal error."; gorpipe/gor#5: "Gradle build
    # daemon disappeared unexpectedly"; microsoft/DirectML#503: fish's "terminated by signal SIGSEGV (Address boundary
    # error)"; lmstudio-bug-tracker#285: "(Exit code: 133)", SIGTRAP's status (disputed: Electron's allocator)
    ("r_seurat_findtransferanchors_session_aborted.log", "abrupt", "crash"),
    ("gor_gradle_daemon_disappeared_make_build.log", "abrupt", "crash"),
    ("torch_directml_linux_sigsegv_tensor_to_dml.log", "abrupt", "crash"),
    ("lmstudio_linux_exit_code_133_large_model.log", "abrupt", "crash"),
    # Rudrabha/Wav2Lip#267: Colab's "^C" after "Reading video frames...", nothing of ComfyUI's in the paste: the
    # program was stopped; deepspeedai/DeepSpeed#5302: its launcher's "... exits with return code = 1"
    ("wav2lip_colab_reading_frames_ctrl_c.log", "abrupt", "stopped"),
    ("llamafactory_deepspeed_return_code_1_after_checkpoint.log", "abrupt", "backend-exit"),
    # magenta/midi-ddsp#65, OpenHands/OpenHands#4595: Hugging Face Spaces' "Space failed to start. Exit code: 1", a
    # build's "Job failed with exit code: 143"; basetenlabs/truss#751: "Inference server seems to have crashed, restarting"
    ("hf_space_midi_ddsp_failed_to_start_exit1.log", "abrupt", "backend-exit"),
    ("hf_space_openhands_build_exit_143.log", "abrupt", "backend-exit"),
    ("truss_baseten_inference_server_crashed.log", "abrupt", "backend-exit"),
    # deepspeedai/DeepSpeed-MII#400: its client's "RuntimeError: server crashed for some reason, unable to proceed";
    # deepspeedai/DeepSpeed#4571: its launcher's "[launch.py:315:sigkill_handler] Killing subprocess 1080504"
    ("deepspeed_mii_serve_mixtral_server_crashed.log", "abrupt", "backend-exit"),
    ("deepspeed_zero3_nvme_sigkill_cpu_virtual_memory.log", "abrupt", "backend-exit"),
    # Jupyter's "The kernel for ... appears to have died" (BME1478H/Fall2022class#220), VS Code's "The Kernel crashed
    # while executing code ..." (AammarTufail/...#1), Databricks' "The spark driver has stopped unexpectedly ..."
    # (IIIS-Li-Group/OpenFE#44): the kernel's process ended, cause unsaid
    ("jupyter_kernel_restarting_assignment6_first_cell.log", "abrupt", "backend-exit"),
    ("vscode_canceled_future_kernel_crashed_student.log", "abrupt", "backend-exit"),
    ("databricks_spark_driver_stopped_openfe_n_jobs.log", "abrupt", "backend-exit"),
    # -- errors worded like memory, and errors a crash or a kill followed
    # open-runtimes#330: gunicorn's "WORKER TIMEOUT (pid:17)", then its own "... was sent SIGKILL! Perhaps out of memory?"
    ("open_runtimes_gunicorn_worker_timeout_sigkill.log", "other", None),
    # onnxruntime_backend#203: ONNX Runtime's arena asked for "4547406516732812544" bytes; googlecolab/colabtools#2774:
    # tcmalloc's "large alloc 140113840283648 bytes == (nil)": sizes gone wrong, nothing ran out
    ("triton_onnxruntime_bfc_arena_overflow_size.log", "other", None),
    ("colab_tcmalloc_large_alloc_140tb_bad_alloc.log", "other", None),
    # llama.cpp#1815: Metal's "buffer 'data' size 18300780544 is larger than buffer maximum of 17179869184"
    ("llama_cpp_metal_buffer_larger_than_maximum.log", "other", None),
    # OSGeo/gdal#1761: libtiff's "Failed to allocate memory for ... array (0 elements of 8 bytes each)": an overflow
    ("gdal_translate_sparse_tiled_integer_overflow.log", "other", None),
    # yangxue0827/RotationDetection#56: "CUDA driver version is insufficient for CUDA runtime version" alone
    ("rotationdetection_training_cuda_driver_insufficient_oneliner.log", "other", None),
    # rigaya/NVEnc#439: NVENC's "nvEncOpenEncodeSessionEx: 10 (...)"; joinhive-ai/transcoder#11: its session error
    # first, the ENOMEMs its transcoder reports after it: a GeForce card's session limit, in the threads that quote it
    ("nvencc_open_kernel_module_enc_session_oom.log", "other", None),
    ("livepeer_nvenc_opensession_out_of_memory_session_limit.log", "other", None),
    # meta-pytorch/tnt#858: "Watchdog caught collective operation timeout: WorkNCCL(...) ran for 60033 ms ..."
    ("nccl_watchdog_broadcast_timeout_test_oneline.log", "other", None),
    # cubiq/ComfyUI_InstantID#27: ONNX Runtime's "CUDA_PATH is set but CUDA wasnt able to be loaded"
    ("comfyui_instantid_onnxruntime_cuda_path_not_loaded.log", "other", None),
    # facefusion#248: its work, then "[FACEFUSION.CORE] Merging video failed" as the paste's last line
    ("facefusion_merging_video_failed_enhancer.log", "other", None),
    # KlingAIResearch/LivePortrait#438: ffmpeg's "Invalid buffer size, packet size 65536 < expected frame_size", not
    # Metal's "Invalid buffer size: 5.53 GB"
    ("liveportrait_runpod_second_animation_ram_full.log", "other", None),
    # yuxumin/PoinTr#5, erikwijmans/Pointnet2_PyTorch#74: a CUDA op's "CUDA kernel failed : invalid device function",
    # then the segfault it causes: the error is the failure, not a crash of its own
    ("pointr_kitti_invalid_device_function_segfault.log", "other", None),
    ("pointnet2_pytorch_cls_invalid_device_segfault_zsh.log", "other", None),
    # HPCLab-933/Vina-CUDA#3: "CUDA error at ./inc/cuda/kernel2.cu:596 code=700(cudaErrorIllegalAddress)", then the
    # abort; tensorflow/tensorflow#14111: "could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR", then its abort
    ("vina_cuda_illegal_address_core_dumped.log", "other", None),
    ("tf_cudnn_internal_error_conv_ops_abort.log", "other", None),
    # abetlen/llama-cpp-python#585, ggml-org/llama.cpp#3644: ggml's "not enough space in the scratch memory pool
    # (needed ...)", "... in the buffer (needed ...)", then its segfault or assert: a fixed pool's size, not RAM
    ("llamacpppython_scratch_memory_pool_segfault.log", "other", None),
    ("llamacpp_finetune_ggml_allocr_not_enough_space.log", "other", None),
    # jax-ml/jax#6799: XLA's fatal line ("F .../nvptx_compiler.cc:478] ptxas returned an error ..."), then the abort
    ("jax_6799_ptxas_unsupported_version_abort.log", "other", None),
    # levihsu/OOTDiffusion#205: ZeroGPU's "You have exceeded your GPU quota (46s left vs. 60s requested)", a quota;
    # TencentARC/InstantMesh#76: "subprocess.CalledProcessError:" with its message on the lines below
    ("zerogpu_quota_ootdiffusion_api.log", "other", None),
    ("instantmesh_which_cpp_calledprocesserror.log", "other", None),
    # xinntao/Real-ESRGAN#55: its hint "If you encounter CUDA out of memory, try to set --tile ..." under a shape error;
    # hacksider/Deep-Live-Cam#1338: "Could not locate cublasLt64_10.dll. Please make sure it is in your library path!"
    ("realesrgan_cpu_face_enhance_tensor_size_mismatch.log", "other", None),
    ("deeplivecam_cublaslt64_10_dll_missing.log", "other", None),
    # meco-group/cpp_splines#40: MATLAB asked for "(17179869169.0GB)"; CharlesShang/FastMaskRCNN#129: TensorFlow's
    # "EigenAllocator for GPU ran out of memory when allocating 0": sizes gone wrong, nothing ran out
    ("matlab_splines_mex_bogus_array_size.log", "other", None),
    ("fastmaskrcnn_eigenallocator_allocate_zero_abort.log", "other", None),
    # hessiser/veritas#41, megai2/d912pxy#111: Direct3D's device removed ("The GPU device instance has been suspended.
    # ... (0x887A0005)", "hr = 887A0005"); apple/embedding-atlas#159: WebGPU's "Buffer size (870585948) exceeds the max
    # buffer size limit (536870912)", a limit the page asked for
    ("veritas_plugin_gpu_device_suspended.log", "other", None),
    ("d912pxy_gw2_rendertarget_887a0005.log", "other", None),
    ("embedding_atlas_webgpu_max_buffer_size.log", "other", None),
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
    # SwarmUI's "... failed. AutoRestart ignored as this was an initial launch failure."; an Electron app's "Child process
    # exited with code null and signal SIGTRAP"
    ("stableswarmui_selfstart_initial_launch_failure.log", "abrupt", "backend-exit"),
    ("anythingllm_desktop_native_embedder_worker_sigtrap.log", "abrupt", "crash"),
    # Rust's "memory allocation of 18446744071841293701 bytes failed": a size gone negative (Polars); cuDNN 9's "Unable
    # to load any of {libcudnn_cnn.so.9.1.0, ...}"; FaceFusion's last line "Temporary frames not found"
    ("polars_empty_csv_memory_allocation_18446744071841293701_bytes.log", "other", None),
    ("chatterbox-tts-extended_faster-whisper_cudnn-cnn-missing.log", "other", None),
    ("facefusion_temporary_frames_not_found.log", "other", None),
    # -- no failure
    # ONNX Runtime's warning level ("[W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] ... unable to run CUDA
    # graph"); ALSA's and SDL's lines where there is no sound card, TensorFlow's "Unable to register cuDNN factory ...
    # when one has already been registered"; llama.cpp's "can't use mmap because tensors are not aligned"; a one-line
    # script at the prompt ('python -c "..."'), back at the prompt
    ("funaudiollm_onnxruntime_memcpy_warnings.log", None, None),
    ("hallo_inference_warnings_alsa_before_abrupt_end.log", None, None),
    ("privategpt_llama_cpp_mmap_not_aligned_warning_load.log", None, None),
    ("comfy-aimdo_init_device_cudart_not_found_diag.log", None, None),
    # ray-project/ray#36959: the raylet's "... is over 95% full ... Object creation will fail if spilling is required"
    ("ray_file_system_monitor_tmp_over_95_full_warning.log", None, None),
    # llama-cpp-python#254: "warning: failed to mlock ... Cannot allocate memory" (RLIMIT_MLOCK) and the model loads
    ("llama_cpp_python_mlock_warning_cannot_allocate.log", None, None),
    # pythongosssss/ComfyUI-WD14-Tagger#59: ONNX Runtime's CUDA provider after "EP Error": it fell back and went on
    ("ComfyUI-WD14-Tagger59_onnx_ep_fallback_other.log", None, None),
    # RuiLiFeng/Deep-Generative-Projection#15: TensorFlow's BFC allocator, "... The caller indicates that this is not
    # a failure"; google/lightweight_mmm#23, tensorflow/tensorflow#57103: its warning level ("W .../dso_loader.cc:64]
    # Could not load dynamic library 'cudart64_110.dll'"), then it ran
    ("deep_generative_projection_bfc_not_a_failure_warning.log", None, None),
    ("lightweight_mmm_cudart64_110_not_found_warning.log", None, None),
    ("tf_cudart64_110_missing_warning_exit0.log", None, None),
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
    # ArthurBrussee/brush#500: Rust's panic, "called `Result::unwrap()` on an `Err` value: BufferTooBig(...)", an error;
    # patientx/ComfyUI-Zluda#305: "thread caused non-unwinding panic. aborting.", a crash
    ("brush_cubecl_buffertoobig_11m_splats.log", "other", None),
    ("comfyui-zluda_non_unwinding_panic_abort.log", "abrupt", "crash"),
    # docker/for-win#6933: "The application was unable to start correctly (0xc0000142)"; vladmandic/sdnext#1560: torch's
    # "INTERNAL ASSERT FAILED at" at the end of a wrapped line
    ("docker_wsl_distro_proxy_0xc0000142_popup.log", "other", None),
    ("sdnext_directml_unbox-expects-dml-tensor_controlnet-cpu.log", "other", None),
    # no failure: rfjakob/earlyoom#97's "Could not lock memory - continuing anyway: Cannot allocate memory";
    # patientx/ComfyUI-Zluda#324's git log of an update ("4965c0e2 WAN: Fix cache VRAM leak on error"); unslothai/unsloth#2033's
    # "Using the latest cached version of the dataset since ... couldn't be found on the Hugging Face Hub"
    ("earlyoom_could_not_lock_memory_startup.log", None, None),
    ("comfyui-zluda_comfyui-n_update_git_log_pager_stuck.log", None, None),
    ("unsloth_grpo-startup_two-sloth-banners.log", None, None),
    # h2oai/h2ogpt#1383: "Windows fatal exception: code 0xc0000139" (an entry point not found: it could not start);
    # ollama/ollama#3531, its install script on a Chinese system: "chmod: 无法访问'/usr/share/ollama': 没有那个文件或目录"
    ("h2ogpt_awq_windows_fatal_0xc0000139.log", "other", None),
    ("ollama_install_sh_chmod_missing_dir_zh.log", "other", None),
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
    (
        "verl_vllm063_rope-scaling_assertionerror.log",
        "other",
        None,
    ),  # a bare AssertionError behind "(main_task pid=N) "
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
    # ColabFold's "Not Enough GPU memory?" before any error is a guess; TensorFlow 1's "UnknownError (see above for
    # traceback): ..."; kohya's GUI, its last line's message wrapped onto an indented line after the shell's command
    ("colabfold_ret-check-dnn-nullptr_a100.log", "other", None),
    ("pygta5_cudnn_failed_init_conv2d.log", "other", None),
    ("kohya-ss_winerror126_fbgemm_gui.log", "other", None),
    # no failure: llama.cpp's fit of a model to the devices ("cannot meet free memory target"); InvokeAI without
    # xformers
    ("ollama-intel-arc_uma_fit_offload_1of37.log", None, None),
    ("invokeai_mps_m1_slow_generation_stats.log", None, None),
    # microsoft/tensorflow-directml#294: "Allocator (DmlAllocator) ran out of memory trying to allocate 5.49MiB";
    # NVIDIA/TensorRT#749: "GPU memory allocation error during getBestTactic"; microsoft/onnxruntime: nvcc's front end,
    # "catastrophic error : out of memory" compiling CUTLASS (the build machine's memory); AUTOMATIC1111's launcher,
    # "Couldn't launch python" / "exit code: 9009" (cmd found no python: it could not start)
    ("tensorflow-directml_dmlallocator_oom_rtx2080.log", "vram", None),
    ("tensorrt_getbesttactic_gpu_alloc_error_p40.log", "vram", None),
    ("onnxruntime_build_windows_cutlass_catastrophic_oom.log", "system-ram", None),
    ("forge_launch_exitcode9009_python.log", "other", None),
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
    # Tencent/ncnn: an Android tombstone's "SIGSEGV(SEGV_MAPERR)" above its frames: a crash
    ("ncnn_android_pool_allocator_get_wild_sigsegv.log", "abrupt", "crash"),
    # a pack's "[ERROR] Inference failed:" in capitals inside a prompt (Simple-Qwen3-VL-GGUF); Forge Neo's "Encountered
    # NaN in Latent" under lines padded to the console before their place ("memory_management.py :: INFO")
    ("simple-qwen3vl-gguf_gemma4_failed-to-load.log", "other", None),
    ("forge-neo_krea2_int8_qwen_vae_nan_latent.log", "other", None),
    # kohya's sd-scripts: a warning's path into a Python's "\lib\" cut where the paste ends is no shell's prompt
    ("sd-scripts_flux-lora_prodigy-fp8_training-start.log", None, None),
    # -- the rounds of 2026-12-06 (hf to hm)
    # git typed at a shell's prompt starts nothing that runs on ("...\\custom_nodes>git clone .../ComfyUI-Manager.git"):
    # its "fatal: unable to access" is the paste's failure; cmd's "The filename, directory name, or volume label syntax
    # is incorrect." says so too (Pinokio's install script)
    ("comfyui-manager_git_clone_connection_reset.log", "other", None),
    ("comfyui-pinokio_workflows_clone_syntax.log", "other", None),
    # xformers' traceback of its failed "import triton", under "A matching Triton is not available, some optimizations
    # will not be enabled" (Hallo): it ran on; pypdfium2's "This may cause a memory leak!" at exit (marker): a warning
    ("hallo_windows_slow_run_xformers_triton_warnings.log", None, None),
    ("marker_pypdfium2_cannot_close_object_warning.log", None, None),
    # vLLM's KV cache refusal as olmOCR's reporter shortened it ("1.75 GiB KV cache is needed, available 0.13 GiB")
    ("olmocr_vllm_kv_cache_needed_4090.log", "vram", None),
    # -- the rounds of 2026-12-06 (hn to hu)
    # Python's own warning line, its file before it ("sam2_video_predictor.py:787: UserWarning: cannot import name
    # '_C'"): a warning; llm-compressor's metric named error and its value ("METRIC - error 77.41"): no failure
    ("sam2_cpu-video_c-import-warning.log", None, None),
    ("llm-compressor_gptq_metric_error_normal.log", None, None),
    # llama.cpp's quantizer typed at a prompt, its arguments paths into ComfyUI's models: it launched nothing of
    # ComfyUI's, so its "failed to quantize: unknown model architecture" is the paste's failure
    ("comfyui-gguf_llama-quantize_unknown_arch_flux.log", "other", None),
    # macOS' crash report, its crashed thread's stack ("Thread 0 Crashed:: ..."): a crash (Selene, an Electron app)
    ("selene_electron_onnxruntime-bfcarena_crash-report.log", "abrupt", "crash"),
    # an Emscripten module's uncaught abort ("Uncaught (in promise) abort("Cannot enlarge memory arrays ... instead of
    # this abort ...")"): an error, its "instead" no fallback (WebML's polyfill; a WASM heap's cap, as a JVM's is)
    ("webml-polyfill_wasm_cannot-enlarge-memory-arrays.log", "other", None),
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
    # not memory: OpenBLAS' "you tried to allocate too many memory regions" (its table of thread buffers,
    # autogluon/autogluon#1020), GDAL's "cannot allocate 18446744072761901056 bytes" (an overflow, OSGeo/gdal#2261),
    # an instruction the CPU lacks ("Illegal instruction (core dumped)" then exit code 132, immich-app/immich#151;
    # "Fatal Python error: Illegal instruction" above faulthandler's stack, LibrePhotos/librephotos#1070; zsh's
    # "illegal hardware instruction", zylon-ai/private-gpt#457): an error of the build, not a crash of unknown cause
    ("autogluon_knn_blas_too_many_memory_regions.log", "other", None),
    ("gdal_rasterize_cannot_allocate_overflow.log", "other", None),
    ("immich_microservices_illegal_instruction_noavx.log", "other", None),
    ("librephotos_face_recognition_illegal_instruction.log", "other", None),
    ("privategpt_gptj_illegal_hardware_instruction.log", "other", None),
    # ends: gunicorn's "Worker (pid:258) was sent code 139!" (immich-app/immich#10726), Windows' problem report
    # "Exception Code: c0000005" (nomic-ai/gpt4all#3415), VS Code's Jupyter log "Disposing session as kernel process
    # died" (microsoft/vscode-jupyter#15463)
    ("immich_ml_cuda_worker_code_139.log", "abrupt", "crash"),
    ("gpt4all_chat_exe_crash_on_close_bex64.log", "abrupt", "crash"),
    ("vscode-jupyter_mps_resnet18_kernel-died-exitcode-undefined.log", "abrupt", "backend-exit"),
    # no failure: uvicorn's logger named "uvicorn.error" at the level "[INFO    ]" ("Started server process",
    # zylon-ai/private-gpt#1179); docker's "Your kernel does not support swap limit capabilities ... Memory limited
    # without swap." (infiniflow/ragflow#2378)
    ("privategpt_startup_ok_after_hf_mirror.log", None, None),
    ("ragflow_compose_memory_limited_without_swap.log", None, None),
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_programs_words_read_as_what_ran_out_or_how_it_ended(name, kind, ending):
    doc = explain_log((LOGS / name).read_bytes())
    failure = doc["failure"]
    if kind is None:
        assert failure is None and not doc["suggestions"]
        return
    assert (failure["kind"], failure.get("ending"), failure["node"]["class_type"]) == (kind, ending, None)
    # a memory failure, a full disk and an unexplained end each get a first step; another error none
    assert bool(doc["suggestions"]) == (kind != "other")


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


def test_the_browsers_failed_fetch_is_its_server_gone():
    # chaiNNer's popup, "An unexpected error occurred: TypeError: Failed to fetch", after its backend died upscaling
    # to 8K (chaiNNer-org/chaiNNer#1871); the same words alone in ComfyUI's frontend (Comfy-Org/ComfyUI#8483)
    for name in (
        "chainner_failed_to_fetch_backend_crash_8k_upscale.log",
        "ComfyUI8483_flux_failed_to_fetch_oneline.log",
    ):
        doc = explain_log((LOGS / name).read_bytes())
        assert (doc["failure"]["kind"], doc["failure"]["ending"]) == ("abrupt", "unreachable")
        assert doc["suggestions"][0]["id"] == "find-who-ended-it"


def test_macos_killed_9_gets_macos_advice():
    # invoke-ai/InvokeAI#2283: "invoke.sh: line 24: 10946 Killed: 9  .venv/bin/python ..." on an 8 GB M1 (macOS' bash
    # names the signal's number): no journalctl, no swap file to add
    doc = explain_log((LOGS / "invokeai_mac_m1_killed_9.log").read_bytes())
    assert doc["failure"]["kind"] == "system-ram" and doc["machine"]["os"] == "macOS"
    advice = doc["suggestions"][0]["try"]
    assert "memorystatus" in advice and "journalctl" not in advice and "swap file" not in advice


def test_cudnns_missing_library_is_the_failure_not_the_abort_after_it():
    # ufal/whisper_streaming#119, lenML/Speech-AI-Forge#139: "Could not load library libcudnn_ops_infer.so.8. Error:
    # ... cannot open shared object file", then "Aborted (core dumped)" (in Chinese: "已放弃 (核心已转储)")
    for name in (
        "whisper_streaming_libcudnn_ops_infer_aborted.log",
        "speech_ai_forge_faster_whisper_cudnn_core_dumped_zh.log",
    ):
        doc = explain_log((LOGS / name).read_bytes())
        assert doc["failure"]["kind"] == "other" and "libcudnn" in doc["failure"]["message"]
    # an abort with no such line before it stays a crash
    assert explain_log("Loading model\nAborted (core dumped)\n")["failure"]["kind"] == "abrupt"


def test_a_downloads_finished_bar_is_no_samplers():
    # Blaizzy/mlx-vlm (the corpus' mlxvlm_qwen2vl_72b_metal_buffer_abort.log): Hugging Face's "Fetching 25 files: 100%"
    # above MLX's refused buffer: nothing sampled, so no decode to tile
    doc = explain_log((LOGS / "mlxvlm_qwen2vl_72b_metal_buffer_abort.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"][0]["id"] == "smaller-step"


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
