"""What occupies the memory: a model ComfyUI kept partly in RAM, a model loaded twice, memory a
failed run left behind, the VRAM other programs hold, and a driver spilling VRAM into RAM."""

from __future__ import annotations

from typing import Any

from ...documents import ModelDoc, NodeDoc
from ...format import GIB, fmt_bytes, fmt_pair
from ...sensing.install_type import LAUNCH_OPTION_PLACES
from ...vocabulary import Tier
from ..facts import RunFacts
from ..residency import describe_model, duplicate_models
from .base import Suggestion, rule

__all__: list[str] = []


@rule("memory-held", needs=("end-readings", "models"), tiers=("pressure",))
def memory_held(f: RunFacts) -> list[Suggestion]:
    """A failed or interrupted run left memory held: free it before the next try."""
    if f.status not in ("error", "interrupted"):
        return []
    start, end = f.start_metrics, f.end_metrics
    held, freed = [], 0
    used, total = end.get("gpu0_used_bytes"), f.limit_of("gpu0_used_bytes")
    if used is not None and total and used >= 0.8 * total and used - start.get("gpu0_used_bytes", 0) >= GIB:
        held.append(
            f"VRAM {fmt_pair(used, total)} after the run (it began at {fmt_bytes(start.get('gpu0_used_bytes'))})"
        )
        freed = max(freed, used - start.get("gpu0_used_bytes", 0))
    rss, ram = end.get("process_rss_bytes"), f.limit_of("process_rss_bytes")
    if rss is not None and ram and rss - start.get("process_rss_bytes", rss) >= max(GIB, 0.25 * ram):
        held.append(
            f"ComfyUI holds {fmt_bytes(rss)} of RAM after the run (it began at "
            f"{fmt_bytes(start.get('process_rss_bytes'))})"
        )
        freed = max(freed, rss - start.get("process_rss_bytes", rss))
    resident = [m for m in f.models_end or [] if m.get("loaded_bytes")]
    resident_bytes = sum(m.get("loaded_bytes") or 0 for m in resident)
    if resident and (held or (f.failed and resident_bytes >= 256 * 1024**2)):
        held.append(
            f"{len(resident)} model{'s' if len(resident) > 1 else ''} still loaded: "
            + "; ".join(describe_model(dict(m)) for m in resident)
        )
        freed = max(freed, resident_bytes)
    if not held:
        return []
    return [
        Suggestion(
            "free-memory",
            "pressure",
            "Free the memory the failed run left behind",
            "; ".join(held) + ".",
            "Press Free memory (ComfyUI unloads its models and empties its caches) before the next try; "
            "if the numbers stay high, save the workflow and restart ComfyUI.",
            freed or None,
            {"type": "free_memory", "unload_models": True, "free_memory": True},
        )
    ]


@rule("launch-options", needs=("failure", "snapshot", "launch-options"), tiers=("failure",))
def launch_options(f: RunFacts) -> list[Suggestion]:
    """VRAM ran out: the launch option that fits the evidence, phrased for the install type."""
    if not f.failed or f.on_cpu or f.failure is None or f.failure.kind != "vram":
        return []
    place = LAUNCH_OPTION_PLACES.get(f.install, LAUNCH_OPTION_PLACES["unknown"])
    out = []
    gpu = next(iter((f.failure.snapshot or {}).get("gpus") or []), None)
    others = None
    if gpu and gpu.get("device_used_bytes") is not None and gpu.get("torch_reserved_bytes") is not None:
        others = gpu["device_used_bytes"] - gpu["torch_reserved_bytes"]
    if others is not None and gpu is not None and others >= GIB and "--reserve-vram" not in f.argv:
        out.append(
            Suggestion(
                "reserve-vram",
                "failure",
                "Tell ComfyUI how much VRAM other programs need",
                f"At the failure, {fmt_bytes(others)} of VRAM was in use outside ComfyUI's allocator "
                f"(device {fmt_bytes(gpu['device_used_bytes'])}, ComfyUI {fmt_bytes(gpu['torch_reserved_bytes'])}).",
                "Start ComfyUI with --reserve-vram "
                + f"{others / GIB:.1f}: "
                + place.format(flag="--reserve-vram")
                + ". Trade-off: ComfyUI keeps less of the card for itself; closing those programs works too.",
            )
        )
    stage = f.failure.stage
    if (
        stage in ("load", "sampling")
        and not any(a in f.argv for a in ("--lowvram", "--novram"))
        and (f.params.get("batch_size") in (None, 1))
        and not any((p.get("offloaded_bytes") or 0) >= _NONE_ON_GPU for p in f.partials)  # it offloaded already
    ):
        out.append(
            Suggestion(
                "lowvram",
                "failure",
                "Let ComfyUI offload the model (--lowvram)",
                f"{f.label(f.failing_node())} ran out of VRAM while {'loading' if stage == 'load' else 'sampling'} "
                "with batch 1.",
                "Start ComfyUI with --lowvram: "
                + place.format(flag="--lowvram")
                + ". Trade-off: slower, and the offloaded "
                "weights need system RAM (and so pagefile/swap); keep your original launch settings to return to.",
            )
        )
    return out


