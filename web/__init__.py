"""The server side of the panel: aiohttp routes (``/memprobe/...``) and ``memprobe.*`` events."""
