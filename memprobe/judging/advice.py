"""What to try next, one change at a time, from a run's measured facts.

Each rule reads the run document (and, when given, the doctor's machine document) and returns at
most a few :class:`Suggestion` objects. Every suggestion carries its evidence (``why``: node,
stage, numbers), exactly one change (``try``) and, where the panel can make that change, a
machine-readable ``action``. Suggestions are ordered by expected effect.

A suggestion needs pressure evidence: a failure, a fallback ComfyUI took, a VRAM spill, or a peak
within 10 % of the limit the OS enforces on that memory (:mod:`memprobe.judging.limits`: VRAM; the
commit limit on Windows and Linux mode 2; RAM + swap on Linux modes 0/1 and macOS; a container's
cgroup limit). Without it there is at most a neutral note of the headroom, ranked last.

>>> [s.id for s in suggest({"status": "success", "nodes": []})]
[]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..format import GIB, fmt_bytes, fmt_pair
from ..privacy import scrub_text
from ..sensing.install_type import LAUNCH_OPTION_PLACES
from .doctor import suggest_pagefile
from .limits import CGROUP, COMMIT, MemoryLimit, disk_is_low, os_family
from .residency import describe_model, duplicate_models, partial_loads
from .runfacts import compute_limit, executed_nodes, limit_of, memory_limits, run_peaks
from .workflow import workflow_parameters

__all__ = ["Suggestion", "suggest", "TILED_DEFAULTS", "RULES"]

TILED_DEFAULTS = {"tile_size": 512, "overlap": 64, "temporal_size": 64, "temporal_overlap": 8}
MEMORY_FAILURES = ("vram", "system-ram", "commit-limit", "cgroup-limit")
SYSTEM_FAILURES = ("system-ram", "commit-limit", "cgroup-limit")
HEADROOM_EFFECT = 1
"""A note without pressure evidence ranks below every suggestion."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    id: str
    severity: str
    """``critical`` (explains a failure), ``warning`` (a limit came close), ``info`` (no pressure:
    a hint, or a neutral note of the headroom)."""
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
        self.compute: MemoryLimit = compute_limit(doc)
        self.metric = self.compute.metric
        self.limit = self.compute.limit_bytes
        self.limits = memory_limits(doc)
        self.system = self.limits[0]
        """The limit the OS enforces on system memory (RAM + swap, the commit limit, a cgroup's)."""
        self.peaks = run_peaks(doc)
        self.params = workflow_parameters(doc.get("prompt"))
        self.events = doc.get("events") or []
        self.on_cpu = self.context.get("compute_device") == "cpu" or not self.metric.startswith("gpu")
        self.os = str(self.context.get("os") or (self.machine.get("platform") or {}).get("system") or "")
        self.argv = [str(a) for a in self.context.get("argv") or []]
        self.partials = partial_loads(doc)

    @property
    def memory_name(self) -> str:
        if not self.on_cpu:
            return "VRAM"
        return "the container's memory" if self.compute.name == CGROUP else "commit" if self.metric == "commit_bytes" \
            else "RAM"

    def node_peak(self, node: dict[str, Any]) -> int | None:
        """What counts against the compute memory's limit at the node's peak."""
        return self.compute.used(node.get("peaks") or {})

    def of_limit(self, used: int | None) -> str:
        """``2.7 GiB of 23.5 GiB RAM (12%)``: a figure against the compute limit, named."""
        return _of_limit(self.compute, used)

    def failed_in(self, *stages: str) -> bool:
        return self.failed and self.failure.get("stage") in stages

    def failing_node(self) -> dict[str, Any] | None:
        if not self.failure:
            return None
        return next((n for n in self.nodes if n.get("node_id") == self.failure.get("node_id")), None)

    def fallback_nodes(self, kind: str) -> set[str]:
        return {e.get("node_id") for e in self.events if e.get("kind") == kind}

    def node(self, node_id: Any) -> dict[str, Any] | None:
        return next((n for n in self.nodes if n.get("node_id") == node_id), None)

    def system_pressure(self) -> list[str]:
        """Evidence that system memory (RAM, commit) ran short: a failure of that kind, an abrupt
        end, or a peak near its limit."""
        out = []
        kind = (self.failure or {}).get("kind")
        if kind in ("system-ram", "commit-limit", "cgroup-limit"):
            out.append(f"the run failed at {self.label(self.failing_node())} ({kind}: "
                       f"{_short(self.failure.get('message'))})")
        if (self.failure or {}).get("abrupt"):
            out.append("ComfyUI ended without an error mid-run")
        if self.system.near(self.peaks):  # judged by the limit the OS enforces, never Linux's CommitLimit
            used = self.system.used(self.peaks)
            out.append(f"{_USAGE_WORDS.get(self.system.name, self.system.name)} reached {_of_limit(self.system, used)}")
        return out

    def vram_of_others(self, node: dict[str, Any] | None, device: str | None) -> int | None:
        """VRAM other programs held when ``node`` began: the device's use minus torch's reserve."""
        index = device.split(":")[1] if device and device.startswith("cuda:") and ":" in device else "0"
        before = (node or {}).get("before") or {}
        used, reserved = before.get(f"gpu{index}_used_bytes"), before.get(f"gpu{index}_reserved_bytes")
        return used - reserved if used is not None and reserved is not None else None

    def label(self, node: dict[str, Any] | None) -> str:
        if node is None:
            return "an unnamed node"
        title = node.get("title")
        name = f"{title} ({node.get('class_type')})" if title and title != node.get("class_type") else node.get("class_type")
        return f"node {node.get('node_id')} {name}" if node.get("node_id") else str(name)  # a log may not print the id