@rule("vram-spill", needs=("spill",), tiers=("pressure",))
def vram_spill(f: RunFacts) -> list[Suggestion]:
    """VRAM spilled into shared memory outside the decode (the decode rule covers that one); in a log, where a
    pack's monitor said so (SeedVR2's "VRAM overflow: 3.42GB paged to system RAM")."""
    nodes = [n for n in f.nodes if "vram-spill" in (n.get("fallbacks") or []) and n.get("stage") != "vae-decode"]
    logged = next((e for e in f.events if e.get("kind") == "vram-spill" and e.get("node_id") is None), None)
    if not nodes and logged is None:
        return []
    why = (
        f"{f.label(nodes[0])}: shared GPU memory grew while VRAM was full (the NVIDIA driver's system memory "
        "fallback): nothing failed, the node just ran many times slower."
        if nodes
        else f'The log says VRAM was paged out to system RAM ("{(logged or {}).get("message", "")[:140]}"): the '
        "driver's system memory fallback; nothing failed, the run just went many times slower."
    )
    return [
        Suggestion(
            "sysmem-fallback",
            "pressure",
            "VRAM silently spilled into system RAM",
            why,
            "Make that stage smaller (resolution, batch, frames)" + _sysmem_policy(f),
            _growth(nodes[0], "gpu0_shared_bytes") if nodes else None,
        )
    ]


def _sysmem_policy(f: RunFacts) -> str:
    """NVIDIA's switch that turns the spill into an error, for an NVIDIA card (a traced run's, named by NVML), "on
    an NVIDIA card" where a log names none, nothing for AMD's or Intel's."""
    names = " ".join(str(g.get("name") or "") for g in f.context.get("gpus") or []).lower()
    if any(v in names for v in ("amd", "radeon", "intel", " arc")):
        return "."
    where = "" if any(v in names for v in ("nvidia", "geforce", "rtx", "quadro", "tesla")) else "on an NVIDIA card, "
    return (
        f" — or, {where}to get an error instead of the slowdown, set 'CUDA - Sysmem Fallback Policy' to 'Prefer No "
        "Sysmem Fallback' for ComfyUI's python.exe in the NVIDIA Control Panel."
    )


@rule("offloaded-weights", needs=("partial-load", "failure", "near-limit", "spill"), tiers=("failure", "pressure"))
def offloaded_weights(f: RunFacts) -> list[Suggestion]:
    """ComfyUI kept part of a model in RAM because VRAM was short, and system memory (or, with other
    programs on the card, VRAM) then ran short: the lever that moves it."""
    if not f.partials:
        return []
    top = max(f.partials, key=lambda p: p.get("offloaded_bytes") or 0)
    node = f.node(top["node_id"])
    name, loaded, offloaded, size = top["name"], top["loaded_bytes"], top["offloaded_bytes"], top["size_bytes"]
    others = f.vram_of_others(node, top["device"])
    spilled = bool(f.fallback_nodes("vram-spill")) or (f.failed and f.failure is not None and f.failure.kind == "vram")
    pressure = f.system_pressure()
    if not pressure and not (spilled and others is not None and others >= GIB):
        return []
    fit = f" ({fmt_bytes(loaded)} of its {fmt_bytes(size)} fit on {top['device']})" if size and top["device"] else ""
    kept = (
        f"ComfyUI kept {fmt_bytes(offloaded)} of {name} in RAM because VRAM was short{fit}"
        if offloaded
        else f"ComfyUI loaded {name} only partially because VRAM was short (its log: loaded partially)"
    )
    growth = _growth(node, "process_private_bytes") or _growth(node, "process_rss_bytes")
    evidence = [f"{f.label(node)} ({node.get('stage')}): {kept}" if node is not None else f"{kept} (ComfyUI's log)"]
    if growth is not None and growth >= 256 * 1024**2:
        evidence.append(f"ComfyUI's own memory grew by {fmt_bytes(growth)} during it")
    failure = f.failure
    critical = failure is not None and (failure.abrupt or failure.kind in ("system-ram", "commit-limit"))
    tier: Tier = "failure" if critical else "pressure"
    if spilled and others is not None and others >= GIB:
        place = LAUNCH_OPTION_PLACES.get(f.install, LAUNCH_OPTION_PLACES["unknown"])
        why = (
            "; ".join(
                evidence
                + [
                    f"other programs held {fmt_bytes(others)} of VRAM",
                    "VRAM then ran out" if f.failed else "VRAM then spilled into shared memory",
                ]
                + pressure
            )
            + "."
        )
        return [
            Suggestion(
                "reserve-vram",
                "failure" if f.failed else "pressure",
                "Tell ComfyUI how much VRAM other programs need",
                why,
                f"Start ComfyUI with --reserve-vram {others / GIB:.1f}: "
                + place.format(flag="--reserve-vram")
                + ". ComfyUI then leaves that much free for them instead of planning with memory they take back. "
                "Trade-off: more of the model stays in RAM; closing those programs works too.",
                others,
            )
        ]
    if others is not None and others >= GIB:
        why = "; ".join(evidence + [f"other programs held {fmt_bytes(others)} of VRAM when it loaded"] + pressure) + "."
        return [
            Suggestion(
                "close-vram-programs",
                tier,
                "Close the programs that hold VRAM",
                why,
                f"Close the programs using {fmt_bytes(others)} of VRAM (browsers with hardware acceleration, games, other "
                f"AI tools) and run again: ComfyUI sizes each load by the VRAM it finds free, so more of {name} fits on "
                "the GPU and less of it sits in RAM.",
                min(others, offloaded) if offloaded else others,
            )
        ]
    why = "; ".join(evidence + pressure) + "."
    text, saves = smaller_model(name, size, loaded, top.get("dtype"))
    hints = f.forecast
    if hints is not None and "fp8" in hints.fits_note:  # a forecast tried it: UNETLoader's weight_dtype
        text += f" The forecast: {hints.fits_note['fp8']} (UNETLoader's weight_dtype fp8_e4m3fn)."
        saves = hints.fp8_saves_bytes or saves
    return [
        Suggestion(
            "smaller-model-offload", tier, "Use a smaller or lower-precision model", why, text, saves or offloaded
        )
    ]


