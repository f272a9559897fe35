"""A refusal that was no shortage: the GPU's own message says far more was free than the failed allocation asked for.
What refused it sits under PyTorch (the virtual memory backing GPU allocations on Windows, a ROCm runtime, a virtual
GPU, cudaMallocAsync), so this comes before any advice to make the failing step smaller, which assumes the device was
full (:data:`memprobe.judging.rules.FAMILIES` puts it first)."""

from __future__ import annotations

from ...format import fmt_bytes
from ..facts import RunFacts, short
from ..failures import allocation_size_limit
from ..limits import os_family
from .base import Suggestion, rule

__all__: list[str] = []


@rule("refused-while-free", needs=("failure",), tiers=("failure",))
def refused_while_free(f: RunFacts) -> list[Suggestion]:
    """The GPU refused an allocation while its own message says far more than it asked for was free: the device
    was not full, what refused it sits under PyTorch — on Windows the virtual memory that backs GPU allocations (a
    larger pagefile is the fix in ollama#8825, AUTOMATIC1111#5252, FramePack#233), a ROCm runtime, a virtual GPU."""
    failure = f.failure
    if failure is None or failure.kind != "vram" or allocation_size_limit(failure.message):
        return []
    sizes = failure.sizes
    if not sizes.free_to_spare:
        return []
    free, asked, total = sizes.free_bytes or 0, sizes.requested_bytes or 0, sizes.total_bytes
    of_total = f" of {fmt_bytes(total)}" if total else ""
    amd = "hip" in (failure.message or "").lower() or "rocm" in (failure.message or "").lower()
    windows = os_family(f.os) == "Windows"
    first = (
        "On AMD's ROCm, update it or go back one release: some ROCm releases refuse allocations with memory free "
        "(a driver or runtime bug, not a shortage)."
        if amd
        else "Let Windows manage the pagefile, or set it to at least your RAM plus your VRAM: the driver backs GPU "
        "allocations with virtual memory, so a pagefile too small refuses them with VRAM free (a larger pagefile is "
        "the fix in ollama#8825 and AUTOMATIC1111#5252)."
    )
    others = [
        "This is the cudaMallocAsync allocator's error, which ComfyUI turns on by default on NVIDIA: launch ComfyUI "
        "with --disable-cuda-malloc to use PyTorch's own allocator."
        if "would exceed allowed memory" in (failure.message or "") and "--disable-cuda-malloc" not in f.argv
        else "",
        "Under WSL 2, the GPU's residency limit sits below what the message calls free: use less than it shows.",
        "On a virtual GPU (vGPU), the host sets the limit.",
        "Else update the GPU driver; only then make the step smaller.",
    ]
    if not amd and not windows:
        first = "On Windows: " + first[0].lower() + first[1:]
    return [
        Suggestion(
            "refused-while-free",
            "failure",
            "Look under PyTorch: the GPU had memory free",
            f"It failed {failure.where}: '{short(failure.message)}'. The message itself says {fmt_bytes(free)}"
            f"{of_total} was free when {fmt_bytes(asked)} was asked, so the GPU was not full: the driver or the "
            "runtime under PyTorch refused the allocation.",
            " ".join(x for x in (first, *others) if x),
            None,
        )
    ]