# ---------------------------------------------------------------------------- rules
def _tiled_decode(f: _Facts) -> list[Suggestion]:
    """1. The VAE decode is where memory runs out (or nearly): decode in tiles. A decode that is
    merely the run's peak, far from any limit, gets a neutral note (ranked last) with the swap."""
    out = []
    decodes = [n for n in f.nodes if n.get("stage") == "vae-decode"]
    top = max((f.node_peak(n) or 0 for n in f.nodes), default=0)
    for node in decodes:
        peak, node_id = f.node_peak(node), node.get("node_id")
        reasons = []
        if f.failed and f.failure.get("node_id") == node_id:
            reasons.append(_failed_words(f.failure))
        if node_id in f.fallback_nodes("tiled-vae-decode"):
            reasons.append("ComfyUI ran out of memory decoding it whole and retried in tiles (wasted time and memory)")
        if node_id in f.fallback_nodes("vram-spill"):
            reasons.append("VRAM spilled into shared GPU memory during it (the driver's slow system memory fallback)")
        before = f.compute.used(node.get("before") or {})
        grew = peak is not None and (before is None or peak > before * 1.01)  # the decode itself raised it
        if grew and f.compute.near(node.get("peaks") or {}):
            reasons.append(f"{f.memory_name} reached {f.of_limit(peak)} during it")
        if reasons:
            out += _decode_change(f, node, f"{f.label(node)}: " + "; ".join(reasons) + ".")
        elif grew and peak >= top and len(f.nodes) > 1:
            out += _decode_headroom(f, node, peak)
    return out


