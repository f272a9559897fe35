"""GPU readings: torch's allocator counters per device, and what the driver says (NVML).

NVML and torch number devices differently (``CUDA_VISIBLE_DEVICES``, PCI vs. speed order), so
devices are paired by PCI bus id, then by UUID — never by index.
"""

from __future__ import annotations

import atexit
import sys
import threading
import time
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

from .._log import warn_once
from .snapshot import GpuMemory
from .system import windows

__all__ = ["GpuSensor", "NvmlDevice", "TorchDevice", "match_devices", "normalize_pci_bus_id"]


@dataclass(frozen=True, slots=True)
class TorchDevice:
    index: int
    backend: str
    name: str | None
    pci_bus_id: str | None
    uuid: str | None
    total_bytes: int | None


@dataclass(frozen=True, slots=True)
class NvmlDevice:
    index: int
    name: str | None
    pci_bus_id: str | None
    uuid: str | None
    handle: Any = None


def normalize_pci_bus_id(text: str | None) -> str | None:
    """``00000000:01:00.0`` / ``0000:01:00.0`` -> ``0000:01:00`` (domain:bus:device, lower-case)."""
    if not text:
        return None
    parts = text.strip().lower().split(":")
    if len(parts) != 3:
        return None
    try:
        domain, bus = int(parts[0], 16), int(parts[1], 16)
        device = int(parts[2].split(".")[0], 16)
    except ValueError:
        return None
    return f"{domain:04x}:{bus:02x}:{device:02x}"


def _normalize_uuid(text: str | None) -> str | None:
    if not text:
        return None
    value = str(text).strip().lower()
    return value[4:] if value.startswith("gpu-") else value


def match_devices(torch_devices: list[TorchDevice], nvml_devices: list[NvmlDevice]) -> dict[int, NvmlDevice]:
    """torch index -> the NVML device that is the same card (PCI bus id first, then UUID)."""
    by_pci = {normalize_pci_bus_id(d.pci_bus_id): d for d in nvml_devices if normalize_pci_bus_id(d.pci_bus_id)}
    by_uuid = {_normalize_uuid(d.uuid): d for d in nvml_devices if _normalize_uuid(d.uuid)}
    matched: dict[int, NvmlDevice] = {}
    for dev in torch_devices:
        found = by_pci.get(normalize_pci_bus_id(dev.pci_bus_id)) or by_uuid.get(_normalize_uuid(dev.uuid))
        if found is not None:
            matched[dev.index] = found
    return matched


class _Nvml:
    """NVML, initialised once for the process and shut down at exit."""

    def __init__(self) -> None:
        import pynvml

        pynvml.nvmlInit()
        atexit.register(self._shutdown)
        self.nvml = pynvml
        self.driver_version = _text(pynvml.nvmlSystemGetDriverVersion())
        self.devices: list[NvmlDevice] = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            pci = pynvml.nvmlDeviceGetPciInfo(handle)
            self.devices.append(
                NvmlDevice(
                    index=i,
                    name=_text(pynvml.nvmlDeviceGetName(handle)),
                    pci_bus_id=_text(getattr(pci, "busId", None) or getattr(pci, "busIdLegacy", None)),
                    uuid=_text(pynvml.nvmlDeviceGetUUID(handle)),
                    handle=handle,
                )
            )

    def memory(self, device: NvmlDevice) -> tuple[int, int]:
        info = self.nvml.nvmlDeviceGetMemoryInfo(device.handle)
        return int(info.used), int(info.total)

    def _shutdown(self) -> None:
        try:
            self.nvml.nvmlShutdown()
        except Exception:  # nothing left to do at exit
            pass


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


