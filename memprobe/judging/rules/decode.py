"""The VAE decode: where memory runs out (or nearly), decode in tiles; where it is merely the
run's peak, a neutral note with the swap at hand."""

from __future__ import annotations

from ...documents import NodeDoc
from ...vocabulary import Tier, kind_of
from ..custom_nodes import custom_node, pack_decoder
from ..facts import RunFacts, short
from ..failures import planned_tiling
from ..stages import RECORDED_COMFYUI, builtin_display_name, builtin_nodes, newer_builtin
from .base import Suggestion, rule
from .custom import knob_suggestion

__all__ = ["TILED_DEFAULTS", "RETRY_TILE", "RETRY_TEMPORAL", "swap_action", "overlap_for"]

TILED_DEFAULTS = {"tile_size": 512, "overlap": 64, "temporal_size": 64, "temporal_overlap": 8}
TILE_SAVES = 0.75
"""What a tiled decode (or the next smaller tile) saves of the memory the decode added: a tile of
half the side holds a quarter of the pixels."""


@rule(
    "decode-in-tiles",
    needs=("failure", "fallback", "spill", "near-limit", "peaks"),
    tiers=("failure", "pressure", "note"),
)
def decode_in_tiles(f: RunFacts) -> list[Suggestion]:
    """The VAE decode ran out of memory (or nearly): decode in tiles."""
    out: list[Suggestion] = []
    decodes = [n for n in f.nodes if n.get("stage") == "vae-decode"]
    top = max((f.node_peak(n) or 0 for n in f.nodes), default=0)
    for node in decodes:
        peak, node_id = f.node_peak(node), node.get("node_id")
        failed_here = f.failed and f.failure is not None and f.failure.node_id == node_id
        reasons = []
        pressure = False
        if failed_here and f.failure is not None:
            reasons.append(failed_words(f))
        if node_id in f.fallback_nodes("tiled-vae-decode"):
            if planned_tiling(f.fallback_message("tiled-vae-decode", node_id)):  # no attempt failed: a note
                reasons.append("ComfyUI's estimate said decoding it whole needs more than the free VRAM, so it tiled")
            else:
                reasons.append(
                    "ComfyUI ran out of memory decoding it whole and retried in tiles (wasted time and memory)"
                )
                pressure = True
        if node_id in f.fallback_nodes("vram-spill"):
            reasons.append("VRAM spilled into shared GPU memory during it (the driver's slow system memory fallback)")
            pressure = True
        before = f.compute.used(node.get("before") or {})
        grew = peak is not None and (before is None or peak > before * 1.01)  # the decode itself raised it
        if grew and f.compute.near(node.get("peaks") or {}):
            reasons.append(f"{f.memory_name} reached {f.of_limit(peak)} during it")
            pressure = True
        added = peak - before if peak is not None and before is not None and grew else None
        if failed_here and before is not None and f.compute.limit_bytes and _same_memory(f):
            added = max(added or 0, f.compute.limit_bytes - before) or None  # it reached the limit: it needed this much
        if reasons:
            tier: Tier = "failure" if failed_here else "pressure" if pressure else "note"
            retried = failed_here and node_id in f.fallback_nodes("tiled-vae-decode")
            out += decode_change(f, node, f"{f.label(node)}: " + "; ".join(reasons) + ".", tier, added, retried)
        elif grew and peak is not None and peak >= top and len(f.nodes) > 1:
            out += _decode_headroom(f, node, peak, added)
    return out


@rule("decode-after-sampling", needs=("failure",), tiers=("failure",))
def decode_after_sampling(f: RunFacts) -> list[Suggestion]:
    """VRAM ran out right after the sampler finished, in a step the log does not name: what runs there in
    most workflows is the VAE decode (or a pack's sampler decoding its own latents), so say how to tile it."""
    failure = f.failure
    if failure is None or failure.kind != "vram" or not failure.after_sampling or failure.stage is not None:
        return []
    return [
        Suggestion(
            "tiled-decode",
            "failure",
            "If it was the VAE decode: decode in tiles",
            f"VRAM ran out ({short(failure.message)}) right after the sampler finished ({short(failure.after_sampling.rsplit('|', 1)[-1].strip(), 80)}); "
            "the log names no later step, and in most workflows the VAE decode runs there.",
            "If the failing node is VAE Decode, replace it with VAE Decode (Tiled) at its defaults (tile_size 512, "
            "overlap 64, temporal_size 64, temporal_overlap 8), same inputs; if a pack's sampler or decoder decodes "
            "its own latents, turn on its tiled decoding. Tiles use less memory and more time. If it was another "
            "step, lower that step's resolution, batch or frames.",
            failure.sizes.requested_bytes,
        )
    ]


