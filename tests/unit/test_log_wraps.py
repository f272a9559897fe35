"""A paste hard-wrapped at a console's width, joined back: each longer line cut into rows of exactly that width (an
error's line or two cut inside a word or at a space, a traceback's rows where the paste's head shows no wrap). The
wrap is learned from a log's first lines and must leave every other corpus log as it is (tests/fixtures/logs)."""

from __future__ import annotations

import pytest
from helpers import corpus_shaped
from helpers import log_text as text

from memprobe.logs.explain import explain_log
from memprobe.logs.reader import read_log
from memprobe.logs.shapes import unwrapped


@pytest.mark.parametrize("width", [80, 100, 120])
@pytest.mark.parametrize(
    "name",
    [
        "Fooocus2661_TeslaP4_cuda_oom_patch_model_traceback.log",  # the error on one 571-character line
        "ComfyUI-WanVideoWrapper752_L4_gcp_vace_traceback_cut.log",  # frames as wide as the widest line
        # the wrap not shown by the paste's head: a frame's tail at column 0 ("eights", "*kwargs)"), a frame line
        # cut after "in" or inside its path, each read as the traceback's own
        "raylight108_wsl_ops_cast_allocation_on_device_traceback.log",
        "ComfyUI6168_directml_group_norm_not_enough_gpu_memory_traceback.log",
        "cuda_video_custom_hunyuanwrapper.log",
    ],
)
def test_a_paste_hard_wrapped_at_a_consoles_width_reads_as_it_was(name: str, width: int):
    raw = text(name)
    wrapped = "\n".join(line[i : i + width] for line in raw.split("\n") for i in range(0, max(len(line), 1), width))
    plain, rewrapped = explain_log(raw)["failure"], explain_log(wrapped)["failure"]
    # (a row that happens to end as a line does, in ")", stays a line: the message's end may differ)
    assert (rewrapped["kind"], rewrapped["message"][:200]) == (plain["kind"], plain["message"][:200])


