"""A program stopped at a memory cap set for it, below what the machine has — the JVM's heap, V8's, PHP's
memory_limit, ImageMagick's policy, GHC's, TeX's, a server's own limit (memprobe/judging/caps.py): read as the RAM it
allowed itself, the first step raising that cap by its setting. Real logs of the held-out rounds
(tests/fixtures/logs/SOURCES.md cites each thread)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log

LOGS = FIXTURES / "logs"

OWN_CAPS = [
    # (the log, a word of the setting its first step names)
    ("allofabric6_heap_space_exception_ticking_world.log", "-Xmx"),
    ("nextjs_dev_heap_oom_4096.log", "--max-old-space-size"),
    ("sotoki_mogrify_cache_resources_exhausted.log", "policy.xml"),
    ("composer_easy-sms_memory_solver.log", "memory_limit"),
    ("wholphin_kotlin_not-enough-memory_compile.log", "kotlin.daemon.jvmargs"),
    ("glide_oom_executor_60byte.log", "android:largeHeap"),
    ("talk-ios_nse_exc_resource_24mb.log", "increased-memory-limit"),
    ("psi4_ccsdt_dpd_block_matrix_no_memory_left.log", "psi4 -m"),
    # and kx to li: Qiskit Aer's max_memory_mb (oqc-community/qat#129, Qiskit/qiskit-aer#1114), PostgreSQL's 1 GB
    # (pgRouting/pgrouting#291), GeoServer's WMS limit (tethysplatform/tethys#278), TeX's fixed memory
    # (MiKTeX/miktex#558, #753), GHC's heap (jgm/pandoc#7419, plfa/plfa.github.io#583), JavaCPP's
    # (ant-media/Ant-Media-Server#2822), CodeQL's (github/vscode-codeql#865), Dovecot's vsz_limit
    # (hardware/mailserver#18, mailcow/mailcow-dockerized#2548), V8's before 2015 (askmike/gekko#101)
    ("qat_aer_statevector_insufficient_memory_ci.log", "max_memory_mb"),
    ("qiskit_aer_qasm_30q_insufficient_memory_half_ram.log", "max_memory_mb"),
    ("pgrouting_astar_europe_invalid_memory_alloc.log", "ask for less"),
    ("geoserver_wms_getmap_max_request_memory_exceeded.log", "Max rendering memory"),
    ("miktex_pdflatex_main_memory_verbatim.log", "main_memory"),
    ("miktex_xelatex_format_pattern_memory.log", "trie_size"),
    ("pandoc_epub_heap_exhausted_rts_cap.log", "+RTS -M"),
    ("agda_plfa_typecheck_heap_exhausted_3584mb.log", "+RTS -M"),
    ("antmedia_physical_memory_too_high_adaptive.log", "maxPhysicalBytes"),
    ("vscode_codeql_query_out_of_memory.log", "codeQL.runningQueries.memory"),
    ("dovecot_imap_vsz_limit_out_of_memory.log", "vsz_limit"),
    ("mailcow_dovecot_lmtp_block_alloc_oom.log", "vsz_limit"),
    ("gekko_localdb_rpi256mb_js_allocation_failed.log", "--max-old-space-size"),
    # and lj to lq: IoTDB's memory for queries (apache/iotdb#11967), QuestDB's RSS limit (questdb/questdb#4999), the
    # JVM's heap too full to report its error (questdb/questdb#5370), GADGET's MaxMemSize (denisyurin/GALIC#1),
    # LuaJIT's 2 GB (Kong/kong#4816), V8's old "# Allocation failed - process out of memory"
    # (ONLYOFFICE/DocumentBuilder#11)
    ("iotdb_export_tsfile_query_memory_not_enough.log", "ON_HEAP_MEMORY"),
    ("questdb_global_rss_memory_limit_exceeded.log", "ram.usage.limit"),
    ("questdb_pgwire_outofmemoryerror_uncaught_handler_journal.log", "-Xmx"),
    ("galic_mymalloc_not_enough_memory_maxmemsize.log", "MaxMemSize"),
    ("kong_luajit_vm_not_enough_memory_2gb.log", "GC64"),
    ("onlyoffice_documentbuilder_v8_allocation_failed_bug.log", "--max-old-space-size"),
    # and lr to mg: Emscripten's fixed heap ("Cannot enlarge memory arrays. Either (1) compile with -s TOTAL_MEMORY=X
    # ...", naptha/tesseract.js#178, #100; a Unity WebGL build's, NoteCAD/NoteCAD#48), Trino's limits on a query ("Query
    # exceeded per-node memory limit of 4.80GB", trinodb/trino#20398; "... per-node user memory limit of 64MB", #18447),
    # V8's last collections where the paste stops before its fatal error ("... ms: Mark-sweep 1400.2 (1560.8) -> 1400.2
    # (1559.8) MB, 2095.4 / 0.0 ms  last resort gc", apache/superset#4159), IIS' limit on an application pool ("... has
    # requested a recycle because it reached its private bytes memory limit.", nopSolutions/nopCommerce#3220)
    ("tesseractjs_detect_cannot_enlarge_memory_arrays.log", "ALLOW_MEMORY_GROWTH"),
    ("webml-polyfill_wasm_cannot-enlarge-memory-arrays.log", "ALLOW_MEMORY_GROWTH"),  # (intel/webml-polyfill#139: "...
    # abort("Cannot enlarge memory arrays ... instead of this abort ...")": its "instead" no fallback)
    ("tesseractjs_second_image_enlarge_memory_arrays.log", "ALLOW_MEMORY_GROWTH"),
    ("notecad_webgl_stl_import_cannot_enlarge_memory.log", "INITIAL_MEMORY"),
    ("trino_table_function_exceeded_per_node_memory_limit.log", "query.max-memory-per-node"),
    ("trino_order_by_user_memory_limit_64mb_spill_unused.log", "query.max-memory-per-node"),
    ("superset_npm_build_node_heap_last_resort_gc.log", "--max-old-space-size"),
    ("nopcommerce_iis_app_pool_private_bytes_recycle.log", "Private Memory Limit"),
    # and mh to mo: TiDB's quota on a query ("ERROR 1105 (HY000): Out Of Memory Quota!", pingcap/tidb#17360), Doris'
    # limit on its backend ("Allocator sys memory check failed: Cannot alloc:134217728, ... process memory used 25.55
    # GB exceed limit 24.48 GB ...", apache/doris#33565), V8's last Mark-sweeps where the paste stops at "<--- JS
    # stacktrace --->" ("... allocation failure scavenge might not succeed", BrickSchema/brick-website#116,
    # microsoft/BotFramework-Composer#1289)
    ("tidb_tpch_query_out_of_memory_quota_1gb.log", "tidb_mem_quota_query"),
    ("doris_be_process_memory_exceed_limit_query_cancelled.log", "mem_limit"),
    ("gridsome_site_build_graphql_heap_gc.log", "--max-old-space-size"),
    ("botframework_composer_cra_build_docker_heap_oom.log", "--max-old-space-size"),
    # and mp to mw: Beam's memory monitor ending a worker's JVM ("Shutting down JVM after 8 consecutive periods of
    # measured GC thrashing", mozilla/gcp-ingestion#739, apache/beam#22515), Flink's words for the JVM's metaspace
    # ("Metaspace. The metaspace out-of-memory error has occurred", apache/iceberg#3776), V8's other reason for its
    # last collections ("allocation failure GC in old space requested", stan-dev/rstan#1071)
    ("beam_dataflow_bq_sink_gc_thrashing_shutdown.log", "-Xmx"),
    ("beam_dataflow_harness_gc_thrashing_24g.log", "-Xmx"),
    ("flink_iceberg_user_jar_metaspace_oom.log", "MaxMetaspaceSize"),
    ("rstan_stanc_js_heap_oom_large_model.log", "--max-old-space-size"),
    # and mx to nm: the JVM's class space before Java 8 ("java.lang.OutOfMemoryError: PermGen space",
    # spring-projects/spring-boot#6841 and two Tomcat threads), Tomcat's parachute gone after an OutOfMemoryError
    # ("Memory usage is low, parachute is non existent, your system may start failing."), Processing's words under a
    # sketch's OutOfMemoryError ("... your sketch may need more memory to run"), Dask's nanny ("exceeded 95% memory
    # budget. Restarting..."), ImageJ's dialog pasted without its brackets ("All available memory (11264MB) has been
    # used>"), V8's report headed "<--- Last few GCs --->" where the paste keeps no fatal line, and its idle task's
    # collections near the limit ("... task; scavenge might not succeed")
    ("tomcat7_ginco_permgen_first_login.log", "-XX:MaxPermSize"),
    ("springboot_embedded_tomcat_permgen_nio.log", "-XX:MaxPermSize"),
    ("tomcat_arcproxy_parachute_memory_low.log", "-Xmx"),
    ("yoylecitywords_processing_outofmemory_message.log", "Increase maximum available memory"),
    ("squiggledraw_processing_oom_large_image.log", "Increase maximum available memory"),
    ("tsfresh_dask_worker_exceeded_memory_budget.log", "memory_limit"),
    ("fiji_stitching_all_available_memory_used.log", "Memory & Threads"),
    ("testcafe_circleci_node_heap_oom_js_stack.log", "--max-old-space-size"),
    ("fastgpt_app_node_heap_4gb_gc.log", "--max-old-space-size"),
    ("triton_z3_max_memory_exceeded_terminate.log", "memory_max_size"),  # (JonathanSalwan/Triton's Z3 at its cap)
    ("klee_coreutils_cat_killing_states_over_memory_cap.log", "--max-memory"),
    ("kissat_arena_capacity_32gb_exhausted.log", "CaDiCaL"),
    ("stp_cryptominisat_watched_assertion_largemem.log", "-DLARGEMEM"),
    ("otelcol_prometheus_scrape_commit_data_refused_memory.log", "limit_mib"),
    ("xteink_font_maker_wasm_aborted_oom.log", "ALLOW_MEMORY_GROWTH"),
    ("sbt_metaspace_cross_test_130rc1.log", "MaxMetaspaceSize"),  # (the JVM's "OutOfMemoryError: Metaspace", its
    ("renaissance_sbt_compiler_bridge_metaspace.log", "MaxMetaspaceSize"),  # type read apart from its message)
    ("streampipes_mqtt_adapter_direct_buffer_oom.log", "MaxDirectMemorySize"),  # "OutOfMemoryError: Direct buffer
    # memory" from java.nio.Bits
    ("tb_gateway_java_oom_dispatching_sigterm_paho_buffer.log", "-Xmx"),  # HotSpot: "Exception java.lang.
    # OutOfMemoryError occurred dispatching signal SIGTERM to handler"
    ("lem_multiple_cursors_sbcl_heap_exhausted.log", "--dynamic-space-size"),  # SBCL: "Heap exhausted during ..."
    ("vim_e363_maxmempattern_json_matchparen.log", "maxmempattern"),  # "E363: pattern uses more memory than ..."
    ("mediapipeunity_ios_video_input_exc_resource_memory.log", "increased-memory-limit"),  # a crash log's thread:
    # "EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=1450 MB, unused=0x0)"
    ("kamailio_db_mysql_no_private_memory_left.log", "PKG_MEMORY"),  # Kamailio's and OpenSIPS' pools: private
    ("opensips_pkg_fragmented_not_enough_free.log", "PKG_MEMORY"),  # ("no private memory left", "not enough free pkg
    ("kamailio_smsops_pkg_free_fragment_not_found.log", "PKG_MEMORY"),  # memory (…), please increase the "-M" …",
    ("kamailio_uac_no_more_shm_leak.log", "SHM_MEMORY"),  # q_malloc's "Free fragment not found!") and shared ("no
    ("kamailio_ivoz_proxytrunk_tm_shm_out_of_mem.log", "SHM_MEMORY"),  # more shm")
    ("opensips_startup_fm_malloc_defrag_unsuccessful.log", "PKG_MEMORY"),  # f_malloc's "Defragmentation unsuccessful"
    ("zabbix_server_cachesize_out_of_memory.log", "CacheSize"),  # "zbx_mem_realloc(): out of memory (requested ...)"
    ("zabbix_docker_cachesize_env_not_applied.log", "CacheSize"),
    ("zabbix_server_dbconfig_cachesize_wrapped.log", "CacheSize"),  # ... its lines wrapped: "please increase ..." alone
    # and ot to pq: Emscripten's heap at its maximum ("Cannot enlarge memory, requested 2147487744 bytes, but the limit
    # is 2147483648 bytes!"), Sidekiq's RSS watchdogs (Discourse's, GitLab's MemoryKiller), Tor's MaxMemInQueues,
    # plaso's worker limit, Ignite's data region, Dragonfly's maxmemory, BOINC's share of the RAM, Suricata's memcap
    ("mupdf_js_wasm_cannot_enlarge_memory_calloc_failed.log", "ALLOW_MEMORY_GROWTH"),
    ("pdfium_wasm_cannot_enlarge_memory_page_leak.log", "ALLOW_MEMORY_GROWTH"),
    ("discourse_k8s_sidekiq_max_rss_restart.log", "UNICORN_SIDEKIQ_MAX_RSS"),
    ("docker_gitlab_sidekiq_memory_killer_rss_out_of_range.log", "SIDEKIQ_MEMORY_KILLER_MAX_RSS"),
    ("tor_relay_maxmeminqueues_low_on_memory.log", "MaxMemInQueues"),
    ("plaso_psteal_worker_exceeded_memory_limit.log", "--worker_memory_limit"),
    ("ignite_vertx_data_region_out_of_memory.log", "DataRegionConfiguration.maxSize"),
    ("dragonfly_threads_require_more_memory_exiting.log", "--maxmemory"),  # "There are 12 threads, so 3.00GiB are
    ("dragonfly_docker_not_enough_memory_for_threads.log", "--maxmemory"),  # required. Exiting..."
    ("dragonfly_snapshot_load_exceeds_maxmemory.log", "--maxmemory"),  # "Could not load snapshot - its used memory is"
    ("boinc_mac_cpdn_openifs_job_using_too_much_memory.log", "Computing preferences"),  # "job using too much memory"
    ("balena_rosetta_rpi4_needs_ram_only_available.log", "Computing preferences"),  # "needs 1907.35 MB RAM but only"
    ("suricata_selks_stream_pool_alloc_error.log", "stream.memcap"),  # "... Expand stream.memcap?"
]


@pytest.mark.parametrize(("name", "setting"), OWN_CAPS, ids=[row[0] for row in OWN_CAPS])
def test_a_programs_own_memory_cap_is_raised_first_not_the_pagefile(name, setting):
    # the cap the program was given was reached, not the OS' limit: the first step raises that cap (naming its
    # setting) and none adds swap or pagefile
    doc = explain_log((LOGS / name).read_bytes())
    first, *rest = doc["suggestions"]
    assert (first["id"], first["tier"]) == ("raise-own-limit", "failure") and setting in first["try"]
    assert "pagefile" not in {s["id"] for s in rest}
