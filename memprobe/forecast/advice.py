"""A forecast's suggestions, through the very rules a traced run gets: the forecast becomes the
facts a run would have given (each node's start level and peak on the compute memory and on system
memory; a stage that won't fit is the run's failure, kind and all), and the change that makes it fit
is found by forecasting it — the tile size, the batch, the size.

>>> from memprobe.forecast.advice import _fraction_sizes
>>> _fraction_sizes(1024, 1024)[:3]
[(960, 960), (896, 896), (832, 832)]
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from ..format import fmt_bytes
from ..judging.advice import advise
from ..judging.facts import FailureFacts, ForecastHints, RunFacts
from ..judging.limits import MemoryLimit, system_limits, vram_limit
from ..judging.sizes import MessageSizes
from ..judging.workflow import workflow_parameters
from .verdicts import TIGHT, WONT_FIT

__all__ = ["forecast_facts", "with_suggestions", "TILE_SIZES"]

TILE_SIZES = (512, 448, 384, 320, 256, 192, 128)
"""VAE Decode (Tiled)'s tile sizes tried, largest first (its input steps by 32 from 64)."""

Refit = Callable[[dict[str, Any]], dict[str, Any]]


def _limits(fc: Mapping[str, Any], context: Mapping[str, Any]) -> tuple[MemoryLimit, list[MemoryLimit]]:
    machine = fc.get("machine") or {}
    limits = system_limits(
        str(machine.get("os") or context.get("os") or ""),
        overcommit_mode=context.get("overcommit_mode"),
        ram_total=machine.get("ram_total_bytes"),
        swap_total=context.get("swap_total_bytes") if machine.get("measured", True) else 0,
        commit_limit=machine.get("system_limit_bytes") if machine.get("system_limit_name") == "commit limit" else None,
        cgroup_limit=(context.get("cgroup") or {}).get("limit_bytes") if machine.get("measured", True) else None,
    )
    if machine.get("device") != "cpu":
        return vram_limit(0, machine.get("vram_total_bytes")), limits
    return limits[0], limits


def forecast_facts(
    fc: Mapping[str, Any], prompt: Mapping[str, Any], context: Mapping[str, Any], hints: ForecastHints | None = None
) -> RunFacts:
    """The facts a run of this forecast would have given the rules."""
    machine = fc.get("machine") or {}
    if not machine.get("measured", True):  # a what-if machine: the rules read its device, card and OS
        device = machine.get("device") or "cpu"
        context = {
            **context,
            "compute_device": device,
            "os": machine.get("os") or context.get("os"),
            "gpus": [] if device == "cpu" else [{"index": 0, "vram_total_bytes": machine.get("vram_total_bytes")}],
            "ram_total_bytes": machine.get("ram_total_bytes"),
        }
    compute, limits = _limits(fc, context)
    system = limits[0]
    metric = fc.get("metric") or compute.metric
    nodes: list[dict[str, Any]] = []
    failure: FailureFacts | None = None
    peaks: dict[str, int] = {}
    for n in fc.get("nodes") or []:
        node_prompt = prompt.get(n["node_id"]) or {}
        on_gpu = metric.startswith("gpu")
        # on a GPU what the node needs (the models merely cached there give way), on the CPU its level
        reading = {metric: n.get("needed_bytes", n["peak_bytes"]) if on_gpu else n["peak_bytes"]}
        before = {metric: min(n["before_bytes"], reading[metric])}
        if n.get("system_used_bytes") is not None:
            reading[system.metric] = n["system_used_bytes"]
            if metric == "process_rss_bytes":  # on the CPU the compute memory is system memory
                before[system.metric] = n["system_used_bytes"] - (n["peak_bytes"] - n["before_bytes"])
        for k, v in reading.items():
            peaks[k] = max(peaks.get(k, 0), int(v))
        status = "ran"
        if failure is None and n.get("verdict") == WONT_FIT and not n.get("unknown"):
            status = "failed"
            failure = _failure(n, fc, compute, system)
        nodes.append(
            {
                "seq": len(nodes) + 1,
                "node_id": n["node_id"],
                "real_node_id": n["node_id"],
                "class_type": n["class_type"],
                "title": ((node_prompt.get("_meta") or {}).get("title")) or None,
                "stage": n["stage"],
                "status": status,
                "before": before,
                "peaks": reading,
            }
        )
    partials = [
        {
            "node_id": n["node_id"],
            "name": ", ".join(load["file"] for load in n["loads"]),
            "class": None,
            "file": n["loads"][0]["file"] if n["loads"] else None,
            "device": f"{(fc.get('machine') or {}).get('device')}:0",
            "dtype": None,
            "size_bytes": None,
            "loaded_bytes": None,
            "offloaded_bytes": n["offloaded_bytes"],
            "source": "forecast",
        }
        for n in fc.get("nodes") or []
        if n.get("offloaded_bytes")
    ]
    return RunFacts(
        status="forecast",
        context=dict(context),
        nodes=nodes,  # type: ignore[arg-type]  # a NodeDoc's keys, built as a dict
        failure=failure,
        compute=compute,
        limits=limits,
        peaks=peaks,
        params=workflow_parameters(dict(prompt)),
        partials=partials,
        prompt=dict(prompt),
        source="forecast",
        forecast=hints,
    )