_NONE_ON_GPU = 64 * 1024**2
"""Less than this of a model on the GPU is none of it (its buffers alone take as much)."""
_KEPT_FOR_COMPUTE = "at least 1.2 GiB: 0.8 GiB plus the 0.4–0.7 GiB it reserves, more with --reserve-vram"
"""What ComfyUI keeps free for the computation when it sizes a load (``minimum_inference_memory``)."""


@rule("no-vram-for-model", needs=("partial-load",), tiers=("failure", "pressure", "note"))
def no_vram_for_model(f: RunFacts) -> list[Suggestion]:
    """ComfyUI loaded a model with none of it on the GPU: the card was full before the load (or --novram asked
    for it), and each step then reads every weight from RAM."""
    empty = [
        p
        for p in f.partials
        if p.get("loaded_bytes") is not None
        and not p.get("dynamic")  # dynamic VRAM streams weights to the GPU on demand: none resident is its design
        and p["loaded_bytes"] < _NONE_ON_GPU
        and (p.get("offloaded_bytes") is None or p["offloaded_bytes"] >= _NONE_ON_GPU)
    ]
    if not empty:
        return []
    top = max(empty, key=lambda p: p.get("offloaded_bytes") or 0)
    name, offloaded = top["name"], top.get("offloaded_bytes")
    node = f.node(top["node_id"])
    where = f"{f.label(node)} ({node.get('stage')}): " if node is not None else ""
    kept = f", all {fmt_bytes(offloaded)} of it left in RAM" if offloaded else ""
    why = f"{where}ComfyUI loaded {name} with none of it on the GPU ({fmt_bytes(top['loaded_bytes'])} loaded{kept})"
    if "--novram" in f.argv:
        return [
            Suggestion(
                "novram",
                "note",
                "ComfyUI keeps the models in RAM because it was started with --novram",
                why + "; ComfyUI was started with --novram, which asks for that.",
                "If the card has room, start ComfyUI without --novram (or with --lowvram): each step then reads the "
                "weights from VRAM instead of from RAM, many times faster.",
            )
        ]
    ended = f.failure is not None and (f.failure.abrupt or f.failure.kind == "vram")
    reserve = "--reserve-vram" in f.argv
    usable = top.get("usable_bytes")
    room = (
        "by its count there was none: the card was full (or read as full) when it loaded"
        if usable is None or usable < _NONE_ON_GPU
        else f"it found {fmt_bytes(usable)}, too little to place any of {name}: the card was nearly full when it loaded"
    )
    return [
        Suggestion(
            "free-vram-before-load",
            "failure" if ended else "pressure",
            "Free the VRAM before the model loads",
            why
            + f". ComfyUI gives a load only the VRAM free beyond what it keeps for computing ({_KEPT_FOR_COMPUTE}): "
            + room
            + ".",
            "Close what else holds the card (another program, a second ComfyUI, an LLM server or a pack that keeps its "
            "own model: nvidia-smi lists them), or press Free memory to unload ComfyUI's models before this step"
            + (", or start ComfyUI with a smaller --reserve-vram (it keeps that much free besides)" if reserve else "")
            + f", and run again. Until it has room, every step reads all of {name} from RAM: many times slower, so a run "
            "can seem to hang.",
            None,  # (what it frees is other programs' or other models' memory: the run's figures do not say)
            {"type": "free_memory", "unload_models": True, "free_memory": True},
        )
    ]