class GpuSensor:
    """Reads every GPU torch can use. Never raises: a failing source yields ``None`` fields.

    ``allow_cuda_init=False`` (inside ComfyUI) leaves CUDA alone until something else has
    initialised it, so the sampler thread never creates a CUDA context of its own.
    """

    SHARED_REFRESH_S = 0.5  # the Windows performance counters cost ~1 ms: read them at most 2x/s

    def __init__(self, *, allow_cuda_init: bool = False, use_nvml: bool = True) -> None:
        self.allow_cuda_init = allow_cuda_init
        self.use_nvml = use_nvml
        self._lock = threading.Lock()
        self._torch_devices: list[TorchDevice] | None = None
        self._nvml: _Nvml | None = None
        self._nvml_tried = False
        self._pairs: dict[int, NvmlDevice] = {}
        self._shared: dict[int, int] = {}
        self._shared_read_at = 0.0
        self.shared_error: str | None = None
        """Why shared GPU memory could not be read (Windows performance counters), or ``None``."""

    # ------------------------------------------------------------------ discovery
    def _torch(self) -> ModuleType | None:
        return sys.modules.get("torch")

    def _discover(self, torch: ModuleType | None) -> list[TorchDevice]:
        if self._torch_devices is not None:
            return self._torch_devices
        devices: list[TorchDevice] = []
        if torch is not None:
            devices = _torch_devices(torch, self.allow_cuda_init)
            if not devices and not self._torch_ready(torch):
                return []  # CUDA not initialised yet: look again on the next reading
        nvml = self._nvml_instance(quiet=not devices) if (not devices or devices[0].backend == "cuda") else None
        if nvml is not None:
            if devices:
                self._pairs = match_devices(devices, nvml.devices)
                for dev in devices:
                    if dev.index not in self._pairs:
                        warn_once(f"nvml-unmatched-{dev.index}", "Memory Probe: no NVML device matches torch cuda:%d "
                                  "by PCI bus id or UUID; its device-wide readings fall back to torch", dev.index)
            else:  # torch not loaded (e.g. the standalone doctor): report what NVML sees
                devices = [TorchDevice(d.index, "cuda", d.name, d.pci_bus_id, d.uuid, None) for d in nvml.devices]
                self._pairs = {d.index: d for d in nvml.devices}
        self._torch_devices = devices
        return devices

    def _torch_ready(self, torch: ModuleType) -> bool:
        cuda = getattr(torch, "cuda", None)
        try:
            return bool(cuda is None or not cuda.is_available() or cuda.is_initialized() or self.allow_cuda_init)
        except Exception:
            return True

    def _nvml_instance(self, *, quiet: bool) -> _Nvml | None:
        """NVML, tried once. ``quiet`` when no CUDA device is known: a machine without an NVIDIA
        driver (or without nvidia-ml-py) is then the normal case, not worth a warning."""
        if not self.use_nvml:
            return None
        if not self._nvml_tried:
            self._nvml_tried = True
            try:
                self._nvml = _Nvml()
            except Exception as exc:  # ImportError, no driver, no device ...
                if not quiet:
                    warn_once("nvml-init", "Memory Probe: NVML is unavailable (%s); device-wide VRAM comes "
                              "from torch", exc)
        return self._nvml

    @property
    def driver_version(self) -> str | None:
        return self._nvml.driver_version if self._nvml is not None else None

    # ------------------------------------------------------------------ readings
    def read(self) -> tuple[GpuMemory, ...]:
        with self._lock:
            torch = self._torch()
            try:
                devices = self._discover(torch)
            except Exception as exc:
                warn_once("gpu-discover", "Memory Probe: could not list GPUs (%s)", exc)
                self._torch_devices = []
                return ()
            if not devices:
                return ()
            shared = self._shared_usage(devices)
            return tuple(self._read_one(torch, dev, shared.get(dev.index)) for dev in devices)

    def _read_one(self, torch: ModuleType | None, dev: TorchDevice, shared: int | None) -> GpuMemory:
        reading = GpuMemory(index=dev.index, backend=dev.backend, name=dev.name, pci_bus_id=dev.pci_bus_id,
                            device_total_bytes=dev.total_bytes, shared_used_bytes=shared,
                            driver_version=self.driver_version)
        if torch is not None and self._torch_ready(torch):
            try:
                reading = replace(reading, **_torch_counters(torch, dev))
            except Exception as exc:
                warn_once(f"torch-mem-{dev.backend}", "Memory Probe: torch memory counters failed on %s:%d (%s)",
                          dev.backend, dev.index, exc)
        nv = self._pairs.get(dev.index)
        if nv is not None and self._nvml is not None:
            try:
                used, total = self._nvml.memory(nv)
                reading = replace(reading, device_used_bytes=used, device_total_bytes=total,
                                  name=reading.name or nv.name, pci_bus_id=reading.pci_bus_id or nv.pci_bus_id)
            except Exception as exc:
                warn_once("nvml-read", "Memory Probe: NVML memory reading failed (%s)", exc)
        elif dev.backend == "cuda" and torch is not None and reading.torch_reserved_bytes is not None:
            try:  # no NVML for this card: the driver's device-wide figure through torch
                free, total = torch.cuda.mem_get_info(dev.index)
                reading = replace(reading, device_used_bytes=int(total - free), device_total_bytes=int(total))
            except Exception as exc:
                warn_once("cuda-mem-get-info", "Memory Probe: torch.cuda.mem_get_info failed (%s)", exc)
        return reading

    def _shared_usage(self, devices: list[TorchDevice]) -> dict[int, int]:
        if not windows.IS_WINDOWS or devices[0].backend != "cuda":
            return {}
        now = time.monotonic()
        if now - self._shared_read_at < self.SHARED_REFRESH_S:
            return self._shared
        self._shared_read_at = now
        try:
            used = {d.index: self._nvml.memory(self._pairs[d.index])[0]
                    for d in devices if d.index in self._pairs and self._nvml is not None}
            matched = windows.match_adapters(used, windows.query_gpu_adapter_memory())
            self._shared = {index: adapter.shared_bytes for index, adapter in matched.items()}
            self.shared_error = None
        except Exception as exc:
            warn_once("gpu-shared", "Memory Probe: shared GPU memory is unavailable (%s)", exc)
            self._shared = {}
            self.shared_error = str(exc)
        return self._shared

    @property
    def none_found(self) -> bool:
        """Discovery is done and found no GPU (a CPU-only ComfyUI): readings can skip the GPUs."""
        return self._torch_devices == []

    def reset_peaks(self) -> list[str]:
        """Restart torch's peak counters (called at each node start); the metrics whose
        counters were restarted (``gpu0_allocated_bytes``, ``gpu0_reserved_bytes`` ...)."""
        torch = self._torch()
        devices = self._torch_devices
        if torch is None or not devices:
            return []
        reset: list[str] = []
        for dev in devices:
            try:
                if dev.backend in ("cuda", "rocm") and torch.cuda.is_initialized():
                    torch.cuda.reset_peak_memory_stats(dev.index)
                elif dev.backend == "xpu":
                    torch.xpu.reset_peak_memory_stats(dev.index)
                else:
                    continue
                reset += [f"gpu{dev.index}_allocated_bytes", f"gpu{dev.index}_reserved_bytes"]
            except Exception as exc:
                warn_once(f"reset-peak-{dev.backend}", "Memory Probe: could not reset torch peak counters (%s)", exc)
        return reset


