"""torch's allocators: CUDA (and ROCm, which torch drives through ``torch.cuda``), Intel XPU and
Apple MPS. Each lists its devices and reads torch's counters for them."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .base import Counters, TorchDevice

__all__ = ["CudaAllocator", "XpuAllocator", "MpsAllocator"]


class CudaAllocator:
    """NVIDIA CUDA, and AMD ROCm (HIP) where torch was built for it."""

    backend = "cuda"

    def devices(self, torch: ModuleType, allow_init: bool) -> list[TorchDevice]:
        cuda = getattr(torch, "cuda", None)
        if cuda is None or not cuda.is_available() or not (allow_init or cuda.is_initialized()):
            return []
        backend = "rocm" if getattr(getattr(torch, "version", None), "hip", None) else "cuda"
        devices = []
        for i in range(cuda.device_count()):
            props = cuda.get_device_properties(i)
            pci = None
            if getattr(props, "pci_bus_id", None) is not None:
                pci = f"{getattr(props, 'pci_domain_id', 0):04x}:{props.pci_bus_id:02x}:{getattr(props, 'pci_device_id', 0):02x}"
            uuid = getattr(props, "uuid", None)
            devices.append(
                TorchDevice(
                    i, backend, props.name, pci, str(uuid) if uuid is not None else None, int(props.total_memory)
                )
            )
        return devices

    def counters(self, torch: ModuleType, device: TorchDevice) -> Counters:
        out = allocator_stats(torch.cuda, device.index)
        if device.backend == "rocm":  # no NVML: the device-wide view comes from the driver via torch
            free, total = torch.cuda.mem_get_info(device.index)
            out.update(device_used_bytes=int(total - free), device_total_bytes=int(total))
        return out

    def device_use(self, torch: ModuleType, device: TorchDevice) -> Counters:
        """The driver's device-wide figure through torch, where no device-wide reader pairs the card."""
        free, total = torch.cuda.mem_get_info(device.index)
        return {"device_used_bytes": int(total - free), "device_total_bytes": int(total)}

    def reset_peaks(self, torch: ModuleType, device: TorchDevice) -> bool:
        if not torch.cuda.is_initialized():
            return False
        torch.cuda.reset_peak_memory_stats(device.index)
        return True


class XpuAllocator:
    """Intel GPUs (torch.xpu)."""

    backend = "xpu"

    def devices(self, torch: ModuleType, allow_init: bool) -> list[TorchDevice]:
        xpu = getattr(torch, "xpu", None)
        if xpu is None or not xpu.is_available():
            return []
        return [
            TorchDevice(
                i, "xpu", xpu.get_device_properties(i).name, None, None, int(xpu.get_device_properties(i).total_memory)
            )
            for i in range(xpu.device_count())
        ]

    def counters(self, torch: ModuleType, device: TorchDevice) -> Counters:
        out = allocator_stats(torch.xpu, device.index)
        if hasattr(torch.xpu, "mem_get_info"):
            free, total = torch.xpu.mem_get_info(device.index)
            out.update(device_used_bytes=int(total - free), device_total_bytes=int(total))
        return out

    def reset_peaks(self, torch: ModuleType, device: TorchDevice) -> bool:
        torch.xpu.reset_peak_memory_stats(device.index)
        return True


class MpsAllocator:
    """Apple silicon (torch.mps): one device sharing the machine's unified memory."""

    backend = "mps"

    def devices(self, torch: ModuleType, allow_init: bool) -> list[TorchDevice]:
        mps = getattr(getattr(torch, "backends", None), "mps", None)
        if mps is None or not mps.is_available():
            return []
        total = torch.mps.recommended_max_memory() if hasattr(torch.mps, "recommended_max_memory") else None
        return [TorchDevice(0, "mps", "Apple GPU (MPS)", None, None, total)]

    def counters(self, torch: ModuleType, device: TorchDevice) -> Counters:
        driver = int(torch.mps.driver_allocated_memory())
        return {
            "torch_allocated_bytes": int(torch.mps.current_allocated_memory()),
            "torch_reserved_bytes": driver,
            "device_used_bytes": driver,
        }

    def reset_peaks(self, torch: ModuleType, device: TorchDevice) -> bool:
        return False  # MPS keeps no peak counter


def allocator_stats(backend: Any, index: int) -> Counters:
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

    return {
        "torch_allocated_bytes": get("allocated_bytes", "current"),
        "torch_reserved_bytes": get("reserved_bytes", "current"),
        "torch_peak_allocated_bytes": get("allocated_bytes", "peak"),
        "torch_peak_reserved_bytes": get("reserved_bytes", "peak"),
    }


def _from_stats(stats: dict[str, Any]) -> Counters:
    def get(key: str) -> int | None:
        value = stats.get(key)
        return int(value) if value is not None else None

    return {
        "torch_allocated_bytes": get("allocated_bytes.all.current"),
        "torch_reserved_bytes": get("reserved_bytes.all.current"),
        "torch_peak_allocated_bytes": get("allocated_bytes.all.peak"),
        "torch_peak_reserved_bytes": get("reserved_bytes.all.peak"),
    }
