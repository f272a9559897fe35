"""Memory caps a program sets for itself, or is given, below what the machine has — the JVM's heap, V8's, PHP's
memory_limit, ImageMagick's policy, a database's own limit, an app's heap on a phone: the words each prints when it is
reached, the cap's name, and the setting that raises it. :func:`memprobe.judging.failures.own_limit` finds one in a
failure's message; :mod:`memprobe.judging.wordings` counts their words among the host's memory's."""

from __future__ import annotations

__all__ = ["OWN_LIMITS"]

OWN_LIMITS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    # (its words, lower-cased; the cap; the setting that raises it)
    (
        (
            "java heap space",
            "gc overhead limit exceeded",
            "outofmemoryerror (no error message)",  # Gradle's report of an OutOfMemoryError the JVM gave no detail
        ),
        "the JVM's heap limit",
        "its -Xmx (a launcher's or a server's memory setting)",
    ),
    (("outofmemoryerror: metaspace",), "the JVM's metaspace limit", "-XX:MaxMetaspaceSize, or -Xmx"),
    (("of direct buffer memory",), "the JVM's limit on direct buffers", "-XX:MaxDirectMemorySize"),
    (
        (
            "javascript heap out of memory",
            "node::oomerrorhandler",  # the frame of Node's fatal handler, where a paste kept the stack, not the line above
            "fatal javascript out of memory: reached heap limit",  # V8's newer words (Deno: "# Fatal JavaScript out of
            # memory: Reached heap limit")
        ),
        "Node's V8 heap limit",
        "--max-old-space-size (in NODE_OPTIONS)",
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
    (("cache resources exhausted",), "ImageMagick's resource limits", "policy.xml's memory, map, area and disk limits"),
    (
        ("<all available memory (",),  # its dialog: "<Out of memory> <All available memory (247MB) has been> <used. To
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
        ("exceeded mem limit: ", "(resource_type_memory: "),  # iOS' jetsam on an app or an extension ("EXC_RESOURCE ->
        "iOS' memory limit on the app",  # NotificationServiceExtension[478] exceeded mem limit: ActiveHard 24 MB
        # (fatal)"; Xcode's "EXC_RESOURCE (RESOURCE_TYPE_MEMORY: high watermark memory limit exceeded) (limit=3376 MB)")
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
)
"""A program that stopped at a memory cap set for it, below what the machine has: the JVM's heap (Minecraft, Gradle,
Spark, Elasticsearch), V8's (a frontend build, an Electron app, Node-RED), PHP's memory_limit, ImageMagick's policy, a
database's own limit, an Android app's heap, iOS' limit on an app.
What ran out is the system RAM the program allowed itself — raising its cap, within the RAM there is, is what helps;
more swap or pagefile does not while that cap is the one reached."""
