"""How a log was pasted, undone: indented as a Markdown code block; with a blank line after each line; with a paste
site's line numbers (a logger's prefix no table knows: test_log_prefixes.py; a paste hard-wrapped at a console's
width: test_log_wraps.py). Each is learned from a log's first lines and must leave every other corpus log as it is
(tests/fixtures/logs); how each line is read is in test_logread.py."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, corpus_shaped
from helpers import log_text as text

from memprobe.logs.explain import explain_log
from memprobe.logs.shapes import indented, numbered, spaced
from memprobe.logs.text import TAKEN

LOGS = FIXTURES / "logs"
RUNPOD = LOGS / "ComfyUI-runpod_userlog_zimage_gtx1660ti_oom_console.log"  # PogChan/ComfyUI-runpod


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
        # the rounds of 2026-12-06's last session (jz to kw)
        "aiidalab-qe_pwx_gpu_memory_report_xps.log",
        "airbyte_destination-lakehouse_source_exit_137_cloud.log",
        "alpakka-kafka_console_consumer_tls_java_heap_space.log",
        "applovin_inmobi_oom_sqlite_prepare.log",
        "bioformats_showinf_jpeg_java-heap-space.log",
        "clij_fiji_blur3d_cl-mem-object-allocation-failure.log",
        "crawlee_python_overloaded_warning_statistics.log",
        "deno_oilpan_cagedheap_ulimit-v.log",
        "fresco-helper_oom_bitmappool_jpeg.log",
        "fresco_oom_decodeexecutor_190.log",
        "glide_canvas_too_large_bitmap.log",
        "glide_oom_createscaledbitmap_461.log",
        "glide_oom_executor_60byte.log",
        "grapheneos_unity_segfault_16gb_addresses.log",
        "inkscape_haiku_launch_segment_violation.log",
        "lambda_hm-linter_enospc_tmp.log",
        "leakcanary_heapdump_zero_bytes.log",
        "meilisearch_task_too_many_open_files.log",
        "napari_3d-volume_gl-out-of-memory_teximage3d.log",
        "nexus2-docker_lucene-index_no-space-left.log",
        "opengrok_indexer_oome_parallel_indexing_aosp.log",
        "operate-first_kafka_disk_quota_exceeded_log_recovery.log",
        "solr_docker_shared_memory_warnings_startup.log",
        "wazuh-agent_4.4.1_docker-listener_status-1.6g.log",
        "wechat-assets-picker_flutter-build-ipa_llvm-oom.log",
        # the rounds of 2026-12-07 (kx to lq)
        "che_theia_k8s_plugin_sidecar_oomkilled_128mi.log",
        "cilium_olm_operator_describe_oomkilled.log",
        "clion_bashsupport_stubs_ver_no_space_left.log",
        "coredns_describe_last_state_oomkilled.log",
        "docker_mailserver_dovecot_login_killed_signal9.log",
        "intellij_cloud_code_index_storage_no_space.log",
        "metrics_server_exit_code_2_no_errors.log",
        "peertube_plugin_install_killed_137_container.log",
        "pulumi_nodejs_heap_oom_github_actions.log",
        "rancher_single_node_container_exit_137_not_oom.log",
        "triforceafl_fork_server_signal_9_kernel.log",
        "vscode_go_gopls_connection_disposed_unexplained.log",
        "autoexcel_poi_sharedstrings_gc_overhead_xmx512m.log",
        "joplin_sync_enotsup_vbox_shared_folder.log",
        "jxls_poi_xmlbeans_gc_overhead_export.log",
        "questdb_query_java_heap_space_longinthashmap.log",
        "stirling_pdf_pipeline_readallbytes_java_heap.log",
        "swaybg_memory_usage_ps_listing.log",
        # the rounds of 2026-12-07 (lr to mg)
        "anhalytics_grobid_client_java_heap_space.log",
        "figgy_jp2_derivative_enospc_sendfile_backtrace.log",
        "kittycad_modeling_app_wasm_memory_access_out_of_bounds.log",
        "starburst_k8s_pod_oomkilled_300mi_limit.log",
        "webpacker_capistrano_precompile_stuck_compiling.log",
        "zotero_bbt_export_file_already_exists.log",
        # the rounds of 2026-12-07 (mh to mw): JVM stacks, a crash log and a CLI's output indented as a whole
        "airbyte_heartbeat_container_oomkilled_k8s.log",
        "debezium_clickhouse_sink_snapshot_interrupted_50m_rows.log",
        "defold_bob_java_heap_space_32bit_java.log",
        "otel_demo_kafka_startup_heap_log_cleaner.log",
        "passenger_spawn_tmp_dir_enospc.log",
        "pulsar_debezium_source_bookkeeper_direct_memory.log",
        "rspamadm_hs_alloc_scratch_assertion_skylake_kvm.log",
        "skyrim_trainwreck_access_violation_ram_nearly_full.log",
        # the rounds of 2026-12-07 (mx to nm): JVM stacks, browser consoles, docker inspect's JSON and Jest's
        # stack indented as a whole
        "flok_hydra_regl_context_lost_random.log",
        "fmriprep_antsbrainextraction_killed_docker_2gb.log",
        "gatk_collectwgsmetrics_array_index_out_of_bounds.log",
        "hydra_webcam_windows_regl_context_lost.log",
        "imagej_imageplot_macro_newimage_java_heap.log",
        "jest_watch_enospc_inotify_watchers.log",
        "ml5_styletransfer_large_image_webgl_max_texture.log",
        "nexus_k8s_orientdb_low_disk_space.log",
        "rapidwright_device_file_java_heap_space.log",
        "sonarqube_bitnami_docker_exit_unexplained_inspect.log",
        # the rounds of 2026-12-07 (nn to oc)
        "appscale_zookeeper_txnlog_no_space_left.log",
        "asynchbase_timertask_java_heap_space.log",
        "awsfluentbit_cloudwatch_pod_oomkilled_137.log",
        "cassandra_embedded_shutdown_insufficient_disk_space_flush.log",
        "exchange_healthchecker_pagefile_recommendation_report.log",
        "kodi_piwigo_addon_nameerror_memory_leaks_note.log",
        "kotlin_daemon_filechannelutil_noclassdef.log",
        "ksp_kotlin_daemon_heap_space.log",
        "renaissance_sbt_compiler_bridge_metaspace.log",
        "sbt_metaspace_cross_test_130rc1.log",
        "scastie_sbt_instance_metaspace.log",
        "shifu_zookeeper_unable_create_snap_dir.log",
        "strapi_build_uberspace_efault_memoryusage.log",
        "z3_java_api_out_of_memory_exception.log",
        # the rounds of 2026-12-07 (od to os)
        "actual_server_payload_too_large_70mb_sqlite.log",
        "asterisk_agi_fork_cannot_allocate_memory.log",
        "gatling_netty_out_of_direct_memory.log",
        "joplin_crash_dump_renderer_gone_on_shutdown.log",
        "k6_operator_manager_oomkilled_kubectl.log",
        "node_opcua_logger_influx_heap_oom_windows.log",
        "prism_media_ffmpeg_spawn_enomem.log",
        "reddiscordbot_downloader_pip_tmpfs_no_space.log",
        "trilium_docker_healthcheck_unhealthy_oomkilled_false.log",
        "yasd_discord_bot_stable_diffusion_cuda_oom.log",
        # the rounds of 2026-12-07 (ot to pt)
        "ache_focused_crawler_java_heap_space.log",
        "afew_notmuch_xapian_databasecorrupterror.log",
        "alfresco_solr_shard_registry_java_heap_space.log",
        "bimserver_checkin_gc_overhead_limit_exceeded.log",
        "bsdtar_asan_failed_to_allocate_largemmap_error_12.log",
        "dalli_memcached_response_error_130_out_of_memory.log",
        "fess_crawler_thread_java_heap_space.log",
        "grblhal_esp32_bluetooth_dram_segment_does_not_fit.log",
        "hazelcast_member_read_java_heap_space.log",
        "hubs_ammo_wasm_memory_could_not_allocate_quest.log",
        "ipfs_desktop_enospc_electron_store_write.log",
        "linuxcnc_deb_build_dh_missing_missing_files.log",
        "machinekit_build_cc1plus_killed_mksoc.log",
        "moloch_viewer_buffer_length_kmaxlength.log",
        "mupdf_js_wasm_memory_access_out_of_bounds.log",
        "nodebb_connect_mongo_typeerror_logout.log",
        "opengrok_windows_indexer_heap_oom_readline.log",
        "openkm_webservice_path_not_found_crash.log",
        "pdfviewpager_pdfrenderer_bitmap_oom.log",
        "python_libzim_creator_time_l_rss.log",
        "stirling_pdf_merge_pdfbox_scratchfile_heap_space.log",
        "thatopen_fragmentifcloader_openmodel_memory_oob.log",
        "wasm_bindgen_textdecoder_decoding_failed_over_2gb.log",
        "wasmtime_wasi_lenet_out_of_bounds_trap.log",
        "web_ifc_getgeometry_abort_wasm_heap.log",
        # the rounds of 2026-12-07 (pu to rb)
        "adempiere_scheduler_verifytrx_ad_session.log",
        "cytoscape_enrichmentmap_session_save_invocationtarget.log",
        "cytoscape_prefuse_layout_stackoverflow.log",
        "dbeaver_mysql_gc_overhead_limit_exceeded.log",
        "dfhack_macos_load_length_error.log",
        "entwine_no_default_srs_transformation_matrix.log",
        "fontforge_sfd_asan_heap_use_after_free.log",
        "fonttools_subsetter_process_rss_trace.log",
        "gdevelop_editor_wasm_memory_access_out_of_bounds.log",
        "gephi_dot_import_gc_overhead_limit.log",
        "keystone_pm2_spawn_enomem.log",
        "macaulay2_coincidentrootloci_i386_out_of_memory.log",
        "node_osmium_osm2geojson_bad_alloc.log",
        "nwchem_memory_information_overflow_printout.log",
        "openhab1_xbase_rule_interpreter_heap_space.log",
        "phaser_rimmap_getimagedata_out_of_memory.log",
        "pixi3d_gltf_invalid_typed_array_length.log",
        "pixijs_7_unable_to_autodetect_renderer.log",
        "rundeck_datastate_tostring_heap_space.log",
        "rundeck_notification_java_heap_space.log",
        "sublime_plugin_host_abort_vm_ram_exhausted.log",
        "sublime_systemd_coredump_system_hang.log",
        "threejs_fbxloader_offset_outside_dataview.log",
        "wolfram_jupyter_kernel_restarter_died_osx.log",
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
        # the rounds of 2026-12-06's last session (jz to kw)
        "alpine-node-chromium_oom_score_gpu_process_crashed.log",
        "docker-android-sdk_emulator_no-hw-acceleration.log",
        "flimfit_matlab_out_of_memory_fitting.log",
        "flyio_outdoor-heart-sutra_oom-email_ruby.log",
        "puppeteer-sharp_tmp_no_space_left.log",
        # the rounds of 2026-12-07 (kx to lq)
        "tdarr_node_ffmpeg_malloc_consolidate_invalid_chunk.log",
        # the rounds of 2026-12-07 (lr to mg)
        "discourse_ynh_install_min_1gb_ram_swap.log",
        "omegafold_biolib_future_annotations_syntaxerror.log",
        # the rounds of 2026-12-07 (mh to mw)
        "debezium_clickhouse_sink_snapshot_interrupted_50m_rows.log",
        "strimzi_kafka_broker_heap_oom_uncaught_handler.log",
        # the rounds of 2026-12-07 (mx to nm)
        "cypress_install_unzip_enospc_docker_build.log",
        # the rounds of 2026-12-07 (nn to oc)
        "kenshi_mod_manager_wpf_ioexception_device_not_exist_ja.log",
        "kenshi_mod_manager_wpf_ioexception_disk_full_mods_cfg.log",
        "kenshi_mod_manager_wpf_ioexception_disk_full_save_modlist.log",
        "navidrome_scan_nil_pointer_panic_wav.log",
        "odoo_docker_login_after_restore_segfault.log",
        "x265_no_wpp_ultrafast_segfault_regression.log",
        # the rounds of 2026-12-07 (od to os)
        "labelstudio_converter_yolov5_keyerror_label.log",
        # the rounds of 2026-12-07 (ot to pt)
        "boinc2docker_guest_docker_import_no_such_file.log",
        "fds_pyrosim_init_memory_allocation_failed_many_arrays.log",
        "paperless_classifier_not_loaded.log",
        "paperless_tesseract_deskew_fail_1gb_container.log",
        "stirling_pdf_first_startup_exited_143.log",
        "velociraptor_acl_backup_nil_pointer_panic.log",
        "xz_coreos_compress_ci_error_running_command.log",
        # the rounds of 2026-12-07 (pu to rb)
        "featurecounts_paired_end_in_single_end_library.log",
        "spinnaker_clouddriver_gc_overhead_limit_gke.log",
        "stellarium_ocular_crash_startup_log.log",
        "subgen_docker_subprocess_died_sigkill.log",
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
