"""Columnar sample series and a peak-preserving downsampler.

A timeline is ``{"t": [seconds since run start], "series": {metric: [bytes or None]}}``.
Downsampling keeps each bucket's *maximum*: for memory, the peak is the fact that matters,
and an average would hide exactly the spike that ran out of memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..documents import Timeline

__all__ = ["SampleBuffer", "downsample", "merge_timelines", "window"]


class SampleBuffer:
    """Append-only columns; a metric that appears later is back-filled with ``None``."""

    __slots__ = ("t", "series")

    def __init__(self) -> None:
        self.t: list[float] = []
        self.series: dict[str, list[int | None]] = {}

    def __len__(self) -> int:
        return len(self.t)

    def append(self, t: float, metrics: Mapping[str, int]) -> None:
        n = len(self.t)
        self.t.append(t)
        series = self.series
        for key, value in metrics.items():
            column = series.get(key)
            if column is None:
                column = series[key] = [None] * n
            column.append(value)
        if len(series) != len(metrics):  # a metric missing from this row
            for column in series.values():
                if len(column) == n:
                    column.append(None)

    def since(self, start: int) -> Timeline:
        """Rows ``start..`` as a timeline (what has not been sent or stored yet)."""
        return {"t": self.t[start:], "series": {k: v[start:] for k, v in self.series.items()}}

    def to_timeline(self) -> Timeline:
        return self.since(0)


def downsample(timeline: Timeline, max_points: int) -> Timeline:
    """At most ``max_points`` rows; each kept row is one bucket: its first time, each metric's max."""
    t: list[float] = timeline["t"]
    n = len(t)
    if max_points <= 0 or n <= max_points:
        return timeline
    edges = [round(i * n / max_points) for i in range(max_points + 1)]
    out_t = [t[edges[i]] for i in range(max_points)]
    out_series: dict[str, list[int | None]] = {}
    for key, column in timeline["series"].items():
        reduced: list[int | None] = []
        for i in range(max_points):
            values = [v for v in column[edges[i] : edges[i + 1]] if v is not None]
            reduced.append(max(values) if values else None)
        out_series[key] = reduced
    return {"t": out_t, "series": out_series}


def merge_timelines(parts: Iterable[Timeline]) -> Timeline:
    """Concatenate timelines in order (e.g. stored chunks), aligning their metric columns."""
    t: list[float] = []
    series: dict[str, list[int | None]] = {}
    for part in parts:
        n_before, n_part = len(t), len(part["t"])
        t.extend(part["t"])
        for key, column in part["series"].items():
            target = series.get(key)
            if target is None:
                target = series[key] = [None] * n_before
            target.extend(column)
        for column in series.values():
            if len(column) < n_before + n_part:
                column.extend([None] * (n_before + n_part - len(column)))
    return {"t": t, "series": series}


def window(timeline: Timeline, start: float | None, end: float | None) -> Timeline:
    """Rows with ``start <= t <= end`` (either bound may be open)."""
    t = timeline["t"]
    keep = [i for i, v in enumerate(t) if (start is None or v >= start) and (end is None or v <= end)]
    return {"t": [t[i] for i in keep], "series": {k: [c[i] for i in keep] for k, c in timeline["series"].items()}}