@rule("decode-fallback-unplaced", needs=("fallback",), tiers=("pressure",))
def decode_fallback_unplaced(f: RunFacts) -> list[Suggestion]:
    """ComfyUI ran out of memory decoding whole and retried in tiles, in a node the facts do not hold (a
    log's warning line names none): decode in tiles from the start."""
    if f.failure is not None and f.failure.in_tiled_retry:  # its own rule says: smaller tiles than the retry's
        return []
    placed = {n.get("node_id") for n in f.nodes if n.get("stage") == "vae-decode"}
    retried = [e for e in f.events if e.get("kind") == "tiled-vae-decode" and e.get("node_id") not in placed]
    if not retried:
        return []
    said = retried[0].get("message") or ""
    if all(planned_tiling(e.get("message") or "") for e in retried):  # newer ComfyUI: its estimate chose tiles
        why = (
            f"ComfyUI's estimate said the whole decode needs more than the free VRAM, so it decoded in tiles "
            f"({short(said, 100)}): nothing failed, and VRAM was short for this decode."
        )
        return [
            Suggestion(
                "tiled-decode",
                "note",
                "VAE Decode (Tiled) to choose the tiles yourself",
                why,
                "Nothing to fix. To set the tile size yourself (smaller tiles if VRAM runs out later), replace VAE "
                "Decode with VAE Decode (Tiled) at its defaults (tile_size 512, overlap 64, temporal_size 64, "
                "temporal_overlap 8), same samples and vae inputs.",
            )
        ]
    return [
        Suggestion(
            "tiled-decode",
            "pressure",
            "Decode in tiles from the start: VAE Decode (Tiled)",
            f"ComfyUI's VAE decode ran out of memory and retried in tiles ({short(said, 100)}): "
            "the run went on, after a failed whole-image attempt that cost time and memory.",
            "Replace VAE Decode with VAE Decode (Tiled) at its defaults (tile_size 512, overlap 64, temporal_size 64, "
            "temporal_overlap 8), same samples and vae inputs; if a pack's node does the decoding, turn on its tiled "
            "decoding. Tiles use less memory and more time.",
        )
    ]


def _same_memory(f: RunFacts) -> bool:
    """The failure ran out of the memory the run is judged by (VRAM on a GPU, system memory on the CPU)."""
    resource = kind_of(f.failure.kind if f.failure else None).resource
    return resource == ("system" if f.on_cpu else "vram")


def failed_words(f: RunFacts) -> str:
    failure = f.failure
    assert failure is not None
    if failure.abrupt:
        return f"ComfyUI was ended while it ran ({failure.said})"
    return f"it {f.fails} ({failure.said})"


RETRY_TILE = 256
"""The tile_size to try where ComfyUI's own retry in tiles ran short too: it tiles an image's latent in 512-pixel
tiles (``decode_tiled_``'s 64 latent pixels) and a video's in 256-pixel ones; half an image's."""
RETRY_TEMPORAL = 32
"""The temporal_size to go with it: half VAE Decode (Tiled)'s default (an image has no frames to split)."""