def test_a_wrap_is_learned_only_from_a_paste_that_was_wrapped():
    # of the corpus' real logs (progress bars, stack frames, tables, repeated and padded lines, whole frames), only
    # Comfy-Org/ComfyUI#15271's paste is hard-wrapped ("... Force pre-loaded 210 weights: 1175 K" / "B."), and one
    # of Forge's: a console 80 columns wide (forge#2524: "... at some other API call, so t" / "he stacktrace") — not
    # a log padded to the console's width before its place (Forge Neo's "base.py :: INFO", rich's "trainer.py:136");
    # and a short paste cut inside a word at 80 columns, the same CUDA message as forge#2524's (ComfyUI-Zluda#176);
    # and an AUTOMATIC1111 install's console, 80 columns wide ("...\Scripts\Python.e" / "xe"), whose pip ran out of disk;
    # and Ray's raylet lines, 116 columns wide in a CI's log (vLLM: "... To see more information about th" / "e Workers")
    assert corpus_shaped(unwrapped) == {
        "db-benchmark_dask_groupby_worker_exceeded_95pct_budget.log",  # Dask's console, wrapped at 72 columns
        "vllm_ray_raylet_workers_killed_memory_pressure.log",
        # Docker's Windows-container error and its JSON, wrapped at 150 and 205 columns; a Pinokio console's compiler
        # command, at 230 (2026-12-06's rounds)
        "nav-docker_hyperv_pagingfile_mojibake.log",
        "navcontainerhelper_hyperv_pagingfile_createcomputesystem.log",
        "wan2gp_minimax_h3_triton_tcc_undefined_symbol.log",
        "a1111_install_torch_errno28_pip_temp.log",
        "ComfyUIZluda176_gfx803_newer_rocmlibs_cuda_oom_traceback.log",
        "ComfyUI15271_illegal_memory_access_abort_console.log",
        "lllyasviel-stable-diffusion-webui-forge2524_cuda_error_out_of_memory_gradio.log",
        "anomalygpt_deepspeed_sigkill_rc9_ram.log",  # DeepSpeed's launcher's arguments, wrapped at 150 columns
        "sheeprl_dreamer_v3_carracing_cuda_oom_1080ti.log",  # torch's CUDA out of memory, wrapped mid-word
        "opencv_build_cc1plus_killed_ubuntu1804.log",  # make's build lines, wrapped (opencv/opencv#18890)
        "deepspeech-german_savev2_no_space.log",  # TensorFlow's op lines, wrapped at a console's width
        "tensorrt_trtexec_batch16_resizephysical_oom.log",  # trtexec's lines, wrapped and padded to its console's width
        # InvokeAI's launcher, its lines cut at 104 characters (invoke-ai/InvokeAI, round ha)
        "invokeai_gtx1060_generation_closes_launcher_log.log",
        # conda's fetch lines, each a JSON object of the widest length, as Pinokio's installer shows them (round hg)
        "pinokio_py_install_conda_fetch_loop.log",
        "mergekit_runaway_memory_lazy_unpickle_windows.log",  # mergekit's bars, its log cut at the console's width (ho)
        # Opencast's FFmpeg command wrapped at 154 columns, RETURNN's cache lines at 151 (rounds ib, hv); not docker
        # compose's rows padded to the console's width to print their time on the right ("Started      2.9s ")
        "opencast_ffmpeg61_trim_concat_exit137.log",
        "returnn_filecache_no-space-left.log",
        # the rounds of 2026-12-06 (il to iy)
        "cog_yolov8_train_fatalworker_exitcode-11.log",
        "lorax_docker_flash_attn_v2_nvcc_killed.log",
        "ryujinx_vulkan_outofdevicememory_ocr_screenshot.log",
        # the rounds of 2026-12-06 (iz to je)
        "dream-textures_macos_crash_report_seamless.log",
        # the rounds of 2026-12-06 (jf to jy)
        "darktable_windows_astro_denoise_closes_last_lines.log",
        "restic_check_index_cache_enospc.log",
        "restic_sftp_hetzner_connection_lost.log",
        # the rounds of 2026-12-06's last session (jz to kw)
        "clamav_docker_memory-8m_clamscan-killed-137.log",
        "mixxx_analyzer_mp3_warnings_flood.log",
        "openwrt_toolchain_gcc_initial_failed.log",
        "zeek_4.1_logger_zeekctl-top_37g-rss.log",
        # the rounds of 2026-12-07 (kx to lq)
        "excelcompare_poi_xssf_gc_overhead_windows.log",
        "sonarr_dietpi_mono_exit_status_1.log",
        "wkhtmltopdf_windows_http_error_1005.log",
        # the rounds of 2026-12-07 (lr to mg)
        "odm_opensfm_mesh_json_dumps_memoryerror.log",
        # the rounds of 2026-12-07 (mh to mw): a docker build's, ClamTk's and OpenMVS' consoles, wrapped
        "beakerx_webpack_prod_docker_build_137.log",
        "freshclam_clamtk_bytecode_cant_apply_patch.log",
        "openmvs_reconstructmesh_silent_exit_30m_points_windows.log",
        # the rounds of 2026-12-07 (mx to nm): a chess engine's, Vivado's, an installer's and a DNS server's consoles,
        # wrapped
        "autogtp_gzip_no_such_file_spaces_in_sgf_names.log",
        "stockfish_bench_large_pages_fallback_error1450.log",
        "unbound_dietpi_ipv6_control_interface_bind.log",
        "vivado_aws_fpga_killed_no_post_route_dcp.log",
        # the rounds of 2026-12-07 (nn to oc)
        "redfaction_d8vk_heap2_direct_buffer_mapping.log",
        "scylla_hints_commitlog_no_space_left_backup.log",
        "svgo_collapsegroups_call_stack_exceeded.log",
        # the rounds of 2026-12-07 (ot to pt)
        "ionic_crosswalk_emulator_haxm_pc_ram.log",
        "raspberry_noaa_sox_ramfs_no_space_left_on_device.log",
        # the rounds of 2026-12-07 (pu to rb)
        "fonttools_subsetter_process_rss_trace.log",
        "lualatex_minted_successful_run_memory_stats.log",
        "macaulay2_interiorvector_sigsegv_stack_trace.log",
        "star_disk_quota_quality_string_error.log",
        "subtitleedit_cli_batch_convert_ok.log",
        "swarp_coadd_multithread_double_free_corruption.log",
        "veeam_agent_blksnap_failed_to_load_module.log",
    }
    facts = read_log(text("ComfyUI15271_illegal_memory_access_abort_console.log"))
    assert [e.kind for e in facts.endings][:1] == ["crash"]  # "terminate called", its "t" on the row above, joined
    # (a joined line is numbered as its last row: the paste's line numbers hold — its "Fatal Python error" is line 19)
    doc = explain_log(text("ComfyUI15271_illegal_memory_access_abort_console.log"))
    assert (doc["failure"]["evidence"][0]["line"], doc["log"]["lines"]) == (19, 22)
    rows = [
        f"Warning {n}: a line of the log's own, of the widest length, printed twice".ljust(70, ".")
        for n in ("one", "two", "six")
    ]
    assert unwrapped([(row, False) for row in rows for _ in range(2)]) is None  # a row is followed by its own start
    assert unwrapped([(row, False) for row in rows for row in (row, "next")]) is not None
    # a log's own line repeated with other numbers, at the widest length, is no wrap (Forge's "[Memory Management]
    # Estimated Remaining GPU Memory (MB) =  3049.98..." before "Moving model(s)", reForge#74)
    same = [
        f"[Memory Management] Estimated Remaining GPU Memory (MB) =  {n:.12f}"[:76] for n in (3049.9, 7627.4, 7481.7)
    ]
    assert unwrapped([(row, False) for row in same for row in (row, "Moving model(s) has taken 2.08 seconds")]) is None


