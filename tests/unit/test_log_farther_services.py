"""Logs of the programs the held-out rounds ot to pq reached — fediverse servers, vector databases, radio software, RAW
developers, music software, PDF tools, crawlers, WebAssembly runtimes, forums, peer-to-peer networks, forensics, git
servers, caches, CFD solvers, Android emulators, chat frameworks, archivers, code search, mail clients, batch
schedulers, BIM tools, volunteer computing, Kiwix, packet capture — as users paste them: each program's words for memory
or a disk running out, and the words that only sound like it (tests/fixtures/logs/SOURCES.md cites each thread). A
program's own memory cap is in test_log_own_caps.py."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, assert_far_reading

from memprobe.logs.explain import explain_log

READINGS = [
    # -- a disk full, in a kernel's, a store's, a tool's own words
    ("gotosocial_sqlite_migration_file_system_full.log", "disk", None),  # "/vol: write failed, file system is full"
    ("browsertrix_crawler_out_of_disk_space_exiting.log", "disk", None),  # a JSON line: "Out of disk space, exiting."
    ("heritrix_bdb_disklimitexception_freedisk.log", "disk", None),  # Berkeley DB JE: "Disk usage is not within je..."
    ("okteto_syncthing_insufficient_space_database.log", "disk", None),  # "insufficient space on disk for database"
    (
        "flutter_emulator_install_failed_insufficient_storage.log",
        "disk",
        None,
    ),  # "[INSTALL_FAILED_INSUFFICIENT_STORAGE]"
    ("docker_android_emulator_102mb_insufficient_storage.log", "disk", None),  # ... its last letter run into the next
    ("pbspro_gadi_payu_jobfs_quota_exceeded_killed.log", "disk", None),  # PBS: "killed due to exceeding jobfs quota"
    ("securityonion_nsm_sensor_clean_disk_100.log", "disk", None),  # "* disk space currently at 100%"
    # -- the host's memory, in an allocator's or a tool's words
    ("plato_mupdf_malloc_failed.log", "system-ram", None),  # MuPDF: "error: malloc of 2482272 bytes failed"
    ("p7zip_system2_cant_allocate_required_memory.log", "system-ram", None),  # "ERROR: Can't allocate required memory!"
    ("berryboot_mksquashfs_requires_more_physical_memory_pi2.log", "system-ram", None),  # "mksquashfs requires more
    # physical memory than is available!"
    ("lrzip_decompress_unable_to_malloc_buffer_rzip_only.log", "system-ram", None),  # "Unable to malloc buffer of size"
    ("offlineimap_rpi_uid_fetch_memoryerror.log", "system-ram", None),  # Python 2: "<type 'exceptions.MemoryError'>"
    ("kiwix_serve_rpi_allocation_error_not_enough_memory.log", "system-ram", None),  # libkiwix's "Allocation error"
    ("milvus_querynode_insufficient_memory_to_load.log", "system-ram", None),  # "InsufficientMemoryToLoad" (its
    # thread: the container's limit, which the text does not name: disputed)
    ("autopsy_add_image_native_malloc_oom.log", "system-ram", None),  # the JVM's "# java.lang.OutOfMemoryError", no
    # words after it, over "There is insufficient memory for the Java Runtime Environment to continue."
    ("fds5_tunnel_fire_forrtl_41_insufficient_virtual_memory.log", "commit-limit", None),  # Intel Fortran on Windows:
    # "forrtl: severe (41): insufficient virtual memory"
    # -- SIGKILL, however it was written: the OOM killer, as the corpus reads a bare kill
    ("wkhtmltoimage_rendering_killed.log", "system-ram", "killed"),  # the shell's word over a bar: "Killed=====>"
    ("wkhtmltopdf_printing_pages_killed.log", "system-ram", "killed"),
    ("misskey_upgrade_webpack_killed_execa_137.log", "system-ram", "killed"),  # execa's "exitCode: 137," is a host's
    ("sdrangel_build_cc1plus_signal_terminated_rpi4.log", "system-ram", None),  # gcc's "fatal error: signal terminated
    # program cc1plus", the signal's name left out
    ("appimagekit_mksquashfs_bazel_killed.log", "system-ram", None),  # Bazel: "failed: (Killed): tool failed"
    # -- a GPU's memory, in a library's own check
    ("faiss_gpu_stackdevicememory_assertion.log", "vram", None),  # Faiss' temporary memory it could not reserve
    ("fluidx3d_gtx1050ti_not_enough_vram_boeing757.log", "vram", None),  # 'Device "..." does not have enough memory.'
    # -- a batch scheduler at the memory a job asked for (as Slurm's cgroup)
    ("pbspro_canu_bat_job_killed_mem_exceeded_limit.log", "cgroup-limit", "cgroup-kill"),  # "PBS: job killed: mem"
    ("torque_hyphy_gard_mpi_vmem_exceeded_limit.log", "cgroup-limit", "cgroup-kill"),  # "... job killed: vmem"
    ("torque_nextflow_sarek_vmem_exceeded_aborted.log", "cgroup-limit", "cgroup-kill"),  # "Job exceeded a memory ..."
    ("torque_moab_openmm_mem_hard_limit_job_deleted.log", "cgroup-limit", "cgroup-kill"),  # "exceeded MEM usage hard"
    ("lsf_souporcell_term_memlimit_exit_143.log", "cgroup-limit", "cgroup-kill"),  # LSF's "TERM_MEMLIMIT"
    ("htcondor_pycbc_held_periodic_hold_memory_usage.log", "cgroup-limit", "cgroup-kill"),  # HTCondor's hold
    ("htcondor_crab_postjob_killed_excessive_memory_rss.log", "cgroup-limit", "cgroup-kill"),  # ... and its kill
    ("nomad_docker_java_exit_137_oom_killed.log", "cgroup-limit", "cgroup-kill"),  # Nomad: 'Exit Message: "OOM Killed"'
    # -- a crash's own words: an unexplained end
    ("vcvrack_mutable_instruments_fatal_signal_11.log", "abrupt", "crash"),  # "Fatal signal 11. Stack trace:"
    ("thunderbird_68_startup_crash_generatedump.log", "abrupt", "crash"),  # Breakpad: "ExceptionHandler::GenerateDump"
    ("warc2zim_free_corrupted_unsorted_chunks.log", "abrupt", "crash"),  # glibc: "free(): corrupted unsorted chunks"
    ("boinc_client_wcg_glibc_malloc_error_on_restart.log", "abrupt", "crash"),  # "*** glibc detected *** ./boinc: ..."
    ("zeek_many_pcaps_buffer_overflow_detected.log", "abrupt", "crash"),  # "*** buffer overflow detected ***"
    # -- what only sounds like it
    ("trunk_recorder_rtlsdr_zero_copy_buffer_submit_transfer_fail.log", "other", None),  # librtlsdr falls back to
    ("rtl_433_zero_copy_fallback_input_device_start_failed.log", "other", None),  # buffers in user space: its error
    ("memcached_mlockall_cannot_allocate_memory.log", "other", None),  # "-k invalid, mlockall() failed: Cannot
    # allocate memory": the limit on locked memory
    ("freepbx_mariadb_zfs_preallocate_error95.log", "other", None),  # InnoDB's guess "Probably out of disk space" over
    # error 95, a file system that cannot preallocate
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_programs_words_read_as_what_ran_out(name, kind, ending):
    assert_far_reading(name, kind, ending)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("error: malloc of 2482272 bytes failed", "system-ram"),  # MuPDF's words, three ways
        ("could not run page: malloc (96707520 bytes) failed", "system-ram"),
        ("Error: calloc (1 x 4144 bytes) failed", "system-ram"),
        ("Cannot enlarge memory, requested 2147487744 bytes, but the limit is 2147483648 bytes!", "system-ram"),
        ('2025-07-07 "message":"Out of disk space, exiting. Quitting"', "disk"),
        ("/vol: write failed, filesystem is full", "disk"),
        ("[ERROR] InnoDB: Could not set the file size of './ibdata1'. Probably out of disk space", "other"),
        ("  exitCode: 137,\n  signal: undefined,\n  killed: false", "system-ram"),  # a JavaScript error object's
        # fields: a host's process killed, not a container
        ('Exit Code: 137, Exit Message: "OOM Killed"', "cgroup-limit"),  # ... and Nomad's on a task's container
        ("=>> PBS: job killed: mem 38427376kb exceeded limit 33554432kb", "cgroup-limit"),
    ],
)
def test_the_lines_that_say_memory_ran_out_and_those_that_do_not(line, kind):
    failure = explain_log(line.encode())["failure"]
    assert (failure or {}).get("kind") == kind


def test_a_batch_schedulers_kill_is_told_to_ask_for_more_memory():
    # GIVEN PBS' kill of a job at the memory it asked for, WHEN read, THEN the first step raises that limit
    doc = explain_log((FIXTURES / "logs" / "pbs_dask_worker_job_total_mem_exceeded.log").read_bytes())
    assert doc["failure"]["kind"] == "cgroup-limit"
    assert doc["suggestions"][0]["id"] == "container-limit"
