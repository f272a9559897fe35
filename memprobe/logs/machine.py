"""The machine a ComfyUI log was written on, from its start-up banner and its error reports: the
GPU and its VRAM, RAM and a cgroup's limit, the device, the allocator, the OS, the versions and
the launch options. :class:`MachineReading` is the reader's part that reads them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..format import MIB
from .patterns import _CGROUP, _DEVICE, _TOTALS, _VERSION_LINES
from .records import LogFacts, LogLine

__all__ = ["MachineReading"]


class MachineReading:
    facts: LogFacts
    n: int

    if TYPE_CHECKING:  # the reader's

        def _ev(self, text: str) -> LogLine: ...

    def _banner(self, s: str) -> None:
        machine = self.facts.machine
        if m := _TOTALS.search(s):
            machine["vram_total_bytes"] = int(m.group(1)) * MIB
            machine["ram_total_bytes"] = int(m.group(2)) * MIB
            self.facts.evidence["vram_total_bytes"] = self.facts.evidence["ram_total_bytes"] = self._ev(s)
        elif m := _CGROUP.search(s):
            machine["ram_limit_bytes"] = int(m.group(1)) * MIB
            self.facts.evidence["ram_limit_bytes"] = self._ev(s)
        elif s.startswith("Set vram state to: "):
            machine["vram_state"] = s.split(": ", 1)[1].strip()
        elif m := _DEVICE.match(s):
            self._device(m.group(1), s)
        elif s.startswith("Using directml with device:"):
            machine["device"] = "directml"
            if name := s.split(":", 1)[1].strip():
                machine["gpu_name"] = name
            self.facts.evidence["device"] = self._ev(s)
        elif s.startswith("Using ") and "attention" in s and "VAE" not in s:
            machine.setdefault("attention", s[len("Using ") :])
        elif s.startswith("** Platform:"):
            self._os(s.split(":", 1)[1].strip(), s)
        elif s.startswith("** Python executable:"):
            machine["python_executable"] = s.split(":", 1)[1].strip()
        elif s.startswith("** ComfyUI Path:"):
            machine["comfyui_path"] = s.split(":", 1)[1].strip()
        elif s.startswith("Mac Version"):
            self._os("macOS", s)
        elif s.startswith("AMD arch:"):
            machine["amd_arch"] = s.split(":", 1)[1].strip()
        else:
            for pattern, key in _VERSION_LINES:
                if m := pattern.match(s):
                    self._version(key, m.group(1).strip(), s)
                    if key == "python" and "python_build" not in machine:
                        machine["python_build"] = s
                    return

    def _device(self, value: str, s: str) -> None:
        machine = self.facts.machine
        device, _, rest = value.partition(" ")
        name, _, allocator = rest.rpartition(" : ")
        if not name:
            name, allocator = rest, ""
        machine["device"] = "directml" if device.startswith("privateuseone") else device
        if name.strip():
            machine["gpu_name"] = name.strip()
        if allocator.strip():
            machine["allocator"] = allocator.strip()
        if device == "mps":
            self._os("macOS", s)
        self.facts.evidence["device"] = self._ev(s)

    def _capacity(self, m: re.Match[str]) -> None:
        groups = [g for g in m.groups() if g]
        if len(groups) >= 2 and "vram_total_from_error_bytes" not in self.facts.machine:
            value = float(groups[0]) * (1024**3 if groups[1] == "G" else MIB)
            if 0 < value < 2**50:
                self.facts.machine["vram_total_from_error_bytes"] = int(value)
                self.facts.evidence["vram_total_from_error_bytes"] = self._ev(m.string)

    def _version(self, key: str, value: str, s: str) -> None:
        if value and key not in self.facts.versions:
            self.facts.versions[key] = value[:80]
            self.facts.evidence[f"version_{key}"] = self._ev(s)

    def _args(self, rest: str, s: str) -> None:
        tokens = rest.replace("main.py", " ").split()
        args = [t for t in tokens if t and not t.lower().endswith(("main.py", "python.exe"))]
        if args and not self.facts.args:
            self.facts.args = args[:40]
            self.facts.evidence["args"] = self._ev(s)

    def _os(self, name: str, s: str) -> None:
        if name and "os" not in self.facts.machine:
            self.facts.machine["os"] = name
            self.facts.evidence["os"] = self._ev(s)
