"""Logs of the trades the held-out rounds mx to nm reached — chess engines, package managers, chip design, solvers,
Java servers, LLM app builders, routers, creative coding, genomics, neuroimaging, microscopy, reinforcement learning,
test automation, Erlang, office files — as users paste them: each program's words for memory or a disk running out,
and the words that only sound like it (tests/fixtures/logs/SOURCES.md cites each thread). A program's own memory cap
is in test_log_own_caps.py."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, assert_far_reading

from memprobe.logs.explain import explain_log

LOGS = FIXTURES / "logs"

READINGS = [
    # -- a disk full, in a program's own words
    # helm/charts#12298: OrientDB's "OLowDiskSpaceException: ... due to limited free space on the disk (868 MB)"
    ("nexus_k8s_orientdb_low_disk_space.log", "disk", None),
    # lede-project/source#158: opkg's "Only have 0kb available on filesystem /overlay, pkg ... needs 11"
    ("lede_opkg_luci_overlay_0kb_available.log", "disk", None),
    # zotonic/zotonic#2504: Erlang's ENOSPC in Mnesia's file error ("{file_error,"...DECISION_TAB.TMP",enospc}")
    ("zotonic_mnesia_decision_tab_enospc.log", "disk", None),
    # -- the host's memory
    # cityofaustin/atd-data-tech#19917: Excel's "There isn't enough memory to complete this action. Consider using
    # 64-bit version of Excel."
    ("excel_32bit_not_enough_memory_sharepoint_popup.log", "system-ram", None),
    # zerotier/ZeroTierOne#164: a program's own "terminating: memory allocation failure" (not the CUDA runtime's
    # "fatal : Memory allocation failure" before it aborts)
    ("zerotier_asuswrt_memory_allocation_failure_identity.log", "system-ram", None),
    # bwa-mem2/bwa-mem2#237: "Allocation of 40.69 GB for suffix_array failed."
    ("bwamem2_index_suffix_array_allocation_failed.log", "system-ram", None),
    # BodenmillerGroup/ImcSegmentationPipeline#44: CellProfiler's worker's "(Worker) MemoryError:"
    ("cellprofiler_measureobjectneighbors_worker_memoryerror.log", "system-ram", None),
    # leela-zero/leela-zero#2363: "LOW MEMORY SETTINGS! Couldn't set default memory limits."
    ("leelaz_cpuonly_win32_low_memory_settings_20b.log", "system-ram", None),
    # -- the GPU's memory
    # nanoporetech/rerio#25: Guppy's "what():  Could not allocate shared buffer for CUDA basecaller."
    ("guppy_bonito_model_shared_buffer_cuda_alloc.log", "vram", None),
    # nannou-org/nannou#491, #676: gfx-hal's "AllocationError(OutOfMemory(Device))" under wgpu
    ("nannou_resize_wgpu_allocation_oom_device.log", "vram", None),
    ("nannou_example_windows_resize_gpu_memory_leak.log", "vram", None),
    # -- a platform's cap: FlowiseAI/Flowise#1932, Render's "Ran out of memory (used over 2GB) while running your code."
    ("flowise_render_upsert_10k_pages_out_of_memory.log", "cgroup-limit", "cgroup-kill"),
    # -- what only sounds like memory
    # quarkusio/quarkus#32895 and gotson/komga#904: the JVM's "There is insufficient memory for the Java Runtime
    # Environment to continue." under "Failed to start thread ... pthread_create failed (EPERM)" (an old container
    # runtime's seccomp refused the thread): the refusal, no memory's
    ("keycloak_devservices_gc_thread_eperm_old_docker.log", "other", None),
    ("komga_container_pthread_eperm_insufficient_memory.log", "other", None),
    # juanfont/headscale#1761: SQLite's code 14 (SQLITE_CANTOPEN) worded "out of memory (14)" by a Go driver
    ("headscale_sqlite_path_omitted_out_of_memory_14.log", "other", None),
    # sanderland/katrain#349: KaTrain's guess "Engine died unexpectedly without sending output, possibly due to out of
    # memory: status 3221225501" (an illegal instruction)
    ("katrain_katago_dll_error_3221225501_oom_wording.log", "other", None),
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_programs_words_read_as_what_ran_out(name, kind, ending):
    assert_far_reading(name, kind, ending)


def test_a_guess_at_memory_is_no_memory_failure_the_missing_library_is():
    # sanderland/katrain#409: KaTrain says "possibly due to out of memory: status 127" under the loader's "error while
    # loading shared libraries: libzip.so.5": another error, and no step for memory
    doc = explain_log((LOGS / "katrain_katago_libzip_missing_status127_oom_wording.log").read_bytes())
    assert doc["failure"]["kind"] == "other"
    assert not {"pagefile", "add-swap", "raise-own-limit"} & {s["id"] for s in doc["suggestions"]}


def test_the_jvms_refused_thread_is_read_with_a_blank_line_after_each_line():
    # quarkusio/quarkus#32895 as a page that made each line a paragraph copies it: the EPERM refusal four lines above
    # the JVM's "insufficient memory" still says why
    text = (LOGS / "keycloak_devservices_gc_thread_eperm_old_docker.log").read_text(encoding="utf-8")
    spaced = "\n\n".join(text.splitlines())
    assert explain_log(spaced)["failure"]["kind"] == "other"


def test_systemds_kill_after_a_stop_that_timed_out_is_no_oom_kill():
    # zerotier/ZeroTierOne#898: "Killing process 617 (zerotier-one) with signal SIGKILL", "status=9/KILL", then
    # "Failed with result 'timeout'": systemd's own SIGKILL when the stop timed out, not the OOM killer's
    doc = explain_log((LOGS / "zerotier_shutdown_stop_timeout_sigkill.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["ending"]) == ("abrupt", "killed")
    assert "pagefile" not in {s["id"] for s in doc["suggestions"]}


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("fatal : Memory allocation failure", "abrupt"),  # the CUDA runtime's, then it aborts
        ("Worker tcp://127.0.0.1:1 (pid=2) exceeded 0% memory budget. Restarting...", None),  # a limit read as 0
        ("unable to open database file: out of memory (14)", "other"),
    ],
)
def test_the_lines_that_say_memory_ran_out_and_those_that_do_not(line, kind):
    failure = explain_log(line.encode())["failure"]
    assert (failure or {}).get("kind") == kind
