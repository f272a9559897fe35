"""The first step for a memory failure no other rule could place: every memory failure gets one,
even from a one-line paste with no node, built from what its message says (what was requested,
what the device holds, what was free) and the stage where that is known. And the request no
machine could grant: a size setting is wrong."""

from __future__ import annotations

from ...format import fmt_bytes
from ...vocabulary import kind_of
from ..custom_nodes import pack_decoder
from ..facts import RunFacts, short
from ..gpu_words import OOM_HANDLER_LINES
from ..sizes import MessageSizes
from .base import Suggestion, rule
from .custom import knob_suggestion
from .decode import RETRY_TEMPORAL, RETRY_TILE, overlap_for

__all__ = ["impossible_request"]

_NO_MACHINE_HAS = 1024**4
"""Where the machine's RAM is unknown: a single allocation beyond 2 TiB is no machine's shortage."""


def _sizes_words(sizes: MessageSizes) -> str:
    parts = []
    if sizes.requested_bytes is not None:
        parts.append(f"{fmt_bytes(sizes.requested_bytes)} requested")
    if sizes.allocated_bytes is not None:
        parts.append(f"{fmt_bytes(sizes.allocated_bytes)} already allocated")
    total = sizes.total_bytes or sizes.limit_bytes
    if total is not None:
        parts.append(f"{fmt_bytes(total)} on the device")
    if sizes.free_bytes is not None:
        parts.append(f"{fmt_bytes(sizes.free_bytes)} free")
    return f" (the message says: {', '.join(parts)})" if parts else ""


def _why(f: RunFacts) -> str:
    failure = f.failure
    assert failure is not None
    if not failure.message:
        return f"It failed {failure.where}."
    said = short(failure.message)
    if failure.message.startswith(OOM_HANDLER_LINES):  # the excerpt's only failure line
        said = f'ComfyUI logged "{said}", which it does only when a device ran out of memory'
    return f"It failed {failure.where}: {said}{_sizes_words(failure.sizes)}."


def impossible_request(f: RunFacts) -> int | None:
    """The whole of the memory a failed allocation ran into, when it asked for more than twice
    that: no limit raised and no offloading makes it fit (``None`` otherwise)."""
    failure = f.failure
    requested = failure.sizes.requested_bytes if failure is not None else None
    if failure is None or requested is None:
        return None
    if failure.kind == "vram":
        whole = failure.sizes.total_bytes or failure.sizes.limit_bytes or f.compute.limit_bytes
    else:
        whole = f.limit_of("ram_used_bytes") or _NO_MACHINE_HAS
    return whole if whole and requested > 2 * whole else None


ERROR_LINE_WHERE = (
    'ComfyUI\'s console, the log file ComfyUI-Manager names on its "** Log path:" line (comfyui.log, in '
    "ComfyUI/user/ on recent installs), or the Desktop app's comfyui_<date>.log (Windows: the logs folder in "
    "%APPDATA%\\ComfyUI; macOS: Library/Logs/ComfyUI in your home folder; Linux: the logs folder in .config/ComfyUI "
    "in your home folder)"
)
"""Where the whole of a failure's traceback is kept, to copy the line an excerpt lacks (the Desktop app's folders as
its README gives them: Comfy-Org/desktop)."""


@rule("find-the-error", needs=("failure",), tiers=("failure",))
def find_the_error(f: RunFacts) -> list[Suggestion]:
    """A failure whose error the excerpt cuts off: the first step is the line that names it."""
    failure = f.failure
    if failure is None or not failure.unsaid:
        return []
    return [
        Suggestion(
            "find-the-error",
            "failure",
            "Copy the error the excerpt leaves out",
            f"It failed {failure.where}, but the excerpt stops inside the traceback, before its last line: the "
            "error, the one line that says what ran out, if anything did.",
            'Copy the traceback through its end: its last line, below the last "File ..." frame and its code '
            f'("torch.OutOfMemoryError: ...", "RuntimeError: ..."), from {ERROR_LINE_WHERE}, and explain it again.',
        )
    ]


