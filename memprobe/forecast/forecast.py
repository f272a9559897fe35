"""Will it fit? A per-stage forecast of a workflow's memory, before it runs.

The graph is walked in ComfyUI's order (``memprobe.forecast.graph``) while the forecast keeps what
ComfyUI's model manager would hold: which models sit in RAM, how much of each it moves onto the GPU
(its own partial-load rule against its own reserve), and what each node adds for its work. A node's
peak is the level it starts from, plus the models it loads, plus its working memory: ComfyUI's own
estimate (``memprobe.forecast.estimates``) times the correction this machine's runs taught
(``memprobe.forecast.learn``), or the estimate as it is when no run has taught one. On the CPU the work
first fills what ``malloc`` holds free (the level counts it already: ``Machine.heap_free``).

Two memories are forecast, as the verdict judges runs: the one ComfyUI computes on (VRAM on a GPU —
``gpu0_used_bytes``; ComfyUI's own RAM on the CPU — ``process_rss_bytes``) against its size, and
system memory against the limit the OS enforces (RAM + swap, the commit limit, a container's).
Each stage gets ``fits``, ``tight`` (within 10 % of the limit) or ``won't fit``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .estimates import (
    extra_reserved,
    minimum_inference,
    partial_load,
    sampling_bytes,
    upscale_model_bytes,
    vae_decode_bytes,
    vae_encode_bytes,
    weight_budget,
)
from .graph import ModelRef, Step, walk
from .machine import Machine
from .models import DTYPE_BYTES, ModelFile, Part
from .verdicts import FITS, UNKNOWN, gpu_verdict, stage_rows, unknown_because, verdict, worst

__all__ = [
    "device_class",
    "Correction",
    "Forecaster",
    "forecast",
    "stage_family",
]

ModelLookup = Callable[[ModelRef], ModelFile | None]


@dataclass(frozen=True, slots=True)
class Correction:
    """What this machine's runs taught for one model family and stage: measured working memory over
    ComfyUI's estimate (``factor``), or, for a stage ComfyUI has no estimate for (text encoding),
    the working memory itself (``constant``); from ``runs`` runs."""

    factor: float | None = None
    constant: float | None = None
    runs: int = 0


@dataclass(slots=True)
class _Held:
    """A model the simulated model manager holds."""

    ref: ModelRef
    total: int
    modules: tuple[int, ...]
    device: int = 0

    @property
    def ram(self) -> int:
        return self.total - self.device


def device_class(machine: Machine) -> str:
    """``gpu`` or ``cpu``: corrections learned on one do not apply to the other."""
    return "gpu" if machine.on_gpu else "cpu"


def stage_family(steps: list[Step], lookup: ModelLookup) -> str | None:
    """The family the workflow's corrections are keyed by: its (first) sampler's diffusion model's."""
    for step in steps:
        if step.estimate == "sampling" and step.loads:
            info = lookup(step.loads[0])
            part = info.part("diffusion") if info is not None else None
            if part is not None and part.family:
                return part.family
            if info is not None:
                return "unknown"
    return None


_VIDEO_VAES = frozenset({"wan21", "wan22", "ltxv", "hunyuan_video", "cosmos", "mochi"})
"""The VAE kinds (``models.vae_kind``) ComfyUI builds with ``latent_dim`` 3."""


