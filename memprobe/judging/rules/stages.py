"""A stage that failed (or came near the limit): loading, sampling, upscaling, video, a custom
node. The experiment for each, one change at a time (the order of ``docs``' table per stage)."""

from __future__ import annotations

from ...documents import NodeDoc
from ..facts import RunFacts
from .base import Suggestion, rule

__all__: list[str] = []

RESOLUTION_STEP = 0.75
"""Each side of the latent scaled by this (3/4): 56 % of the pixels."""


def _added(f: RunFacts, node: NodeDoc | None) -> int | None:
    """What the node added to the compute memory while it ran (its peak minus its start)."""
    if node is None:
        return None
    peak, before = f.node_peak(node), f.compute.used(node.get("before") or {})
    return peak - before if peak is not None and before is not None and peak > before else None


def _requested(f: RunFacts) -> int | None:
    return f.failure.sizes.requested_bytes if f.failure is not None else None


def _why(f: RunFacts, doing: str) -> str:
    assert f.failure is not None
    return f"{f.label(f.failing_node())} {f.fails} while {doing} ({f.failure.said})"


@rule("failed-load", needs=("failure",), tiers=("failure",))
def failed_load(f: RunFacts) -> list[Suggestion]:
    """A model did not fit while it loaded: a smaller or lower-precision model."""
    if not f.failed_in("load"):
        return []
    models = ", ".join(f.params.get("models") or []) or "the model"
    sizes = [int(p["size_bytes"]) for p in f.partials if p.get("size_bytes")]
    saves = max(sizes) // 2 if sizes else _requested(f)  # one precision step halves the weights
    hints = f.forecast
    fp8 = f" The forecast: {hints.fits_note['fp8']}." if hints is not None and "fp8" in hints.fits_note else ""
    if hints is not None and hints.fp8_saves_bytes:
        saves = hints.fp8_saves_bytes
    return [
        Suggestion(
            "smaller-model",
            "failure",
            "Load a smaller or lower-precision model",
            f"{_why(f, 'loading')}; models in this workflow: {models}.",
            "Load a smaller compatible model for the same task, or the same model in lower precision (fp8, a GGUF "
            "quantisation). Tiling the VAE decode will not help: the run never reached the decode." + fp8,
            saves,
        )
    ]


@rule("failed-sampling", needs=("failure", "workflow"), tiers=("failure",))
def failed_sampling(f: RunFacts) -> list[Suggestion]:
    """The sampler ran out: batch 1 first, then a smaller resolution (two separate changes)."""
    if not f.failed_in("sampling"):
        return []
    why = _why(f, "sampling")
    added = _added(f, f.failing_node()) or _requested(f)
    batch, width, height = f.params.get("batch_size"), f.params.get("width"), f.params.get("height")
    out = []
    hints = f.forecast
    if isinstance(batch, int) and batch > 1:
        fits = (
            f" The forecast: batch_size {hints.batch} fits ({hints.fits_note['batch']})."
            if hints and hints.batch
            else ""
        )
        target = hints.batch if hints and hints.batch else 1
        out.append(
            Suggestion(
                "batch-one",
                "failure",
                "Sample one image at a time" if target == 1 else f"Sample {target} images at a time",
                f"{why}; batch_size is {batch}.",
                f"Set batch_size from {batch} to {target}, nothing else; queue several runs instead.{fits}",
                added * (batch - target) // batch if added else None,
            )
        )
    if isinstance(width, int) and isinstance(height, int):
        w, h = _round8(int(width * RESOLUTION_STEP)), _round8(int(height * RESOLUTION_STEP))
        if hints is not None and hints.size is not None:
            w, h = hints.size
        out.append(
            Suggestion(
                "smaller-resolution",
                "failure",
                "Sample at a smaller resolution",
                f"{why}; the latent is {width}x{height}" + (f", batch {batch}" if batch else "") + ".",
                f"Try {w}x{h} (keep the seed{', after batch 1' if out else ''}). "
                + (
                    f"The forecast: {w}x{h} fits ({hints.fits_note['size']})."
                    if hints is not None and hints.size is not None and "size" in hints.fits_note
                    else "Doubling width and height quadruples the pixels, but VRAM does not simply quadruple: "
                    "models have fixed costs, so measure each step."
                ),
                int(added * (1 - RESOLUTION_STEP**2)) if added else None,
            )
        )
    if not out:
        out.append(
            Suggestion(
                "smaller-sampling",
                "failure",
                "Make the sampling step smaller",
                why + ".",
                "Lower the resolution (or frames) of the latent the sampler works on, one step at a time.",
                int(added * (1 - RESOLUTION_STEP**2)) if added else None,
            )
        )
    return out


@rule("stage-too-big", needs=("failure", "near-limit"), tiers=("failure", "pressure"))
def stage_too_big(f: RunFacts) -> list[Suggestion]:
    """Upscaling or video ran out (or nearly): a smaller input, or fewer frames."""
    out = []
    for stage, change in (
        ("upscale", "Feed it a smaller image (or upscale by a smaller factor)"),
        ("video", "Use fewer frames (length) or a smaller frame size"),
    ):
        nodes = [n for n in f.nodes if n.get("stage") == stage]
        failed = f.failed_in(stage)
        near = [n for n in nodes if f.compute.near(n.get("peaks") or {})]
        if not failed and not near:
            continue
        node = f.failing_node() if failed else near[0]
        assert f.failure is not None or not failed
        evidence = (
            f"failed ({f.failure.said})"
            if failed and f.failure is not None
            else f"reached {f.of_limit(f.node_peak(node) if node is not None else None)}"
        )
        frames = f" (length is {f.params['length']})" if stage == "video" and "length" in f.params else ""
        added = _added(f, node) or (_requested(f) if failed else None)
        out.append(
            Suggestion(
                f"smaller-{stage}",
                "failure" if failed else "pressure",
                f"Give the {stage} stage less to do",
                f"{f.label(node)} {evidence}{frames}.",
                change + ", one change at a time, and check whether that stage finishes.",
                added // 2 if added else None,
            )
        )
    return out


def _round8(value: int) -> int:
    return max(64, value // 8 * 8)
