"""Logs of the programs the held-out rounds pu to rb reached — graph databases, flight simulators, 2D game engines,
backup servers, map tile tools, emulators, firmware builds, aligners, strategy games, quantum chemistry, TeX, point
clouds, astrophotography, text editors, space games, home automation, data workbenches, database clients, web 3D
engines, VR runtimes, racing simulators, VTuber tools, e-commerce, CMSes, genealogy, ERP, subtitles, computer algebra,
network emulators, 2D animation, note-taking, font tools, digital signage, automation servers — as users paste them:
each program's words for memory or a disk running out, and what only sounds like it (tests/fixtures/logs/SOURCES.md
cites each thread)."""

from __future__ import annotations

import pytest
from helpers import assert_far_reading

from memprobe.logs.explain import explain_log

READINGS = [
    # -- a disk full, in a store's, a backup's, an installer's own words
    ("openmaptiles_imposm_bulk_insert_could_not_extend_file.log", "disk", None),  # PostgreSQL's short write:
    # 'could not extend file "base/16384/49834.8": wrote only 4096 of 8192 bytes'
    ("star_genomegenerate_sa_write_output_file_error.log", "disk", None),  # STAR: "Solution: check that you have
    # enough space on the disk" (its "Solution" no node's class)
    ("amanda_out_of_holding_space_degraded_mode.log", "disk", None),  # "FAILED [out of holding space in degraded mode]"
    ("proxmox_vzdump_pbs_linstor_not_enough_free_space.log", "disk", None),  # LINSTOR: "Not enough free space
    # available for volume 0 of resource ..."
    ("ckan_not_enough_space_game_folder_0b.log", "disk", None),  # "Not enough space in game folder to install ..."
    ("widelands_autosave_zipfs_write_no_space_de.log", "disk", None),  # glibc's German ENOSPC, its "ü" garbled by a
    # code page ("Auf dem GerÃ¤t ist kein Speicherplatz mehr verfÃ¼gbar")
    # -- the host's memory, in an allocator's, a runtime's or a program's words
    ("renpy_fae_surface_init_out_of_memory.log", "system-ram", None),  # pygame's "error: Out of memory" ending Ren'Py's
    # traceback (a C extension's error, its module not printed)
    ("gamemaker_rezonator_saverez_memory_allocation_failed.log", "system-ram", None),  # "Memory allocation failed:
    # Attempting to allocate 3813888 bytes"
    ("love_balatro_lovely_4gb_not_enough_memory.log", "system-ram", None),  # Lua's "not enough memory" on its own line
    (
        "minimap2_splice_morecore_insufficient_memory.log",
        "system-ram",
        None,
    ),  # kalloc's "[morecore] insufficient memory"
    ("osm2pgsql_dense_node_cache_out_of_memory.log", "system-ram", None),  # "Out of memory for dense node cache"
    ("hoi4_kaiserreich_sdl_audio_out_of_memory.log", "system-ram", None),  # 'SDL Error: "Out of memory"' (and "Tried to
    # allocate 5292884 times 1": bytes, not terabytes)
    ("rimworld_giddyup_linux_mmap_prot_none_failed.log", "system-ram", None),  # Mono's "mmap(...PROT_NONE...) failed"
    ("nwchem_simint_fock_rep_txs_insufficient_memory.log", "system-ram", None),  # "fock_rep_txs: insufficient memory"
    ("orca_autode_insufficient_memory_required_16gb.log", "system-ram", None),  # autodE: "Cannot run function -
    # insufficient memory. Had 13.24 GB but required 16.0 GB."
    ("cloudcompare_faro_lsproj_resize_not_enough_memory.log", "system-ram", None),  # "[ccPointCloud::resize] Not
    # enough memory!"
    ("heidisql_export_grid_eoutofmemory.log", "system-ram", None),  # madExcept: "exception class    : EOutOfMemory"
    ("playcanvas_ammo_wasm_abort_oom_app_destroy.log", "system-ram", None),  # Emscripten's 'abort("OOM")'
    ("aframe_hubs_imagebitmap_could_not_be_allocated.log", "system-ram", None),  # "The ImageBitmap could not be
    # allocated."
    ("monado_android_vkcreateframebuffer_out_of_host_memory.log", "system-ram", None),  # VK_ERROR_OUT_OF_HOST_MEMORY
    ("univrm_warudo_fbx_export_outofmemoryexception.log", "system-ram", None),  # Unity's "OutOfMemoryException: Out of
    # memory", no namespace
    ("tahoma2d_run_out_of_contiguous_memory_popup.log", "system-ram", None),  # "run out of contiguous memory"
    ("fontforge_split_font_libxml_memory_allocation_failed.log", "system-ram", None),  # libxml2's "Memory allocation
    # failed : growing buffer"
    ("macaulay2_depth_res_out_of_memory_gc_max_heap.log", "system-ram", None),  # "*** out of memory trying to allocate
    # 64 bytes, exiting ***"
    ("xibo_windows_player_cefsharp_bitmap_nicht_genuegend_speicher.log", "system-ram", None),  # .NET's own words in
    # German ("Nicht genügend Speicher verfügbar, um das Programm weiter auszuführen.")
    # -- a program's own cap, told to raise its setting
    ("arangodb_k8s_v8_out_of_heap_memory.log", "system-ram", None),  # "out of heap hemory in V8" (ArangoDB's typo)
    ("planetiler_insufficient_jvm_heap_read_phase.log", "system-ram", None),  # "26G JVM heap requested for read phase"
    ("molpro_triples_increase_memory_global_error_fehler.log", "system-ram", None),  # "A further 111.29 Mwords of
    # memory are needed"
    ("pdflatex_igraph_docs_hash_size_exceeded.log", "system-ram", None),  # "TeX capacity exceeded, sorry [hash size"
    ("gephi_running_out_of_memory_dialog.log", "system-ram", None),  # "Gephi reached the maximum amount of memory"
    (
        "craftcms_queue_gif_memory_allocation_failed.log",
        "system-ram",
        None,
    ),  # ImageMagick: "memory allocation failed `"
    ("gap_teststandard_stablesort_memory_limit.log", "system-ram", None),  # GAP: "reached the pre-set memory limit"
    # -- a kill, however it was written: the OOM killer, as the corpus reads a bare one
    ("openmaptiles_import_osm_systemd_oomd_killed_docker.log", "system-ram", "memory-kill"),  # journald's prefix names
    # systemd-oomd: "systemd-oomd[958]: Killed /system.slice/docker-....scope"
    ("zed_oom_killer_arch_hyprland_kernel_log.log", "system-ram", "memory-kill"),  # "**Out of memory**: Killed process"
    ("zed_remote_project_memory_growth_dmesg_oom.log", "system-ram", "memory-kill"),  # "containerd invoked oom-killer":
    # a host daemon asked for memory, no container's limit
    ("keystone_npm_install_killed_extract.log", "system-ram", "killed"),  # the shell's word over npm's gauge
    ("xournalpp_crashed_signal_9_large_pdf_ram.log", "system-ram", "killed"),  # "Crashed with signal: 9"
    ("hisat2_align_died_signal9_kill.log", "system-ram", None),  # "(ERR): hisat2-align died with signal 9 (KILL)"
    ("bowtie2_align_killed_exit_137_long_reads.log", "system-ram", None),  # "bowtie2-align exited with value 137"
    ("arangodb_child_process_sigkill_service_wont_start.log", "system-ram", None),  # "exit status 9 (SIGKILL)"
    ("spring_cloud_spinnaker_cf_app_exited_255_out_of_memory.log", "cgroup-limit", "cgroup-kill"),  # Cloud Foundry:
    # "Exited with status 255 (out of memory)", an app instance at its quota
    # -- Windows' commit limit, its detector's event in other words
    ("xibo_windows_running_low_on_memory.log", "commit-limit", "commit-exhausted"),  # its warning to the user
    ("ksp_principia_flight_plan_virtual_memory_low_de.log", "commit-limit", "commit-exhausted"),  # in German
    ("assetto_corsa_csp_acs_virtual_memory_exhausted.log", "commit-limit", "commit-exhausted"),  # only its second
    # sentence: "The following programs consumed the most virtual memory: acs.exe ..."
    # -- a GPU's memory
    ("lapce_wgpu_surface_configure_not_enough_memory.log", "vram", None),  # wgpu under a newer Rust's panic, its
    # message below it, its cause after a blank line
    ("threejs_vizceral_gl_out_of_memory_teximage2d.log", "vram", None),  # Chromium: "GL ERROR :GL_OUT_OF_MEMORY"
    # -- what only sounds like it
    ("crest_cinp_constraints_error_allocating_bytes.log", "other", None),  # gfortran's "Error allocating
    # 94482252136877 bytes": no machine holds that, a size gone wrong
]