class Forecaster:
    """One forecast of one graph on one machine."""

    def __init__(
        self,
        machine: Machine,
        lookup: ModelLookup,
        corrections: Mapping[tuple[str, str, str], Correction] | None = None,
    ) -> None:
        self.m = machine
        self._lookup = lookup
        self._looked: dict[ModelRef, ModelFile | None] = {}
        self.corrections = corrections or {}
        self.opts = machine.options
        self.reserved = extra_reserved(machine.os, machine.vram_total, self.opts.reserve_vram_gb)
        self.held: dict[ModelRef, _Held] = {}
        self.order: list[ModelRef] = []  # most recently loaded first
        self.kept = 0
        self.unknown: list[str] = []
        self.notes: list[str] = []
        self.family: str | None = None
        self.base = int(machine.comfy_bytes or 0)
        self.resident_keys: set[tuple[str, str]] = {(r.file, r.role) for r in machine.resident}

    def lookup(self, ref: ModelRef) -> ModelFile | None:
        """The model file (once per forecast); one that cannot be read costs that model only."""
        if ref not in self._looked:
            try:
                self._looked[ref] = self._lookup(ref)
            except Exception as exc:  # any failure to read a file is that file's unknown
                self._looked[ref] = None
                self.unknown.append(f"{ref.file}: cannot be read ({type(exc).__name__}: {exc}), not counted")
        return self._looked[ref]

    # ------------------------------------------------------------------ model sizes in memory
    def _part(self, ref: ModelRef) -> tuple[ModelFile | None, Part | None]:
        info = self.lookup(ref)
        if info is None:
            return None, None
        whole = ref.role in ("upscale", "controlnet", "lora", "model_patch")  # a file that is one model
        part = info.part(ref.role) if not whole else None
        if part is None and info.parts and not whole:
            part = info.parts[0] if len(info.parts) == 1 else None
        return info, part

    def _target_bytes(self, ref: ModelRef, part: Part | None) -> int:
        """Bytes per weight as ComfyUI keeps this model (``unet_dtype``, ``text_encoder_dtype``, ``vae_dtype``)."""
        file_bytes = DTYPE_BYTES.get(part.dtype or "", 2) if part is not None else 2
        gpu = self.m.on_gpu
        if ref.role == "diffusion":
            if ref.weight_dtype and ref.weight_dtype.startswith("fp8"):
                return 1
            if self.opts.unet_dtype:
                return 4 if "32" in self.opts.unet_dtype else 1 if "fp8" in self.opts.unet_dtype else 2
            if self.opts.force_fp32 or not gpu:
                if file_bytes == 1 and part is not None:  # fp8 kept when fp16 would not fit in RAM either
                    ram = self.m.ram_total or 0
                    if part.params * 2 > ram * 0.88 - minimum_inference(self.reserved):
                        return 1
                return 4
            if file_bytes == 1 and part is not None:
                vram = self.m.vram_total or 0
                if self.m.fp8_compute or part.params * 2 > vram * 0.88 - minimum_inference(self.reserved):
                    return 1
            return 2
        if ref.role == "text_encoder":
            if self.opts.text_encoder_fp32:
                return 4
            return 1 if file_bytes == 1 else 2
        if ref.role == "clip_vision":  # built at text_encoder_dtype whatever the file holds (comfy/clip_vision.py)
            return 4 if self.opts.text_encoder_fp32 else 2
        if ref.role == "style":  # built at torch's default float32, kept on the CPU (comfy/sd.py load_style_model)
            return 4
        if ref.role == "vae":
            if self.opts.vae_dtype:
                return 4 if self.opts.vae_dtype == "fp32" else 2
            if not gpu or self.opts.force_fp32:
                return 4
            return 2 if self.m.bf16 or self.m.device == "mps" else 4
        return file_bytes

    def _model(self, ref: ModelRef) -> tuple[int, tuple[int, ...]] | None:
        """(bytes in memory, module sizes) of a model, or ``None`` when its file is not known."""
        info, part = self._part(ref)
        if info is None:
            return None
        if part is None:  # a file of unknown layout (GGUF, .pth, .ckpt, a size given): its size as it is
            if info.format in ("safetensors",) and ref.role in ("diffusion", "text_encoder", "vae", "clip_vision"):
                return None
            if ref.folder == "checkpoints" and ref.role != "diffusion":
                return None  # a checkpoint's text encoder or VAE: its share is not known (the file counts once)
            return info.size_bytes, (info.size_bytes,)
        file_each = DTYPE_BYTES.get(part.dtype or "", 2)
        scale = self._target_bytes(ref, part) / file_each
        return int(part.file_bytes * scale), tuple(int(m * scale) for m in part.modules)

    # ------------------------------------------------------------------ levels
    @property
    def rss(self) -> int:
        """ComfyUI's own memory now: the start level, the models read since (on a GPU, the parts not
        moved to VRAM), the images kept."""
        fresh = [h for ref, h in self.held.items() if (ref.file, ref.role) not in self.resident_keys]
        return self.base + sum(h.ram if self.m.on_gpu else h.total for h in fresh) + self.kept

    @property
    def vram(self) -> int:
        return self.m.vram_others + sum(h.device for h in self.held.values())

    def _system(self, rss: float) -> float | None:
        others = self.m.system_others
        return None if others is None else others + rss

    # ------------------------------------------------------------------ ComfyUI's model manager
    def _read_all(self, refs: list[ModelRef]) -> int:
        """A loader's models go to RAM; each file is read whole while it loads (the transient it adds)."""
        files: dict[tuple[str, str], int] = {}
        for ref in refs:
            size = self._read(ref)
            if size:
                files[(ref.folder, ref.file)] = size
        return sum(files.values())

    def _read(self, ref: ModelRef) -> int:
        """A model read into RAM; the size of its file when it was read now (0 when already held)."""
        if ref in self.held or (ref.file, ref.role) in self.resident_keys:
            if (ref.file, ref.role) in self.resident_keys and ref not in self.held:
                sized = self._model(ref)
                if sized is not None:
                    resident = next(r for r in self.m.resident if (r.file, r.role) == (ref.file, ref.role))
                    self.held[ref] = _Held(ref, sized[0], sized[1], resident.device_bytes)
            return 0
        sized = self._model(ref)
        if sized is None:
            why = "not found" if self.lookup(ref) is None else "its part of the file is not known"
            self.unknown.append(f"{ref.file} ({ref.role}): {why}, its size is not counted")
            return 0
        self.held[ref] = _Held(ref, sized[0], sized[1], 0)
        info = self.lookup(ref)
        return info.size_bytes if info is not None else 0

    def _ensure(self, ref: ModelRef) -> _Held | None:
        if ref not in self.held:
            self._read(ref)
        return self.held.get(ref)

    def _load_gpu(self, refs: list[ModelRef], required: float, minimum: float | None) -> None:
        """``load_models_gpu``: make room (other models first), then keep as much of each model in
        VRAM as its budget allows, largest modules first."""
        total = self.m.vram_total or 0
        models = [h for r in refs if (h := self._ensure(r)) is not None]
        if not self.m.on_gpu or not total:
            return
        inference = minimum_inference(self.reserved)
        if not models:  # models of unknown size: ComfyUI still frees the room its estimate asks for
            if required > 0:
                self._make_room(
                    [], required + self.reserved if self.m.dynamic else max(inference, required + self.reserved)
                )
            return
        state = self.opts.vram_state
        if self.m.dynamic:  # weights stream on demand: what fits stays as a cache, evicted under pressure
            self._make_room(models, sum(h.total - h.device for h in models) + required + self.reserved)
            for h in models:
                room = total - self.vram - self.reserved - required
                h.device = max(0, min(h.total, h.device + int(room)))
                self._touch(h.ref)
            return
        self._make_room(
            models, sum(h.total - h.device for h in models) * 1.1 + max(inference, required + self.reserved)
        )
        for h in models:
            free = total - self.vram + h.device
            if state == "high":
                budget = float(h.total) + 1
            elif state == "none":
                budget = 0.1
            else:
                budget = weight_budget(
                    free, required, minimum, self.reserved, nvidia=self.m.nvidia_like, version=self.m.version
                )
            streams = self.opts.async_offload if self.opts.async_offload is not None else 0
            if self.m.version != "0.3" and self.opts.async_offload is None:
                streams = 2 if self.m.device in ("cuda", "rocm") else 0
            loaded, _, _ = partial_load(h.modules, budget, streams=streams) if budget < h.total else (h.total, 0, 0)
            h.device = loaded
            self._touch(h.ref)

    def _make_room(self, models: list[_Held], need: float) -> None:
        """Free VRAM until ``need`` is free: the other models' weights give way, the least recently used first."""
        total = self.m.vram_total or 0
        for other in reversed(self.order):
            if total - self.vram >= need:
                break
            held = self.held[other]
            if held not in models:
                held.device = max(0, held.device - int(need - (total - self.vram)))

    def _touch(self, ref: ModelRef) -> None:
        if ref in self.order:
            self.order.remove(ref)
        self.order.insert(0, ref)

    # ------------------------------------------------------------------ one node
    def _correct(self, stage: str, estimate: float | None) -> tuple[float, dict[str, Any] | None]:
        key = (self.family or "unknown", stage, device_class(self.m))
        c = self.corrections.get(key)
        if estimate is None or estimate <= 0:
            if c is not None and c.constant is not None:
                return max(0.0, c.constant), {"constant_bytes": int(c.constant), "runs": c.runs}
            return 0.0, None
        if c is not None and c.factor is not None:
            return estimate * c.factor, {"factor": round(c.factor, 4), "runs": c.runs}
        return estimate, None

    def _request(self, step: Step) -> tuple[float, float | None, dict[str, Any]]:
        """What ComfyUI asks ``load_models_gpu`` to leave free for the node (its estimate), the minimum
        it accepts, and what the working memory is computed from once the models are placed."""
        m = self.m
        if step.estimate == "sampling" and step.latent is not None and step.loads:
            _, part = self._part(step.loads[0])
            family = part.family if part is not None else None
            detail = part.detail if part is not None else {}
            dtype = 4 if (not m.on_gpu or self.opts.force_fp32) else 2
            required, minimum = sampling_bytes(
                family, detail, step.latent.shape, dtype_bytes=dtype, efficient=m.efficient_attention, version=m.version
            )
            return required, minimum, {"kind": "sampling", "required": required, "minimum": minimum}
        if step.estimate in ("decode", "encode") and step.loads:
            vae = step.loads[0]
            _, part = self._part(vae)
            kind = part.family if part is not None else ("taesd" if vae.file.startswith("tae") else "kl")
            dtype = self._target_bytes(vae, part)
            if step.estimate == "decode" and step.latent is not None:
                shape = step.latent.shape
                per = vae_decode_bytes(kind, shape, dtype_bytes=dtype, version=m.version)
                if step.tile is not None:  # each tile is decoded alone: its own estimate is the work
                    th, tw, tt = step.tile
                    tiled = (1, shape[1], tt, th, tw) if len(shape) == 5 else (1, shape[1], th, tw)
                    work = vae_decode_bytes(kind, tiled, dtype_bytes=dtype, version=m.version)
                    return per, None, {"kind": "fixed", "work": work}
                return per, None, {"kind": "batched", "per": per, "batch": shape[0]}
            if step.image is not None:
                img = step.image
                pixels: tuple[int, ...] = (img.batch, 3, img.height, img.width)
                if kind in _VIDEO_VAES:  # comfy.sd.VAE.encode: a video VAE encodes the frames as one video
                    pixels = (1, 3, img.batch, img.height, img.width)
                est = vae_encode_bytes(kind, pixels, dtype_bytes=dtype, version=m.version)
                if step.tile is not None:  # comfy.sd.VAE.encode_tiled: loads for the whole image, encodes a tile
                    th, tw, tt = step.tile
                    tiled = (1, 3, tt, th, tw) if kind in _VIDEO_VAES else (1, 3, th, tw)
                    return (
                        est,
                        None,
                        {"kind": "fixed", "work": vae_encode_bytes(kind, tiled, dtype_bytes=dtype, version=m.version)},
                    )
                return est, None, {"kind": "fixed", "work": est}
        if step.estimate == "upscale" and step.image is not None:
            h = self.held.get(step.loads[0]) if step.loads else None
            model = h.total if h is not None else 0
            image = (step.image.batch, step.image.height, step.image.width, 3)
            work = upscale_model_bytes(model, image, step.scale) - model
            return work, None, {"kind": "fixed", "work": work}
        return 0.0, None, {"kind": "none"}

    def _working(self, plan: Mapping[str, Any], cfg_one: bool) -> float:
        """ComfyUI's estimate of the work itself, now that the models are placed: the sampler runs cond
        and uncond together when 1.5x their estimate is free (alone at cfg 1), a decode splits its batch
        by what is free."""
        free = (self.m.vram_total or 0) - self.vram if self.m.on_gpu else float("inf")
        if plan["kind"] == "sampling":
            together = not cfg_one and (plan["required"] * 1.5 < free)
            return float(plan["required"] if together else plan["minimum"])
        if plan["kind"] == "batched":
            per, batch = plan["per"], plan["batch"]
            return float(per * max(1, min(batch, int(free / per) if per and free != float("inf") else batch)))
        if plan["kind"] == "fixed":
            return float(plan["work"])
        return 0.0

    def node(self, step: Step, cfg_one: bool = False) -> dict[str, Any]:
        before_rss, before_vram = self.rss, self.vram
        transient = self._read_all(step.reads)
        required, minimum, plan = self._request(step)
        if step.loads:
            if plan["kind"] != "none" or step.unknown is None:  # (a text or image encoder: ComfyUI asks no more)
                self._load_gpu(step.loads, required, minimum)
            for ref in step.loads:
                h = self._ensure(ref)
                if h is not None and self.m.on_gpu and plan["kind"] == "fixed" and step.estimate == "upscale":
                    h.device = h.total  # an upscale model is moved whole
        work = self._working(plan, cfg_one)
        corrected, learned = self._correct(step.stage, work if step.estimate else None)
        if step.unknown:
            self.unknown.append(f"node {step.node_id} {step.unknown}")
        uncounted = list(dict.fromkeys(r.file for r in (*step.reads, *step.loads) if self._model(r) is None))
        own = [self.held[r] for r in step.loads if r in self.held]
        offloaded = sum(h.ram for h in own) if self.m.on_gpu else 0
        before: float = before_vram if self.m.on_gpu else before_rss
        # on the CPU the work first fills what malloc holds free (its resident set already counts it)
        grows = corrected if self.m.on_gpu else max(0.0, corrected - self.m.heap_free)
        compute: float = (self.vram if self.m.on_gpu else self.rss + transient) + grows
        # a file being read sits in the page cache (ComfyUI's resident set shows it): the OS reclaims it,
        # so it counts for the process's peak, not against the limit the OS enforces
        rss: float = self.rss if self.m.on_gpu else self.rss + grows
        needed = compute
        if self.m.on_gpu:  # the other models cached in VRAM give way when this node needs the room
            needed = self.m.vram_others + sum(h.device for h in own) + corrected
        self.kept += step.keeps
        return {
            "node_id": step.node_id,
            "class_type": step.class_type,
            "stage": step.stage,
            "before_bytes": int(before),
            "peak_bytes": int(compute),
            "needed_bytes": int(needed),
            "system_bytes": int(rss),
            "file_bytes": int(transient),
            "offloaded_bytes": int(offloaded),
            "estimate_bytes": int(work) if step.estimate else None,
            "estimate": step.estimate,
            "working_bytes": int(corrected),
            "learned": learned,
            "loads": [{"file": r.file, "role": r.role} for r in step.loads],
            "unknown": step.unknown,
            "uncounted": uncounted,
            "unread": step.unread,
            "not_counted": step.uses_memory,
        }


