"""What this machine's runs teach the forecast, and the forecast beside the measurement.

After a run, each node the forecast had an estimate for is compared with what it measured: its
*working memory* — the peak above the higher of its start and end levels (so the models it loaded,
which stay, are not counted as work; of the process's own memory, each level without what ``malloc``
held free then, which glibc keeps after a node freed its work instead of giving it back: 190 MB of a
360 MB rise after the first 512² sampling here, and up to that much less the next time, when it is
reused) — over ComfyUI's estimate for it. That ratio is one
observation for the workflow's model family and the node's stage, on this device class (GPU or CPU).
A stage ComfyUI has no estimate for (text encoding) gives its working memory itself.

The correction for a family and stage is the median of its last :data:`WINDOW` observations: one run
is enough to start, an odd run (a first run's one-time costs, another program's burst) does not
swing it, and newer runs replace older ones as ComfyUI, drivers or settings change. Why one factor
per family and stage, not per node or per size: ComfyUI's estimates already scale with the latent
size and the batch (what users change); what they get wrong is the constant in front, which
depends on the model's architecture and the stage's kernels (attention, the VAE's convolutions) and
on this machine's allocator — exactly a family and a stage on one device.

>>> working_memory({"before": {"m": 100}, "peaks": {"m": 180}, "after": {"m": 120}}, "m")
60
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..documents import RunDoc
from .forecast import Correction

__all__ = ["WINDOW", "working_memory", "observations", "corrections_from", "compare", "ERROR_KEYS"]

WINDOW = 20
MIN_ESTIMATE = 1024 * 1024
"""An estimate under 1 MiB is no basis for a ratio."""
ERROR_KEYS = ("stage", "metric", "forecast_bytes", "measured_bytes", "error_pct")


def working_memory(node: Mapping[str, Any], metric: str) -> int | None:
    """The node's peak above the higher of its start and end levels, or ``None`` without readings. Of
    the process's own memory, each level counts only what is in use: what ``malloc`` held free then
    (``heap_free_bytes``, Linux) is left out, since the work reuses it and what the node freed stays
    there after it."""
    before = (node.get("before") or {}).get(metric)
    after = (node.get("after") or {}).get(metric)
    peak = (node.get("peaks") or {}).get(metric)
    if before is None or peak is None:
        return None
    free = (node.get("heap_free_bytes") or {}) if metric in _PROCESS_METRICS else {}
    if free.get("before") is None or (after is not None and free.get("after") is None):
        free = {}  # the reads stopped mid-node (one too slow): neither level, or the two would not compare
    start = int(before) - int(free.get("before") or 0)
    end = int(after) - int(free.get("after") or 0) if after is not None else start
    return max(0, int(peak) - max(start, end))


_PROCESS_METRICS = ("process_rss_bytes", "process_private_bytes")
"""The process's own memory, whose levels count the heap ``malloc`` holds free."""


def observations(run: RunDoc, forecast: Mapping[str, Any], device: str) -> list[dict[str, Any]]:
    """One observation per node that ran and had a forecast: ``family``, ``stage``, ``device``,
    ``estimate_bytes`` (ComfyUI's, uncorrected; ``None``: the stage has none), ``working_bytes``."""
    metric = forecast.get("metric")
    family = forecast.get("family") or "unknown"
    if not metric:
        return []
    ran = {n.get("node_id"): n for n in run.get("nodes") or [] if n.get("status") == "ran"}
    out = []
    for planned in forecast.get("nodes") or []:
        node = ran.get(planned.get("node_id"))
        if node is None or planned.get("unknown"):
            continue
        working = working_memory(node, metric)
        if working is None:
            continue
        estimate = planned.get("estimate_bytes")
        if planned.get("estimate") and (estimate is None or estimate < MIN_ESTIMATE):
            continue
        if not planned.get("estimate") and planned.get("stage") != "text-encode":
            continue  # nothing to learn from a node that does no work of its own
        out.append(
            {
                "family": family,
                "stage": planned.get("stage"),
                "device": device,
                "estimate_bytes": estimate if planned.get("estimate") else None,
                "working_bytes": working,
            }
        )
    return out


def corrections_from(rows: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str, str], Correction]:
    """The corrections from observations, newest first (``family``, ``stage``, ``device``,
    ``estimate_bytes``, ``working_bytes``): the median of the last :data:`WINDOW` of each."""
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for row in rows:
        key = (str(row["family"]), str(row["stage"]), str(row["device"]))
        if len(groups.setdefault(key, [])) < WINDOW:
            groups[key].append(row)
    out = {}
    for key, items in groups.items():
        ratios = [r["working_bytes"] / r["estimate_bytes"] for r in items if r.get("estimate_bytes")]
        constants = [float(r["working_bytes"]) for r in items if not r.get("estimate_bytes")]
        out[key] = Correction(
            factor=statistics.median(ratios) if ratios else None,
            constant=statistics.median(constants) if constants else None,
            runs=len(items),
        )
    return out


def compare(run: RunDoc, forecast: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Forecast beside measurement, stage by stage, on the forecast's metric: ``stage``, ``metric``,
    ``forecast_bytes``, ``measured_bytes``, ``error_pct`` (``None`` where the run did not measure it)."""
    metric = forecast.get("metric")
    measured = run.get("stages") or {}
    out = []
    for stage in forecast.get("stages") or []:
        peaks = (measured.get(stage["stage"]) or {}).get("peaks") or {}
        got = peaks.get(metric) if metric else None
        want = stage.get("peak_bytes")
        error = round(100 * (want - got) / got, 1) if got and want is not None else None
        out.append(
            {
                "stage": stage["stage"],
                "metric": metric,
                "forecast_bytes": want,
                "measured_bytes": got,
                "error_pct": error,
            }
        )
    return out


def summarize(comparison: Sequence[Mapping[str, Any]]) -> float | None:
    """The largest error of a comparison (percent, signed), or ``None``."""
    errors = [c["error_pct"] for c in comparison if c.get("error_pct") is not None]
    return max(errors, key=abs) if errors else None
