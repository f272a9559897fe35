"""Every GPU torch can use, read through the allocator reader and the device-wide reader chosen
for this machine (:mod:`.base`). Never raises: a failing source yields ``None`` fields."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any, cast

from ..._log import warn_once
from ..snapshot import GpuMemory
from ..system import windows
from .base import AllocatorReader, DeviceWideReader, TorchDevice

__all__ = ["GpuSensor"]


class GpuSensor:
    """Reads every GPU torch can use.

    ``allocators`` are tried in order when the devices are first looked for; the first that finds
    devices is this machine's, with the first of ``device_wide`` that serves its kind of device.
    ``allow_cuda_init=False`` (inside ComfyUI) leaves CUDA alone until something else has
    initialised it, so the sampler thread never creates a CUDA context of its own.
    """

    SHARED_REFRESH_S = 0.5  # the Windows performance counters cost ~1 ms: read them at most 2x/s

    def __init__(
        self,
        allocators: Sequence[AllocatorReader],
        device_wide: Sequence[DeviceWideReader],
        *,
        allow_cuda_init: bool = False,
    ) -> None:
        self.allocators = allocators
        self.device_wide_readers = device_wide
        self.allow_cuda_init = allow_cuda_init
        self._lock = threading.Lock()
        self._devices: list[TorchDevice] | None = None
        self.allocator: AllocatorReader | None = None
        """This machine's allocator reader, once chosen."""
        self.device_wide: DeviceWideReader | None = None
        """This machine's device-wide reader, once chosen (``None``: none serves its devices)."""
        self._pairs: dict[int, Any] = {}
        self._shared: dict[int, int] = {}
        self._shared_read_at = 0.0
        self.shared_error: str | None = None
        """Why shared GPU memory could not be read (Windows performance counters), or ``None``."""

    # ------------------------------------------------------------------ discovery, once
    def _torch(self) -> ModuleType | None:
        return sys.modules.get("torch")

    def _discover(self, torch: ModuleType | None) -> list[TorchDevice]:
        if self._devices is not None:
            return self._devices
        devices: list[TorchDevice] = []
        if torch is not None:
            for allocator in self.allocators:
                devices = allocator.devices(torch, self.allow_cuda_init)
                if devices:
                    self.allocator = allocator
                    break
            if not devices and not self._torch_ready(torch):
                return []  # CUDA not initialised yet: look again on the next reading
        backend = devices[0].backend if devices else None
        for reader in self.device_wide_readers:
            if backend is not None and backend not in reader.serves:
                continue
            if reader.open(quiet=not devices):
                self.device_wide = reader
                break
        if self.device_wide is not None:
            if devices:
                self._pairs = self.device_wide.pair(devices)
                for dev in devices:
                    if dev.index not in self._pairs:
                        warn_once(
                            f"device-unmatched-{dev.index}",
                            "Memory Probe: no driver device matches torch "
                            "%s:%d by PCI bus id or UUID; its device-wide readings fall back to torch",
                            dev.backend,
                            dev.index,
                        )
            else:  # torch not loaded (e.g. the standalone doctor): report what the driver sees
                devices = self.device_wide.devices()
                self._pairs = self.device_wide.pair(devices)
        self._devices = devices
        return devices

    def _torch_ready(self, torch: ModuleType) -> bool:
        cuda = getattr(torch, "cuda", None)
        try:
            return bool(cuda is None or not cuda.is_available() or cuda.is_initialized() or self.allow_cuda_init)
        except Exception:
            return True

    @property
    def driver_version(self) -> str | None:
        return self.device_wide.driver_version if self.device_wide is not None else None

    @property
    def none_found(self) -> bool:
        """Discovery is done and found no GPU (a CPU-only ComfyUI): readings can skip the GPUs."""
        return self._devices == []

    # ------------------------------------------------------------------ readings
    def read(self) -> tuple[GpuMemory, ...]:
        with self._lock:
            torch = self._torch()
            try:
                devices = self._discover(torch)
            except Exception as exc:
                warn_once("gpu-discover", "Memory Probe: could not list GPUs (%s)", exc)
                self._devices = []
                return ()
            if not devices:
                return ()
            shared = self._shared_usage(devices)
            return tuple(self._read_one(torch, dev, shared.get(dev.index)) for dev in devices)

    def _read_one(self, torch: ModuleType | None, dev: TorchDevice, shared: int | None) -> GpuMemory:
        reading = GpuMemory(
            index=dev.index,
            backend=dev.backend,
            name=dev.name,
            pci_bus_id=dev.pci_bus_id,
            device_total_bytes=dev.total_bytes,
            shared_used_bytes=shared,
            driver_version=self.driver_version,
        )
        allocator = self.allocator
        if torch is not None and allocator is not None and self._torch_ready(torch):
            try:
                reading = replace(reading, **cast(dict[str, Any], allocator.counters(torch, dev)))
            except Exception as exc:
                warn_once(
                    f"torch-mem-{dev.backend}",
                    "Memory Probe: torch memory counters failed on %s:%d (%s)",
                    dev.backend,
                    dev.index,
                    exc,
                )
        handle = self._pairs.get(dev.index)
        if handle is not None and self.device_wide is not None:
            try:
                used, total = self.device_wide.used_total(handle)
                reading = replace(
                    reading,
                    device_used_bytes=used,
                    device_total_bytes=total,
                    name=reading.name or getattr(handle, "name", None),
                    pci_bus_id=reading.pci_bus_id or getattr(handle, "pci_bus_id", None),
                )
            except Exception as exc:
                warn_once("device-wide-read", "Memory Probe: the driver's memory reading failed (%s)", exc)
        elif (
            torch is not None
            and reading.torch_reserved_bytes is not None
            and hasattr(allocator, "device_use")
            and dev.backend == "cuda"
        ):
            try:  # no driver reader for this card: its device-wide figure through torch
                reading = replace(reading, **allocator.device_use(torch, dev))  # type: ignore[union-attr]
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
            reader = self.device_wide
            used = {
                d.index: reader.used_total(self._pairs[d.index])[0]
                for d in devices
                if d.index in self._pairs and reader is not None
            }
            matched = windows.match_adapters(used, windows.query_gpu_adapter_memory())
            self._shared = {index: adapter.shared_bytes for index, adapter in matched.items()}
            self.shared_error = None
        except Exception as exc:
            warn_once("gpu-shared", "Memory Probe: shared GPU memory is unavailable (%s)", exc)
            self._shared = {}
            self.shared_error = str(exc)
        return self._shared

    def reset_peaks(self) -> list[str]:
        """Restart torch's peak counters (called at each node start); the metrics whose
        counters were restarted (``gpu0_allocated_bytes``, ``gpu0_reserved_bytes`` ...)."""
        torch, devices, allocator = self._torch(), self._devices, self.allocator
        if torch is None or not devices or allocator is None:
            return []
        reset: list[str] = []
        for dev in devices:
            try:
                if allocator.reset_peaks(torch, dev):
                    reset += [f"gpu{dev.index}_allocated_bytes", f"gpu{dev.index}_reserved_bytes"]
            except Exception as exc:
                warn_once(f"reset-peak-{dev.backend}", "Memory Probe: could not reset torch peak counters (%s)", exc)
        return reset