def forecast(
    prompt: Mapping[str, Any],
    machine: Machine,
    lookup: ModelLookup,
    *,
    corrections: Mapping[tuple[str, str, str], Correction] | None = None,
    image_size: Callable[[str], tuple[int, int] | None] | None = None,
) -> dict[str, Any]:
    """The forecast document (see docs/forecast.md): ``stages``, ``peak``, ``nodes``, ``verdict``,
    ``unknown``; the suggestions are added by :func:`memprobe.forecast.advice.with_suggestions`."""

    f = Forecaster(machine, lookup, corrections)

    def vae_channels(ref: ModelRef) -> int | None:
        info = f.lookup(ref)
        part = info.part("vae") if info is not None else None
        value = part.detail.get("latent_channels") if part is not None else None
        return int(value) if isinstance(value, int) else None

    steps = walk(prompt, image_size=image_size, vae_channels=vae_channels)
    f.family = stage_family(steps, f.lookup)
    nodes = [f.node(step, cfg_one=step.cfg == 1.0) for step in steps]
    compute_limit = machine.vram_total if machine.on_gpu else _cpu_limit(machine)
    working = [n for n in nodes if n["stage"] not in ("output", "image")]  # (not a file's input, not an output)
    if working and all(n["unknown"] and not n["estimate"] and not n["loads"] for n in working):
        for n in working:  # every node that does the work is one the forecast does not know: any may use the memory
            n["not_counted"] = True
    for n in nodes:
        system = f._system(n["system_bytes"])
        n["system_used_bytes"] = None if system is None else int(system)
        if machine.on_gpu:
            compute = gpu_verdict(n, compute_limit)
        else:
            compute = verdict(system if system is not None else n["peak_bytes"], compute_limit)
        n["verdict"] = worst(compute, verdict(system, machine.system_limit))
        if (n["uncounted"] or n["not_counted"]) and n["verdict"] == FITS:  # what was counted fits, not all was
            n["verdict"] = UNKNOWN
    stages = stage_rows(nodes, machine.compute_metric, compute_limit)
    peak_node = max(nodes, key=lambda n: (n["peak_bytes"], -nodes.index(n)), default=None)
    overall = worst(*(s["verdict"] for s in stages)) if stages else FITS
    peak = None
    if peak_node is not None:
        peak = {
            "stage": peak_node["stage"],
            "node_id": peak_node["node_id"],
            "class_type": peak_node["class_type"],
            "metric": machine.compute_metric,
            "bytes": peak_node["peak_bytes"],
            "limit_bytes": compute_limit,
            "limit_name": "VRAM" if machine.on_gpu else machine.system_limit_name,
            "verdict": peak_node["verdict"],
        }
    unknown = list(dict.fromkeys(f.unknown))
    if machine.comfy_bytes is None:
        unknown.append("ComfyUI's own memory before the prompt (no ComfyUI running and no run recorded): not counted")
    learned = sorted({(k[0], k[1]) for k in (corrections or {}) if k[0] == (f.family or "unknown")})
    return {
        "verdict": overall,
        "metric": machine.compute_metric,
        "family": f.family,
        "stages": stages,
        "peak": peak,
        "nodes": nodes,
        "unknown": unknown,
        "unknown_because": unknown_because(nodes) if overall == UNKNOWN else None,
        "learned": [{"family": fam, "stage": st} for fam, st in learned],
        "machine": _machine_doc(machine, compute_limit),
    }


def _cpu_limit(machine: Machine) -> int | None:
    """On the CPU the compute memory is system memory: its enforced limit (what is left of it for ComfyUI)."""
    return machine.system_limit or machine.ram_total


def _machine_doc(machine: Machine, compute_limit: int | None) -> dict[str, Any]:
    return {
        "device": machine.device if machine.on_gpu else "cpu",
        "os": machine.os,
        "vram_total_bytes": machine.vram_total,
        "ram_total_bytes": machine.ram_total,
        "system_limit_bytes": machine.system_limit,
        "system_limit_name": machine.system_limit_name,
        "compute_limit_bytes": compute_limit,
        "comfyui": machine.version,
        "dynamic_vram": machine.dynamic,
        "measured": machine.measured,
        "reserved_vram_bytes": extra_reserved(machine.os, machine.vram_total, machine.options.reserve_vram_gb)
        if machine.on_gpu
        else None,
    }
