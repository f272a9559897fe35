"""What to try next, one change at a time, from a run's measured facts.

Each rule reads the run document (and, when given, the doctor's machine document) and returns at
most a few :class:`Suggestion` objects. Every suggestion carries its evidence (``why``: node,
stage, numbers), exactly one change (``try``) and, where the panel can make that change, a
machine-readable ``action``. Suggestions are ordered by expected effect.

>>> [s.id for s in suggest({"status": "success", "nodes": []})]
[]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .doctor import suggest_pagefile
from .format import GIB, fmt_bytes, fmt_pair
from .install_type import LAUNCH_OPTION_PLACES
from .privacy import scrub_text
from .runfacts import compute_memory, executed_nodes, limit_of, run_peaks
from .workflow import workflow_parameters

__all__ = ["Suggestion", "suggest", "TILED_DEFAULTS", "RULES"]

TILED_DEFAULTS = {"tile_size": 512, "overlap": 64, "temporal_size": 64, "temporal_overlap": 8}
NEAR_LIMIT = 0.9
MEMORY_FAILURES = ("vram", "system-ram", "commit-limit")


@dataclass(frozen=True, slots=True)
class Suggestion:
    id: str
    severity: str
    """``critical`` (explains a failure), ``warning`` (a limit came close), ``info``."""
    title: str
    why: str
    try_: str
    effect: int
    """Expected effect, higher first; ties keep rule order."""
    rule: str
    action: dict[str, Any] | None = field(default=None)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "severity": self.severity, "title": self.title, "why": self.why, "try": self.try_,
                "action": self.action, "rule": self.rule, "effect": self.effect}


class _Facts:
    """The run, read once for all rules."""

    def __init__(self, doc: dict[str, Any], machine: dict[str, Any] | None) -> None:
        self.doc = doc
        self.machine = machine or {}
        self.context = doc.get("context") or {}
        self.nodes = executed_nodes(doc)
        self.failure = doc.get("failure") or None
        self.failed = self.failure is not None and self.failure.get("kind") in MEMORY_FAILURES
        self.metric = compute_memory(doc)
        self.limit = limit_of(doc, self.metric)
        self.peaks = run_peaks(doc)
        self.params = workflow_parameters(doc.get("prompt"))
        self.events = doc.get("events") or []
        self.on_cpu = self.context.get("compute_device") == "cpu" or not self.metric.startswith("gpu")
        self.os = str(self.context.get("os") or (self.machine.get("platform") or {}).get("system") or "")
        self.argv = [str(a) for a in self.context.get("argv") or []]

    @property
    def memory_name(self) -> str:
        return "RAM" if self.on_cpu else "VRAM"

    def node_peak(self, node: dict[str, Any]) -> int | None:
        return (node.get("peaks") or {}).get(self.metric)

    def failed_in(self, *stages: str) -> bool:
        return self.failed and self.failure.get("stage") in stages

    def failing_node(self) -> dict[str, Any] | None:
        if not self.failure:
            return None
        return next((n for n in self.nodes if n.get("node_id") == self.failure.get("node_id")), None)

    def fallback_nodes(self, kind: str) -> set[str]:
        return {e.get("node_id") for e in self.events if e.get("kind") == kind}

    def label(self, node: dict[str, Any] | None) -> str:
        if node is None:
            return "an unnamed node"
        title = node.get("title")
        name = f"{title} ({node.get('class_type')})" if title and title != node.get("class_type") else node.get("class_type")
        return f"node {node.get('node_id')} {name}" if node.get("node_id") else str(name)  # a log may not print the id


# ---------------------------------------------------------------------------- rules
def _tiled_decode(f: _Facts) -> list[Suggestion]:
    """1. The VAE decode is where memory runs out (or nearly): decode in tiles."""
    out = []
    decodes = [n for n in f.nodes if n.get("stage") == "vae-decode"]
    top = max((f.node_peak(n) or 0 for n in f.nodes), default=0)
    for node in decodes:
        peak, node_id = f.node_peak(node), node.get("node_id")
        reasons = []
        if f.failed and f.failure.get("node_id") == node_id:
            reasons.append(f"it failed: {f.failure.get('kind')} ({_short(f.failure.get('message'))})")
        if node_id in f.fallback_nodes("tiled-vae-decode"):
            reasons.append("ComfyUI ran out of memory decoding it whole and retried in tiles (wasted time and memory)")
        if node_id in f.fallback_nodes("vram-spill"):
            reasons.append("VRAM spilled into shared GPU memory during it (the driver's slow system memory fallback)")
        pressing = bool(reasons)
        before = (node.get("before") or {}).get(f.metric)
        grew = peak is not None and (before is None or peak > before * 1.01)  # the decode itself raised it
        if grew and f.limit and peak >= NEAR_LIMIT * f.limit:
            reasons.append(f"{f.memory_name} reached {fmt_pair(peak, f.limit)} during it")
            pressing = True
        elif grew and peak >= top and len(f.nodes) > 1:
            reasons.append(f"it is the run's {f.memory_name} peak ({fmt_pair(peak, f.limit)})")
        if not reasons:
            continue
        why = f"{f.label(node)}: " + "; ".join(reasons) + "."
        critical = f.failed and f.failure.get("node_id") == node_id
        severity = "critical" if critical else "warning" if pressing else "info"
        class_type = node.get("class_type")
        if class_type == "VAEDecode":
            out.append(Suggestion(
                "tiled-decode", severity, "Decode in tiles: replace VAE Decode with "
                "VAE Decode (Tiled)", why,
                "Replace this VAE Decode with VAE Decode (Tiled) at its defaults (tile_size 512, overlap 64, "
                "temporal_size 64, temporal_overlap 8), same samples and vae inputs; keep the seed and compare the "
                "image. Tiles use less memory and more time; for video latents the temporal settings apply.",
                effect=90 if critical else 60 if pressing else 30, rule="1",
                action={"type": "swap_vae_decode", "node_id": node.get("real_node_id") or node_id, **TILED_DEFAULTS}))
        elif class_type == "VAEDecodeTiled" and pressing:  # already tiled: only when it still runs short
            inputs = ((f.doc.get("prompt") or {}).get(node.get("real_node_id") or node_id) or {}).get("inputs") or {}
            tile = inputs.get("tile_size")
            tile = tile if isinstance(tile, int) else TILED_DEFAULTS["tile_size"]
            smaller = max(64, (tile // 2) // 32 * 32)
            out.append(Suggestion(
                "smaller-tiles", severity, "Use smaller decode tiles", why,
                f"Lower tile_size from {tile} to {smaller} (one step; leave the other settings), then check the "
                "image for seams, gradients and lost fine detail.",
                effect=80 if critical else 50 if pressing else 20, rule="1",
                action={"type": "set_widget", "node_id": node.get("real_node_id") or node_id, "widget": "tile_size",
                        "value": smaller}))
        elif class_type != "VAEDecodeTiled":  # a specialised decoder: never swap it for an image decoder
            out.append(Suggestion(
                "tiled-decode-own", severity, f"Use {class_type}'s tiled mode", why,
                f"Turn on the tiled/chunked decoding that {class_type} or its pack offers (its compatible tiled "
                "decoder), keeping its temporal settings; do not swap it for an image VAE Decode.",
                effect=70 if critical else 45 if pressing else 20, rule="1"))
    return out


def _failed_loading(f: _Facts) -> list[Suggestion]:
    """2. Failure while loading a model."""
    if not f.failed_in("load"):
        return []
    node = f.failing_node()
    models = ", ".join(f.params.get("models") or []) or "the model"
    return [Suggestion(
        "smaller-model", "critical", "Load a smaller or lower-precision model",
        f"{f.label(node)} failed while loading ({f.failure.get('kind')}: {_short(f.failure.get('message'))}); "
        f"models in this workflow: {models}.",
        "Load a smaller compatible model for the same task, or the same model in lower precision (fp8, a GGUF "
        "quantisation). Tiling the VAE decode will not help: the run never reached the decode.",
        effect=85, rule="2")]


def _failed_sampling(f: _Facts) -> list[Suggestion]:
    """3. Failure while sampling: batch 1 first, then a smaller resolution (two separate changes)."""
    if not f.failed_in("sampling"):
        return []
    node = f.failing_node()
    why = f"{f.label(node)} failed while sampling ({f.failure.get('kind')}: {_short(f.failure.get('message'))})"
    batch, width, height = f.params.get("batch_size"), f.params.get("width"), f.params.get("height")
    out = []
    if isinstance(batch, int) and batch > 1:
        out.append(Suggestion("batch-one", "critical", "Sample one image at a time", f"{why}; batch_size is {batch}.",
                              f"Set batch_size from {batch} to 1, nothing else; queue several runs instead.",
                              effect=88, rule="3"))
    if isinstance(width, int) and isinstance(height, int):
        w, h = _round8(width * 3 // 4), _round8(height * 3 // 4)
        out.append(Suggestion(
            "smaller-resolution", "critical" if not out else "warning", "Sample at a smaller resolution",
            f"{why}; the latent is {width}x{height}" + (f", batch {batch}" if batch else "") + ".",
            f"Try {w}x{h} (keep the seed{', after batch 1' if out else ''}). Doubling width and height quadruples "
            "the pixels, but VRAM does not simply quadruple: models have fixed costs, so measure each step.",
            effect=80 if not out else 55, rule="3"))
    if not out:
        out.append(Suggestion("smaller-sampling", "critical", "Make the sampling step smaller", why + ".",
                              "Lower the resolution (or frames) of the latent the sampler works on, one step at a time.",
                              effect=75, rule="3"))
    return out


def _upscale_or_video(f: _Facts) -> list[Suggestion]:
    """4. Upscale or video stage at fault: a smaller input or fewer frames."""
    out = []
    for stage, change in (("upscale", "Feed it a smaller image (or upscale by a smaller factor)"),
                          ("video", "Use fewer frames (length) or a smaller frame size")):
        nodes = [n for n in f.nodes if n.get("stage") == stage]
        failed = f.failed_in(stage)
        near = [n for n in nodes if f.limit and (f.node_peak(n) or 0) >= NEAR_LIMIT * f.limit]
        if not failed and not near:
            continue
        node = f.failing_node() if failed else near[0]
        evidence = (f"failed ({f.failure.get('kind')}: {_short(f.failure.get('message'))})" if failed
                    else f"reached {fmt_pair(f.node_peak(node), f.limit)} of {f.memory_name}")
        frames = f" (length is {f.params['length']})" if stage == "video" and "length" in f.params else ""
        out.append(Suggestion(
            f"smaller-{stage}", "critical" if failed else "warning", f"Give the {stage} stage less to do",
            f"{f.label(node)} {evidence}{frames}.", change + ", one change at a time, and check whether that stage "
            "finishes.", effect=78 if failed else 40, rule="4"))
    return out


def _custom_node(f: _Facts) -> list[Suggestion]:
    """5. Failure inside a custom node."""
    if not f.failed_in("custom"):
        return []
    node = f.failing_node()
    return [Suggestion(
        "builtin-node", "critical", "Try a built-in node in place of the custom one",
        f"{f.label(node)}, from a custom node pack, failed ({f.failure.get('kind')}: {_short(f.failure.get('message'))}).",
        f"Swap {node.get('class_type') if node else 'it'} for the smallest built-in ComfyUI node that does the same "
        "job; if the built-in node fails too, the limit is the workload, not the pack.", effect=70, rule="5")]


def _commit(f: _Facts) -> list[Suggestion]:
    """6. System commit (RAM + pagefile/swap) near its limit, a commit failure or an abrupt end."""
    commit, limit = f.peaks.get("commit_bytes"), limit_of(f.doc, "commit_bytes")
    kind = (f.failure or {}).get("kind")
    abrupt = bool((f.failure or {}).get("abrupt"))
    near = commit is not None and limit and commit >= NEAR_LIMIT * limit
    if not (near or kind == "commit-limit" or (abrupt and kind in ("commit-limit", "system-ram"))):
        return []
    windows = "Windows" in f.os
    ram = f.context.get("ram_total_bytes") or (f.doc.get("start_metrics") or {}).get("ram_total_bytes")
    vram = max((g.get("vram_total_bytes") or 0 for g in f.context.get("gpus") or []), default=0) or None
    advice = suggest_pagefile(ram, vram, peak_commit_bytes=commit)
    size = f"{advice.recommended_bytes // GIB} GB" if advice else "32 GB"
    evidence = []
    if commit is not None and limit:
        evidence.append(f"peak commit {fmt_pair(commit, limit)} in this run")
    if kind == "commit-limit":
        evidence.append(f"it failed at {f.label(f.failing_node())} with '{_short(f.failure.get('message'))}'")
    if abrupt:
        evidence.append("ComfyUI ended without an error during the run (the OS ends a process when RAM + "
                        + ("pagefile" if windows else "swap") + " run out)")
    lowvram = [a for a in f.argv if a in ("--lowvram", "--novram", "--cpu")]
    pressure = (f" {' and '.join(lowvram)} {'moves' if len(lowvram) == 1 else 'move'} work into system RAM and "
                "raises this pressure." if lowvram else "")
    if windows:
        change = (f"Set a fixed pagefile of {size} (initial = maximum){' (' + advice.basis + ')' if advice else ''} on "
                  "a non-system SSD with free space — never an HDD or a USB/removable drive. Memory compression is "
                  f"not a pagefile.{pressure}")
        title = "Give Windows a larger fixed pagefile"
    else:
        change = (f"Add swap (a {size} swap file on an SSD) so the kernel's OOM killer stops ending ComfyUI when "
                  f"RAM is full.{pressure}")
        title = "Add swap so RAM can overflow"
    return [Suggestion("pagefile", "critical" if kind == "commit-limit" or abrupt else "warning", title,
                       "; ".join(evidence) + ".", change, effect=87 if kind == "commit-limit" or abrupt else 50,
                       rule="6")]


def _abrupt(f: _Facts) -> list[Suggestion]:
    """A run that ended without an error and without memory evidence: find out who ended it."""
    failure = f.failure or {}
    if not failure.get("abrupt") or failure.get("kind") in ("commit-limit", "system-ram"):
        return []
    where = f"during {f.label(f.failing_node())}" if f.failing_node() else "mid-run"
    if "Windows" in f.os:
        check = ("Open Event Viewer > Windows Logs > Application and look for errors 1000/1023 (python.exe) or "
                 "'Resource-Exhaustion-Detector' at that time")
    else:
        check = "Run 'journalctl -k | grep -i -E \"killed process|out of memory\"' (or dmesg) for that time"
    return [Suggestion(
        "find-who-ended-it", "warning", "Find out what ended ComfyUI",
        f"ComfyUI stopped {where} without reporting an error"
        + ("; its last readings were not near a memory limit (sampled up to one second before)." if f.peaks else "."),
        check + ". An out-of-memory kill there means RAM + pagefile/swap ran out (then add pagefile/swap); no "
        "such entry points to a crash or a manual stop instead.", effect=55, rule="6")]


def _disk(f: _Facts) -> list[Suggestion]:
    """7. Low free disk where the pagefile, models or outputs live."""
    disks = list(((f.failure or {}).get("snapshot") or {}).get("disks") or []) + list(f.machine.get("disks") or [])
    for area in (f.machine.get("swap") or {}).get("areas") or []:
        volume = area.get("volume") or {}
        if volume.get("total_bytes"):
            disks.append({"role": "pagefile", **volume})
    low = [d for d in disks if d.get("free_bytes") is not None and d.get("total_bytes")
           and (d["free_bytes"] < 0.05 * d["total_bytes"] or d["free_bytes"] < 10 * GIB)]
    failed_disk = (f.failure or {}).get("kind") == "disk"
    if not low and not failed_disk:
        return []
    evidence = [f"{d['role']}: {fmt_bytes(d['free_bytes'])} free of {fmt_bytes(d['total_bytes'])}" for d in low]
    if failed_disk:
        evidence.insert(0, f"{f.label(f.failing_node())} failed writing: {_short(f.failure.get('message'))}")
    where = ", ".join(sorted({d["role"] for d in low})) or "the output drive"
    return [Suggestion("free-disk", "critical" if failed_disk else "warning", f"Free disk space ({where})",
                       "; ".join(evidence) + ".",
                       f"Free space on the {where} drive (keep 10% or more free there). Deleting old outputs frees "
                       "disk, not VRAM.", effect=84 if failed_disk else 35, rule="7")]


def _memory_held(f: _Facts) -> list[Suggestion]:
    """8. Memory still held after a failed or interrupted run."""
    if f.doc.get("status") not in ("error", "interrupted"):
        return []
    start, end = f.doc.get("start_metrics") or {}, f.doc.get("end_metrics") or {}
    held = []
    used, total = end.get("gpu0_used_bytes"), limit_of(f.doc, "gpu0_used_bytes")
    if used is not None and total and used >= 0.8 * total and used - start.get("gpu0_used_bytes", 0) >= GIB:
        held.append(f"VRAM {fmt_pair(used, total)} after the run (it began at {fmt_bytes(start.get('gpu0_used_bytes'))})")
    rss, ram = end.get("process_rss_bytes"), limit_of(f.doc, "process_rss_bytes")
    if rss is not None and ram and rss - start.get("process_rss_bytes", rss) >= max(GIB, 0.25 * ram):
        held.append(f"ComfyUI holds {fmt_bytes(rss)} of RAM after the run (it began at "
                    f"{fmt_bytes(start.get('process_rss_bytes'))})")
    if not held:
        return []
    return [Suggestion("free-memory", "warning", "Free the memory the failed run left behind", "; ".join(held) + ".",
                       "Press Free memory (ComfyUI unloads its models and empties its caches) before the next try; "
                       "if the numbers stay high, save the workflow and restart ComfyUI.", effect=65, rule="8",
                       action={"type": "free_memory", "unload_models": True, "free_memory": True})]


def _launch_options(f: _Facts) -> list[Suggestion]:
    """9. Launch options, only where the evidence points there, phrased for the install type."""
    if not f.failed or f.on_cpu or f.failure.get("kind") != "vram":
        return []
    install = (f.context.get("install") or {}).get("type", "unknown")
    place = LAUNCH_OPTION_PLACES.get(install, LAUNCH_OPTION_PLACES["unknown"])
    out = []
    snapshot = f.failure.get("snapshot") or {}
    gpu = next(iter(snapshot.get("gpus") or []), None)
    others = None
    if gpu and gpu.get("device_used_bytes") is not None and gpu.get("torch_reserved_bytes") is not None:
        others = gpu["device_used_bytes"] - gpu["torch_reserved_bytes"]
    if others is not None and others >= GIB and "--reserve-vram" not in f.argv:
        out.append(Suggestion(
            "reserve-vram", "info", "Tell ComfyUI how much VRAM other programs need",
            f"At the failure, {fmt_bytes(others)} of VRAM was in use outside ComfyUI's allocator "
            f"(device {fmt_bytes(gpu['device_used_bytes'])}, ComfyUI {fmt_bytes(gpu['torch_reserved_bytes'])}).",
            "Start ComfyUI with --reserve-vram " + f"{others / GIB:.1f}: " + place.format(flag="--reserve-vram")
            + ". Trade-off: ComfyUI keeps less of the card for itself; closing those programs works too.",
            effect=30, rule="9"))
    stage = f.failure.get("stage")
    if stage in ("load", "sampling") and not any(a in f.argv for a in ("--lowvram", "--novram")) \
            and (f.params.get("batch_size") in (None, 1)):
        out.append(Suggestion(
            "lowvram", "info", "Let ComfyUI offload the model (--lowvram)",
            f"{f.label(f.failing_node())} ran out of VRAM while {'loading' if stage == 'load' else 'sampling'} "
            "with batch 1.",
            "Start ComfyUI with --lowvram: " + place.format(flag="--lowvram") + ". Trade-off: slower, and the offloaded "
            "weights need system RAM (and so pagefile/swap); keep your original launch settings to return to.",
            effect=25, rule="9"))
    return out


def _vram_spill(f: _Facts) -> list[Suggestion]:
    """A spill outside the decode (rule 1 covers the decode): make it an error you can act on."""
    nodes = [n for n in f.nodes if "vram-spill" in (n.get("fallbacks") or []) and n.get("stage") != "vae-decode"]
    if not nodes:
        return []
    return [Suggestion(
        "sysmem-fallback", "warning", "VRAM silently spilled into system RAM",
        f"{f.label(nodes[0])}: shared GPU memory grew while VRAM was full (the NVIDIA driver's system memory "
        "fallback): nothing failed, the node just ran many times slower.",
        "Make that stage smaller (resolution, batch, frames) — or, to get an error instead of the slowdown, set "
        "'CUDA - Sysmem Fallback Policy' to 'Prefer No Sysmem Fallback' for ComfyUI's python.exe in the NVIDIA "
        "Control Panel.", effect=45, rule="spill")]


RULES: tuple[Callable[[_Facts], list[Suggestion]], ...] = (
    _tiled_decode, _failed_loading, _failed_sampling, _upscale_or_video, _custom_node, _commit, _abrupt, _disk,
    _memory_held, _launch_options, _vram_spill,
)


def suggest(doc: dict[str, Any], machine: dict[str, Any] | None = None) -> list[Suggestion]:
    """All suggestions for a run, most effective first. Never raises on gaps in the data."""
    facts = _Facts(doc, machine)
    found: list[Suggestion] = []
    for rule in RULES:
        found.extend(rule(facts))
    ranked = sorted(enumerate(found), key=lambda item: (-item[1].effect, item[0]))
    return [s for _, s in ranked]


def _short(text: Any, limit: int = 90) -> str:
    """The first line of an error, paths shortened to file names, at most ``limit`` characters."""
    first = scrub_text(str(text or "").strip().splitlines()[0]) if str(text or "").strip() else "no message"
    return first if len(first) <= limit else first[: limit - 1] + "…"


def _round8(value: int) -> int:
    return max(64, value // 8 * 8)
