"""The machine a forecast is for: the device ComfyUI computes on, its memory and the limits the OS
enforces, ComfyUI's launch options and what it holds already — this machine now, or a what-if
("an 8 GB card", "Windows with 32 GiB").

>>> opts = LaunchOptions.parse(["--lowvram", "--reserve-vram", "1.5"])
>>> opts.vram_state, opts.reserve_vram_gb
('low', 1.5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..sensing.snapshot import HEAP_FREE_METRIC

__all__ = ["LaunchOptions", "Machine", "Resident", "DEVICES", "machine_from", "apply_what_if"]

DEVICES = ("cuda", "rocm", "xpu", "mps", "directml", "cpu")
"""Where ComfyUI computes: NVIDIA, AMD (ROCm), Intel, Apple, DirectML, or the CPU itself."""


@dataclass(frozen=True, slots=True)
class LaunchOptions:
    """The command-line options of ComfyUI that change its memory decisions."""

    cpu: bool = False
    vram_state: str = "normal"
    """``normal``, ``low`` (``--lowvram``), ``none`` (``--novram``), ``high`` (``--highvram``/``--gpu-only``)."""
    reserve_vram_gb: float | None = None
    dynamic_vram: bool | None = None
    """``--enable-dynamic-vram`` (True) / ``--disable-dynamic-vram`` (False); ``None``: ComfyUI's default."""
    split_attention: bool = False
    """``--use-split-cross-attention`` / ``--use-quad-cross-attention``: the conservative estimate."""
    force_fp32: bool = False
    vae_dtype: str | None = None
    unet_dtype: str | None = None
    text_encoder_fp32: bool = False
    async_offload: int | None = None

    @classmethod
    def parse(cls, argv: Sequence[str]) -> LaunchOptions:
        args = [str(a) for a in argv]

        def has(*flags: str) -> bool:
            return any(f in args for f in flags)

        reserve = None
        if "--reserve-vram" in args:
            i = args.index("--reserve-vram")
            try:
                reserve = float(args[i + 1])
            except (IndexError, ValueError):
                reserve = None
        state = "normal"
        if has("--lowvram"):
            state = "low"
        if has("--novram"):
            state = "none"
        if has("--highvram", "--gpu-only"):
            state = "high"
        dynamic = True if has("--enable-dynamic-vram") else False if has("--disable-dynamic-vram") else None
        vae = "fp32" if has("--fp32-vae") else "bf16" if has("--bf16-vae") else "fp16" if has("--fp16-vae") else None
        unet = next(
            (f.removeprefix("--").removesuffix("-unet") for f in args if f.endswith("-unet") and f.startswith("--")),
            None,
        )
        streams = None
        if "--async-offload" in args:
            i = args.index("--async-offload")
            nxt = args[i + 1] if i + 1 < len(args) else ""
            streams = int(nxt) if nxt.isdigit() else 2
        if has("--disable-async-offload"):
            streams = 0
        return cls(
            cpu=has("--cpu"),
            vram_state=state,
            reserve_vram_gb=reserve,
            dynamic_vram=dynamic,
            split_attention=has("--use-split-cross-attention", "--use-quad-cross-attention"),
            force_fp32=has("--force-fp32"),
            vae_dtype=vae,
            unet_dtype=unet,
            text_encoder_fp32=has("--fp32-text-enc"),
            async_offload=streams,
        )


@dataclass(frozen=True, slots=True)
class Resident:
    """A model ComfyUI holds now (from the model manager): ``file`` and ``role`` name it the way the
    graph does; ``device_bytes`` on the compute device, ``ram_bytes`` in RAM."""

    file: str
    role: str
    device_bytes: int
    ram_bytes: int