def _torch_devices(torch: ModuleType, allow_init: bool) -> list[TorchDevice]:
    """The devices torch can use, with the identity needed to pair them with NVML."""
    devices: list[TorchDevice] = []
    cuda = getattr(torch, "cuda", None)
    if cuda is not None and cuda.is_available() and (allow_init or cuda.is_initialized()):
        backend = "rocm" if getattr(torch.version, "hip", None) else "cuda"
        for i in range(cuda.device_count()):
            props = cuda.get_device_properties(i)
            pci = None
            if getattr(props, "pci_bus_id", None) is not None:
                pci = f"{getattr(props, 'pci_domain_id', 0):04x}:{props.pci_bus_id:02x}:{getattr(props, 'pci_device_id', 0):02x}"
            uuid = getattr(props, "uuid", None)
            devices.append(TorchDevice(i, backend, props.name, pci, str(uuid) if uuid is not None else None,
                                       int(props.total_memory)))
        return devices
    xpu = getattr(torch, "xpu", None)
    if xpu is not None and xpu.is_available():
        for i in range(xpu.device_count()):
            props = xpu.get_device_properties(i)
            devices.append(TorchDevice(i, "xpu", props.name, None, None, int(props.total_memory)))
        return devices
    mps = getattr(getattr(torch, "backends", None), "mps", None)
    if mps is not None and mps.is_available():
        total = torch.mps.recommended_max_memory() if hasattr(torch.mps, "recommended_max_memory") else None
        devices.append(TorchDevice(0, "mps", "Apple GPU (MPS)", None, None, total))
    return devices


def _torch_counters(torch: ModuleType, dev: TorchDevice) -> dict[str, int | None]:
    """Allocator counters for one device: a single statistics call on CUDA/ROCm/XPU."""
    if dev.backend in ("cuda", "rocm"):
        out: dict[str, int | None] = _allocator_stats(torch.cuda, dev.index)
        if dev.backend == "rocm":  # no NVML: the device-wide view comes from the driver via torch
            free, total = torch.cuda.mem_get_info(dev.index)
            out.update(device_used_bytes=int(total - free), device_total_bytes=int(total))
        return out
    if dev.backend == "xpu":
        out = _allocator_stats(torch.xpu, dev.index)
        if hasattr(torch.xpu, "mem_get_info"):
            free, total = torch.xpu.mem_get_info(dev.index)
            out.update(device_used_bytes=int(total - free), device_total_bytes=int(total))
        return out
    if dev.backend == "mps":
        allocated = int(torch.mps.current_allocated_memory())
        return {
            "torch_allocated_bytes": allocated,
            "torch_reserved_bytes": int(torch.mps.driver_allocated_memory()),
            "device_used_bytes": int(torch.mps.driver_allocated_memory()),
        }
    return {}


def _allocator_stats(backend: Any, index: int) -> dict[str, int | None]:
    """torch's allocator counters from ``memory_stats_as_nested_dict`` (what ``memory_stats``
    flattens and sorts in Python first: ~120 keys, ~60 µs per call and device, on every sampler
    tick), or from ``memory_stats`` where the nested form is missing."""
    nested = getattr(backend, "memory_stats_as_nested_dict", None)
    if nested is None:
        return _from_stats(backend.memory_stats(index))
    stats = nested(index)

    def get(stat: str, kind: str) -> int | None:
        value = (stats.get(stat) or {}).get("all", {}).get(kind)
        return int(value) if value is not None else None

    return {"torch_allocated_bytes": get("allocated_bytes", "current"), "torch_reserved_bytes": get("reserved_bytes", "current"),
            "torch_peak_allocated_bytes": get("allocated_bytes", "peak"),
            "torch_peak_reserved_bytes": get("reserved_bytes", "peak")}


def _from_stats(stats: dict[str, Any]) -> dict[str, int | None]:
    def get(key: str) -> int | None:
        value = stats.get(key)
        return int(value) if value is not None else None

    return {
        "torch_allocated_bytes": get("allocated_bytes.all.current"),
        "torch_reserved_bytes": get("reserved_bytes.all.current"),
        "torch_peak_allocated_bytes": get("allocated_bytes.all.peak"),
        "torch_peak_reserved_bytes": get("reserved_bytes.all.peak"),
    }