@pytest.mark.parametrize(("name", "kind", "ending"), READINGS, ids=[row[0] for row in READINGS])
def test_each_programs_words_read_as_what_ran_out(name, kind, ending):
    assert_far_reading(name, kind, ending)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("not enough memory", "system-ram"),  # Lua's, alone on its line
        ("[ccPointCloud::resize] Not enough memory!", "system-ram"),
        ("Error allocating 1048576 bytes: Cannot allocate memory", "system-ram"),  # gfortran's, a size a machine holds
        ("Error allocating 94482252136877 bytes: Cannot allocate memory", "other"),  # ... and one none does
        (
            'SDL failed allocation in pdx_audio. SDL Error: "Out of memory"\nTried to allocate 5292884 times 1',
            "system-ram",
        ),
        ("Crashed with signal: 9", "system-ram"),
        ("**Out of memory**: Killed process 3939 (zed-editor)", "system-ram"),  # a Markdown emphasis
        ("make: *** [Makefile:16: Vchip_sim_tb.mk] Error 137", "system-ram"),  # ... not make's stars
        ("Aug 03 19:16:40 host systemd-oomd[958]: Killed /system.slice/docker-2843.scope", "system-ram"),
        ("Windows hat diagnostiziert, dass der virtuelle Speicher unzureichend ist.", "commit-limit"),
        ("Need to store 13.2 GiB to Z:/games, but only 7.2 GiB is available! Free up space on that device", "disk"),
        ("Error, reached the pre-set memory limit\n(change it with the -o command line option)", "system-ram"),
        ("[545:7:0917/113950.453756:FATAL:memory.cc(38)] Out of memory. size=262144", "system-ram"),  # Chromium's
        ("Exit status 137 (out of memory)", "cgroup-limit"),  # Cloud Foundry's
        ("Your computer is low on memory", "commit-limit"),
    ],
)
def test_the_lines_that_say_memory_ran_out_and_those_that_do_not(line, kind):
    failure = explain_log(line.encode())["failure"]
    assert (failure or {}).get("kind") == kind


