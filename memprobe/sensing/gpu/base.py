"""What a GPU reader is. Two kinds read GPU memory, and a machine has one of each at most:

- an **allocator reader** (:class:`AllocatorReader`): torch's caching allocator for one kind of
  device — CUDA (and ROCm, which torch drives through the same ``torch.cuda``), XPU, MPS. It lists
  the devices torch can use and reads torch's counters (allocated, reserved, their peaks), and
  restarts the peak counters at each node;
- a **device-wide reader** (:class:`DeviceWideReader`): the driver's view of a device, every
  process included (what Task Manager calls dedicated memory) — NVML on NVIDIA. Its devices are
  paired with torch's by PCI bus id, then UUID, never by index.

:class:`~memprobe.sensing.gpu.sensor.GpuSensor` chooses one of each once, when the devices are
first found. A new kind of GPU is a new reader class added to :data:`ALLOCATORS` or
:data:`DEVICE_WIDE` (``sensing/gpu/__init__.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

__all__ = ["TorchDevice", "AllocatorReader", "DeviceWideReader", "Counters"]

Counters = dict[str, int | None]
"""Fields of :class:`~memprobe.sensing.snapshot.GpuMemory` a reader knows (``torch_allocated_bytes`` ...)."""


@dataclass(frozen=True, slots=True)
class TorchDevice:
    """A device torch computes on, with what pairs it to the driver's view of it."""

    index: int
    backend: str
    name: str | None
    pci_bus_id: str | None
    uuid: str | None
    total_bytes: int | None


class AllocatorReader(Protocol):
    """torch's allocator for one kind of device."""

    backend: str
    """``cuda``, ``rocm``, ``xpu`` or ``mps``: what the readings of its devices say they are."""

    def devices(self, torch: ModuleType, allow_init: bool) -> list[TorchDevice]:
        """The devices torch can use (none when this kind of device is absent, or not initialised
        and ``allow_init`` is false)."""
        ...

    def counters(self, torch: ModuleType, device: TorchDevice) -> Counters:
        """torch's counters for ``device`` (and, where torch is the only source, the device's use)."""
        ...

    def reset_peaks(self, torch: ModuleType, device: TorchDevice) -> bool:
        """Restart the peak counters of ``device``; ``True`` when they were restarted."""
        ...


class DeviceWideReader(Protocol):
    """The driver's view of the devices of one vendor."""

    serves: tuple[str, ...]
    """The allocator backends whose devices it can pair (``("cuda",)`` for NVML)."""
    driver_version: str | None

    def open(self, *, quiet: bool) -> bool:
        """Start it (once); ``quiet`` when a missing driver is the normal case (no GPU known)."""
        ...

    def devices(self) -> list[TorchDevice]:
        """Its devices as torch would list them (for a process without torch: the doctor)."""
        ...

    def pair(self, devices: list[TorchDevice]) -> dict[int, Any]:
        """torch index -> its handle for that device, for the devices it can tell apart."""
        ...

    def used_total(self, handle: Any) -> tuple[int, int]:
        """``(used, total)`` bytes of the device, every process included."""
        ...