def _decode_change(f: _Facts, node: dict[str, Any], why: str) -> list[Suggestion]:
    """The decode ran short (or nearly): tile it, or tile it smaller."""
    node_id = node.get("node_id")
    critical = f.failed and f.failure.get("node_id") == node_id
    severity = "critical" if critical else "warning"
    class_type = node.get("class_type")
    if class_type == "VAEDecode":
        return [Suggestion(
            "tiled-decode", severity, "Decode in tiles: replace VAE Decode with VAE Decode (Tiled)", why,
            "Replace this VAE Decode with VAE Decode (Tiled) at its defaults (tile_size 512, overlap 64, "
            "temporal_size 64, temporal_overlap 8), same samples and vae inputs; keep the seed and compare the "
            "image. Tiles use less memory and more time; for video latents the temporal settings apply.",
            effect=90 if critical else 60, rule="1", action=_swap_action(node))]
    if class_type == "VAEDecodeTiled":  # already tiled and still short: one step smaller
        inputs = ((f.doc.get("prompt") or {}).get(node.get("real_node_id") or node_id) or {}).get("inputs") or {}
        tile = inputs.get("tile_size")
        tile = tile if isinstance(tile, int) else TILED_DEFAULTS["tile_size"]
        smaller = max(64, (tile // 2) // 32 * 32)
        return [Suggestion(
            "smaller-tiles", severity, "Use smaller decode tiles", why,
            f"Lower tile_size from {tile} to {smaller} (one step; leave the other settings), then check the "
            "image for seams, gradients and lost fine detail.",
            effect=80 if critical else 50, rule="1",
            action={"type": "set_widget", "node_id": node.get("real_node_id") or node_id, "widget": "tile_size",
                    "value": smaller})]
    return [Suggestion(  # a specialised decoder: never swap it for an image decoder
        "tiled-decode-own", severity, f"Use {class_type}'s tiled mode", why,
        f"Turn on the tiled/chunked decoding that {class_type} or its pack offers (its compatible tiled "
        "decoder), keeping its temporal settings; do not swap it for an image VAE Decode.",
        effect=70 if critical else 45, rule="1")]


def _decode_headroom(f: _Facts, node: dict[str, Any], peak: int) -> list[Suggestion]:
    """No pressure: say where the headroom is, neutrally, and keep the one-click swap at hand."""
    class_type = node.get("class_type")
    if class_type == "VAEDecodeTiled":
        return []
    why = (f"{f.label(node)} is this run's {f.memory_name} peak at {f.of_limit(peak)}; nothing ran short "
           "(no failure, no fallback, no peak within 10% of the limit).")
    if class_type == "VAEDecode":
        return [Suggestion(
            "tiled-decode", "info", "Headroom: the VAE decode is this run's peak", why,
            "Nothing to change. If this decode ever runs out of memory, replace it with VAE Decode (Tiled) at its "
            "defaults (tile_size 512, overlap 64): same inputs, less memory, more time.",
            effect=HEADROOM_EFFECT, rule="1", action=_swap_action(node))]
    return [Suggestion(
        "tiled-decode-own", "info", "Headroom: the decode is this run's peak", why,
        f"Nothing to change. If it ever runs out of memory, use the tiled/chunked mode of {class_type} or its pack.",
        effect=HEADROOM_EFFECT, rule="1")]


def _swap_action(node: dict[str, Any]) -> dict[str, Any]:
    return {"type": "swap_vae_decode", "node_id": node.get("real_node_id") or node.get("node_id"), **TILED_DEFAULTS}


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
        near = [n for n in nodes if f.compute.near(n.get("peaks") or {})]
        if not failed and not near:
            continue
        node = f.failing_node() if failed else near[0]
        evidence = (f"failed ({f.failure.get('kind')}: {_short(f.failure.get('message'))})" if failed
                    else f"reached {f.of_limit(f.node_peak(node))}")
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


def _system_memory(f: _Facts) -> list[Suggestion]:
    """6. System memory against the limit the OS enforces: a failure at it, ComfyUI killed with it
    exhausted, or a peak within 10 % of it. Linux's commit limit in overcommit mode 0/1 is not
    enforced, so a commit near it is no evidence at all."""
    limit, failure = f.system, f.failure or {}
    kind, abrupt = failure.get("kind"), bool(failure.get("abrupt"))
    failed = kind == "commit-limit" or kind == "cgroup-limit" or (abrupt and kind == "system-ram")
    near = limit.near(f.peaks)
    if not (failed or near):
        return []
    if kind == "commit-limit" and limit.name != COMMIT:  # e.g. os error 1455 from a run without OS facts
        limit = MemoryLimit(COMMIT, True, "commit_bytes", limit_of(f.doc, "commit_bytes"))
    if kind == "cgroup-limit" and limit.name != CGROUP:
        limit = MemoryLimit(CGROUP, True, "cgroup_used_bytes", limit_of(f.doc, "cgroup_used_bytes"))
    used = limit.used(f.peaks)
    evidence = []
    if used is not None and limit.limit_bytes:
        evidence.append(f"{_USAGE_WORDS.get(limit.name, limit.name)} peaked at {_of_limit(limit, used)} in this run")
    if failed and not abrupt:
        evidence.append(f"it failed at {f.label(f.failing_node())} with '{_short(failure.get('message'))}'")
    if abrupt:
        evidence.append(failure.get("evidence") or "ComfyUI ended without an error during the run, with system "
                        "memory exhausted")
    offloaded = max(f.partials, key=lambda p: p.get("offloaded_bytes") or 0) if f.partials else None
    if offloaded and offloaded.get("offloaded_bytes"):
        at = f" at node {offloaded['node_id']}" if offloaded["node_id"] is not None else ""
        evidence.append(f"{fmt_bytes(offloaded['offloaded_bytes'])} of that are {offloaded['name']}'s weights, which "
                        f"ComfyUI kept in RAM{at} because VRAM was short")
    lowvram = [a for a in f.argv if a in ("--lowvram", "--novram", "--cpu")]
    pressure = (f" {' and '.join(lowvram)} {'moves' if len(lowvram) == 1 else 'move'} work into system RAM and "
                "raises this pressure." if lowvram else "")
    title, change = _system_remedy(f, limit, used)
    return [Suggestion("container-limit" if limit.name == CGROUP else "pagefile",
                       "critical" if failed else "warning", title, "; ".join(evidence) + ".", change + pressure,
                       effect=87 if failed else 50, rule="6")]


def _system_remedy(f: _Facts, limit: MemoryLimit, used: int | None) -> tuple[str, str]:
    """The one change that raises (or relieves) the limit that ran short, phrased for its OS."""
    family = os_family(f.os)
    ram = limit_of(f.doc, "ram_used_bytes")
    vram = max((g.get("vram_total_bytes") or 0 for g in f.context.get("gpus") or []), default=0) or None
    if limit.name == CGROUP:
        floor = limit.limit_bytes or used or 0
        target = -(-int(floor * 1.25) // GIB) * GIB
        return ("Give the container more memory",
                f"Raise the memory limit of ComfyUI's container to {target // GIB} GB or more (docker run --memory, "
                "compose mem_limit, Kubernetes resources.limits.memory), or run a smaller workflow. Swap or RAM "
                "on the host does not help while the container's own limit is the one that is reached.")
    advice = suggest_pagefile(ram, vram, peak_commit_bytes=used)
    size = f"{advice.recommended_bytes // GIB} GB" if advice else "32 GB"
    if family == "Windows":
        return ("Give Windows a larger fixed pagefile",
                f"Set a fixed pagefile of {size} (initial = maximum){' (' + advice.basis + ')' if advice else ''} on "
                "a non-system SSD with free space — never an HDD or a USB/removable drive. Memory compression is "
                "not a pagefile.")
    if limit.name == COMMIT:  # Linux, vm.overcommit_memory = 2
        return ("Raise Linux's commit limit",
                f"Add swap (a {size} swap file on an SSD: CommitLimit = swap + RAM x vm.overcommit_ratio / 100) or "
                "raise vm.overcommit_ratio; with strict overcommit, allocations beyond CommitLimit fail even with "
                "RAM free.")
    if family == "Darwin":
        return ("Free RAM for ComfyUI",
                "Close other programs before this workflow, and keep 20 GB or more free on the system volume: macOS "
                "swaps there, and ends programs when it cannot.")
    return ("Add swap so RAM can overflow",
            f"Add swap (a {size} swap file on an SSD) so the kernel's OOM killer stops ending ComfyUI when RAM is "
            "full.")


def _abrupt(f: _Facts) -> list[Suggestion]:
    """A run that ended without an error and without memory evidence: find out who ended it."""
    failure = f.failure or {}
    if not failure.get("abrupt") or failure.get("kind") in SYSTEM_FAILURES:
        return []
    where = f"during {f.label(f.failing_node())}" if f.failing_node() else "mid-run"
    if "Windows" in f.os:
        check = ("Open Event Viewer > Windows Logs > Application and look for errors 1000/1023 (python.exe) or "
                 "'Resource-Exhaustion-Detector' at that time")
    else:
        check = "Run 'journalctl -k | grep -i -E \"killed process|out of memory\"' (or dmesg) for that time"
    checked = failure.get("evidence") or (
        "its last readings were not near a memory limit (sampled up to one second before)" if f.peaks else "")
    return [Suggestion(
        "find-who-ended-it", "warning", "Find out what ended ComfyUI",
        f"ComfyUI stopped {where} without reporting an error" + (f"; {checked}." if checked else "."),
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
           and disk_is_low(d["free_bytes"], d["total_bytes"])]
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
    resident = [m for m in f.doc.get("models_end") or [] if m.get("loaded_bytes")]
    resident_bytes = sum(m["loaded_bytes"] for m in resident)
    if resident and (held or (f.failed and resident_bytes >= 256 * 1024**2)):
        held.append(f"{len(resident)} model{'s' if len(resident) > 1 else ''} still loaded: "
                    + "; ".join(describe_model(m) for m in resident))
    if not held:
        return []
    return [Suggestion("free-memory", "warning", "Free the memory the failed run left behind", "; ".join(held) + ".",
                       "Press Free memory (ComfyUI unloads its models and empties its caches) before the next try; "
                       "if the numbers stay high, save the workflow and restart ComfyUI.", effect=65, rule="8",
                       action={"type": "free_memory", "unload_models": True, "free_memory": True})]


def _offloaded_weights(f: _Facts) -> list[Suggestion]:
    """10. ComfyUI kept part of a model in RAM because VRAM was short, and system memory (or,
    with other programs on the card, VRAM) then ran short: the lever that moves it."""
    if not f.partials:
        return []
    top = max(f.partials, key=lambda p: p.get("offloaded_bytes") or 0)
    node = f.node(top["node_id"])
    name, loaded, offloaded, size = top["name"], top["loaded_bytes"], top["offloaded_bytes"], top["size_bytes"]
    others = f.vram_of_others(node, top["device"])
    spilled = bool(f.fallback_nodes("vram-spill")) or (f.failed and f.failure.get("kind") == "vram")
    pressure = f.system_pressure()
    if not pressure and not (spilled and others is not None and others >= GIB):
        return []
    fit = f" ({fmt_bytes(loaded)} of its {fmt_bytes(size)} fit on {top['device']})" if size and top["device"] else ""
    kept = (f"ComfyUI kept {fmt_bytes(offloaded)} of {name} in RAM because VRAM was short{fit}" if offloaded
            else f"ComfyUI loaded {name} only partially because VRAM was short (its log: loaded partially)")
    growth = _growth(node, "process_private_bytes") or _growth(node, "process_rss_bytes")
    evidence = [f"{f.label(node)} ({node.get('stage')}): {kept}" if node is not None else f"{kept} (ComfyUI's log)"]
    if growth is not None and growth >= 256 * 1024**2:
        evidence.append(f"ComfyUI's own memory grew by {fmt_bytes(growth)} during it")
    critical = bool((f.failure or {}).get("abrupt")) or (f.failure or {}).get("kind") in ("system-ram", "commit-limit")
    severity = "critical" if critical else "warning"
    if spilled and others is not None and others >= GIB:
        install = (f.context.get("install") or {}).get("type", "unknown")
        place = LAUNCH_OPTION_PLACES.get(install, LAUNCH_OPTION_PLACES["unknown"])
        why = "; ".join(evidence + [f"other programs held {fmt_bytes(others)} of VRAM", "VRAM then ran out"
                                    if f.failed else "VRAM then spilled into shared memory"] + pressure) + "."
        return [Suggestion(
            "reserve-vram", "critical" if f.failed else "warning", "Tell ComfyUI how much VRAM other programs need", why,
            f"Start ComfyUI with --reserve-vram {others / GIB:.1f}: " + place.format(flag="--reserve-vram")
            + ". ComfyUI then leaves that much free for them instead of planning with memory they take back. "
            "Trade-off: more of the model stays in RAM; closing those programs works too.", effect=60, rule="10")]
    if others is not None and others >= GIB:
        why = "; ".join(evidence + [f"other programs held {fmt_bytes(others)} of VRAM when it loaded"] + pressure) + "."
        return [Suggestion(
            "close-vram-programs", severity, "Close the programs that hold VRAM", why,
            f"Close the programs using {fmt_bytes(others)} of VRAM (browsers with hardware acceleration, games, other "
            f"AI tools) and run again: ComfyUI sizes each load by the VRAM it finds free, so more of {name} fits on "
            "the GPU and less of it sits in RAM.", effect=80 if critical else 46, rule="10")]
    why = "; ".join(evidence + pressure) + "."
    return [Suggestion("smaller-model-offload", severity, "Use a smaller or lower-precision model", why,
                       _smaller_model(name, size, loaded, top.get("dtype")), effect=82 if critical else 48, rule="10")]


def _growth(node: dict[str, Any] | None, metric: str) -> int | None:
    before, peak = ((node or {}).get("before") or {}).get(metric), ((node or {}).get("peaks") or {}).get(metric)
    return peak - before if before is not None and peak is not None else None


def _smaller_model(name: str, size: int | None, loaded: int | None, dtype: str | None) -> str:
    """The precision step that would make the model fit, with the arithmetic."""
    step = {"float32": ("fp16", 2), "float16": ("fp8 (or a GGUF Q8)", 2), "bfloat16": ("fp8 (or a GGUF Q8)", 2),
            "float8_e4m3fn": ("a GGUF Q4", 2), "float8_e5m2": ("a GGUF Q4", 2)}.get(dtype or "")
    text = f"Load {name} in lower precision or pick a smaller model for the same task"
    if step and size and loaded is not None:
        smaller = size // step[1]
        fits = "fits in" if smaller <= loaded else "is still more than"
        text = (f"Load {name} as {step[0]}: about {fmt_bytes(smaller)} instead of {fmt_bytes(size)} ({dtype}), which "
                f"{fits} the {fmt_bytes(loaded)} of VRAM ComfyUI could give it")
        if smaller > loaded:
            text += "; a smaller model for the same task would fit"
    return text + ". Then ComfyUI keeps less of it (or nothing) in RAM. A bigger pagefile does not make it fit in VRAM."


def _duplicate_models(f: _Facts) -> list[Suggestion]:
    """11. The same model file loaded twice: two copies of its weights in memory."""
    readings = [n.get("models") for n in f.nodes] + [f.doc.get("models_end")]
    most: dict[tuple[str, Any], list[dict[str, Any]]] = {}  # per file and kind: the most copies at once
    for reading in readings:
        for copies in duplicate_models(reading):
            key = (copies[0]["file"], copies[0].get("kind"))
            if len(copies) > len(most.get(key, ())):
                most[key] = list(reversed(copies))  # the model manager lists the newest first
    by_file: dict[str, list[list[dict[str, Any]]]] = {}
    for (file, _), copies in most.items():
        by_file.setdefault(file, []).append(copies)
    pressure = f.system_pressure() or ([f"{f.memory_name} reached {fmt_pair(f.peaks.get(f.metric), f.limit)}"]
                                       if f.compute.near(f.peaks) else [])
    out = []
    for file, groups in by_file.items():
        loaders = [m.get("loaded_by") or {} for m in groups[0]]
        count = len(groups[0])
        extra = sum(m.get("size_bytes") or 0 for copies in groups for m in copies[1:])
        what = " and ".join(f"of {c[0].get('class')} ({fmt_bytes(c[0].get('size_bytes'))} each)" for c in groups)
        held = f"{count} copies {what}: {fmt_bytes(extra)} more than one copy needs"
        if len({lb.get("node_id") for lb in loaders}) == 1:
            why = (f"{file} is in memory {count} times: node {loaders[0].get('node_id')} loaded it again while an "
                   f"earlier copy was still loaded; {held}")
            change = "Press Free memory before running again (ComfyUI unloads every model), so only one copy is loaded."
            action: dict[str, Any] | None = {"type": "free_memory", "unload_models": True, "free_memory": True}
        else:
            by = " and ".join(f"node {lb.get('node_id')} ({lb.get('class_type')})" for lb in loaders)
            why = f"{file} is loaded {count} times, by {by}; {held}"
            change = (f"Load {file} once: delete the second loader node and connect the first one's outputs wherever "
                      "the second's went. ComfyUI then keeps one copy of its weights.")
            action = None
        out.append(Suggestion("duplicate-model", "warning" if pressure else "info", "The same model is loaded twice",
                              "; ".join([why, *pressure]) + ".", change, effect=60 if pressure else 32, rule="11",
                              action=action))
    return out


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
    _tiled_decode, _failed_loading, _failed_sampling, _upscale_or_video, _custom_node, _system_memory, _abrupt, _disk,
    _memory_held, _launch_options, _vram_spill, _offloaded_weights, _duplicate_models,
)


def suggest(doc: dict[str, Any], machine: dict[str, Any] | None = None) -> list[Suggestion]:
    """All suggestions for a run, most effective first. Never raises on gaps in the data."""
    facts = _Facts(doc, machine)
    found: list[Suggestion] = []
    for rule in RULES:
        found.extend(rule(facts))
    ranked = sorted(enumerate(found), key=lambda item: (-item[1].effect, item[0]))
    out, said = [], set()
    for _, suggestion in ranked:  # rules 9 and 10 may both reach --reserve-vram: the stronger case stays
        if suggestion.id == "reserve-vram" and suggestion.id in said:
            continue
        said.add(suggestion.id)
        out.append(suggestion)
    return out


_USAGE_WORDS = {"RAM": "RAM in use", "RAM + swap": "RAM + swap in use", COMMIT: "commit",
                CGROUP: "the container's memory in use"}


def _of_limit(limit: MemoryLimit, used: int | None) -> str:
    """``2.7 GiB of 23.5 GiB RAM (12%)``, ``2.1 GiB of the 2.2 GiB container limit (98%)``."""
    if used is None:
        return "n/a"
    if not limit.limit_bytes:
        return fmt_bytes(used)
    share = f"{100 * used / limit.limit_bytes:.0f}%"
    if "limit" in limit.name:
        return f"{fmt_bytes(used)} of the {fmt_bytes(limit.limit_bytes)} {limit.name.replace(' (cgroup)', '')} ({share})"
    return f"{fmt_bytes(used)} of {fmt_bytes(limit.limit_bytes)} {limit.name} ({share})"


def _failed_words(failure: dict[str, Any]) -> str:
    if failure.get("abrupt"):
        return f"ComfyUI was ended while it ran ({failure.get('kind')}: {_short(failure.get('evidence'), 120)})"
    return f"it failed: {failure.get('kind')} ({_short(failure.get('message'))})"


def _short(text: Any, limit: int = 90) -> str:
    """The first line of an error, paths shortened to file names, at most ``limit`` characters."""
    first = scrub_text(str(text or "").strip().splitlines()[0]) if str(text or "").strip() else "no message"
    return first if len(first) <= limit else first[: limit - 1] + "…"


def _round8(value: int) -> int:
    return max(64, value // 8 * 8)