@dataclass(frozen=True, slots=True)
class Machine:
    device: str = "cpu"
    os: str = "Linux"
    vram_total: int | None = None
    vram_others: int = 0
    """VRAM other programs hold (the device's use minus torch's reserve)."""
    ram_total: int | None = None
    system_limit: int | None = None
    """The limit the OS enforces on system memory (RAM + swap, the commit limit, a container's)."""
    system_limit_name: str = "RAM"
    system_metric: str = "ram_used_bytes"
    system_others: int | None = None
    """What counts against the system limit now, ComfyUI's own memory excluded."""
    comfy_bytes: int | None = None
    """ComfyUI's own memory now (its resident set), with the models it holds: the level a prompt starts from."""
    heap_free: int = 0
    """Of it, what the C library's ``malloc`` holds free for reuse (Linux, glibc): a node's work fills it
    before ComfyUI's resident set grows."""
    options: LaunchOptions = field(default_factory=LaunchOptions)
    version: str = "0.3"
    """``0.3`` (0.3.x) or ``new`` (0.4 and on: dynamic VRAM, newer estimates)."""
    gpu_index: int = 0
    fp8_compute: bool = False
    """NVIDIA Ada/Hopper and newer compute in fp8 (ComfyUI keeps fp8 weights as they are)."""
    bf16: bool = True
    """The GPU computes in bfloat16 (NVIDIA Ampere and newer, recent AMD, Apple on macOS 14)."""
    resident: tuple[Resident, ...] = ()
    measured: bool = True
    """``False`` for a what-if machine (its figures were given, not read)."""

    @property
    def on_gpu(self) -> bool:
        return self.device != "cpu" and not self.options.cpu

    @property
    def compute_metric(self) -> str:
        return f"gpu{self.gpu_index}_used_bytes" if self.on_gpu else "process_rss_bytes"

    @property
    def nvidia_like(self) -> bool:
        """``MIN_WEIGHT_MEMORY_RATIO`` is 0 on NVIDIA only."""
        return self.device == "cuda"

    @property
    def dynamic(self) -> bool:
        """Newer ComfyUI streams weights to the GPU on demand (comfy-aimdo) by default on NVIDIA and
        recent ROCm, unless a launch option turns it off."""
        if self.version == "0.3" or not self.on_gpu:
            return False
        if self.options.dynamic_vram is not None:
            return self.options.dynamic_vram
        return self.device in ("cuda", "rocm") and self.options.vram_state in ("normal", "low")

    @property
    def efficient_attention(self) -> bool:
        """The sampler's estimate takes the efficient branch (PyTorch flash SDPA or xformers)."""
        return self.device in ("cuda", "rocm", "xpu") and self.on_gpu and not self.options.split_attention


_FP8_GPUS = ("RTX 40", "RTX 50", "L4", "L40", "H100", "H200", "H20", "B100", "B200", "GB200", "RTX PRO", "Ada")
_NO_BF16_GPUS = ("GTX", "RTX 20", "TITAN RTX", "Quadro RTX", "T4", "V100", "P100", "P40", "K80", "M40", "TITAN V")


def _version(text: object) -> str:
    """``0.3`` for ComfyUI 0.3.x and older, ``new`` for 0.4 and on (and an unknown version: users run new)."""
    parts = str(text or "").split(".")
    try:
        major, minor = int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        return "new"
    return "0.3" if (major, minor) <= (0, 3) else "new"


def _device(context: Mapping[str, Any]) -> str:
    device = str(context.get("compute_device") or "cpu").split(":")[0]
    torch = str(context.get("torch_version") or "")
    if device == "cuda" and ("rocm" in torch or "hip" in torch):
        return "rocm"
    if device == "privateuseone":
        return "directml"
    return device if device in DEVICES else "cpu"


def _os(context: Mapping[str, Any]) -> str:
    name = str(context.get("os") or "").split(" ")[0]
    return {"Darwin": "macOS"}.get(name, name or "Linux")


