"""Logs of the systems the held-out rounds nn to oc reached — Hadoop and Cassandra, flight controllers, ERP and CMS
servers, Proton and DXVK, video encoders, weather models, SAT solvers, hypervisors, telemetry pipelines, wikis, media
servers, camera recorders, font builds, Scala and Kotlin builds, Windows scripts, Fortran codes — as users paste
them: each program's words for memory or a disk running out, and the words that only sound like it
(tests/fixtures/logs/SOURCES.md cites each thread). A program's own memory cap is in test_log_own_caps.py."""

from __future__ import annotations

import pytest
from helpers import assert_far_reading

from memprobe.logs.explain import explain_log

READINGS = [
    # -- a disk full, in a program's own words
    ("missionplanner_apm_logs_directory_enospc.log", "disk", None),  # "... /APM/LOGS: ENOSPC" (not a file watcher's)
    ("bottles_flatpak_min_free_space_exceeded.log", "disk", None),  # Flatpak's "min-free-space-size 500MB would be ..."
    ("steamdeck_waydroid_var_partition_full.log", "disk", None),  # "Not enough space on the var partition!"
    ("steamos_pacman_etc_partition_too_full.log", "disk", None),  # "(not enough free disk space)"
    ("steam_bootstrap_needs_100mb_free_disk.log", "disk", None),  # "needs at least 100MB of free disk space to update"
    ("hyperv_backup_utility_export_disk_insufficient_it.log", "disk", None),  # "Spazio su disco insufficiente ..."
    ("qubes_thin_pool_threshold_qvm_start.log", "disk", None),  # LVM: "free space in thin ... reached threshold"
    ("qubes_vm_pool_thin_threshold_journal.log", "disk", None),  # ... and "41183 extents needed, but only 24498"
    ("plex_docker_sync_low_disk_space_config.log", "disk", None),  # Plex: "Low disk space: 36.87GB source file, ..."
    ("kodi_openelec_skin_install_database_full.log", "disk", None),  # "Insertion failed because database is full"
    ("bloxstrap_not_enough_disk_space_install_roblox.log", "disk", None),  # "... not have enough disk space to ..."
    # -- the host's memory
    ("ardupilot_sitl_autotest_scripting_sandbox_not_enough_memory.log", "system-ram", None),  # "...: not enough memory"
    ("svtav1_psy_ffmpeg_image_svtmalloc_fatal.log", "system-ram", None),  # "SvtMalloc[fatal]: allocate memory failed"
    ("svthevc_8k_10bit_could_not_allocate_channel.log", "system-ram", None),
    ("x265_32bit_4k_veryslow_malloc_failed.log", "system-ram", None),  # "x265 malloc failed"
    ("stp_minisat_outofmemoryexception_aborted.log", "system-ram", None),  # an uncaught Minisat::OutOfMemoryException
    ("vmware_appcatalyst_vmx_not_enough_physical_memory.log", "system-ram", None),  # VMware's power-on refused
    ("vagrant_ovirt4_host_available_memory_too_low.log", "system-ram", None),  # oVirt: "available memory is too low"
    ("mslab_hyperv_start_vm_cannot_allocate_ram_pl.log", "system-ram", None),  # WinError 1450 in Polish (Hyper-V)
    ("azurehound_ps1_convertto_json_outofmemory.log", "system-ram", None),  # .NET's System.OutOfMemoryException
    ("mysql_backup_manager_readtoend_outofmemory_de.log", "other", None),  # ... from StringBuilder.ToString: a string
    # over .NET's length limit, as SwarmUI's and PowerShell's threads found (this thread concluded memory: disputed)
    # -- the GPU's memory
    ("xpra_nvenc_context_leak_cuda_out_of_memory.log", "vram", None),  # "cuModuleLoadDataEx failed: out of memory"
    ("ffmpeg_nvenc_createbitstreambuffer_out_of_memory.log", "vram", None),  # NVENC's buffers, not its session limit
    ("kodi_pvr_sledovanitv_hevc_videocore_alloc_dmesg.log", "vram", None),  # a Raspberry Pi's VideoCore memory
    ("nvidia-patch_ffmpeg_cumemalloc_vram_full_test.log", "vram", None),  # cuMemAlloc's, then FFmpeg's "Cannot allocate
    # memory" and "Failed to inject ...": SVT's "allocate memory failed" is not read across two lines
    # -- a job's or a container's limit
    ("xgboost_yarn_task_killed_exceeding_physical_memory.log", "cgroup-limit", "cgroup-kill"),  # DMLC on YARN
    ("gfs_global_cycle_esfc_pbs_cgroup_oom.log", "cgroup-limit", "cgroup-kill"),  # a Cray node's "under_oom detected"
    # -- SIGKILL's exit status, with no container named: the OOM killer, as the corpus reads a bare kill
    ("kani_cbmc_failed_status_137.log", "system-ram", "killed"),  # "CBMC failed with status 137"
    # -- what only sounds like it
    ("boogie_civl_prover_died_unknown_constant.log", "other", None),  # Boogie's guess "perhaps it ran out of memory"
    ("qsvenc_4k_10bit_failed_allocate_frames_undeveloped.log", "other", None),  # Intel's "undeveloped feature"
    ("ustreamer_second_capture_card_no_space_usb.log", "other", None),  # V4L2's ENOSPC: the USB bus' bandwidth
    ("svt-hevc_macos_sem_open_channel_alloc.log", "other", None),  # SVT-HEVC's "allocate memory failed" after sem_open
    ("openedx_derex_lms_gunicorn_worker_signal9_timeout.log", "other", None),  # gunicorn's own SIGKILL of a worker,
    # its "WORKER TIMEOUT" pasted only below the kill: the timeout is the failure
    ("swarmui_listmodels_dotnet_outofmemoryexception.log", "other", None),  # a string over .NET's length limit
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_programs_words_read_as_what_ran_out(name, kind, ending):
    assert_far_reading(name, kind, ending)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Killed map tasks=1", None),  # a Hadoop job's counter, not the shell's "Killed"
        ("Error: watch /home/dev/site/gatsby-config.js ENOSPC", "other"),  # a file watcher's ENOSPC: inotify's limit
        ("nsh: mount: mount failed: Out of memory", "system-ram"),  # NuttX's ENOMEM (its thread found a bad SD card)
    ],
)
def test_the_lines_that_say_memory_ran_out_and_those_that_do_not(line, kind):
    failure = explain_log(line.encode())["failure"]
    assert (failure or {}).get("kind") == kind
