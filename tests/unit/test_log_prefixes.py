"""A logger's or a launcher's prefix no table knows, taken off every line: learned from the first lines a log's
lines share (behind a quote or a container's prefix, too), and learned from no corpus log but the few that carry one
(tests/fixtures/logs). The other ways a paste is changed (indented, spaced, numbered) are in test_log_shapes.py; a
wrap at a console's width in test_log_wraps.py."""

from __future__ import annotations

import pytest
from helpers import FIXTURES
from helpers import log_text as text

from memprobe.logs.explain import explain_log
from memprobe.logs.text import iter_lines, learned_prefix

LOGS = FIXTURES / "logs"


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
            # the rounds of 2026-12-06's last session (jz to kw)
            "airflow_scheduler_dmesg_oom_task_dump.log",
            "ark-server-tools_aborted-core-dumped_normal-shutdown.log",
            "audacity_oomkiller_recording_dmesg.log",
            "blender-vray_deadline_access_violation_exit11.log",
            "build-webos_nodejs_native_do_compile_failed.log",
            "colmap_matcher_insufficient-gpu-memory-cuda-arch.log",
            "contextmenu_xamarin_int_array_overflow.log",
            "crdroid_lmkd_kill_not_responding.log",
            "docker-selenium_k8s_chrome_node_memcg_oom.log",
            "fluent-bit_loki_empty_record_accessor_warnings.log",
            "gitea_docker_startup-loop_disk-full.log",
            "jenkins-ci-jenkins-io_windows-aci-agent_closed-channel.log",
            "keycloak20_kc-start_strict-hostname.log",
            "leakcanary_leaktrace_hprofexplorer.log",
            "navidrome_scan_oomkiller_vm.log",
            "netlify_nuxt_functions-bundling_heap-oom.log",
            "openmvs_densify_bad-alloc-invalid-mvs.log",
            "openmvs_reconstructmesh_assertion-scenereconstruct.log",
            "openmvs_reconstructmesh_maintainer-ok-run-mac.log",
            "openmvs_reconstructmesh_segfault-split-max-area.log",
            "orcaslicer_device-tab_log-flood-ram-leak.log",
            "prefect_k8s_worker_cancel_terminationsignal_crash_detected.log",
            "psalm-vscode_language-server_memory_512m.log",
            "puma_cluster_ctrl-c-graceful-shutdown.log",
            "qubes_xen_libxl_cant_allocate_low_memory_domain.log",
            "scevan_r_caught_segfault_vegamc.log",
            "sist2_scan_dmesg_oom_killed.log",
            "sonarqube-bitnami_es-bootstrap_max-map-count.log",
            "sonarqube-docker_ce_gc-overhead-limit.log",
            "strawberry_player_oom_killed_dmesg.log",
            "traefik_k8s_memcg-oom_ingress.log",
            "traefik_vm_dmesg_oom-killed.log",
            "vaultwarden_panic_sqlite-malformed.log",
            "vespa_proton_assertion_needed_arrays_abort.log",
            "vespa_searchnode_mmap_swapfile_cannot_allocate.log",
            "vscode-cpptools_dmesg_oomkiller_remote.log",
            "wazuh-agent_3.13_modulesd_ossec-log_before-segfault.log",
            "wazuh-install_4.8_manager-install_before-no-space.log",
            "xcaddy_build_go-compile_out-of-memory.log",
            # the rounds of 2026-12-07 (kx to lq)
            "bigbluebutton_publish_presentation_nil_string.log",
            "chime_broadcast_ecs_container_memcg_oom.log",
            "cirq_simulator_numpy_memoryerror_49_qubits.log",
            "docusaurus_start_enospc_file_watchers.log",
            "nethermind_receipts_rocksdb_not_enough_space_windows.log",
            "nginx_rtmp_exec_push_unknown_process_signal9.log",
            "nginx_rtmp_hls_force_fragment_split.log",
            "nginx_rtmp_worker_signal11_unexplained.log",
            "rtsp_simple_server_hang_last_line_ram.log",
            "rust_analyzer_proc_macro_abi_bogus_alloc_old_nightly.log",
            "sphinx_graphviz_dot_cannot_be_run_docker.log",
            "srs2_st_thread_create_enomem_40g_free.log",
            "whiteboxr_slope_75gb_dem_allocation_failed.log",
            "apache_prefork_fork_enomem_liberapay.log",
            "cinnamon_178_libmuffin_segfault_respawn.log",
            "firefoam_parallel_filmregion_points_missing.log",
            "graphite_carbon_console_log_normal_startup.log",
            "kong_docker_memory_limit_worker_signal_9.log",
            "kong_openshift_worker_signal_9_502.log",
            "mosquitto_addon_saving_db_before_oom_kill.log",
            "nginx_modsecurity_worker_signal_9_memory_leak.log",
            "nginx_pagespeed_tmp_no_space_left.log",
            "npm_logrotate_unknown_user_logs_fill_disk.log",
            "sabnzbd_assembler_disk_full_direct_unpack.log",
            "solarman_mqtt_mosquitto_client_disconnected_out_of_memory.log",
            "sonarr_qnap_updater_log_no_failure.log",
            "sonarr_update_tmp_no_space_left.log",
            "transmission_openvpn_docker_memcg_oom_dmesg.log",
            # the rounds of 2026-12-07 (lr to mg)
            "clickhouse_stress_s3_signal9_not_oom.log",
            "cucumber_ruby_testsuite_global_oom_dmesg.log",
            "freecad_flatpak_fem_calculix_binary_missing.log",
            "freecad_link_save_not_enough_memory_bogus.log",
            "gazebo_pr2_run_gazebo_respawn_workspace_switch.log",
            "keycloak_bitnami_vertx_cache_tmp_no_space.log",
            "koreader_kindle_pw2_pdf_killed.log",
            "puma_daemonized_vanishes_missing_stdout_stderr.log",
            "puma_foreman_no_application_configured_exit1.log",
            "redshift_c4d_deadline_exit_3221226505_missing_kernels.log",
            "redshift_c4d_deadline_g5_xlarge_failed_to_allocate_mem.log",
            "redshift_c4d_deadline_nvidia_driver_too_old_module_binary.log",
            "rfdiffusion_windows_contigs_none_no_output.log",
            "roofer_docker_dmesg_global_oom_kill.log",
            "truenas_i2p_app_deploying_loop_healthcheck.log",
            "truenas_immich_ml_worker_code_139.log",
            "vaultwarden_podman_container_exits_sigterm_unexplained.log",
            "vendure_server_admin_ui_config_file_missing.log",
            "zimaos_file_copy_oom_killer_dmesg.log",
            # the rounds of 2026-12-07 (mh to mw): stamps of their own (aria2's, Caddy's, nginx's, dbt's, MySQL's,
            # OpenMVS', SABnzbd's, a miner's), and lines that begin alike (sacct's job ids, a compiler's commands)
            "aria2_fallocate_not_supported_zh.log",
            "caddy_acme_no_embedded_jwk_caddypath_unwritable.log",
            "casa_aces_slurm_sacct_out_of_memory.log",
            "crystal_compiler_build_1gb_fork_cannot_allocate.log",
            "cura_docker_curaengine_oom_killed_dmesg.log",
            "dbt_ga4_bigquery_query_planning_intraday.log",
            "dbt_ga4_bigquery_resources_exceeded_memory.log",
            "ddf_pipeline_makecatalog_pybdsf_segfault.log",
            "engintron_nginx_tmp_upstream_temp_enospc.log",
            "envoy_redis_proxy_sidecar_segfault.log",
            "gatsby_netlify_build_time_limit_15m.log",
            "gminer_gtx1650_4gb_ethash_error_out_of_memory.log",
            "godot4_vulkan_device_lost_save_scene_amd.log",
            "indi_atik_ccd_child_process_died_restarts.log",
            "instantngp_fox_cudamalloc_oom_windows.log",
            "mirar_pipeline_fitsfixedwarning_datfix.log",
            "mysql_docker_innodb_buffer_pool_mmap_errno12_host_oom.log",
            "mysql_vestacp_innodb_buffer_pool_cannot_allocate.log",
            "nats_jetstream_file_store_no_space_disabled.log",
            "nginx_ngx_waf_worker_signal11.log",
            "npmplus_client_body_temp_pwrite_enospc.log",
            "openmvs_densify_killed_after_filter_oom.log",
            "openmvs_densify_no_output_windows_unexplained.log",
            "openmvs_reconstructmesh_silent_exit_30m_points_windows.log",
            "pymc3_pmf_powell_map_zsh_killed.log",
            "qbittorrent_windows_file_write_not_enough_space.log",
            "sabnzbd_negative_segment_bytes_decoder_memoryerror.log",
            "trex_9gpu_not_enough_gpu_memory_dag_swap_file.log",
            "wabbajack_elysium_creation_club_files_missing.log",
            # the rounds of 2026-12-07 (mx to nm): journals, stamps and levels of their own (Jenkins', Tomcat's,
            # systemd's, an Erlang VM's, CI runners'), and a bot's and a test runner's lines that begin alike
            "adguardhome_lede_overlay_full_yaml_save.log",
            "couchdb_beam_signal6_apport.log",
            "cypress_component_tests_config_manager_heap_oom.log",
            "flowise_docker_build_components_node_heap.log",
            "gleam_run_erl_bus_error.log",
            "ilastik_headless_pixelclassification_bus_error_macos.log",
            "jenkins_agent_cannot_contact_no_space.log",
            "jenkins_openshiftio_controller_stops_unexplained.log",
            "leelaz_selfplay_oom_killer_dmesg.log",
            "lichess_bot_python_chess_engine_died_3221225501.log",
            "openfortivpn_oom_killed_multiple_sessions.log",
            "openroad_drt_signal9_peak_memory_orfs.log",
            "prophet_cmdstan_signal_3221225657_windows.log",
            "pytest_xdist_k8s_jenkins_worker_node_down.log",
            "scipion_motioncor2_no_gpu_failed_initialize.log",
            "sonarqube_es_flood_stage_bulkindexer.log",
            "tomcat_pwm_systemd_killed_oom_killer.log",
            "yarn_install_enospc_copyfile_docker_inodes.log",
            "yarn_install_enospc_jenkins_network_retry.log",
            # the rounds of 2026-12-07 (nn to oc)
            "files_uwp_copy_to_samba_disk_full.log",
            "fluentbit_chunkio_no_space_left_flb_storage.log",
            "fluentbit_tail_inotify_enospc_fs_events.log",
            "gamescope_poe2_nvidia570_vkallocatememory_regression.log",
            "go2rtc_exit_signal_terminated.log",
            "heroic_crash_on_start_bad_ram_stick.log",
            "inav_configurator_gps_tab_crash_undefined_lat.log",
            "kodi_android_bad_alloc_large_picture.log",
            "kodi_hdhomerun_pvr_sqlite_malformed.log",
            "kodi_openelec_skin_install_database_full.log",
            "kodi_rpi_thumbnails_oom_kill_dmesg.log",
            "ldbc_datagen_mapreduce_gc_overhead_heap.log",
            "lintalist_ahk_invalid_memory_read_write.log",
            "minidlna_openwrt_nfo_segfault_stack.log",
            "motionpie_dmesg_oom_kill_motion_python.log",
            "plexkodiconnect_kodi_rc5_video_db_unsupported.log",
            "steamos_pacman_etc_partition_too_full.log",
            "strapi_ckeditor_docker_build_node_heap.log",
            "v4l2rtspserver_streamon_invalid_argument.log",
            "winforms_error_creating_window_handle_overlay_hook_ko.log",
            "wps_metgrid_missing_values_domain_not_covered.log",
            "zos_firecracker_vm_global_oom_killed.log",
            # the rounds of 2026-12-07 (od to os)
            "cacti_flowview_plugin_php_memory_limit.log",
            "firefly_importer_addon_healthcheck_only.log",
            "freshrss_ynh_nginx_greader_php_memory_limit.log",
            "grocy_haos_purchase_php_memory_limit_384m.log",
            "homebox_attachment_sqlite_database_locked.log",
            "homer_heplify_postgres_no_space_left.log",
            "kamailio_uac_no_more_shm_leak.log",
            "linkwarden_import_node_heap_limit_next_worker.log",
            "memogram_telegram_getupdates_conflict.log",
            "rclone_mount_daemon_killed_centos.log",
            "rook_ceph_osd_recreate_oomkill_sigterm.log",
            "samba_smbd_jffs2_tdb_new_database_invalid_argument.log",
            "seafile_http_server_failed_allocate_0_bytes.log",
            "standardnotes_android_sqlite_full_catalystlocalstorage.log",
            "ttrss_awesome_docker_update_daemon_php_memory_limit.log",
            "znuny_ics_calendar_memory_leak_oom_tasks_dump.log",
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