def test_a_short_paste_cut_inside_a_word_at_a_consoles_width_is_joined_back():
    # an error's line copied from a console 80 columns wide: the phrase that says what ran out is whole again
    line = "OSError: [WinError 14] Not enough storage is available to complete this operation"
    assert explain_log(f"{line[:80]}\n{line[80:]}")["failure"]["kind"] == "system-ram"
    assert explain_log(line)["failure"]["kind"] == "system-ram"
    # cut at a space, or at a name's "_" (ColabFold's and OpenMM's one-line errors, 80 columns wide)
    for line in (
        "Could not predict test_cdf7a. Not Enough GPU memory? RESOURCE_EXHAUSTED: Out of memory while trying to "
        "allocate 7866899248 bytes.",
        "simtk.openmm.OpenMMException: Error creating array interactingAtoms: CUDA_ERROR_OUT_OF_MEMORY (2)",
    ):
        assert explain_log(f"{line[:80]}\n{line[80:]}")["failure"]["kind"] == "vram"
    # two rows cut inside words make a longer paste's wrap (waifu2x's Lua torch: "... you tried to al" / "locate")
    torch7 = (
        "/usr/local/torch/install/bin/luajit: $ Torch: not enough memory: you tried to allocate 2GB. Buy new RAM! "
        "at /tmp/luarocks_torch-scm-1-9354/torch7/lib/TH/THGeneral.c:266"
    )
    frames = ["stack traceback:", "\t[C]: at 0x7fa585ca5ec0", "\t[C]: in function 'Tensor'"] * 3
    for rows in ([torch7], [torch7[:80], torch7[80:160], torch7[160:]]):
        assert explain_log("\n".join([*rows, *frames]))["failure"]["kind"] == "system-ram"
    # a row cut at a space before a log's own line, a frame's line cut before its code's line, another width: left
    assert unwrapped([("x" * 79 + " ", False), ("next", False)]) is not None
    assert unwrapped([("x" * 79 + " ", False), ("error: next", False)]) is None
    frame = '  File "D:\\ComfyUI\\custom_nodes\\{}\\node.py", line 5, in'
    frame = frame.format("p" * (80 - len(frame) + 2))
    assert unwrapped([(frame, False), ("import pandas as pd", False)]) is None
    assert unwrapped([("x" * 90, False), ("yz", False)]) is None
