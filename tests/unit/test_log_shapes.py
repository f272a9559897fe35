"""How a log was pasted, undone: a logger's prefix no table knows, learned from the first lines; indented as a
Markdown code block; with a blank line after each line; with a paste site's line numbers (a paste hard-wrapped at a
console's width: test_log_wraps.py). Each is learned from a log's first lines and must leave every other corpus log
as it is (tests/fixtures/logs); how each line is read is in test_logread.py."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, corpus_shaped
from helpers import log_text as text

from memprobe.logs.explain import explain_log
from memprobe.logs.text import (
    TAKEN,
    indented,
    iter_lines,
    learned_prefix,
    numbered,
    spaced,
)

LOGS = FIXTURES / "logs"
RUNPOD = LOGS / "ComfyUI-runpod_userlog_zimage_gtx1660ti_oom_console.log"  # PogChan/ComfyUI-runpod


@pytest.mark.parametrize(
    "prefix",
    ["2025/01/02 10:11:12 ", "10:11:12 ", "INFO: ", "[12345] ", "12/02/2025 10:11:12 PM | ", "[worker-3] "],
)
@pytest.mark.parametrize(
    "name",
    [
        "vhs_136_loadvideo_1080p_defaultcpuallocator_65gb.log",  # a traceback, its exception line at the start
        "cuda_report_checkpointloader_portable.log",  # a report: its "- **Node Type:**" lines keep their dash
        "comfyui6435_hyvideotextencoder_report_in_title_oneline.log",  # a report on one line, its title behind them
        "other_validation_missing_models_root_format.log",  # a refused prompt, its node lines
    ],
)
def test_a_loggers_prefix_no_table_knows_is_learned_from_the_first_lines(prefix, name):
    """A launcher or a logger nobody here has met puts its own stamp, level or id before each line: the shape
    its first lines share (digits and level words aside) is taken off every line, and the log reads as it is."""
    raw = text(name)
    plain = explain_log(raw)["failure"]
    stamped = explain_log("\n".join(prefix + line for line in raw.splitlines()))["failure"]
    assert (stamped["kind"], stamped["node"]["class_type"], stamped["message"]) == (
        plain["kind"],
        plain["node"]["class_type"],
        plain["message"],
    )


def test_no_prefix_is_learned_where_the_lines_do_not_share_one():
    # every real log of the corpus: the prefixes they carry are all in the table, and no other is taken off but
    # StableSwarmUI's "ComfyUI error: " before each line of its backend's stderr (Stability-AI/StableSwarmUI#153)
    learned = set()
    for path in sorted(LOGS.glob("*.log")):
        head = [line for line, _ in zip(iter_lines(path.read_bytes()), range(40), strict=False)]
        if learned_prefix(line for line, _ in head) is not None:
            learned.add(path.name)
    assert (
        learned
        == {
            "StableSwarmUI153_docker_cuda_unknown_error_traceback.log",
            # the rounds of 2026-12-05 (ew to fk): SD.Next's, TensorRT-LLM's, kohya's, InvokeAI's stamp and level, ...
            "audio-cpp_index-tts2_windows-alloc-commit.log",
            "diffusers_dreambooth_flux_3090ti_tf_factory_noise.log",
            "flashtts_clone-voice_oom_two-processes-12gb.log",
            "fluxgym_12g_split_mode_cuda_error_oom.log",
            "hunyuanvideo-avatar_8x4090_rank3_oom_load.log",
            "invokeai_4_insufficient_gpu_memory_denoise.log",
            "kohya_ss_gui_v24_normal_startup_training.log",
            "multidiffusion_tiled_4x_upscale_console_before_oom.log",
            "scriberr_whisperx_exit-137_docker-4gb.log",
            "sdnext_arc_a770_black_images_no_error.log",
            "sdnext_arc_a770_failed_to_validate_samples.log",
            "sdnext_openvino_sdxl_turbo_normal_session.log",
            "tensorflowonspark_yarn_container_killed_physical_memory.log",
            "tensorrt-llm_build_llama2-13b_trt_outofmemory.log",
            "tensorrt-llm_build_llama70b_tp4_serial_start.log",
            "tensorrt-llm_build_qwen7b_start_then_killed.log",
            "tensorrt-llm_build_tactic_insufficient_gpu_memory_host_killed.log",
            "tensorrt-llm_trtllm-build_chatglm3-6b_rtx4070_start.log",
            # the later rounds of 2026-12-06 (gd to go): TensorFlow's and glog's stamps, TensorRT(-LLM)'s, torchrun's
            # "[rank0]: ", nanotron's, Blender's, InvokeAI's, kohya's, the kernel's, a profiler's and a monitor's columns
            "stardist_cuda-error-oom_training-cluster.log",
            "verl_rollout_host-ram_ps-listing.log",
            "nanotron_train_iteration-log_normal.log",
            "nanotron_optimizer-resume_iteration-log_cuda-mem-stats.log",
            "megatron-rocm_torch-dist-save_write-item-missing-arg.log",
            "trl_grpo_adamw-step_cuda-oom_94gb.log",
            "verl_dapo_ray-oom-killer_rollout-workers.log",
            "openrlhf_ppo_llama3-8b_8xh100_oom-traceback.log",
            "llama.cpp_sycl_invalid_value_vmm_map_win.log",
            "tensorrt-llm_baichuan_build_warnings_only.log",
            "tensorrt-llm_autodeploy_llama70b_executor_oom.log",
            "tensorrt-llm_trtllm-build_llama3_8b_4070super_oom.log",
            "tabbyapi_disabling_gpu_split_one_gpu_in_use.log",
            "tensorrt-llm_build_baichuan2_7b_limited_ram.log",
            "tensorrt-llm_build_llama2_7b_invalid_timing_cache_killed.log",
            "tensorrt-llm_ci_nemotron49b_serialize_engine_no_space.log",
            "tensorrt-llm_trtllm-build_gemma2_9b_build_completed.log",
            "tensorrt-llm_b200_verbose_mlir_codegen_build_info.log",
            "sheepit_blender_bvh_debug_before_cuda_oom.log",
            "invokeai_sdxl_graph_stats_model_reload.log",
            "multinerf_refnerf_oom_6mib_bfc.log",
            "tf-models_shuffle_buffer_killed.log",
            "tensor2tensor_shuffle_buffer_cpu_oom.log",
            "jax_numpyro_1tib_request_miscalc.log",
            "jax_dnn_library_not_found_conv.log",
            "jax_libcudart_10_1_not_loaded.log",
            "jax_ptx_invalid_image_cc89.log",
            "kohya-ss_winerror126_fbgemm_gui.log",
            "geodms_commit_progression_priv_ws_sampling.log",
            "tensorrt_cpu-ram-profile_deserialize.log",
            "tegra-multimedia_syncpts-dump_multi-camera.log",
            # ... and gp to gs: SD.Next's and kohya's stamp and level, TensorFlow-DirectML's, TensorRT's, MSBuild's stamp
            "sdnext_txt2img_oom_regression_startup.log",
            "sdnext_rocm_ram-filling_startup.log",
            "sdnext_directml_alloc-tensor_startup.log",
            "sdnext_directml_alloc-tensor_lora_startup.log",
            "sdnext_flex2_oom_model-load-stats.log",
            "sdnext_rocm-windows_invalid-argument_startup.log",
            "sdnext_zluda_no-agent_startup.log",
            "diffsynth_qwen-image_rank6_load-text-encoder.log",
            "kohya_ss_sdxl-locon_resume-state_gui-log.log",
            "tensorflow-directml_dmlallocator_oom_rtx2080.log",
            "tensorrt_trtexec_loadengine_memusage_normal.log",
            "tensorflow-directml_rxvega_resnet50_benchmark.log",
            "tensorrt_getbesttactic_gpu_alloc_error_p40.log",
            "onnxruntime_build_windows_ptxas_memory_allocation_failure.log",
            "directml_tf_plugin_rx6700xt_startup_before_crash.log",
            "tensorflow-directml_compute_mode_dealloc_trace.log",
            "ComfyUI_TensorRT41_sd3_trt_memusagechange_console.log",  # TensorRT's "[06/20/2024-20:30:41] " (ComfyUI_TensorRT#41)
            "Model-Optimizer85_trt_plan_invalid_tensor_name_console.log",  # and its "[TRT] [I] " (NVIDIA/Model-Optimizer#85)
            "intel-xpu-backend-for-triton7633_a770_ptss_scratch_console.log",  # a compiler's "error: ", "warning: "
            "ComfyUI_INTERPOLATION_CRASH_FIX_eventlog_other.log",  # Windows' events as "11/24/2025 8:27:31 PM - " (a note's)
            "ComfyUI1474_swarmui_colab_backend_no_torch_console.log",  # SwarmUI's "ComfyUI error: " (Comfy-Org/ComfyUI#1474)
            "legacy-rocm-build4729_startup_quote_console.log",  # pip's "[pip3] " behind a reply's "> ", as unquoted
            "InspirePack22_swarmui_facedetailerpipe_mediapipe_mesh.log",  # StableSwarmUI's "ComfyUI stdout: "
            "KJNodes610_ltx23_audio_vae_no_vae_weights_detected.log",  # a one-line paste's "WARNING: "
            "lllyasviel-stable-diffusion-webui-forge2089_linux_rtx4090_api_full_log_before_crash.log",  # a stamp before each line
            "lllyasviel-stable-diffusion-webui-forge650_crash_on_model_change_git_could_not_read.log",  # git's "error: "
            "dali_multigpu_train_dmesg_mem_cgroup_oom.log",  # the kernel's "[2612362.231458] " (dmesg, NVIDIA/DALI)
            "tranx_dmesg_oom_killed_python3.log",  # and again (pcyin/tranX's dmesg)
            "ms_swift_dataset_map_errno28_rank4.log",  # torchrun's "[rank4]: " before each line of a rank (ms-swift)
            "lm_eval_gpustat_8xh100_skewed_memory_no_error.log",  # gpustat's "[0] " GPU index (lm-evaluation-harness)
            "esmfold_predicted_structure_no_chunk_size_ok.log",  # a logger's "23/12/11 22:57:36 | INFO | root | "
            "instant_ngp_testbed_cudamalloc_failed_out_of_memory.log",  # instant-ngp's "21:39:07 INFO     "
            "stardist_napari_3d_tf_oom_conv3d.log",  # TensorFlow's "2024-01-31 09:59:52.515119: W "
            "voltaml_trt_build_outofmemory_warnings_only.log",  # TensorRT's "[12/09/2022-20:25:24] [TRT] [E] "
            "tensorrt7_windows_build_outofmemory_computecosts.log",  # trtexec's "[03/07/2020-16:57:34] [E] [TRT] "
            "trtexec_yolov4_saving_engine_file_failed.log",  # and its "[12/29/2020-20:56:49] [I] [TRT] "
            "easydiffusion_cpu_defaultcpuallocator_7mb.log",  # Easy Diffusion's "09:21:20.184 ERROR cpu "
            "deepfloyd_if_m_cuda_oom_1536gib_attention.log",  # rich's source lines, "756 │ " (DeepFloyd IF)
            "instant_ngp_testbed_cudamalloc_oom_70_images.log",  # instant-ngp's "13:54:27 INFO     " (#393)
            "instant_ngp_534_images_cudamalloc_oom.log",  # and again
            "mu_got_vllm_cuda_unknown_error_gpu_mem_util.log",  # torchrun's "[rank0]: " before each line of a rank
            "visualthinker_qwen2vl_image_tokens_mismatch.log",  # ... "[rank1]: "
            "localai_mac_grpc_connection_refused_llama_cpp_fallback.log",  # LocalAI's "4:07PM INF " (zerolog)
            "android_executorch_lowmemorykiller.log",  # Android's logcat, "08-21 19:28:09.442   641   641 I "
            "rk3568_android_rknn_model_hw_mismatch.log",  # ... and again
            "deepstream_yolo_trt_build_outofmemory.log",  # DeepStream's TensorRT logger, "ERROR: [TRT]: "
            "executorch_export_llama3_8b_killed.log",  # ExecuTorch's "[INFO 2024-06-06 11:19:55,094 builder.py:91] "
            "gfs_global_workflow_gdasfcst_srun_oom.log",  # srun's task number before each task's line, "288: "
            "graphcast_training_xla_rematerialization_bfc_oom.log",  # absl's "2023-09-15 15:37:29.263873: W "
            "jetson_nano_tf_train_gpu_bfc_oom.log",  # TensorFlow's, the same
            "rpi_keras_bus_error_allocation_warnings.log",  # ... the same, under Keras' own first lines
            "adoptium_bootjdk_commit_memory_1455.log",  # Jenkins' console time, "09:34:10  "
            "easydiffusion_docker_oci_hook_segfault.log",  # docker compose's "Creating ... " lines, as a prefix
            "cryocare_n_tiles_tf_oom_srun_exit.log",  # TensorFlow's stamp and level, "2021-... : W "
            "audacity_openvino_music_separation_model_cannot_be_opened.log",  # Audacity's log time, "19:43:44: "
            "sd_discord_bot_imagine_unexpected_end_of_json.log",  # Go's log stamp, "2022/12/28 01:00:41 "
            "shuttleai_discord_bot_entitlements_error.log",  # a bot's "04:54:38 ERR > "
            "localai_grpc_cudamalloc_failed.log",  # LocalAI's "3:44PM DBG GRPC(...): stderr " before its backend's lines
            "tf_cudnn_internal_error_conv_ops_abort.log",  # TensorFlow's "2017-10-30 17:55:23.525428: E " (#14111)
            "lightweight_mmm_cudart64_110_not_found_warning.log",  # ... its "2022-06-22 15:44:53.578885: W "
            "hypergan_cudart64_101_dlerror_warning.log",  # ... and its "W ", "I " (HyperGAN#162)
            "ebiten_wine_d3d12_createcommittedresource_oom.log",  # Go's log stamp, "2022/06/02 01:29:34 " (ebiten)
            "kohya_gui_illustrious_lora_avr_loss_nan_console.log",  # kohya_ss' GUI, "11:55:34-456850 INFO     "
            "rocm_tensorflow_hiperror_1002_failed_to_allocate.log",  # TensorFlow's stamp and level (ROCm's fork, #82)
            "paddle_cloud_trainer_memory_cgroup_limit_kill.log",  # the kernel's "[...] " (PaddlePaddle/Paddle#10982)
            "torch_tensorrt_llama2_4090_myelin_oom.log",  # TensorRT's "[05/08/2024-20:47:56] [TRT] [E] " (pytorch/TensorRT#2836)
            "d2slam_hitnet_trt_deserialize_failed.log",  # ... its "[I] [TRT] " (HKUST-Aerial-Robotics/D2SLAM#52)
            "tensorrt_deserialize_safe_version_tag_mismatch.log",  # ... and again (NVIDIA/TensorRT#2195)
            "diffusion_pipe_hunyuan_lora_cuda_unknown_error.log",  # torchrun's "[rank0]: " (tdrussell/diffusion-pipe#6)
            "nmkd_sd_gui_dreambooth_memoryerror_tail.log",  # NMKD's "[00000599] [01-24-2023 23:20:26] " (text2image-gui#65)
            "localai_llama_cpp_rpc_eof_fallback.log",  # compose's "api_1  | " and zerolog's "8:39AM INF " (LocalAI#3007)
            "localai_diffusers_sd3_cuda_out_of_memory.log",  # zerolog's "10:29PM ERR " (mudler/LocalAI#2845)
            "spleeter_tf_allocation_exceeds_10pct_warning.log",  # TensorFlow's stamp and level (deezer/spleeter#495)
            "audacity_openvino_htdemucs_onnx_unreadable.log",  # Audacity's "17:38:17: " (openvino-plugins-ai-audacity#39)
            "audacity_openvino_htdemucs_xml_missing_models.log",  # ... and again (#168)
            # the rounds of 2026-12-06 (fl to fx): axolotl's, Flowframes', instant-ngp's, MAGI-1's, nohang's, SD.Next's,
            # Wan2.2's, the journal's and torchrun's stamps and levels, ...
            "axolotl_70b-4x3090_cuda-oom-load.log",
            "colab_tf_gpu_device_created_unknown_crash.log",
            "easydiffusion_cuda-oom_load-model-gtx1050-3gb.log",
            "flowframes_frame_extraction_canceled_disk_checks.log",
            "flowframes_rife-cuda_nonetype_shape.log",
            "flowframes_rife31_sessionlog_rtx3060_1080p.log",
            "instant-ngp_fox_v100_cutlass_error_internal.log",
            "invokeai_cuda-oom_sdxl-unet-load-6gb.log",
            "magi-1_24b_distill_fp8_too_many_resources_traceback.log",
            "magi-1_entry_assertionerror_cp_pp_world_size.log",
            "modd_macos_arm64_killed_no_message.log",
            "nmkd-sd-gui_defaultcpuallocator_load-model-16gb.log",
            "nohang_post_kill_exe_mysqld_low_memory.log",
            "ollama_wsl2_runner_illegal_instruction_no_avx2.log",
            "open-sora_t5_text_encode_oom_rank3.log",
            "qbittorrent_ee_event2004_table_commit.log",
            "sdnext_directml_sdxl-oom-after-100pct-vae-decode.log",
            "sdnext_openvino_startup-img2img-uses-cpu.log",
            "sdnext_zluda-args_openvino-selected-cpu-fallback.log",
            "systemd_oomd_not_triggered_kswapd_alloc_failure.log",
            "wan2.2_a14b_4xa100_fsdp_oom.log",
            "wan2.2_s2v_8x5090_vae_decode_oom.log",
            "deeplabcut_bfc_allocator_chunks_stats.log",
            "esmfold_failed_cuda_oom_per_sequence.log",
            "llama-cpp_metal_insufficient_memory_mtp.log",
            "localai_llamacpp_illegal_memory_access_meta.log",
            # the rounds of 2026-12-06 (gt to he): InvokeAI's, SD.Next's, TensorRT's, DirectML's stamp and level, ...
            "diffusion-pipe_hidream_blockswap_cuda-invalid-argument.log",
            "diffusion-pipe_wan-t2v_blockswap-wsl_cuda-error-oom.log",
            "directml_tfbench_rx580_normal.log",
            "easydiffusion_docker-compose_no-gpu-device-driver.log",
            "finetrainers_cogvideox_lora_vae_encode_oom.log",
            "invokeai_flux_quantized_text_encoder_assert_uvicorn_lines.log",
            "invokeai_gtx1060_generation_closes_launcher_log.log",
            "invokeai_model_install_download_validate_filename_error.log",
            "invokeai_partial_loading_pr_flux_model_cache_ok.log",
            "invokeai_rocm_docker_rocminfo_missing_gpu_ok.log",
            "invokeai_rocm_flux_assertionerror_startup_lines.log",
            "invokeai_rocm_startup_memeff_attention_warning.log",
            "jetson-nano_sdkmanager_flash_failed-t210ref.log",
            "sdnext_dev_washed_out_images_high_memory_utilization.log",
            "sdnext_flux_sd35_decode_cuda_oom_startup_head.log",
            "sdnext_pinokio_2070s_sd15_oom_startup_head.log",
            "sdnext_xyz_lora_fuse_half_cast_byte_error.log",
            "tensorrt_trtexec_foreignnode_no_implementation.log",
            "tensorrt_xavier_nx_failed_allocation_bad_alloc.log",
            "tensorrt_yolov3_build_cuda_allocate_oom.log",
            "tf-directml_two_adapters_device_creation.log",
            "tf-directml_vega8_device_removed_alloc.log",
            "tfdml-plugin_aibench_fusion_not_implemented.log",
            "triton_k8s-pod_memcg-oom-kill_tritonserver.log",
            # the rounds of 2026-12-06 (hf to hm): torch distributed's "[rank3]: " before each line of a worker's
            "glm4v_lora_4x4090_rank3_oom.log",
            "minicpmv25_zero3_rank3_grad_partition_oom.log",
            "mmaudio_extract_training_latents_oom.log",
            "qwen25vl_vllm_3x24g_profile_run_oom.log",
            # (hn to hu): loguru's and Flowframes' stamps, GPTQModel's, the kernel's, logcat's, TensorFlow.js'
            "depth-anything-v2_metric-finetune_eval-epochs.log",
            "flowframes_normal_session_out_of_sequence.log",
            "gptqmodel_oomkill_packing_dmesg.log",
            "gptqmodel_quantize_high_loss_qwen25_normal.log",
            "mediapipe-llm_pixel4_sigsegv_llminference.log",
            "tfjs-node-gpu_bfc-allocator_rtx3060.log",
            # (hv to ik): torch distributed's "[rank7]: ", the kernel's "[10114.342746] " and syslog's stamps, XLA's
            # and TensorFlow's, Immich's and Frigate's, a loguru-like "| INFO  | ", a JupyterLab's "[I 2024-...]"
            "bagel_fsdp_save-ckpt-oom_rank7.log",
            "codeproject-ai_alpr_queue_connectionrefused.log",
            "frigate_beta7_cgroup_oom_syslog.log",
            "frigate_lxc_memcg_oom_calltrace.log",
            "frigate_vm_journald_memory_pressure_embeddings.log",
            "immich_ml_cuda_worker_code_139.log",
            "internimage_dcnv3_no_kernel_image.log",
            "internimage_dcnv3_whl_testpy_false_checks.log",
            "memories_go-vod_vaapi_no_va_display.log",
            "mujoco_mjx_321_bfc_allocator_oom.log",
            "nextcloud-aio_memories_vaapi_image_size_constraints.log",
            "open_clip_coca_finetune_nllloss_assert.log",
            "open_clip_train_stops_during_eval_no_message.log",
            "pai-megatron_datasets-map_no-space.log",
            "photoprism_tf_cuda_p1000_gpu_device_created.log",
            "ragflow_es01_exit_code_137_mem_limit.log",
            "recognize_classifier_imagenet_allocation_killed.log",
            "torchgeo_randomgeosampler_empty_intersection_valueerror.log",
            "transformers_fsdp-lora-3gpu_init-oom.log",
            "zmeventnotification_memory_verify_failed_reload.log",
            "zoneminder_zmc_memory_exhaustion_oom_tasklist.log",
            # the rounds of 2026-12-06 (il to iy)
            "additivefoam_cannot_find_processor_t.log",
            "bitcrack_cl_out_of_resources_geforce210.log",
            "darknet_cudnn_bad_param_map_calc.log",
            "flashvsr_pro_docker_block_sparse_attn_killed.log",
            "graphrag_summarize_descriptions_expat_out_of_memory.log",
            "kserve_mlflow_model_sigterm_restart.log",
            "lightrag_ollama_gemma3_connection_forcibly_closed.log",
            "lm-eval_vllm_mistral7b_squadv2_before_loglikelihood_oom.log",
            "lm-eval_vllm_oom_leaderboard_qwen72b.log",
            "obs_flatpak_nvenc_startup_console.log",
            "openpcdet_waymo_infos_tf_warnings_cuinit_no_device.log",
            "ppsspp_blockallocator_partition_alloc_failed.log",
            "qupath_cell_detection_java_heap_plugin.log",
            "qupath_czi_java_heap_third_file.log",
            "rodan_celery_gpu_textalign_sigkill.log",
            "sagemaker-examples_image_classification_epochs_completed.log",
            "samsung-one_ci_pip_torch_connection_timeout.log",
            "sleap_inference_bfc_allocator_dump_5.7gb.log",
            "sleap_train_cudnn_internal_error.log",
            "sleap_train_op_requires_conv_ops_bfc.log",
            "slowfast_charades_train_errno12_cannot_allocate.log",
            # the rounds of 2026-12-06 (iz to je)
            "deepmd_lammps_tf-illegal-address_npt-compute.log",
            "dream-textures_macos_crash_report_seamless.log",
            "minerl_basalt_malmo_workers_died.log",
            "nmkd-sd-gui_onnx_dml_warnings_no_images.log",
            # the rounds of 2026-12-06 (jf to jy)
            "alpr-unconstrained_tx2_bfc_warnings.log",
            "awake-template_netlify_asset-size-limit.log",
            "bazel_crostini_protobuf_gcc_failed_exit1.log",
            "bwa-mem2_biod_range_violation.log",
            "clickhouse_k8s_merge_total_limit_1.35gib.log",
            "cortex.cpp_metal_insufficient-memory_long-context.log",
            "daed_docker_next-build_type-error.log",
            "darktable_opencl_init_discarding_apu_256mb.log",
            "darktable_windows_astro_denoise_closes_last_lines.log",
            "deepfacelab_convert_sae_launch_failed.log",
            "deepfacelab_extract_misaligned_address_cudnn_stream.log",
            "deepfacelab_extract_rtx_garbled_launch_failure.log",
            "deepvariant_gpu_cuda_not_initialized_but_finished.log",
            "doods_nano_tensorflow_bfc_48mb.log",
            "faceswap_apple_silicon_extract_process_exited.log",
            "faceswap_directml_train_hresult_887a0005.log",
            "faceswap_jetson_nano_not_enough_gpu_memory.log",
            "faceswap_s3fd_vram_warning_serial.log",
            "focus-stack_verbose_killed_forward_wavelet.log",
            "ha-supervisor_update_404_disk_hint_21gb_free.log",
            "kubernetes-dashboard_ng-serve_killed_137.log",
            "llama.cpp_metal_submissions-ignored_main-gpu.log",
            "llama.cpp_sycl_glm-moe-offload-server-start.log",
            "minio_lxc_mem_cgroup_oom_dmesg.log",
            "openupm_netlify_babel_heap_oom.log",
            "paper_watchdog_after_autopause_resume.log",
            "rclone_gdrive_403_user_rate_limit_exceeded.log",
            "rknn-toolkit2_rk3566_swiotlb_malloc_npu_memory.log",
            "sclorg-postgresql_openshift_signal9_killed.log",
            "syncthing_quic_receive_buffer_stdout_line.log",
            "tensorflow-nvjetson_tx2_pointer_not_on_gpu.log",
            "zoneminder_zmc_segfault_portrait_zone.log",
        }
    )
    # a prefix with letters of its own is learned as written ("L" and "9" stand for nothing)
    strip = learned_prefix(["[L12] got prompt", "[L13] Requested to load SDXL", "[L14] loaded completely"])
    assert strip is not None and strip("[L99] Prompt executed in 1.2 seconds") == "Prompt executed in 1.2 seconds"
    # a log of one or two lines, each with a stamp or a level and its separator, loses it
    for prefix in ("2025/01/02 10:11:12 ", "INFO: ", "[12345] "):
        one = prefix + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
        assert (strip := learned_prefix([one])) is not None and strip(one).startswith("torch.OutOfMemoryError")
    # a one-liner's own first words are no prefix: a lower-case "error", a process id before its shell's message
    assert learned_prefix(["error occurred when executing vhs_videocombine: unable to allocate 10.0 gib"]) is None
    assert learned_prefix(["3654441 Segmentation fault"]) is None
    # numbers that begin some lines of a log are not a prefix: a few, or under half of the lines
    assert (
        learned_prefix(["0.0 seconds: a", "got prompt", "Requested to load X", "12 frames", "Prompt executed"]) is None
    )


@pytest.mark.parametrize(
    "name",
    [
        "other_validation_missing_models_root_format.log",  # stamped lines, some of them split from one long line
        "ComfyUI12956_desktop_python_exit_code1_console.log",  # the Desktop app's lines and a Node stack
        "Fooocus2661_TeslaP4_cuda_oom_patch_model_traceback.log",
    ],
)
def test_a_paste_indented_as_a_code_block_reads_as_it_was(name: str):
    raw = text(name)
    plain = explain_log(raw)["failure"]
    shifted = explain_log("\n".join("    " + line for line in raw.split("\n")))["failure"]
    assert (shifted["kind"], shifted["message"]) == (plain["kind"], plain["message"])


def test_a_logs_own_indentation_is_kept():
    # of the corpus, only logs indented as a whole lose it: a dialog pasted as a code block, rich's traceback
    # (Comfy-Org/ComfyUI#13458), a WinDbg analysis (woct0rdho/SageAttention#85); a traceback's frames (two spaces)
    # and code (four) are a log's own
    assert corpus_shaped(indented) == {
        # the web UI's traceback under its "*** Error ..." (its extensions', DirectML's fork), the JVM's stack (tabs), Ray's,
        # a GUI's log indented as a whole (2026-12-05's rounds)
        "adetailer_mac_postprocess_invalid_arguments.log",
        "pyspark_indicators_java_heap_space_driver_memory.log",
        "ray_raylet_windows_access_violation_sigsegv.log",
        "sd-forge-layerdiffuse_on_a1111_no_module_ldm_patched.log",
        "sd-webui-infinite-image-browsing_api_filenotfound_asset.log",
        "sd-webui-regional-prompter_directml_indexerror_matrixdealer.log",
        "sd-webui-regional-prompter_forge_attributeerror_embedding_db.log",
        "sdwebui-directml_txt2img_960x1280_error_completing_request.log",
        "sdwebui-directml_unet_forward_not_enough_gpu_video_memory.log",
        "so-vits-svc-fork_gui-infer_cpu-allocator-1gb.log",
        "svfi_module_unavailable_exception.log",
        "ComfyI2I11_inpaint_segments_cpualloc_traceback.log",  # ManglerFTW/ComfyI2I#11, a dialog as a code block
        "rpi_pip_pandas_errno28_sdcard.log",  # Irene-Voice-Assistant#60, pip's build output as it indents it
        "openpose_editor_savepng_not_defined_console.log",  # the browser's stack under its error, four in
        "roop_insightface_assert_detection_models.log",  # the web UI's traceback under its "*** Error running ..."
        "k_diffusion_dpmpp_3m_sde_unboundlocalerror.log",  # a traceback's tail pasted as a code block
        "docker_inspect_exit137_oomkilled_false.log",  # docker inspect's State, cut from its JSON as it indents it
        "hislam2_demo_distcuda2_bad_alloc_oom.log",  # a post's traceback indented under its progress bar
        "comfyui13458_lora_trainer_backward_rich_traceback.log",
        "woct0rdhoSageAttention85_procdump_acceleratorerror_windbg.log",
        "a-person-mask-generator82_typeerror_cannot_handle_dtype_traceback.log",  # each line at one indent, code too
        "ImpactPack974_frontend_onConnectionsChange_typeerror.log",  # ltdrdata/ComfyUI-Impact-Pack#974, a JS stack
        "dhalman_nanoclaw_mps_ksampler_normshape_comfyui.log",  # a committed comfyui.log indented as a whole
        "CustomScripts118_bettercombos_combo_undefined_loadgraph.log",  # a JS stack too
        # rich's console (its level column) and YOLOv5's validation table, each line under a bar: seen whole since an
        # empty bar ("0%|          |") is no longer split as a table's rows
        "fluxtrainer180_training_allocation_rich_console.log",
        "yolov5_val_nms_time_limit_warning.log",
        # the AMD web UI fork's console and Ultralytics' tuning table, indented as a whole (2026-12-06's rounds)
        "sd-webui-amdgpu_directml-igpu_input-float-bias-half.log",
        "sd-webui-amdgpu_directml_vae-decode-could-not-allocate-tensor.log",
        "ultralytics_yolo11_tune_zero_map_epochs.log",
        "lmstudio_loadmodel_unable_to_allocate_stack.log",  # LM Studio's error stacks, indented as it prints them
        "lmstudio_vram_usage_typeerror_find.log",
        "kijai-ComfyUI-FluxTrainer59_oom_fluxtrainvalidate.log",  # rich's log: each line under its message column
        # A1111's "*** Error loading script: ..." (Forge, reForge), its traceback indented under it
        "Panchovix-stable-diffusion-webui-reForge239_layerdiffuse_no_module_backend.log",
        "lllyasviel-sd-forge-layerdiffuse118_no_module_diffusers_models_unets.log",
        "lllyasviel-sd-forge-layerdiffuse39_vae_object_no_attribute_clone.log",
        "lllyasviel-stable-diffusion-webui-forge130_tiled_vae_autoencoderkl_no_device.log",
        "Haoming02-sd-forge-couple101_flux_dict_no_attribute_to.log",
        "adetailer_illegal_memory_access.log",  # Bing-su/adetailer: its message indented under the report's line
        "animatediff_api_call_more_memory_oom_traceback.log",  # a slice of a traceback indented under an "Error"
        "a1111_arc_a770_sysinfo_cl_out_of_host_memory.log",  # a slice of the web UI's sysinfo JSON
        "caffe_ssd_webcam_quadro600_oom.log",  # glog's "*** Check failure stack trace", each frame at "    @ 0x..."
        "kserve_triton_bert_500mi_limit_exitcode137.log",  # a pod status' YAML, the server's log under "message: |"
        "databricks_operator_oomkilled_137.log",  # and kubectl describe's, indented under its pod
        # a post's block indented as a whole (a Java stack, a Spark log, R's console, a browser's and iOS' errors)
        "djl_pytorch_engineexception_unknown_type_name.log",  # deepjavalibrary/djl#2500
        "kyuubi_spark_context_no_space_left_on_device.log",  # apache/kyuubi#14
        "magenta_js_texture_size_conv2d_chromium.log",  # hands-on-music-generation-with-magenta#3
        "r_maftools_read_maf_vector_memory_exhausted.log",  # PoisonAlien/maftools#613
        "tflite_ios_bad_alloc_mach_vm_map.log",  # tensorflow/tensorflow#30176
        "transformersjs_array_buffer_allocation_failed_extension.log",  # huggingface/transformers.js#1365
        "transformersjs_no_available_backend_linkerror.log",  # huggingface/transformers.js#214
        "lora_scripts_bitsandbytes_cuda_setup_failed.log",  # Akegarasu/lora-scripts#242
        "mbcnn_state_dict_size_mismatch_dataparallel.log",  # JunghyunKim242/MBCNN_torch_demoire#4
        "atom_enospc_writefilesync_stylesheet.log",  # atom/atom#14418, a Node stack under its first line
        "stereoanyvideo_depthanything_vitl_state_dict_mismatch.log",  # a state dict's keys indented under its error
        "hunyuanvideo_i2v_image_tokens_mismatch.log",  # its error above a command whose options are indented
        "home_assistant_whisper_addon_signal4_no_avx.log",  # an add-on's log quoted as a code block
        "k8s_pod_exit137_reason_error.log",  # kubectl describe's, indented under its pod (kubernetes#122256)
        "gpu_operator_pod_oomkilled_crashloop.log",  # and again
        "luisarender_cuda_oom_spaceship.log",  # a renderer's native stack, each frame indented under its error
        # the rounds of 2026-12-06 (gt to he): a forum's or a tracker's code block
        "amdgpu_directml_rx7800_img2img_upscale_decode_oom.log",
        "forge_textual_inversion_training_device_mismatch.log",
        "jetson-nano_uboot_wrong-2gb-image_fdt-reserve.log",
        "onnxruntime-android_readmodel_java_outofmemoryerror.log",
        "sdnext_6gb_sdxl_base_processing_error_args.log",
        "sdnext_hunyuan_video_g6e_48gb_oom_key_message.log",
        # the rounds of 2026-12-06 (hf to hm): a web UI extension's traceback, an MPSGraph assertion's, as posted
        "animatediff_webui_ext_please_download_models_manually.log",
        "surya_mps_placeholder_shape_assert.log",
        # (hn to hu): a Forge package's traceback, ONNX Runtime Web's and web-llm's browser consoles, as posted
        "easysdxlwebui_forge_layerdiffusion_modulenotfound.log",
        "onnxruntime-web_webgpu-static_aborted-assertion.log",
        "web-llm_webgpu_vkallocatememory-out-of-device-memory.log",
        # (hv to ik): tracebacks, a kernel's memory cgroup report and a build's output, each indented as a whole
        "ai-models_graphcast_bufferassignment_long_rollout.log",
        "frigate_docker_memcg_stats_6gb_limit.log",
        "immich_ml_cuda_buffalo_vram_leak_traceback.log",
        "infinity_batch_handler_cuda_oom_shared_gpu.log",
        "ogb_load_signal9_time_v.log",
        "privategpt_gptj_illegal_hardware_instruction.log",
        "pyg_torch_scatter_build_gcc_failed.log",
        # the rounds of 2026-12-06 (il to iy)
        "kserve_triton_bert_oom_modelstatus.log",
        "openpose_caffe_syncedmem_oom_hand.log",
        "pytorch3d_source_build_ball_query_nvcc_errors.log",
        "qupath_analysis_java_heap_trace_tail.log",
        "simple_knn_build_gcc_missing_nvcc_preprocess.log",
        "spark-rapids_databricks_nds_gpu_oom_splitandretry.log",
        "triton_python_stub_not_healthy_detectron_client.log",
        "xformers_win_build_ram_ninja_stopped.log",
        # the rounds of 2026-12-06 (jf to jy)
        "atm9_forge_server_no_space_left_advancements.log",
        "darktable_opencl_negative_width_thumbnail_denoiseprofile.log",
        "etoa_vagrant_ld_final_link_no_space.log",
        "fancymenu_1122_mixin_prepare_failed_not_found.log",
        "gfpgan_pip_basicsr_ext_build_error.log",
        "kraken2_failed_allocate_hash_table.log",
        "olmo_1b_a800_train_steps_peak_gpu_mem.log",
        "openhab_jetty_unable_create_native_thread.log",
        "prismlauncher_fabric_3dskinlayers_crash_tail.log",
        "stack_circleci_haskell-src-exts_exitfailure9.log",
        "stack_wire-server_configurator_exitfailure6.log",
        "velocity-ctd_direct_buffer_memory_config_session.log",
    }


def test_a_paste_sites_line_numbers_are_taken_off():
    # pastebin's page copied as it shows (its line numbers before each line): the report names its node again
    name = "pastebin_EpSqydbE_samplercustomadvanced_dynamo_gguf_linear.log"
    assert corpus_shaped(numbered) == {
        name,
        "pastebin_1b8dR3pM_pulid_insightface_assert.log",  # (round ax's pastebin pastes, their numbers kept)
        "pastebin_Kx2BbD8T_stabilitymatrix_comfyui_startup_tensorboard.log",
        "chatchat_docker_cuda_oom_model_not_loaded.log",  # a post's numbered list of log lines ("1. ERROR 2023-...")
    }
    assert explain_log(text(name))["failure"]["node"]["class_type"] == "SamplerCustomAdvanced"


@pytest.mark.parametrize(
    "name",
    [
        "commit1455_desktop_report.log",  # an error report: its node is in "- **Node Type:**"
        "cuda_vaedecode_stabilitymatrix.log",
        "abrupt_earlyoom_sigterm.log",  # a journal: earlyoom names the memory
    ],
)
def test_a_log_numbered_line_by_line_reads_as_it_was(name: str):
    raw = text(name)
    plain = explain_log(raw)["failure"]
    numbered_paste = "\n".join(f"{i:>3}. {line}" for i, line in enumerate(raw.split("\n"), 57))
    got = explain_log(numbered_paste)["failure"]
    assert (got["kind"], got["node"], got["message"]) == (plain["kind"], plain["node"], plain["message"])


def test_numbers_that_do_not_count_line_by_line_are_a_logs_own():
    lines = ["1. Loading checkpoint", "2. Requested to load SDXL", "4. got prompt", "5. Prompt executed in 3 s"]
    assert numbered([(line, False) for line in lines]) is None
    assert numbered([(line, False) for line in lines[2:]]) is None  # two lines from 4: a list's as likely
    assert numbered([("  1. Allocation on device", False)]) is not None  # one line, as pastebin numbers it


def test_a_paste_that_begins_inside_a_traceback_keeps_its_error_when_indented_as_a_whole():
    # GIVEN a committed log whose first 40 lines are a traceback's frames (2 in) and code (4 in), its error at line 93,
    # indented as a whole as a Markdown code block: the head's smallest indent is 6, the error line's 4
    text = "\n".join("    " + line for line in RUNPOD.read_text(encoding="utf-8").splitlines())
    failure = explain_log(text)["failure"]
    # THEN the indent taken off is the block's 4 (the frames' own 2 kept), and the error ends the traceback
    assert failure["kind"] == "vram" and failure["exception_type"] == "torch.OutOfMemoryError"


def test_a_wrappers_prefix_is_learned_behind_a_quote_or_a_containers_prefix():
    # GIVEN SwarmUI's "ComfyUI error: " before each line of ComfyUI's traceback (Comfy-Org/ComfyUI#1474), quoted in a
    # reply with "> " before each line, or SwarmUI run by docker compose ("swarmui-1  | " before each line)
    text = (FIXTURES / "logs" / "ComfyUI1474_swarmui_colab_backend_no_torch_console.log").read_text(encoding="utf-8")
    quoted = "\n".join("> " + line for line in text.splitlines())
    composed = "\n".join("swarmui-1  | " + line for line in text.splitlines())
    # THEN the prefix is learned after the quote or the container's, and the traceback's error is the failure
    for paste in (text, quoted, composed):
        failure = explain_log(paste)["failure"]
        assert (failure["kind"], failure["exception_type"]) == ("other", "ModuleNotFoundError"), paste[:40]


def test_a_paste_with_a_blank_line_after_each_line_reads_as_it_was():
    # of the corpus, these logs came with a blank line after each line (a page's or a terminal's copy made each line a
    # paragraph); the one whose error spans lines, Comfy-Org/ComfyUI#13954's StabilityMatrix popup, reads its
    # "Allocation on device 0 would exceed allowed memory." with the sizes torch put under it
    assert corpus_shaped(spaced) == {
        "ComfyUIManager618_portable_animatediff_groupnorm_mixed_dtype_cpu.log",  # Comfy-Org/ComfyUI-Manager#618
        "NvidiaDocker64_startup_segfault_docker.log",
        "VideoX-Fun100_cogvideox_fun_decode_allocation_traceback.log",
        "comfyui13954_ltx23_t2v_exceed_allowed_stabilitymatrix_popup.log",
        "impactpack1017_facedetailer_sam_segfault_traceback.log",
        "rocmbuild5990_amdgpu_gfxhub_page_fault_dmesg.log",
        "stabilitymatrix-449_pip_errno28_install.log",
        "Acly-krita-ai-diffusion895_bind_10048_traceback.log",  # Acly/krita-ai-diffusion#895, a traceback so pasted
        "localai_gptj_docker_unexpected_eof_model_load.log",  # mudler/LocalAI#195, a container's log so pasted
        "conda_store_celery_worker_sigkill_docker_2gb.log",  # conda-store#120, a Celery worker's traceback so pasted
        "kenshi_mod_manager_startgame_paging_file.log",  # Kenshi Mod Manager's crash reports, paragraphs each
        "kenshi_mod_manager_fileload_ru_0x800705af.log",
        "kenshi_mod_manager_uiautomationcore_ru_0x800705af.log",
        "d912pxy_bns_createcommittedresource_8007000e.log",  # megai2/d912pxy#357, its log's entries so pasted
        "matlab_flimfit_out_of_memory_fit.log",  # flimfit/FLIMfit#380, MATLAB's error stack as it prints it
        "onepomodoro_gpu_device_suspended_zh_report.log",  # DinoChan/OnePomodoro#110, a crash report so pasted
        "textgen_ipex_no_module_exllamav2.log",  # oobabooga/textgen#6163, a traceback so pasted
        "kenshi-mod-manager_comexception_glyphmetrics_pagefile_ru.log",  # more of Kenshi Mod Manager's (2026-12-06)
        "kenshi-mod-manager_dllnotfound_wtsapi32_pagefile_ru.log",
        "kenshi-mod-manager_savemodlist_disk-full_ja.log",
        "kenshi-mod-manager_savemodlist_disk-full_ru.log",
        # the rounds of 2026-12-06 (gt to he): a blank line after each of its lines
        "ai-toolkit_zimage_wsl_cuda-error-oom.log",
        "kjnodes_patchsage_no_module_sageattention.log",
        # (hv to ik): NCCL's warnings, PhysX's and SAPIEN's errors, CodeProject.AI's module log, each line a paragraph
        "codeproject-ai_yolov8_module_codeproject_ai_sdk_missing.log",
        "isaaclab_physx_collisionstacksize_buffer_overflow.log",
        "maniskill_sapien_contact_buffer_overflow_error700.log",
        "tensorrt-llm_triton-8xv100_nccl-cuda-oom.log",
        # the rounds of 2026-12-06 (il to iy)
        "executorch_qnn-llama_fastrpc-map-weights-failed.log",
    }
    doc = explain_log(text("comfyui13954_ltx23_t2v_exceed_allowed_stabilitymatrix_popup.log"))
    assert doc["failure"]["message"].splitlines()[-1].startswith("PyTorch limit")
    assert doc["machine"]["vram_total_bytes"] == 8 * 1024**3  # "Device limit : 8.00 GiB", in the message
    # AND a log read right loses nothing when pasted so: the same failure, its evidence on the paste's own lines
    for name in ("ComfyUI-Sharp24_memory_summary_traceback.log", "vhs_67_loadvideo_defaultcpuallocator_69gb.log"):
        raw = text(name)
        plain, doubled = explain_log(raw), explain_log("\n\n".join(raw.split("\n")))
        assert (doubled["failure"]["kind"], doubled["failure"]["message"]) == (
            plain["failure"]["kind"],
            plain["failure"]["message"],
        )
        evidence = [(e["line"], e["text"]) for e in plain["failure"]["evidence"]]
        assert [(e["line"], e["text"]) for e in doubled["failure"]["evidence"]] == [(2 * n - 1, t) for n, t in evidence]
        assert doubled["log"]["lines"] == 2 * plain["log"]["lines"] - 1
    # (a log's own blank lines: a run of three is one of them; the blanks taken out still count)
    head = [(line, False) for line in "a  b  c  d  e  f".split(" ")]
    undo = spaced(head)
    assert undo is not None
    out = [x for x, _ in undo(head + [("", False)] * 3 + [("g", False)])]
    assert [x for x in out if x is not TAKEN] == [*"abcdef", "", "g"] and len(out) == len(head) + 4