@rule("impossible-request", needs=("failure",), tiers=("failure",))
def impossible(f: RunFacts) -> list[Suggestion]:
    """An allocation larger than the whole memory it needed: a size setting is wrong."""
    whole = impossible_request(f)
    if whole is None or f.failure is None or f.failure.sizes.requested_bytes is None:
        return []
    requested = f.failure.sizes.requested_bytes
    return [
        Suggestion(
            "size-settings",
            "failure",
            "Check the sizes this step was given",
            _why(f),
            f"One allocation asked for {fmt_bytes(requested)}, more than twice the whole memory it needed "
            f"({fmt_bytes(whole)}): no offloading, pagefile or swap makes that fit. Look for a resolution, frame "
            "count, batch or tile setting far larger than meant (an upscale applied twice, frames in the thousands, "
            "an image read at its full size) and lower it.",
            requested,
        )
    ]


@rule("first-step", needs=("failure",), tiers=("failure",), fallback=True)
def first_step(f: RunFacts) -> list[Suggestion]:
    """A memory failure no other rule answered: the step its kind, stage and sizes point to."""
    failure = f.failure
    if failure is None or not kind_of(failure.kind).ran_short:
        return []
    requested = failure.sizes.requested_bytes
    why = _why(f)
    if failure.kind == "vram":
        stage = failure.stage
        decoder = pack_decoder(failure.pack) if stage == "vae-decode" else None
        knobs = decoder.knobs_for(stage, failure.kind) if decoder is not None else []
        if decoder is not None and knobs:  # the pack's own decoder, named by its code in the traceback
            return [knob_suggestion(f, decoder, None, knobs, why, "failure", requested)]
        if stage in ("vae-decode", "vae-encode") and failure.in_tiled_retry:  # ComfyUI's own tiles ran short too
            node = "VAE Decode (Tiled)" if stage == "vae-decode" else "VAE Encode (Tiled)"
            return [
                Suggestion(
                    "tiled-decode",
                    "failure",
                    f"{'Decode' if stage == 'vae-decode' else 'Encode'} in smaller tiles",
                    why + " ComfyUI's own retry in tiles ran out of memory too.",
                    f"Use {node} at tile_size {RETRY_TILE}, overlap {overlap_for(RETRY_TILE)}, temporal_size "
                    f"{RETRY_TEMPORAL} (ComfyUI's retry used 512-pixel tiles for an image; for a video, whose retry "
                    f"used {RETRY_TILE}, take {RETRY_TILE // 2}), same inputs; tiles use less memory and more time.",
                    requested,
                )
            ]
        if stage in ("vae-decode", "vae-encode"):
            verb, node = ("Decode", "VAE Decode (Tiled)") if stage == "vae-decode" else ("Encode", "VAE Encode (Tiled)")
            return [
                Suggestion(
                    "tiled-decode",
                    "failure",
                    f"{verb} in tiles",
                    why,
                    f"Use {node} (or, for a pack's {verb.lower()}r, its own tiling option) at its defaults, same "
                    "inputs; tiles use less memory and more time.",
                    requested,
                )
            ]
        if stage in ("load", "text-encode"):
            title, text = (
                "Load the model in lower precision, or let ComfyUI offload it",
                "Use a lower-precision file of the same model (fp8, a GGUF quantisation) or a smaller model; or "
                "start ComfyUI with --lowvram so it keeps part of the weights in RAM (slower, and that RAM must be "
                "there).",
            )
        else:
            title, text = (
                "Make the step that failed smaller",
                "Lower one thing at a time and rerun with the same seed: the resolution, then the batch size, then "
                "the number of frames; or start ComfyUI with --lowvram so it offloads weights to RAM. If the failure "
                "is in a VAE decode, use VAE Decode (Tiled).",
            )
        return [Suggestion("smaller-step", "failure", title, why, text, requested)]
    if failure.kind == "disk":
        return [
            Suggestion(
                "free-disk",
                "failure",
                "Free disk space",
                why,
                "Free space on the drive ComfyUI writes to (outputs, models, its temp folder); keep 10% or more "
                "free. Deleting outputs frees disk, not memory.",
            )
        ]
    return [
        Suggestion(
            "free-system-memory",
            "failure",
            "Give ComfyUI more system memory",
            why,
            "Close other programs before running it, and add swap (Linux) or a larger fixed pagefile (Windows) on "
            "an SSD so RAM can overflow; a smaller or lower-precision model needs less of it.",
            requested,
        )
    ]