def test_a_traceback_cut_to_its_last_frame_and_flattened_keeps_its_error():
    # GIVEN a page's copy of a traceback's last frame and its error, its line break lost (the frame's code opens a call)
    line = (
        "    raise RuntimeError('Attempting to deserialize object on a CUDA ' RuntimeError: Attempting to deserialize "
        "object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, "
        "please use torch.load with map_location=torch.device('cpu')."
    )
    # WHEN read, THEN the error is the exception's, not a loose line
    failure = explain_log(line)["failure"]
    assert (failure["kind"], failure["exception_type"]) == ("other", "RuntimeError")
    # AND a line whose error follows a bracket (no frame's code: a browser's own line) stays one line
    browser = (
        "Uncaught (in promise) Error: no available backend found. ERR: [wasm] RuntimeError: Aborted(LinkError: "
        'WebAssembly.instantiate(): Import #41 module="a" function="P" error: function import requires a callable).'
    )
    assert explain_log(browser)["failure"]["message"].startswith("Uncaught (in promise) Error")


def test_the_shells_word_in_markdown_bold_ends_a_flattened_paste():
    # GIVEN a miner's log a page flattened, the shell's "Killed" set in bold by its poster at its end
    line = (
        "[2020-06-23 05:41:44.119]  rx   init dataset algo rx/0 (3 threads) seed b6505d9163d9ad23... "
        "[2020-06-23 05:41:44.120]  rx   allocated 2336 MB (2080+256) huge pages 0% 0/1168 +JIT (1 ms) **Killed**"
    )
    # WHEN read, THEN the process was killed, as the corpus reads a bare SIGKILL
    failure = explain_log(line)["failure"]
    assert (failure["kind"], failure["ending"]) == ("system-ram", "killed")


def test_a_programs_advice_before_its_colon_is_no_nodes_class():
    # GIVEN STAR's reading of an output file it could not write, WHEN read, THEN a full disk at no node
    doc = explain_log(b"Solution: check that you have enough space on the disk\n")
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("disk", None)
