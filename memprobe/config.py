"""Memory Probe's settings on the server side, validated, and kept in a small JSON file so they
hold from ComfyUI's start (before any browser connects). The panel edits them through
``POST /memprobe/config``; the frontend's own settings are ``MemProbe.*``.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from ._log import warn_once

__all__ = ["Config", "ConfigError", "load_config", "save_config"]


class ConfigError(ValueError):
    """A setting with a bad value; the message names it and says what is allowed."""


@dataclass(frozen=True, slots=True)
class Config:
    tracing: bool = True
    """Trace every node (the probe nodes work either way)."""
    sample_hz: float = 0.0
    """Sampler rate while a run executes, 1–200 Hz; 0 chooses it by the device ComfyUI computes
    on (10 Hz on the CPU, 20 Hz with a GPU; see ``memprobe.sensing.sampler.auto_rate``). It reads at 1 Hz
    when idle."""
    exact_rss_peaks: bool = True
    """Linux: restart the process's peak-RSS counter (``VmHWM``) at each node, so each node's RSS
    peak is exact. Off leaves the counter to other tools (``ru_maxrss``, ``/usr/bin/time -v``)
    and RSS peaks are sampled."""
    retention_runs: int = 2000
    """How many runs the ledger keeps (a busy day of short prompts; the size cap bounds it too)."""
    retention_mb: int = 512
    """The ledger's size cap (MiB): the oldest runs go first when it is reached."""
    metrics: bool = True
    """Serve ``GET /memprobe/metrics`` (Prometheus); off, it answers 404."""
    metrics_workflow_label: bool = False
    """Add a bounded ``workflow`` label to the per-run metrics (opt-in: it multiplies their series)."""
    forecast_on_queue: bool = True
    """Forecast each queued prompt (off ComfyUI's worker thread) and tell the browser that queued it
    when it won't fit (``memprobe.forecast``); the prompt is queued either way."""

    _LIMITS = {"sample_hz": (1.0, 200.0), "retention_runs": (1, 100_000), "retention_mb": (16, 65_536)}

    def updated(self, changes: dict[str, Any]) -> Config:
        """A copy with ``changes`` applied; raises :class:`ConfigError` for any bad name or value."""
        if not isinstance(changes, dict):
            raise ConfigError("settings must be a JSON object")
        known = {f.name: f for f in fields(self) if not f.name.startswith("_")}
        clean: dict[str, Any] = {}
        for name, value in changes.items():
            if name not in known:
                raise ConfigError(f"unknown setting {name!r}; known: {', '.join(sorted(known))}")
            if isinstance(getattr(self, name), bool):
                if not isinstance(value, bool):
                    raise ConfigError(f"{name} must be true or false")
                clean[name] = value
                continue
            low, high = self._LIMITS[name]
            allowed = f"between {low:g} and {high:g}" + (" (0: automatic)" if name == "sample_hz" else "")
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ConfigError(f"{name} must be a number {allowed}")
            if not (low <= value <= high or (name == "sample_hz" and value == 0)):
                raise ConfigError(f"{name} must be {allowed}, got {value}")
            clean[name] = float(value) if name == "sample_hz" else int(value)
        return replace(self, **clean)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def load_config(path: str | os.PathLike[str]) -> Config:
    """The saved settings, or the defaults when there are none; a broken file is reported once
    and the defaults are used (the file is left for the user to inspect)."""
    file = Path(path)
    if not file.exists():
        return Config()
    try:
        return Config().updated(json.loads(file.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        warn_once("config-load", "Memory Probe: ignoring %s (%s); using the defaults", file, exc)
        return Config()


def save_config(path: str | os.PathLike[str], config: Config) -> None:
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_suffix(".tmp")
    tmp.write_text(json.dumps(config.to_dict(), indent=2), encoding="utf-8")
    os.replace(tmp, file)
