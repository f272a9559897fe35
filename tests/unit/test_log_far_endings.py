"""Logs of programs far from ComfyUI as users paste them, for how each ended and for what only sounds like memory
running out: kills (the OOM killer's and its kin's, a container's or a job's limit), crashes, kernels and backends
gone, errors worded like memory (a size gone wrong, a program's own limit, an instruction the CPU lacks), and pastes in
which nothing failed. What ran out, in the same programs' words, is in
test_log_far_programs.py. Held-out rounds cc to mg (tests/fixtures/logs/SOURCES.md cites each thread)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, assert_far_reading

from memprobe.logs.explain import explain_log

LOGS = FIXTURES / "logs"

READINGS = [
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
    # -- the limits of a container, a job, a pod, and what keeps a 137 from them
    # kubernetes#19825, coderaiser/cloudcmd#440: docker inspect's "ExitCode": 137 beside "OOMKilled": false;
    # kubernetes#122256: kubectl's "Reason: Error" over "Exit Code: 137": a SIGKILL no memory cgroup sent
    ("docker_inspect_exit137_oomkilled_false.log", "abrupt", "killed"),
    ("cloudcmd_docker_state_exit137_oomkilled_false.log", "abrupt", "killed"),
    ("k8s_pod_exit137_reason_error.log", "abrupt", "killed"),
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
    # verl: a bare AssertionError behind Ray's "(main_task pid=N) "
    ("verl_vllm063_rope-scaling_assertionerror.log", "other", None),
    # ColabFold's "Not Enough GPU memory?" before any error is a guess; TensorFlow 1's "UnknownError (see above for
    # traceback): ..."; kohya's GUI, its last line's message wrapped onto an indented line after the shell's command
    ("colabfold_ret-check-dnn-nullptr_a100.log", "other", None),
    ("pygta5_cudnn_failed_init_conv2d.log", "other", None),
    ("kohya-ss_winerror126_fbgemm_gui.log", "other", None),
    # no failure: llama.cpp's fit of a model to the devices ("cannot meet free memory target"); InvokeAI without
    # xformers
    ("ollama-intel-arc_uma_fit_offload_1of37.log", None, None),
    ("invokeai_mps_m1_slow_generation_stats.log", None, None),
    # AUTOMATIC1111's launcher, "Couldn't launch python" / "exit code: 9009" (cmd found no python: it could not start)
    ("forge_launch_exitcode9009_python.log", "other", None),
    # -- the rounds of 2026-12-06 (gt to he)
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
    # -- the rounds of 2026-12-06 (hv to ik)
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
    # -- 2026-12-06's rounds (il to je): what went on, errors in other programs' words, and how they ended
    # xmrig/xmrig#2090: "failed to allocate RandomX dataset, switching to slow mode" (it mined on); sillsdev/machine.py#58:
    # "Out of memory error, reducing batch size to 8" (it translated on)
    ("xmrig_randomx_dataset_slow_mode_centos_vm.log", None, None),
    ("machine.py_nmt_build_oom_backoff_batch_size.log", None, None),
    # hashcat/hashcat#2592, brichard19/BitCrack#320: OpenCL's CL_OUT_OF_RESOURCES, an error (not memory by itself)
    ("hashcat_clcreatecontext_cl_out_of_resources_960m.log", "other", None),
    ("bitcrack_cl_out_of_resources_geforce210.log", "other", None),
    # AlexeyAB/darknet#7648, #6712, theAIGuysCode/YOLOv4-Cloud-Tutorial#1: darknet's "CUDA Error: invalid argument",
    # then its assert(0): the abort is that error's
    ("darknet_invalid_argument_colab_cfg.log", "other", None),
    ("darknet_no_cuda_device_colab.log", "other", None),
    ("darknet_invalid_argument_zh_locale.log", "other", None),
    # bitsandbytes#912: make's own fatal error, in Chinese ("make: *** 没有规则可以创建目标“cuda12x”。 停止。")
    ("bitsandbytes_make_no_rule_cuda12x_zh.log", "other", None),
    # YuelangX/Gaussian-Head-Avatar#46: pip's box for a build step SIGBUS ended ("│ exit code: -7")
    ("gaussian_head_avatar_dgr_egg_info_exit_minus7.log", "abrupt", "crash"),
    # lammps/lammps#1532: "Failed to allocate -156019200 bytes": a size that overflowed, not memory
    ("lammps_alloc_ncachex_negative.log", "other", None),
    # carla-simulator/carla#6581: Unreal Engine's crash handler ("CommonUnixCrashHandler: Signal=11"); #6355: its
    # Vulkan check "with error VK_ERROR_DEVICE_LOST" four lines above the same handler: the crash is that error's
    ("carla_0.9.14_server_crash_signal11_after_while.log", "abrupt", "crash"),
    ("carla_0.9.14_vk_error_device_lost_collapse.log", "other", None),
    # triton-inference-server/server#6480, #3678: Triton's Python backend, "Stub process is unhealthy" (the process
    # running the model's code died), and a client's error quoting it
    ("triton_python_stub_unhealthy_gke.log", "abrupt", "backend-exit"),
    ("triton_python_stub_not_healthy_detectron_client.log", "abrupt", "backend-exit"),
    # mir-group/pair_nequip#61: glibc's heap checks ("malloc_consolidate(): invalid chunk size"), then SIGABRT
    ("pair-nequip_lammps_malloc-abort_invalid-chunk.log", "abrupt", "crash"),
    # starik222/BooruDatasetTagManager#194: .NET WinForms' "Unhandled exception has occurred in your application";
    # CompVis/stable-diffusion#25: torch's "User specified autocast device_type must be 'cuda' or 'cpu'"
    ("booru-dataset-tag-manager_exit_nullreference_popup.log", "other", None),
    ("lstein-sd_dream_py_mps_autocast_device_type.log", "other", None),
    # -- rounds jf to jy: bazelbuild/rules_rust#2038, envoyproxy/envoy#30146: Bazel's "Server terminated abruptly
    # (error code: 14, ...)", its server gone without a reason
    ("rules_rust_bazel_head_server_terminated_code14.log", "abrupt", "backend-exit"),
    ("envoy_bazel_mac_server_terminated.log", "abrupt", "backend-exit"),
    # home-assistant/core#152123: s6-overlay's "Home Assistant Core finish process received signal 11";
    # NVIDIA/Megatron-LM#1880: torchelastic's "Signal 11 (SIGSEGV) received by PID"
    ("homeassistant_container_exit139_signal11.log", "abrupt", "crash"),
    ("megatron_b200_elastic_summary_signal11.log", "abrupt", "crash"),
    # ildoonet/tf-pose-estimation#538: TensorFlow's BFC allocator "ran out of memory trying to allocate 2.33GiB ... The
    # caller indicates that this is not a failure", alone and without its level: a warning
    ("tf-pose-estimation_tx2_bfc_warning_slow.log", None, None),
    # ggml-org/llama.cpp#8886: Metal's status 5 with its reason, "Ignored (for causing prior/excessive GPU errors)":
    # no memory; yandex-qatools/postgresql-embedded#157: shmget's ENOSPC, no disk (its hint says so)
    ("llama.cpp_metal_submissions-ignored_main-gpu.log", "other", None),
    ("postgresql-embedded_macos_shmget_enospc.log", "other", None),
    # -- rounds jz to kg: uWSGI's master on its worker, "died, killed by signal 7" (unbit/uwsgi#1903): a crash; its own
    # kill after "is taking too much time to die...NO MERCY !!!" (openwrt/packages#8742): the hang, not memory
    ("uwsgi_sigbus_worker-respawn-journal.log", "abrupt", "crash"),
    ("luci_uwsgi_robust-mutex-no-mercy.log", "other", None),
    # flutter/flutter#100193: "LLVM ERROR: out of memory" from Swift 5.6 compiling one pod (a compiler bug)
    ("flutter_ios-archive_llvm-out-of-memory_dkimagepicker.log", "other", None),
    # Chromium starting in a container, "ERROR:bus.cc(393)] Failed to connect to the bus", "Passthrough is not
    # supported, GL is egl", "Failed to adjust OOM score of renderer" (heroku/heroku-buildpack-google-chrome#108,
    # puppeteer/puppeteer#13513, rendora/rendora#37); Jest's "A worker process has failed to exit gracefully and has
    # been force exited" after its tests (stylelint/stylelint#4596): nothing failed
    ("heroku-chrome_dbus_devtools_listening.log", None, None),
    ("puppeteer_docker_amd64_success_run_dbus.log", None, None),
    ("rendora_chrome-headless_oom_score_permission.log", None, None),
    ("jest_stylelint_worker_force_exited_warning.log", None, None),
    # -- and kh to ko: BitBake's "NOTE: Resolving any missing task queue dependencies" in a build that went on
    # (bootlin/training-materials#339); cffi's "MemoryError: Cannot allocate write+execute memory for ffi.callback()"
    # where macOS forbids it (dataabc/weibo-search#241): a policy, no memory
    ("bootlin-training_poky_scarthgap_build_ok.log", None, None),
    ("scrapy_weibo_search_cffi_wx_memoryerror_m1.log", "other", None),
    # JACK's "Cannot lock down 107350048 byte memory area (Cannot allocate memory)": its limit on locked memory, it goes
    # on (monome/norns#1596); the error after it is the failure (falkTX/Cadence#274)
    ("norns_jack_lsp_memlock_warning.log", None, None),
    ("cadence_catia_lockdown_typeerror.log", "other", None),
    # -- and kp to kw: gunicorn's own kill of the workers it timed out ("WORKER TIMEOUT (pid:7296)", then "Worker with
    # pid 7284 was terminated due to signal 9", benoitc/gunicorn#3136): the timeout, not memory
    ("gunicorn_worker_timeout_signal6_signal9.log", "other", None),
    # -- and kx to li: etcd preallocating its WAL where the file system cannot ("wal: failed to allocate space when
    # creating new wal file (operation not supported)", etcd-io/etcd#3335): no disk ran out; a Wasm runtime's allocator at
    # its own bound ("Failed to allocate memory: "Requested allocation size is too large"", paritytech/polkadot#3287);
    # PostgreSQL's request for 18 EB, a length gone negative (diffix/pg_diffix#255); CircleCI's guess ("The build failed
    # because the process exited too early. This probably means the system ran out of memory or someone called `kill -9`",
    # all-of-us/workbench#6133): an end it could not explain
    ("etcd_wal_allocate_space_operation_not_supported.log", "other", None),
    ("polkadot_sync_wasm_allocation_size_too_large.log", "other", None),
    ("pg_diffix_perform_invalid_alloc_request_size.log", "other", None),
    ("circleci_ui_server_process_exited_too_early.log", "abrupt", "backend-exit"),
    # -- and lj to lq: paho-mqtt's "Out of memory", its MQTT_ERR_NOMEM also for a socket's errors and a device's bad
    # credentials (home-assistant/core#6247, GoogleCloudPlatform/python-docs-samples#3472): no memory; METIS asking
    # for 181 TB at once (mfem/mfem#4859's "Requested size: 181419418625296 bytes"); nginx's master on a worker's
    # segfault ("worker process 21539 exited on signal 11", arut/nginx-rtmp-module#470): a crash
    ("homeassistant_paho_mqtt_out_of_memory_socket_error.log", "other", None),
    ("gcp_cloudiot_mqtt_paho_out_of_memory_bad_credentials.log", "other", None),
    ("mfem_superlu_ometis_huge_request.log", "other", None),
    ("nginx_rtmp_worker_signal11_unexplained.log", "abrupt", "crash"),
    # -- and lr to mg: mlock refused ("Error initializing core: failed to lock memory: cannot allocate memory",
    # hashicorp/vault#59), the JVM sizing its table by a container's huge open-files limit ("unable to allocate file
    # descriptor table - out of memory", metabase/metabase#33521), the pseudo-terminals' limit ("open /dev/ptmx: no space
    # left on device", Womabre/unraid-docker-templates#14), GNU MP asked for 18 EB ("Cannot allocate memory
    # (size=18446744070406745120)", openscad/openscad#2425): no memory nor disk ran out; Ruby's uncaught exceptions,
    # their class last ("ruby_executable_hooks:15: stack level too deep (SystemStackError)",
    # tsmango/jekyll_alias_generator#14; "... Directory not empty @ dir_s_rmdir - assets/slick (Errno::ENOTEMPTY)",
    # Shopify/shopify-cli#2152); roslaunch's "process has died [pid 52879, exit code -11, ...]" (moveit/moveit#3535): a
    # segfault
    ("vault_dev_mlock_cannot_allocate.log", "other", None),
    ("metabase_java8_docker_fd_table_out_of_memory_abort.log", "other", None),
    ("unraid_template_oci_exec_ptmx_no_space.log", "other", None),
    ("openscad_gmp_cannot_allocate_bogus_size.log", "other", None),
    ("jekyll_alias_generator_systemstackerror_generating.log", "other", None),
    ("shopify_cli_theme_pull_enotempty_oneline.log", "other", None),
    ("moveit_move_group_abitstar_segv_unreproduced.log", "abrupt", "crash"),
    # -- the far trades' memory kills (rounds jz to mg), as each program words what ended it
    # (jz to kg) kills: Tcl's "child killed: kill signal" for ABC under OpenLane (The-OpenROAD-Project/OpenLane#2152),
    # "%Error: Verilator threw signal 9" (nvdla/hw#112)
    ("openlane_abc_child-killed_snncore.log", "system-ram", "killed"),
    ("nvdla_verilator_signal9_nv-full.log", "system-ram", "killed"),
    # (kh to ko) kills: systemd's "Main PID: 513 (code=killed, signal=KILL)" (meilisearch/meilisearch#711); conda's spinner, then
    # the shell's "Killed" ("Solving environment: \ Killed", ImperialCollegeLondon/sharpy#268, conda/conda#10355); AWS
    # Lambda's "Runtime exited with error: signal: killed", its function at the memory size it was given
    # (doug-macleod/Pipe-1Dev#18)
    ("meilisearch_systemd_killed_1gb_droplet.log", "system-ram", "killed"),
    ("sharpy_conda_env_create_solving_killed.log", "system-ram", "killed"),
    ("conda_env_create_repodata_killed_oneline.log", "system-ram", "killed"),
    ("lambda_pipe1dev_runtime-exiterror_signal-killed.log", "cgroup-limit", "cgroup-kill"),
    # (kp to kw) kills: systemctl's "Active: failed (Result: oom-kill)" (wazuh/wazuh#22141), FreeBSD's "was killed: failed to
    # reclaim memory" (ntop/ntopng#8030), ninja's "job terminated due to signal 9" (wolfi-dev/os#3825)
    ("wazuh_manager_vd-updater_oom-kill.log", "system-ram", "memory-kill"),
    ("ntopng_opnsense_failed-to-reclaim-memory_kill.log", "system-ram", "memory-kill"),
    ("wolfi_zig-build_signal9_aarch64.log", "system-ram", "killed"),
    # (kx to li) kills: the OOM killer's table of tasks alone ("Tasks state (memory values in pages):", bluenviron/mediamtx#4674);
    # its global kill in a cpuset named for containerd ("oom-kill:constraint=CONSTRAINT_NONE,...,cpuset=containerd.
    # service,...,global_oom", paradigmxyz/reth#2965); zsh's job after the progress line it cut ("Populating index cache
    # ...[1]    32713 killed     stack build", commercialhaskell/stack#1335); ocamlbuild's "Command exited with code
    # 137." on a host (MLstate/opalang#174); CodeQL's "Dataset import ... failed with code 137." (github/codeql-action#1461)
    ("mediamtx_recording_oom_tasks_state.log", "system-ram", "memory-kill"),
    ("reth_sync_catchup_killed_global_oom.log", "system-ram", "memory-kill"),
    ("stack_build_populating_index_cache_killed_128mb_vps.log", "system-ram", "killed"),
    ("ocamlopt_opa_parser_killed_137_vm.log", "system-ram", "killed"),
    ("codeql_action_dataset_import_code_137.log", "system-ram", "killed"),
    # a build's own limit: Read the Docs' "Command killed due to excessive memory consumption" (aiidateam/aiida-core#1524,
    # MRChemSoft/mrchem#61); CircleCI's "Exited with code exit status 137", its Docker executor's container
    # (CounterpartyXCP/counterparty-core#1335)
    ("sphinx_rtd_singlehtml_killed_memory.log", "cgroup-limit", "cgroup-kill"),
    ("mrchem_rtd_pdf_build_killed_memory.log", "cgroup-limit", "cgroup-kill"),
    ("circleci_test_book_exit_status_137.log", "cgroup-limit", "killed"),
    # (lj to lq) kills: the OOM killer's victim line without its head ("Killed process 14036 (g_mmpbsa) total-vm:26639468kB",
    # RashmiKumari/g_mmpbsa#7); an Electron app's console ("Renderer process oom - see https://www.electronjs.org/...",
    # logseq/logseq#2129); Windows' low-virtual-memory event as a translation words it ("The lack of virtual memory in
    # the system was successfully detected", qbittorrent/qBittorrent#18570); HAProxy's master on its worker ("Current
    # worker (25) exited with code 137 (Killed)", medic/cht-core#8166: a host's, no container's); nginx's master on its
    # worker ("worker process 15188 exited on signal 9", owasp-modsecurity/ModSecurity-nginx#36)
    ("g_mmpbsa_dmesg_oom_killed_process.log", "system-ram", "memory-kill"),
    ("logseq_renderer_oom_memory_leak_4g.log", "system-ram", "window-oom"),
    ("qbittorrent_windows_lack_of_virtual_memory_pagefile_6gb.log", "commit-limit", "commit-exhausted"),
    ("haproxy_cht_worker_exit_137_killed_memory.log", "system-ram", "killed"),
    ("nginx_modsecurity_worker_signal_9_memory_leak.log", "system-ram", "killed"),
    # (lr to mg) kills: Slurm's oldest words ("slurmstepd: Job 3410940 exceeded memory limit (15912452 > 15728640), being killed",
    # Hoohm/CITE-seq-Count#37); SIGKILL as Python's CalledProcessError ("... died with <Signals.SIGKILL: 9>.",
    # ocrmypdf/OCRmyPDF#575) and Cargo ("process didn't exit successfully: `rustc [...]` (signal: 9, SIGKILL: kill)",
    # YunoHost-Apps/vaultwarden_ynh#96) word it
    ("citeseqcount_slurm_exceeded_memory_limit.log", "cgroup-limit", "cgroup-kill"),
    ("ocrmypdf_tesseract_sigkill_1gb_vm.log", "system-ram", "killed"),
    ("vaultwarden_ynh_install_rustc_sigkill_1gb.log", "system-ram", "killed"),
    # (mh to mo) kills: zsh's "killed" where a paste ran it into the line above (openwall/john#4862), the shell's
    # "Killed" ending webpack's progress mid-word ("94% asset optimizationKilled", angular/angular-cli#3260; "...
    # iterator.jsKilled", vijos/vj4#416), glibc's Hungarian "Kilőve" (dcf21/star-charter#7), sacct's state column cut
    # in a format of its own ("OUT_OF_ME+     5725     256G", ACES-CMZ/reduction_ACES#346), a child's 137 as
    # OpenDroneMap raised it ("Exception: Child returned 137", WebODM/WebODM#301), the Swift driver's ("compile
    # command failed due to signal 9", swiftlang/swift-syntax#2668) and Yarn's ('Command failed with signal
    # "SIGKILL"', trackit/trackit-client#162; both disputed: a container, and no cause found, in their threads)
    ("zip2john_huge_zip_zsh_killed_vm_2gb.log", "system-ram", "killed"),
    ("angular_cli_ng_build_prod_asset_optimization_killed.log", "system-ram", "killed"),
    ("vj4_webpack_building_modules_killed.log", "system-ram", "killed"),
    ("star_charter_catalogue_merge_killed_hu.log", "system-ram", "killed"),
    ("casa_aces_slurm_sacct_out_of_memory.log", "cgroup-limit", "cgroup-kill"),
    ("webodm_merging_depthmaps_child_137_skip_resize.log", "system-ram", "killed"),
    # ... and a child's 137 raised in other launchers' words, read with the same table of SIGKILL's wordings as a line
    # of its own: Java's quoting FFmpeg's status (opencast/opencast#5595), docker-py's BuildError ("returned a non-zero
    # code: 137", SWE-bench/SWE-bench#231), LibreOffice's exit before the connection it refused
    # (jodconverter/jodconverter#298)
    ("opencast_ffmpeg61_trim_concat_exit137.log", "system-ram", "killed"),
    ("swebench_docker_build_conda_create_137.log", "system-ram", "killed"),
    ("jodconverter_libreoffice_exit_137_connection_refused.log", "system-ram", "killed"),
    ("swift_frontend_release_build_signal9_container.log", "system-ram", "killed"),
    ("cra_build_yarn_sigkill_unexplained.log", "system-ram", "killed"),
    # ... and what only sounds like memory: PostgreSQL's semget() at SEMMNI ("could not create semaphores: No space
    # left on device", PostgresApp/PostgresApp#583), XMRig going on in 2 MB pages without 1 GB ones reserved
    # (xmrig/xmrig#1411), Godot's queue of deferred calls full ("Message queue out of memory",
    # godotengine/godot#76820), macOS' malloc asked for 16 EiB ("mach_vm_map(size=18446744071986823168) failed",
    # astropy/astropy#8641)
    ("postgresapp_initdb_semaphores_no_space_left.log", "other", None),
    ("xmrig_rx_1gb_pages_failed_sysctl.log", "other", None),
    ("godot4_editortoaster_message_queue_stack_overflow.log", "other", None),
    ("astropy_test_fitters_malloc_cant_allocate_region.log", "other", None),
    # (mp to mw) GKE's event for a kill inside a pod's limit ("This OOM kill was invoked by a cgroup, containerID: ...",
    # kubernetes/ingress-nginx#11987); ENOSPC from inotify's watches where a log follower or a Go program words it
    # ("failed to watch file ...: no space left on device", kubernetes-sigs/kind#2399; "unexpected error watching
    # template ...: no space left on device", kubernetes/ingress-nginx#2249); Kafka's client sizing a buffer by what a
    # TLS listener sent ("OutOfMemoryError: Java heap space ... NetworkReceive.readFrom", bitnami/charts#16859, #7884,
    # akka/alpakka-kafka#306); minikube reading no memory at all ("System only has 0MiB available",
    # kubernetes/minikube#10538)
    ("ingress_nginx_cgroup_oom_kill_event.log", "cgroup-limit", "cgroup-kill"),
    ("kind_kubectl_logs_inotify_no_space.log", "other", None),
    ("ingress_nginx_template_watch_enospc_inotify.log", "other", None),
    ("kafka_topics_cli_ssl_port_without_client_config_oome.log", "other", None),
    ("bitnami_kafka_provisioning_tls_adminclient_oome.log", "other", None),
    ("alpakka-kafka_console_consumer_tls_java_heap_space.log", "other", None),
    ("minikube_rsrc_insufficient_sys_memory_0mib.log", "other", None),
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_programs_end_or_error_read_as_it_was(name, kind, ending):
    assert_far_reading(name, kind, ending)


def test_systemds_status_of_its_units_process_names_the_signal_that_ended_it():
    # "systemctl status": "Main PID: 513 (code=killed, signal=KILL)" a kill, "(code=dumped, signal=SEGV)" a crash
    for status, ending in (
        ("killed, signal=KILL", "killed"),
        ("dumped, signal=SEGV", "crash"),
        ("dumped, signal=ABRT", "crash"),
    ):
        log = f"meilisearch.service - MeiliSearch\n   Main PID: 513 (code={status})\n"
        assert explain_log(log)["failure"]["ending"] == ending, status


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
