"""Logs of the services the held-out rounds od to os reached — chat bots, SCADA gateways, motion trackers, terminals
and editors, load generators, help desks, SIP servers, directory servers, monitoring, RSS readers, finance apps,
labelling tools, note apps, storage systems, household apps, print and scan servers — as users paste them: each
program's words for memory or a disk running out, and the words that only sound like it
(tests/fixtures/logs/SOURCES.md cites each thread). A program's own memory cap is in test_log_own_caps.py."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, assert_far_reading

from memprobe.logs.explain import explain_log

READINGS = [
    # -- a disk full, in a file system's, a store's or a service's own words
    ("btrfs_nixos_transaction_aborted_enospc_full.log", "disk", None),  # "Transaction aborted (error -28)"
    ("zfs_receive_refquota_exceeded_compressed.log", "disk", None),  # "destination wwwpool space quota exceeded"
    ("zfs_create_zvol_out_of_space.log", "disk", None),  # libzfs: "cannot create 'root/root': out of space"
    ("ceph_health_err_full_osd_pools_full.log", "disk", None),  # "HEALTH_ERR 1 full osd(s)"
    ("ceph_mon_data_avail_crit_spdk_ci.log", "disk", None),  # ceph-mon below 'mon data avail crit'
    ("seafile_full_drive_mysql_partition_too_full.log", "disk", None),  # "The partition with ... is too full!"
    ("cvat_export_health_check_disk_usage.log", "disk", None),  # "92.9% disk usage exceeds 90%"
    # -- the host's memory, in an allocator's words
    ("wrk_zmalloc_800mb_stats_alloc.log", "system-ram", None),  # "zmalloc: Out of memory trying to allocate ..."
    ("slapd_docker_ch_calloc_nofile_1g_vm.log", "system-ram", None),  # slapd: "ch_calloc of 1048576 elems of ..."
    ("georchestra_ldap_slapd_ch_calloc_assert_docker24.log", "system-ram", None),  # ... its assertion alone
    ("carbonio_openldap_ch_calloc_nofile_1073741816.log", "system-ram", None),
    ("hledger_bal_out_of_memory_windows.log", "system-ram", None),  # GHC's runtime: "hledger: out of memory"
    ("actual_server_docker_armv7_yarn_couldnt_allocate_memory.log", "system-ram", None),  # Yarn's zip library
    ("cvat_segmask_download_workhorse_waitpid9.log", "system-ram", None),  # RQ's "(waitpid returned 9)"
    ("samba_smbd_create_local_token_nt_status_no_memory.log", "system-ram", None),  # Samba's status on Unix, not
    # Windows' commit (its thread found a missing library: disputed)
    # -- SIGKILL's exit status, with no container named: the OOM killer, as the corpus reads a bare kill
    ("k6_docker_make_error_137_vus_init.log", "system-ram", "killed"),  # a sub-make's "make[2]: *** [exec] Error 137"
    ("scanservjs_preview_service_killed_raspberry.log", "system-ram", "killed"),  # systemd's "status=9/KILL", then
    ("freeswitch_bbb_systemd_killed_signal9.log", "system-ram", "killed"),  # its "Failed with result 'signal'"
    # -- what only sounds like it
    ("vim_e342_rclone_xattr_bogus_alloc.log", "other", None),  # Vim asked for 2^64 - 1 bytes: a size gone wrong
    ("opensips_tls_srtp_shm_bogus_size.log", "other", None),  # OpenSIPS' "need 18446744072258257520": the same
    ("posenet_coral_gst_v4l2_buffer_alloc.log", "other", None),  # GStreamer's camera buffer pool, not the RAM
    ("rook_minikube_mon_data_avail_bogus_zero.log", "other", None),  # ceph-mon's "(available: -2147483648% 0 B)"
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_services_words_read_as_what_ran_out(name, kind, ending):
    assert_far_reading(name, kind, ending)


@pytest.mark.parametrize(
    ("name", "step", "setting"),
    [
        ("bitnami_openldap_slapadd_mdb_map_full.log", "raise-store-limit", "olcDbMaxSize"),  # LMDB's MDB_MAP_FULL
        ("dcm4chee_ldap_mdb_id2entry_map_full.log", "raise-store-limit", "olcDbMaxSize"),
        ("etcdctl_put_mvcc_database_space_exceeded.log", "raise-store-limit", "--quota-backend-bytes"),
        ("freeipa_389ds_bdb_no_diskspace_dev_shm.log", "grow-shared-memory", "--shm-size"),  # "No enough space left
        # on device (/dev/shm/slapd-…)": the container's /dev/shm, not its disk
    ],
)
def test_a_store_at_its_own_size_is_told_to_raise_it_not_to_free_the_drive(name, step, setting):
    # GIVEN a database that filled the size it was given (or a /dev/shm that filled), WHEN read, THEN a full disk
    # whose first step raises that size, naming its setting, and none frees the drive
    doc = explain_log((FIXTURES / "logs" / name).read_bytes())
    first, *rest = doc["suggestions"]
    assert doc["failure"]["kind"] == "disk"
    assert (first["id"], first["tier"]) == (step, "failure") and setting in first["try"]
    assert "free-disk" not in {s["id"] for s in rest}


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("zmalloc: Out of memory trying to allocate 24 bytes", "system-ram"),  # Redis' allocator
        ("slapd: ch_malloc.c:107: ch_calloc: Assertion `0' failed.", "system-ram"),
        ("Error: E342: Out of memory!  (allocating 18446744073709551615 bytes)", "other"),  # -1, read unsigned
        ("Error: Failed to read: MDB_MAP_FULL: Environment mapsize limit reached", "disk"),
        ("hledger: out of memory", "system-ram"),  # a program's last word after its name: the host's where the log
        ("Using device: cuda:0\nworker: out of memory", "vram"),  # names no GPU, as a bare "ERROR: out of memory" is
        ("create_local_token failed: NT_STATUS_NO_MEMORY", "system-ram"),  # Samba's, not Windows' STATUS_NO_MEMORY
        ("Process exited with code 3221225495 (STATUS_NO_MEMORY)", "commit-limit"),  # ... which is the commit's
    ],
)
def test_the_lines_that_say_memory_ran_out_and_those_that_do_not(line, kind):
    failure = explain_log(line.encode())["failure"]
    assert (failure or {}).get("kind") == kind