def _growth(node: NodeDoc | None, metric: str) -> int | None:
    before, peak = ((node or {}).get("before") or {}).get(metric), ((node or {}).get("peaks") or {}).get(metric)
    return peak - before if before is not None and peak is not None else None


def smaller_model(name: str, size: int | None, loaded: int | None, dtype: str | None) -> tuple[str, int | None]:
    """The precision step that would make the model fit, with the arithmetic, and what it saves."""
    step = {
        "float32": ("fp16", 2),
        "float16": ("fp8 (or a GGUF Q8)", 2),
        "bfloat16": ("fp8 (or a GGUF Q8)", 2),
        "float8_e4m3fn": ("a GGUF Q4", 2),
        "float8_e5m2": ("a GGUF Q4", 2),
    }.get(dtype or "")
    text = f"Load {name} in lower precision or pick a smaller model for the same task"
    saves = None
    if step and size and loaded is not None:
        smaller = size // step[1]
        saves = size - smaller
        fits = "fits in" if smaller <= loaded else "is still more than"
        text = (
            f"Load {name} as {step[0]}: about {fmt_bytes(smaller)} instead of {fmt_bytes(size)} ({dtype}), which "
            f"{fits} the {fmt_bytes(loaded)} of VRAM ComfyUI could give it"
        )
        if smaller > loaded:
            text += "; a smaller model for the same task would fit"
    return (
        text + ". Then ComfyUI keeps less of it (or nothing) in RAM. A bigger pagefile does not make it fit in VRAM."
    ), saves


@rule("duplicate-models", needs=("models",), tiers=("pressure", "note"))
def duplicate_models_rule(f: RunFacts) -> list[Suggestion]:
    """The same model file loaded twice: two copies of its weights in memory."""
    most: dict[tuple[str, Any], list[ModelDoc]] = {}  # per file and kind: the most copies at once
    for reading in f.model_readings:
        for copies in duplicate_models(reading):
            key = (str(copies[0].get("file")), copies[0].get("kind"))
            if len(copies) > len(most.get(key, ())):
                most[key] = list(reversed(copies))  # the model manager lists the newest first
    by_file: dict[str, list[list[ModelDoc]]] = {}
    for (file, _), copies in most.items():
        by_file.setdefault(file, []).append(copies)
    pressure = f.system_pressure() or (
        [f"{f.memory_name} reached {fmt_pair(f.peaks.get(f.metric), f.compute.limit_bytes)}"]
        if f.compute.near(f.peaks)
        else []
    )
    out = []
    for file, groups in by_file.items():
        loaders = [m.get("loaded_by") or {} for m in groups[0]]
        count = len(groups[0])
        extra = sum(m.get("size_bytes") or 0 for copies in groups for m in copies[1:])
        what = " and ".join(f"of {c[0].get('class')} ({fmt_bytes(c[0].get('size_bytes'))} each)" for c in groups)
        held = f"{count} copies {what}: {fmt_bytes(extra)} more than one copy needs"
        if len({lb.get("node_id") for lb in loaders}) == 1:
            why = (
                f"{file} is in memory {count} times: node {loaders[0].get('node_id')} loaded it again while an "
                f"earlier copy was still loaded; {held}"
            )
            change = "Press Free memory before running again (ComfyUI unloads every model), so only one copy is loaded."
            action: dict[str, Any] | None = {"type": "free_memory", "unload_models": True, "free_memory": True}
        else:
            by = " and ".join(f"node {lb.get('node_id')} ({lb.get('class_type')})" for lb in loaders)
            why = f"{file} is loaded {count} times, by {by}; {held}"
            change = (
                f"Load {file} once: delete the second loader node and connect the first one's outputs wherever "
                "the second's went. ComfyUI then keeps one copy of its weights."
            )
            action = None
        out.append(
            Suggestion(
                "duplicate-model",
                "pressure" if pressure else "note",
                "The same model is loaded twice",
                "; ".join([why, *pressure]) + ".",
                change,
                extra or None,
                action,
            )
        )
    return out
