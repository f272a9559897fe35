"""GPU readings: torch's allocator counters per device, and the driver's device-wide view.

A reader of each kind (:mod:`.base`) is chosen once per process: the allocator readers are tried in
the order of :data:`ALLOCATORS`, and the device-wide readers in :data:`DEVICE_WIDE` serve the kind
of device found. Adding a kind of GPU is a reader class in its own module, added here.
"""

from __future__ import annotations

from .base import AllocatorReader, DeviceWideReader, TorchDevice
from .nvml import NvmlDevice, NvmlReader, match_devices, normalize_pci_bus_id
from .sensor import GpuSensor
from .torch_backends import CudaAllocator, MpsAllocator, XpuAllocator

__all__ = [
    "ALLOCATORS",
    "DEVICE_WIDE",
    "AllocatorReader",
    "DeviceWideReader",
    "GpuSensor",
    "NvmlDevice",
    "TorchDevice",
    "gpu_sensor",
    "match_devices",
    "normalize_pci_bus_id",
]

ALLOCATORS = (CudaAllocator, XpuAllocator, MpsAllocator)
"""torch's allocators, tried in this order (CUDA covers ROCm)."""
DEVICE_WIDE = (NvmlReader,)
"""The drivers' views (NVML on NVIDIA; AMD's and Intel's next)."""


def gpu_sensor(*, allow_cuda_init: bool = False, use_nvml: bool = True) -> GpuSensor:
    """The machine's GPU sensor with every known reader (``use_nvml=False``: no driver view)."""
    device_wide = [reader() for reader in DEVICE_WIDE if use_nvml or reader is not NvmlReader]
    return GpuSensor([allocator() for allocator in ALLOCATORS], device_wide, allow_cuda_init=allow_cuda_init)