def _failure(n: Mapping[str, Any], fc: Mapping[str, Any], compute: MemoryLimit, system: MemoryLimit) -> FailureFacts:
    machine = fc.get("machine") or {}
    on_gpu = machine.get("device") != "cpu"
    vram_short = on_gpu and compute.limit_bytes is not None and n["peak_bytes"] > compute.limit_bytes
    if vram_short:
        kind, needs, has = "vram", n["peak_bytes"], compute.limit_bytes
    else:
        kind = {"commit limit": "commit-limit", "container limit (cgroup)": "cgroup-limit"}.get(
            system.name, "system-ram"
        )
        needs, has = n.get("system_used_bytes") or n["peak_bytes"], system.limit_bytes
    name = "VRAM" if kind == "vram" else system.name
    working = int(n.get("working_bytes") or 0) or None
    free = max(0, int(has) - (int(needs) - working)) if has and working else None  # what was left for its work
    return FailureFacts(
        kind=kind,
        node_id=n["node_id"],
        class_type=n["class_type"],
        stage=n["stage"],
        message=f"forecast: needs {fmt_bytes(needs)} of {fmt_bytes(has)} {name}",
        sizes=MessageSizes(requested_bytes=working, total_bytes=has, free_bytes=free),
        likely=True,
    )


# ---------------------------------------------------------------------------- what would fit
def _node_fits(fc: Mapping[str, Any], node_id: str) -> tuple[bool, str]:
    node = next((n for n in fc.get("nodes") or [] if n["node_id"] == node_id), None)
    if node is None:
        return False, ""
    limit = (fc.get("peak") or {}).get("limit_bytes")
    return node.get("verdict") != WONT_FIT, _figure(node.get("needed_bytes", node["peak_bytes"]), limit, fc)


def _figure(used: int, limit: int | None, fc: Mapping[str, Any]) -> str:
    name = (fc.get("peak") or {}).get("limit_name") or ""
    return f"{fmt_bytes(used)} of {fmt_bytes(limit)} {name}".strip() if limit else fmt_bytes(used)


def _fraction_sizes(width: int, height: int) -> list[tuple[int, int]]:
    """Smaller sizes to try, 64 px at a time on the longer side, keeping the aspect (multiples of 64)."""
    out = []
    longer = max(width, height)
    for step in range(1, 16):
        scale = (longer - 64 * step) / longer
        if scale <= 0.25:
            break
        out.append((max(64, round(width * scale / 64) * 64), max(64, round(height * scale / 64) * 64)))
    return list(dict.fromkeys(out))