def decode_change(
    f: RunFacts, node: NodeDoc, why: str, tier: Tier, added: int | None, retried: bool = False
) -> list[Suggestion]:
    """The decode ran short (or nearly): tile it, or tile it smaller (``retried``: it failed in ComfyUI's own retry
    in tiles)."""
    node_id = node.get("node_id")
    requested = f.failure.sizes.requested_bytes if f.failure is not None and tier == "failure" else None
    saves = int(added * TILE_SAVES) if added else requested
    class_type = node.get("class_type")
    hints = f.forecast
    fitting = hints.tiles.get(str(node_id)) if hints is not None else None
    retried = retried or (tier == "failure" and f.failure is not None and f.failure.in_tiled_retry)
    if class_type == "VAEDecode" and retried:  # ComfyUI's tiles ran short too: smaller ones from the start
        tile = min(fitting or RETRY_TILE, RETRY_TILE)
        return [
            Suggestion(
                "tiled-decode",
                tier,
                f"Decode in smaller tiles: VAE Decode (Tiled) at tile_size {tile}",
                why + " ComfyUI's own retry in tiles ran out of memory too.",
                f"Replace this VAE Decode with VAE Decode (Tiled) at tile_size {tile}, overlap {overlap_for(tile)}, "
                f"temporal_size {RETRY_TEMPORAL} (ComfyUI's retry used 512-pixel tiles for an image; for a video, "
                f"whose retry used {RETRY_TILE}, take {RETRY_TILE // 2}), same samples and vae inputs; keep the seed "
                "and check the image for seams.",
                saves,
                {**swap_action(node, tile), "temporal_size": RETRY_TEMPORAL},
            )
        ]
    if class_type == "VAEDecode":
        tile = fitting or TILED_DEFAULTS["tile_size"]
        settings = (
            f"tile_size {tile}, overlap {overlap_for(tile)}"
            if tile != TILED_DEFAULTS["tile_size"]
            else "its defaults (tile_size 512, overlap 64"
        )
        fits = f" The forecast: tile_size {tile} fits ({hints.fits_note['tile']})." if fitting and hints else ""
        return [
            Suggestion(
                "tiled-decode",
                tier,
                "Decode in tiles: replace VAE Decode with VAE Decode (Tiled)",
                why,
                f"Replace this VAE Decode with VAE Decode (Tiled) at {settings}"
                + (", temporal_size 64, temporal_overlap 8)" if tile == TILED_DEFAULTS["tile_size"] else "")
                + ", same samples and vae inputs; keep the seed and compare the image. Tiles use less memory and "
                "more time; for video latents the temporal settings apply." + fits,
                saves,
                swap_action(node, tile),
            )
        ]
    if class_type == "VAEDecodeTiled":  # already tiled and still short: one step smaller
        inputs = ((f.prompt or {}).get(node.get("real_node_id") or node_id or "") or {}).get("inputs") or {}
        raw = inputs.get("tile_size")
        tile = raw if isinstance(raw, int) else TILED_DEFAULTS["tile_size"]
        smaller = fitting if fitting and fitting < tile else max(64, (tile // 2) // 32 * 32)
        return [
            Suggestion(
                "smaller-tiles",
                tier,
                "Use smaller decode tiles",
                why,
                f"Lower tile_size from {tile} to {smaller} (one step; leave the other settings), then check the "
                "image for seams, gradients and lost fine detail.",
                saves,
                {
                    "type": "set_widget",
                    "node_id": node.get("real_node_id") or node_id,
                    "widget": "tile_size",
                    "value": smaller,
                },
            )
        ]
    if class_type in builtin_nodes() and not (f.failure and f.failure.pack):
        return [_builtin_decoder_change(class_type, why, tier, saves)]
    known = custom_node(class_type) or (pack_decoder(f.failure.pack) if class_type is None and f.failure else None)
    knobs = known.knobs_for("vae-decode", f.failure.kind if f.failure else None) if known is not None else []
    if known is not None and knobs:  # a pack's decoder Memory Probe knows: its own tiling input
        return [knob_suggestion(f, known, node, knobs, why, tier, saves)]
    name = class_type or (f"the decoder of custom_nodes/{f.failure.pack}" if f.failure and f.failure.pack else None)
    return [
        Suggestion(  # a specialised decoder: never swap it for an image decoder
            "tiled-decode-own",
            tier,
            f"Use {class_type}'s tiled mode" if class_type else "Decode in tiles (the decoder's own tiled mode)",
            why,
            f"Turn on the tiled/chunked decoding that {name or 'the decoder'} or its pack offers (its compatible "
            "tiled decoder), keeping its temporal settings; do not swap it for an image VAE Decode.",
            saves,
        )
    ]


_CHUNKED_DECODERS = {"VAEDecodeHunyuan3D": ("num_chunks", 8000)}
"""ComfyUI's own decoders that split their work by an input of their own: the input and its default
(``comfy_extras/nodes_hunyuan3d.py``: the points decoded at once, ``comfy/ldm/hunyuan3d/vae.py``'s volume decoder)."""


def _builtin_decoder_change(class_type: str, why: str, tier: Tier, saves: int | None) -> Suggestion:
    """One of ComfyUI's own decoders other than VAE Decode (audio, 3D, a video model's): its tiled twin where
    ComfyUI has one, its own chunking input, else less to decode at once."""
    title = builtin_display_name(class_type)
    tiled = f"{class_type}Tiled"
    if tiled in builtin_nodes():
        newer = f" (in ComfyUI newer than {RECORDED_COMFYUI})" if newer_builtin(tiled) else ""
        return Suggestion(
            "tiled-decode",
            tier,
            f"Decode in tiles: replace {title} with {builtin_display_name(tiled)}",
            why,
            f"Replace this {title} with {builtin_display_name(tiled)}{newer} at tile_size "
            f"{TILED_DEFAULTS['tile_size']}, overlap {TILED_DEFAULTS['overlap']}, same samples and vae inputs. Tiles "
            "use less memory and more time.",
            saves,
        )
    if class_type in _CHUNKED_DECODERS:
        knob, default = _CHUNKED_DECODERS[class_type]
        return Suggestion(
            "tiled-decode-own",
            tier,
            f"Decode in smaller chunks: lower {title}'s {knob}",
            why,
            f"Lower {knob} from {default} to {default // 2} (it is how much the decoder works on at once; halve it "
            "again if it still runs out). Smaller chunks use less memory and more time.",
            saves,
        )
    return Suggestion(
        "tiled-decode-own",
        tier,
        f"Give {title} less to decode at once",
        why,
        f"{title} has no tiled mode in ComfyUI: decode fewer frames, a shorter clip or a smaller size (or a "
        "smaller batch), one change at a time; do not swap it for an image VAE Decode.",
        saves,
    )


def _decode_headroom(f: RunFacts, node: NodeDoc, peak: int, added: int | None) -> list[Suggestion]:
    """No pressure: say where the headroom is, neutrally, and keep the one-click swap at hand."""
    class_type = node.get("class_type")
    if class_type == "VAEDecodeTiled":
        return []
    why = (
        f"{f.label(node)} is this run's {f.memory_name} peak at {f.of_limit(peak)}; nothing ran short "
        "(no failure, no fallback, no peak within 10% of the limit)."
    )
    saves = int(added * TILE_SAVES) if added else None
    if class_type == "VAEDecode":
        return [
            Suggestion(
                "tiled-decode",
                "note",
                "Headroom: the VAE decode is this run's peak",
                why,
                "Nothing to change. If this decode ever runs out of memory, replace it with VAE Decode (Tiled) at its "
                "defaults (tile_size 512, overlap 64): same inputs, less memory, more time.",
                saves,
                swap_action(node),
            )
        ]
    return [
        Suggestion(
            "tiled-decode-own",
            "note",
            "Headroom: the decode is this run's peak",
            why,
            f"Nothing to change. If it ever runs out of memory, use the tiled/chunked mode of {class_type} or its pack.",
            saves,
        )
    ]


def overlap_for(tile: int) -> int:
    """VAE Decode (Tiled)'s overlap for a tile: its default 64, at most a quarter of the tile."""
    return min(TILED_DEFAULTS["overlap"], tile // 4 // 32 * 32 or 32)


def swap_action(node: NodeDoc, tile: int | None = None) -> dict[str, object]:
    settings = dict(TILED_DEFAULTS)
    if tile:
        settings.update(tile_size=tile, overlap=overlap_for(tile))
    return {"type": "swap_vae_decode", "node_id": node.get("real_node_id") or node.get("node_id"), **settings}
