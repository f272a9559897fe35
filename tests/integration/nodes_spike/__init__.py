"""A test-only custom node pack for the integration tier (never shipped): a node that allocates a
tensor in RAM, filled so every page is resident, and frees it at once — the short spike a sampler
misses between two readings. It reports the process's RSS it saw just before and at the top of
the spike, read from ``/proc/self/status`` inside the node, so a test can compare Memory Probe's
record with it. The tensor comes from torch, as a real node's would: torch fills it without
holding the GIL, so Python threads (Memory Probe's sampler) run meanwhile as they do in a real
workflow, instead of all waiting for the fill and then looking at its very top.
"""

from __future__ import annotations

MIB = 1024**2


def _rss_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise OSError("no VmRSS in /proc/self/status")


class MemProbeTestSpike:
    """Allocates ``mib`` MiB (filled, so every page is resident) and frees it before returning."""

    CATEGORY = "testing/memprobe"
    FUNCTION = "spike"
    RETURN_TYPES = ()
    OUTPUT_NODE = True

    @classmethod
    def INPUT_TYPES(cls):
        return {
            "required": {
                "mib": ("INT", {"default": 160, "min": 1, "max": 4096}),
                "seed": (
                    "INT",
                    {
                        "default": 0,
                        "min": 0,
                        "max": 2**31 - 1,
                        "tooltip": "change it to run the node again instead of using the cache",
                    },
                ),
            },
            "optional": {"device": (["cpu", "cuda"], {"default": "cpu"})},
        }

    def spike(self, mib: int, seed: int, device: str = "cpu"):
        import torch

        if device == "cuda":  # the GPU check (benchmarks/gpu_check.py): torch's own allocated bytes
            before = torch.cuda.memory_allocated()
            block = torch.ones(mib * MIB // 4, dtype=torch.float32, device="cuda")
            torch.cuda.synchronize()
            top = torch.cuda.memory_allocated()
            del block
            return {"ui": {"vram_before": [before], "vram_top": [top], "vram_after": [torch.cuda.memory_allocated()]}}
        before = _rss_bytes()
        block = torch.ones(mib * MIB // 4, dtype=torch.float32)  # one allocation, written through
        top = _rss_bytes()
        del block  # freed at once (glibc returns a block this size to the OS: munmap)
        return {"ui": {"rss_before": [before], "rss_top": [top], "rss_after": [_rss_bytes()]}}


NODE_CLASS_MAPPINGS = {"MemProbeTestSpike": MemProbeTestSpike}
NODE_DISPLAY_NAME_MAPPINGS = {"MemProbeTestSpike": "Memory spike (Memory Probe test)"}