def find_fits(fc: Mapping[str, Any], prompt: Mapping[str, Any], refit: Refit) -> ForecastHints:
    """The changes that make it fit, each found by forecasting it: a decode's tile size, a batch, a size."""
    tiles: dict[str, int] = {}
    notes: dict[str, str] = {}
    batch = size = None
    for n in fc.get("nodes") or []:
        if n["stage"] != "vae-decode" or n["verdict"] not in (WONT_FIT, TIGHT):
            continue
        node = prompt.get(n["node_id"]) or {}
        if node.get("class_type") not in ("VAEDecode", "VAEDecodeTiled"):
            continue
        current = (node.get("inputs") or {}).get("tile_size")
        for tile in TILE_SIZES:
            if isinstance(current, int) and tile >= current:
                continue
            trial = copy.deepcopy(dict(prompt))
            trial[n["node_id"]] = {
                **node,
                "class_type": "VAEDecodeTiled",
                "inputs": {
                    **{k: v for k, v in (node.get("inputs") or {}).items() if k in ("samples", "vae")},
                    "tile_size": tile,
                    "overlap": min(64, tile // 4),
                    "temporal_size": 64,
                    "temporal_overlap": 8,
                },
            }
            ok, figure = _node_fits(refit(trial), n["node_id"])
            if ok:
                tiles[n["node_id"]], notes["tile"] = tile, figure
                break
    sampling = [n for n in fc.get("nodes") or [] if n["stage"] == "sampling" and n["verdict"] == WONT_FIT]
    if sampling:
        target = sampling[0]["node_id"]
        empty = _empty_latent(prompt)
        if empty is not None:
            empty_id, inputs = empty
            b = inputs.get("batch_size")
            if isinstance(b, int) and b > 1:
                for smaller in range(b - 1, 0, -1):
                    trial = _with(prompt, empty_id, batch_size=smaller)
                    ok, figure = _node_fits(refit(trial), target)
                    if ok:
                        batch, notes["batch"] = smaller, figure
                        break
            w, h = inputs.get("width"), inputs.get("height")
            if batch is None and isinstance(w, int) and isinstance(h, int):
                for sw, sh in _fraction_sizes(w, h):
                    ok, figure = _node_fits(refit(_with(prompt, empty_id, width=sw, height=sh)), target)
                    if ok:
                        size, notes["size"] = (sw, sh), figure
                        break
    fp8 = _fp8_saves(fc, prompt, refit, notes)
    return ForecastHints(tiles=tiles, batch=batch, size=size, fp8_saves_bytes=fp8, fits_note=notes)


def _fp8_saves(fc: Mapping[str, Any], prompt: Mapping[str, Any], refit: Refit, notes: dict[str, str]) -> int | None:
    """What loading the diffusion model's weights in fp8 (UNETLoader's ``weight_dtype``) would save at
    the node that fits worst, when that node loads the model and it is not fp8 already."""
    loaders = [
        nid
        for nid, n in prompt.items()
        if isinstance(n, dict)
        and n.get("class_type") == "UNETLoader"
        and (n.get("inputs") or {}).get("weight_dtype") in (None, "default")
    ]
    worst = [
        n
        for n in fc.get("nodes") or []
        if n["verdict"] in (WONT_FIT, TIGHT) and any(load["role"] == "diffusion" for load in n["loads"])
    ]
    if not loaders or not worst:
        return None
    target = worst[0]
    trial = copy.deepcopy(dict(prompt))
    for nid in loaders:
        trial[nid]["inputs"]["weight_dtype"] = "fp8_e4m3fn"
    after = next((n for n in refit(trial).get("nodes") or [] if n["node_id"] == target["node_id"]), None)
    if after is None:
        return None
    key = "needed_bytes" if "needed_bytes" in target else "peak_bytes"
    saved = int(target[key] - after[key]) + int(target["offloaded_bytes"] - after["offloaded_bytes"])
    if saved <= 0:
        return None
    if target["offloaded_bytes"]:
        notes["fp8"] = (
            f"fp8 weights leave {fmt_bytes(after['offloaded_bytes'])} of them in RAM instead of "
            f"{fmt_bytes(target['offloaded_bytes'])} at node {target['node_id']} ({after['verdict']})"
        )
    else:
        notes["fp8"] = (
            f"fp8 weights: {after['verdict']} at node {target['node_id']} "
            f"({fmt_bytes(after.get(key))} instead of {fmt_bytes(target.get(key))})"
        )
    return saved


def _empty_latent(prompt: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    for node_id, node in prompt.items():
        inputs = node.get("inputs") or {} if isinstance(node, dict) else {}
        if str(node.get("class_type", "")).startswith("Empty") and "width" in inputs and "height" in inputs:
            return str(node_id), inputs
    return None


def _with(prompt: Mapping[str, Any], node_id: str, **values: Any) -> dict[str, Any]:
    trial = copy.deepcopy(dict(prompt))
    trial[node_id]["inputs"].update(values)
    return trial


def with_suggestions(
    fc: dict[str, Any], prompt: Mapping[str, Any], context: Mapping[str, Any], refit: Refit | None = None
) -> dict[str, Any]:
    """The forecast with ``suggestions`` (the rules' own shape) and ``fits`` (what the search found)."""
    hints = find_fits(fc, prompt, refit) if refit is not None and fc.get("verdict") != "fits" else None
    facts = forecast_facts(fc, prompt, context, hints)
    suggestions = advise(facts)
    fc["suggestions"] = [s.to_dict() for s in suggestions]
    fc["fits"] = (
        {
            "tiles": hints.tiles,
            "batch": hints.batch,
            "size": list(hints.size) if hints.size else None,
            "notes": hints.fits_note,
        }
        if hints is not None
        else None
    )
    return fc