def machine_from(
    context: Mapping[str, Any],
    metrics: Mapping[str, Any],
    models: Sequence[Mapping[str, Any]] | None = None,
    *,
    what_if: Mapping[str, Any] | None = None,
) -> Machine:
    """The machine a run (its ``context``, ``start_metrics`` and ``models_start``) or the live
    readings describe; ``what_if`` (``device``, ``vram_total_bytes``, ``ram_total_bytes``,
    ``commit_limit_bytes``, ``os``) makes it another machine: nothing loaded, no other program."""
    from ..judging.limits import system_limits

    gpus = list(context.get("gpus") or [])
    gpu = gpus[0] if gpus else {}
    os_name = _os(context)
    ram = metrics.get("ram_total_bytes") or context.get("ram_total_bytes")
    limits = system_limits(
        str(context.get("os") or ""),
        overcommit_mode=context.get("overcommit_mode"),
        ram_total=ram,
        swap_total=context.get("swap_total_bytes"),
        commit_limit=metrics.get("commit_limit_bytes") or context.get("commit_limit_bytes"),
        cgroup_limit=metrics.get("cgroup_limit_bytes") or (context.get("cgroup") or {}).get("limit_bytes"),
    )
    limit = limits[0]
    own = metrics.get("process_private_bytes") if limit.metric == "commit_bytes" else metrics.get("process_rss_bytes")
    used = limit.used(metrics)
    others = max(0, int(used) - int(own or 0)) if used is not None else None
    options = LaunchOptions.parse([str(a) for a in context.get("argv") or []])
    state = str(context.get("vram_state") or "")
    if options.vram_state == "normal" and state in ("LOW_VRAM", "NO_VRAM", "HIGH_VRAM"):
        options = replace(options, vram_state={"LOW_VRAM": "low", "NO_VRAM": "none", "HIGH_VRAM": "high"}[state])
    if context.get("dynamic_vram") is not None and options.dynamic_vram is None:
        options = replace(options, dynamic_vram=bool(context.get("dynamic_vram")))
    used_vram, reserved = metrics.get("gpu0_used_bytes"), metrics.get("gpu0_reserved_bytes")
    name = str(gpu.get("name") or "")
    roles = {"diffusion_model": "diffusion", "text_encoder": "text_encoder", "vae": "vae", "clip_vision": "clip_vision"}
    resident = tuple(
        Resident(
            str(m.get("file") or ""),
            roles.get(str(m.get("kind")), "other"),
            int(m.get("loaded_bytes") or 0) if str(m.get("device") or "cpu") != "cpu" else 0,
            int(m.get("size_bytes") or 0) - (int(m.get("loaded_bytes") or 0) if str(m.get("device")) != "cpu" else 0),
        )
        for m in models or []
        if m.get("file")
    )
    machine = Machine(
        device=_device(context),
        os=os_name,
        vram_total=metrics.get("gpu0_total_bytes") or gpu.get("vram_total_bytes"),
        vram_others=max(0, int(used_vram) - int(reserved)) if used_vram is not None and reserved is not None else 0,
        ram_total=ram,
        system_limit=limit.limit_bytes,
        system_limit_name=limit.name,
        system_metric=limit.metric,
        system_others=others,
        comfy_bytes=metrics.get("process_rss_bytes"),
        heap_free=int(metrics.get(HEAP_FREE_METRIC) or 0),
        options=options,
        version=_version(context.get("comfyui_version")),
        fp8_compute=any(k in name for k in _FP8_GPUS),
        bf16=not any(k in name for k in _NO_BF16_GPUS),
        resident=resident,
    )
    return apply_what_if(machine, what_if) if what_if else machine


def apply_what_if(machine: Machine, what_if: Mapping[str, Any]) -> Machine:
    """Another machine: the given figures, nothing loaded, no other program's memory; ComfyUI's own
    memory without the models it holds here."""
    device = str(what_if.get("device") or machine.device)
    if device not in DEVICES:
        raise ValueError(f"device must be one of {', '.join(DEVICES)}, not {device!r}")
    ram = what_if.get("ram_total_bytes") or machine.ram_total
    os_name = str(what_if.get("os") or machine.os)
    os_name = {"windows": "Windows", "linux": "Linux", "macos": "macOS", "darwin": "macOS"}.get(
        os_name.lower(), os_name
    )
    commit = what_if.get("commit_limit_bytes")
    if commit is not None or os_name == "Windows":
        limit, name, metric = commit or ram, "commit limit", "commit_bytes"
    else:
        limit, name, metric = ram, "RAM", "ram_used_bytes"
    held = sum(r.ram_bytes for r in machine.resident)
    options = machine.options
    if device == "cpu" and not options.cpu:
        options = replace(options, cpu=True)
    elif device != "cpu" and options.cpu:
        options = replace(options, cpu=False)
    vram = what_if.get("vram_total_bytes")
    return replace(
        machine,
        device=device,
        os=os_name,
        vram_total=vram if vram is not None else (machine.vram_total if device == machine.device else None),
        vram_others=0,
        ram_total=ram,
        system_limit=limit,
        system_limit_name=name,
        system_metric=metric,
        system_others=0,
        comfy_bytes=max(0, machine.comfy_bytes - held) if machine.comfy_bytes is not None else None,
        heap_free=0,
        options=options,
        resident=(),
        measured=False,
    )
