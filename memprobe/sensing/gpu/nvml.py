"""NVIDIA's driver view (NVML, the ``pynvml`` module of ``nvidia-ml-py``): each device's memory in
use by every process. NVML and torch number devices differently (``CUDA_VISIBLE_DEVICES``, PCI vs.
speed order), so devices are paired by PCI bus id, then by UUID — never by index."""

from __future__ import annotations

import atexit
from dataclasses import dataclass
from typing import Any

from ..._log import warn_once
from .base import TorchDevice

__all__ = ["NvmlDevice", "NvmlReader", "match_devices", "normalize_pci_bus_id"]


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


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


class NvmlReader:
    """NVML, initialised once for the process and shut down at exit."""

    serves: tuple[str, ...] = ("cuda",)

    def __init__(self) -> None:
        self._tried = False
        self.nvml: Any = None
        self.driver_version: str | None = None
        self.nvml_devices: list[NvmlDevice] = []

    def open(self, *, quiet: bool) -> bool:
        if not self._tried:
            self._tried = True
            try:
                self._open()
            except Exception as exc:  # ImportError, no driver, no device ...
                self.nvml = None
                if not quiet:
                    warn_once(
                        "nvml-init", "Memory Probe: NVML is unavailable (%s); device-wide VRAM comes from torch", exc
                    )
        return self.nvml is not None

    def _open(self) -> None:
        import pynvml

        pynvml.nvmlInit()
        atexit.register(self._shutdown)
        self.nvml = pynvml
        self.driver_version = _text(pynvml.nvmlSystemGetDriverVersion())
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            pci = pynvml.nvmlDeviceGetPciInfo(handle)
            self.nvml_devices.append(
                NvmlDevice(
                    index=i,
                    name=_text(pynvml.nvmlDeviceGetName(handle)),
                    pci_bus_id=_text(getattr(pci, "busId", None) or getattr(pci, "busIdLegacy", None)),
                    uuid=_text(pynvml.nvmlDeviceGetUUID(handle)),
                    handle=handle,
                )
            )

    def devices(self) -> list[TorchDevice]:
        return [TorchDevice(d.index, "cuda", d.name, d.pci_bus_id, d.uuid, None) for d in self.nvml_devices]

    def pair(self, devices: list[TorchDevice]) -> dict[int, Any]:
        return match_devices(devices, self.nvml_devices)

    def used_total(self, handle: Any) -> tuple[int, int]:
        info = self.nvml.nvmlDeviceGetMemoryInfo(handle.handle if isinstance(handle, NvmlDevice) else handle)
        return int(info.used), int(info.total)

    def _shutdown(self) -> None:
        try:
            self.nvml.nvmlShutdown()
        except Exception:  # nothing left to do at exit
            pass
