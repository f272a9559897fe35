"""Memory caps a program sets for itself, or is given, below what the machine has — the JVM's heap, V8's, PHP's
memory_limit, ImageMagick's policy, a database's own limit, an app's heap on a phone: the words each prints when it is
reached, the cap's name, and the setting that raises it. :func:`memprobe.judging.failures.own_limit` finds one in a
failure's message; :mod:`memprobe.judging.wordings` counts their words among the host's memory's."""

from __future__ import annotations

__all__ = ["OWN_LIMITS", "STORE_LIMITS"]

OWN_LIMITS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    # (its words, lower-cased; the cap; the setting that raises it)
    (
        (
            "java heap space",
            "gc overhead limit exceeded",
            "outofmemoryerror (no error message)",  # Gradle's report of an OutOfMemoryError the JVM gave no detail
            "outofmemoryerror: java heap",  # (its "space" cut off by a page: "... java.lang.OutOfMemoryError: Java heap")
            "outofmemoryerror thrown from the uncaughtexceptionhandler",  # the heap too full to report its own error
            "outofmemoryerror occurred dispatching signal",  # ... or to run a signal's handler (HotSpot: "VM warning:
            # Exception java.lang.OutOfMemoryError occurred dispatching signal SIGTERM to handler- the VM may need to be
            # forcibly terminated")
            "consecutive periods of measured gc thrashing",  # Apache Beam's memory monitor ending a worker's JVM
            # ("Shutting down JVM after 8 consecutive periods of measured GC thrashing. Memory is used/total/max =
            # 9819/11025/11025 MB")
            "jvm heap requested for",  # planetiler's check before it reads ("26G JVM heap requested for read phase,
            # 21G available (increase JVM -Xmx setting)")
            "reached the maximum amount of memory(",  # Gephi's dialog ("Gephi reached the maximum amount of
            # memory(458mb). This happens when the volume of data is too large.")
            "parachute is non existent",  # Tomcat's connector after an OutOfMemoryError used up the memory it kept
            # back for one ("Memory usage is low, parachute is non existent, your system may start failing.")
        ),
        "the JVM's heap limit",
        "its -Xmx (a launcher's or a server's memory setting)",
    ),
    (
        (
            "outofmemoryerror: metaspace",
            "the metaspace out-of-memory error has occurred",  # Flink's words after the JVM's
        ),
        "the JVM's metaspace limit",
        "-XX:MaxMetaspaceSize, or -Xmx",
    ),
    (
        ("permgen space",),  # the JVM's class space before Java 8 ("java.lang.OutOfMemoryError:
        "the JVM's permanent generation limit",  # PermGen space": Tomcat's, JBoss' webapps redeployed)
        "-XX:MaxPermSize (Java 7 and older)",
    ),
    (
        ("your sketch may need more memory to run",),  # Processing's words under a sketch's OutOfMemoryError ("An
        "the sketch's maximum memory",  # OutOfMemoryError means that your code is either using up too much memory
        "File > Preferences > Increase maximum available memory",  # ... you can increase the memory available to
    ),  # your sketch using the Preferences window.")
    (
        ("of direct buffer memory", "outofmemoryerror: direct buffer memory"),  # Netty's and the JVM's own ("java.lang.
        "the JVM's limit on direct buffers",  # OutOfMemoryError: Direct buffer memory" from java.nio.Bits.reserveMemory)
        "-XX:MaxDirectMemorySize",
    ),
    (
        (
            "javascript heap out of memory",
            "node::oomerrorhandler",  # the frame of Node's fatal handler, where a paste kept the stack, not the line above
            "fatal javascript out of memory: reached heap limit",  # V8's newer words (Deno: "# Fatal JavaScript out of
            # memory: Reached heap limit")
            "allocation failed - process out of memory",  # V8's words before 2015 ("FATAL ERROR: JS Allocation
            # failed - process out of memory", "CALL_AND_RETRY_LAST Allocation failed - process out of memory")
            "<--- last few gcs --->",  # the heading of V8's report as its heap ran out, above "<--- JS stacktrace
            # --->", where a paste keeps the report but not the fatal line
            "last resort gc",  # V8's last collections at its heap limit, the lines above its fatal error ("[116141:
            # 0x28f8a20]   774446 ms: Mark-sweep 1400.2 (1560.8) -> 1400.2 (1559.8) MB, 2095.4 / 0.0 ms  last resort gc";
            # newer: "... last resort GC in old space requested"), where a paste stops before that error
            "allocation failure scavenge might not succeed",  # ... and the lines of its last Mark-sweeps, the heap
            "allocation failure; scavenge might not succeed",  # full ("Mark-sweep 2029.7 (2087.3) -> 2016.5 (2089.1) MB,
            # ... allocation failure scavenge might not succeed"), under "<--- Last few GCs --->"
            "task; scavenge might not succeed",  # (a collection its idle task ran: "Mark-Compact 4012.3 (4129.4) ->
            # 3996.3 (4129.1) MB, ... task; scavenge might not succeed")
            "allocation failure gc in old space requested",  # (its other reason: "... allocation failure GC in old
            # space requested", rstan's stanc.js)
        ),
        "Node's V8 heap limit",
        "--max-old-space-size (in NODE_OPTIONS)",
    ),
    (
        ("out of heap memory in v8", "out of heap hemory in v8"),  # ArangoDB's ("FATAL [fd5c4] out of heap hemory in
        "ArangoDB's V8 heap limit",  # V8 (CALL_AND_RETRY_LAST)", its typo as 3.7 printed it)
        "--javascript.v8-max-heap",
    ),
    (
        ("not enough memory to run compilation",),  # "... Try to increase it via 'gradle.properties':
        "the Kotlin daemon's heap limit",  # kotlin.daemon.jvmargs=-Xmx<size>"
        "kotlin.daemon.jvmargs=-Xmx… in gradle.properties",
    ),
    (
        ("allowed memory size of",),  # "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to
        "PHP's memory_limit",  # allocate 20480 bytes)": Composer's, PHPStan's, Nextcloud's occ, WP-CLI's
        "memory_limit in php.ini (php -d memory_limit=…; COMPOSER_MEMORY_LIMIT for Composer)",
    ),
    (
        ("95% memory budget. restarting",),  # Dask's nanny restarting a worker at its memory limit, at its default
        "the Dask worker's memory limit",  # fraction ("distributed.worker_memory - WARNING - Worker tcp://127.0.0.1:
        "memory_limit of the Dask cluster's workers (LocalCluster(memory_limit=…), dask worker --memory-limit)",
    ),  # 51430 (pid=1768) exceeded 95% memory budget. Restarting..."; not "exceeded 0%", a limit read wrong)
    (
        ("cache resources exhausted", "memory allocation failed `"),  # (its exception names the file after the words:
        "ImageMagick's resource limits",  # "memory allocation failed `/storage/.../321985.gif' @ error/gif.c/...")
        "policy.xml's memory, map, area and disk limits",
    ),
    (
        ("all available memory (",),  # its dialog: "<Out of memory> <All available memory (247MB) has been> <used. To
        "ImageJ's memory limit",  # make more available, use the> <Edit>Options>Memory & Threads command.>"
        "the maximum memory in Edit > Options > Memory & Threads",
    ),
    (
        ("b until oom",),  # Android's ART ("Failed to allocate a 4792046832 byte allocation with 2097152 free bytes
        "the Android app's heap limit",  # and 253MB until OOM, target footprint 4961960, growth limit 268435456")
        'the app\'s heap limit with android:largeHeap="true" in its manifest (the growth limit itself is the '
        "device's)",
    ),
    (
        ("dpd_block_matrix: no memory left",),  # Psi4's coupled-cluster code at the memory it was given ("Core max
        "Psi4's memory setting",  # size: 48000000.0 kB ... Error in: dpd_block_matrix: No memory left.")
        "memory in its input (memory 48 GB) or psi4 -m",
    ),
    (
        ("exceeded mem limit: ", "(resource_type_memory: ", "exc_resource resource_type_memory (limit="),  # iOS'
        "iOS' memory limit on the app",  # jetsam on an app or an extension ("EXC_RESOURCE -> NotificationServiceExtension
        # [478] exceeded mem limit: ActiveHard 24 MB (fatal)"; Xcode's "EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high
        # watermark memory limit exceeded) (limit=3376 MB)"; a crash log's thread: "UnityGfxDeviceWorker (28):
        # EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=1450 MB, unused=0x0)")
        "the app's limit with the entitlement com.apple.developer.kernel.increased-memory-limit (an extension's "
        "cannot be raised: make it hold less)",
    ),
    (
        ("when used memory > 'maxmemory'",),
        "Redis' maxmemory",
        "maxmemory (or set an eviction policy: maxmemory-policy)",
    ),
    (
        ("data too large, data for [",),
        "an Elasticsearch circuit breaker's limit",
        "the JVM heap (-Xmx) or the breaker's limit",
    ),
    (
        (
            "(memory_limit_exceeded)",
            "memory limit (total) exceeded",
            "(total) memory limit exceeded",
            "memory limit (for query) exceeded",
        ),
        "ClickHouse's memory limit",
        "max_server_memory_usage or max_memory_usage",
    ),
    (("not enough memory for bam sorting",), "STAR's limit on its sorting memory", "--limitBAMsortRAM"),
    (
        ("not enough memory to execute current fragment instance",),  # Apache IoTDB ("301: There is not enough memory
        "IoTDB's memory for queries (a share of the DataNode's heap)",  # to execute current fragment instance, current
        # remaining free memory is 86762854, estimated memory usage ... is 270139392")
        "the DataNode's heap (ON_HEAP_MEMORY in datanode-env.sh) or the share of it for queries",
    ),
    (
        ("global rss memory limit exceeded",),  # QuestDB ("CairoException: [-1] global RSS memory limit exceeded
        "QuestDB's RSS memory limit",  # [usage=25786145438, RSS_MEM_LIMIT=25786161540, size=16777216, ...]")
        "ram.usage.limit.bytes or ram.usage.limit.percent in server.conf",
    ),
    (
        ("not enough memory in mymalloc",),  # GADGET's allocator and the codes built on it ("Not enough memory in
        "the code's own memory pool (MaxMemSize)",  # mymalloc_fullinfo() to allocate 19940.4 MB for variable 'P' ...
        "MaxMemSize in the parameter file, or more tasks to share the data",  # (FreeBytes=2274.12 MB)")
    ),
    (
        ("lua vm crashed, reason: not enough memory",),  # OpenResty's and Kong's LuaJIT ("nginx: lua atpanic: Lua VM
        "LuaJIT's own heap limit (2 GB without GC64)",  # crashed, reason: not enough memory")
        "a LuaJIT built with GC64 (OpenResty 1.15.8 and later), or less held in Lua",
    ),
    (
        ("query evaluation ran out of memory (java heap maximum",),  # CodeQL's evaluator ("... (Java heap maximum:
        "CodeQL's memory for a query's evaluation",  # 1165 MiB, Off-heap arrays maximum: 1941 MiB)")
        "codeQL.runningQueries.memory (the CLI's --ram)",
    ),
    (
        (
            "{ vsz_limit=",  # Dovecot's master on its child: "Out of memory (service imap { vsz_limit=256 MB }, you
            "fatal: block_alloc(",  # may need to increase it)"; the child's own words at that limit: "Fatal:
            "fatal: pool_system_realloc(",  # block_alloc(134217728): Out of memory"
            "fatal: pool_system_malloc(",
        ),
        "Dovecot's vsz_limit on the service",
        "vsz_limit in the service's block, or default_vsz_limit",
    ),
    (
        ("current maximum heap size is",),  # GHC's runtime ("agda: Heap exhausted; agda: Current maximum heap size is
        "the Haskell runtime's heap limit",  # 2684354560 bytes (2560 MB). agda: Use `+RTS -M<size>' to increase it."):
        "+RTS -M<size> (or -with-rtsopts=-M<size> when it is built)",  # pandoc's, Agda's, a Haskell server's
    ),
    (
        (
            "no private memory left",  # Kamailio's and OpenSIPS' pools, set at start: private per process (-M, "pkg":
            "no shared memory left",  # "db_allocate_row(): no private memory left", "not enough free pkg memory (…),
            "no more pkg memory",  # please increase the "-M" command line parameter!") and shared (-m, "shm": "no more
            "no more shm",  # shm"), q_malloc's "Free fragment not found!", f_malloc's "Defragmentation unsuccessful"
            "free pkg memory (",
            "free shm memory (",
            "); free fragment not found!",
            "fm_malloc: defragmentation unsuccessful",
        ),
        "the SIP server's own memory pools (private -M, shared -m)",
        "-M (private memory, MB) or -m (shared memory, MB) on the command line, or PKG_MEMORY and SHM_MEMORY in the "
        "service's defaults file",
    ),
    (
        ("zbx_mem_malloc(): out of memory", "zbx_mem_realloc(): out of memory", "cachesize configuration parameter"),
        "Zabbix's own caches (CacheSize and its kin)",  # its shared-memory allocator: "[file:dbconfig.c,line:89]
        "the cache the next line names (CacheSize, HistoryCacheSize, ValueCacheSize, TrendCacheSize) in "  # zbx_mem_
        "zabbix_server.conf or zabbix_proxy.conf",  # realloc(): out of memory (requested 824008 bytes)", then "please
    ),  # increase CacheSize configuration parameter"
    (
        ("more memory than 'maxmempattern'",),  # Vim's ("E363: pattern uses more memory than 'maxmempattern'": a
        "Vim's memory for matching a pattern ('maxmempattern')",  # syntax rule's or a plugin's search)
        ":set maxmempattern=<KiB> (up to 2000000)",
    ),
    (
        ("heap exhausted during allocation:", "heap exhausted, game over"),  # SBCL's dynamic space ("Heap exhausted
        "SBCL's dynamic space (--dynamic-space-size)",  # during allocation: 81100800 bytes available, 652147216
        "--dynamic-space-size <MB> on sbcl's command line",  # requested." with "[83.2% of 1073741824 max]": Lem's)
    ),
    (
        (
            "tex capacity exceeded, sorry [main memory size",  # TeX's fixed arrays ("! TeX capacity exceeded, sorry
            "tex capacity exceeded, sorry [pattern memory",  # [main memory size=5000000]."; a format's hyphenation
            "tex capacity exceeded, sorry [pool size",  # patterns: "[pattern memory=700000]"), set in texmf.cnf; its
            "tex capacity exceeded, sorry [font memory",  # stacks' ("[input stack size=...]": a runaway macro) are not
            "tex capacity exceeded, sorry [hash size",  # (the control sequences' table: "[hash size=65000]")
        ),
        "TeX's fixed memory",
        "main_memory (or trie_size, pool_size, font_mem_size, hash_extra) in texmf.cnf (MiKTeX: initexmf "
        "--edit-config-file), or LuaLaTeX, which grows its memory",
    ),
    (
        ("reached the pre-set memory limit",),  # GAP's workspace ("Error, reached the pre-set memory limit (change it
        "GAP's memory limit",  # with the -o command line option)"; gappy sets one at init)
        "gap -o <size> (its -o command line option)",
    ),
    (
        ("mwords of memory are needed", "increase memory by"),  # Molpro's own count ("A further 111.29 Mwords of
        "Molpro's memory setting",  # memory are needed for the triples to run. Increase memory to 1111.34 Mwords.")
        "the memory card of the input (memory,N,m) or molpro -m",
    ),
    (
        (
            "insufficient memory to run circuit",  # Qiskit Aer: "Insufficient memory to run circuit circuit-22865 using
            "-qubit circuit using",  # the Qasm simulator. Required memory: 274877906944M, max memory: 7998M"; older:
        ),  # "QasmSimulator: Insufficient memory for 30-qubit circuit using "statevector" method."
        "Qiskit Aer's max_memory_mb (half the machine's RAM by default)",
        "max_memory_mb in the simulator's options, or fewer qubits, or the matrix_product_state method",
    ),
    (
        ("whilst the maximum memory allowed is",),  # GeoServer's WMS: "Rendering request would use 188051KB, whilst
        "GeoServer's limit on a rendering request's memory",  # the maximum memory allowed is 65536KB"
        "Max rendering memory in the WMS settings (or a smaller image)",
    ),
    (
        ("physical memory usage is too high: physicalbytes",),  # JavaCPP's: "java.lang.OutOfMemoryError: Physical
        "JavaCPP's maxPhysicalBytes",  # memory usage is too high: physicalBytes (4974M) > maxPhysicalBytes (3876M)"
        "-Dorg.bytedeco.javacpp.maxPhysicalBytes (by default derived from -Xmx)",
    ),
    (
        (
            "cannot enlarge memory, requested",  # ... and its heap at its maximum ("Cannot enlarge memory, requested
            # 2147487744 bytes, but the limit is 2147483648 bytes!": MuPDF's and PDFium's WebAssembly builds)
            "cannot enlarge memory arrays",  # Emscripten's heap fixed at build ("Cannot enlarge memory arrays. Either
            "allocating more memory to your webgl build",  # (1) compile with -s TOTAL_MEMORY=X with X higher than the
            # current value 100663296"): tesseract.js, a Unity WebGL build ("Out of memory. If you are the developer ...")
            "aborted(oom)",  # ... and its abort at that heap ("Failed to parse font. Aborted(OOM). Build with
        ),  # -sASSERTIONS for more info.": freetype-wasm)
        "the WebAssembly build's fixed heap (Emscripten's TOTAL_MEMORY)",
        "a build with -s ALLOW_MEMORY_GROWTH=1 or a larger -s INITIAL_MEMORY (TOTAL_MEMORY), or a smaller input",
    ),
    (
        (
            "query exceeded per-node memory limit",  # Trino's and Presto's own caps on a query ("Query exceeded
            "query exceeded per-node user memory limit",  # per-node memory limit of 4.80GB [Allocated: 4.80GB, ...")
            "query exceeded per-node total memory limit",
            "query exceeded distributed user memory limit",
            "query exceeded local memory limit",
        ),
        "Trino's (Presto's) memory limit on a query",
        "query.max-memory-per-node and query.max-memory (or spill to disk: spill-enabled)",
    ),
    (
        ("reached its private bytes memory limit",),  # IIS recycling a site's worker ("A worker process serving
        "IIS' private memory limit on the application pool",  # application pool 'X' has requested a recycle because
        "Private Memory Limit (KB) in the pool's Recycling settings (or the host's plan)",  # it reached its ...")
    ),
    (
        ("out of memory quota!",),  # TiDB cancelling a query at its quota ("ERROR 1105 (HY000): Out Of Memory Quota!")
        "TiDB's memory quota on a query",
        "tidb_mem_quota_query (mem-quota-query in older releases)",
    ),
    (
        ("allocator sys memory check failed",),  # Apache Doris' backend ("... Cannot alloc:134217728, ... process
        "Doris' memory limit on its backend",  # memory used 25.55 GB exceed limit 24.48 GB or sys available memory ...")
        "mem_limit in be.conf (a share of the machine's RAM)",
    ),
    (
        ("invalid memory alloc request size",),  # PostgreSQL's backend ("ERROR:  invalid memory alloc request size
        "PostgreSQL's limit of 1 GB on one allocation",  # 1073792000"): one value or one array over MaxAllocSize
        "no setting raises it: ask for less at once (fewer rows, a bounding box, a smaller array)",
    ),
    (
        ("data refused due to high memory usage",),  # the OpenTelemetry Collector's memory_limiter refusing data
        "the OpenTelemetry Collector's memory_limiter",  # ("... Error: data refused due to high memory usage")
        "limit_mib (or limit_percentage) of its memory_limiter processor, with the container's memory",
    ),
    (
        ("max. memory exceeded",),  # Z3 at its memory_max_size ("Z3Solver::getModels(): max. memory exceeded",
        "Z3's memory_max_size",  # "Z3 exception: max. memory exceeded"): a cap its caller set
        "memory_max_size (z3 -memory:<MB>), or the caller's memory setting for its solver",
    ),
    (
        ("(over memory cap)",),  # KLEE dropping states at its --max-memory ("KLEE: WARNING: killing 2461 states (over
        "KLEE's --max-memory",  # memory cap)")
        "--max-memory (MB), or fewer states kept (a search heuristic, --max-forks)",
    ),
    (
        ("maximum arena capacity of",),  # Kissat's clause arena ("kissat: fatal error: maximum arena capacity of 2^31
        "Kissat's clause arena (32 GB, fixed by its layout)",  # 16-byte-words 34359738368 bytes (32 GB) exhausted")
        "no setting raises it: a smaller instance, or a solver without that cap (CaDiCaL)",
    ),
    (
        ("please compile with -dlargemem",),  # CryptoMiniSat's clause references ("Assertion `ID < 1LL<<
        "CryptoMiniSat's build-time memory limit",  # (EFFECTIVELY_USEABLE_BITS-2) && "Please compile with -DLARGEMEM"'")
        "a build with -DLARGEMEM=ON",
    ),
    (
        (
            "is consuming too much memory (using:",  # Discourse's watchdog on Sidekiq ("Sidekiq is consuming too much
            "sidekiq worker rss out of range",  # memory (using: 597.82M) for '...', restarting"), GitLab's MemoryKiller
        ),
        "the app's own RSS cap on its Sidekiq workers",
        "its max-RSS setting (Discourse: UNICORN_SIDEKIQ_MAX_RSS; GitLab: SIDEKIQ_MEMORY_KILLER_MAX_RSS), or more RAM",
    ),
    (
        ("controlled by maxmeminqueues",),  # Tor: "We're low on memory.  Killing circuits with over-long queues. (This
        "Tor's MaxMemInQueues",  # behavior is controlled by MaxMemInQueues.)"
        "MaxMemInQueues in torrc, with the RAM the relay has",
    ),
    (
        ("killed because it exceeded the memory limit",),  # plaso's worker ("Process: Worker_02 (PID: 4452) killed
        "plaso's limit on a worker's memory",  # because it exceeded the memory limit: 2147483648.")
        "--worker_memory_limit (bytes; 0 for none), or fewer --workers",
    ),
    (
        ("out of memory in data region",),  # Apache Ignite's off-heap region ("IgniteOutOfMemoryException: Out of
        "Apache Ignite's data region maxSize",  # memory in data region [name=default, ..., maxSize=40.0 MiB, ...]")
        "DataRegionConfiguration.maxSize (or persistence, or eviction for the region)",
    ),
    (
        (
            "ib are required. exiting",  # Dragonfly at start-up: its maxmemory short of 256 MiB a thread ("There are 12
            "could not load snapshot - its used memory is",  # threads, so 3.00GiB are required. Exiting..."), and a
        ),  # snapshot it cannot load under it ("... its used memory is 293637328 but the limit is 293601280")
        "Dragonfly's maxmemory (256 MiB a thread at least)",
        "--maxmemory (with the RAM or the container's limit to back it), or fewer --proactor_threads",
    ),
    (
        (
            "job using too much memory, will preempt",  # BOINC's client over its share of RAM ("[mem_usage] job using
            "mb ram but only",  # too much memory, will preempt by quit"), and a task it will not start ("Rosetta needs
        ),  # 1907.35 MB RAM but only 965.88 MB is available for use.")
        "BOINC's share of the RAM (its computing preferences)",
        "Computing preferences → Memory: use at most N % when the computer is in use (and when idle), or more RAM",
    ),
    (
        ("vector memory limit of",),  # R on macOS at its cap ("Error: vector memory limit of 16.0 Gb reached, see
        "R's vector memory limit (R_MAX_VSIZE)",  # mem.maxVSize()")
        "R_MAX_VSIZE in ~/.Renviron (mem.maxVSize() in R 4.2 and later), with the RAM and swap to back it",
    ),
    (
        ("expand stream.memcap",),  # Suricata's stream engine at its cap ("failed to setup/expand stream session pool.
        "Suricata's stream.memcap",  # Expand stream.memcap?")
        "stream.memcap (and stream.reassembly.memcap) in suricata.yaml, with the RAM to back it",
    ),
)
"""A program that stopped at a memory cap set for it, below what the machine has: the JVM's heap (Minecraft, Gradle,
Spark, Elasticsearch), V8's (a frontend build, an Electron app, Node-RED), PHP's memory_limit, ImageMagick's policy, a
database's own limit, an Android app's heap, iOS' limit on an app.
What ran out is the system RAM the program allowed itself — raising its cap, within the RAM there is, is what helps;
more swap or pagefile does not while that cap is the one reached."""


STORE_LIMITS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    # (its words, lower-cased; the size the store was given; the setting that raises it): a database that filled the
    # size set for it, not the drive it is on
    (
        ("mdb_map_full",),  # LMDB ("MDB_MAP_FULL: Environment mapsize limit reached": slapd, Meilisearch)
        "LMDB's map size (the database's own maximum)",
        "the program's map size (olcDbMaxSize for OpenLDAP's mdb, --max-index-size for Meilisearch, map_size for "
        "py-lmdb)",
    ),
    (
        ("mvcc: database space exceeded",),  # etcd's NOSPACE alarm at --quota-backend-bytes
        "etcd's backend quota",
        "--quota-backend-bytes, after compacting and defragmenting (etcdctl compact, defrag, alarm disarm)",
    ),
)
