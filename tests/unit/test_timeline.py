"""Columns, merging and the peak-preserving downsampler."""

from __future__ import annotations

from memprobe.recording.timeline import SampleBuffer, downsample, merge_timelines, window


def test_a_metric_that_appears_later_is_back_filled():
    buf = SampleBuffer()
    buf.append(0.0, {"a": 1})
    buf.append(0.1, {"a": 2, "b": 5})
    buf.append(0.2, {"b": 6})
    assert buf.to_timeline() == {"t": [0.0, 0.1, 0.2], "series": {"a": [1, 2, None], "b": [None, 5, 6]}}
    assert buf.since(2) == {"t": [0.2], "series": {"a": [None], "b": [6]}}


def test_downsampling_keeps_every_bucket_peak():
    t = [i / 100 for i in range(1000)]
    values = [10] * 1000
    values[537] = 999  # a 10 ms spike
    out = downsample({"t": t, "series": {"rss": values}}, 50)
    assert len(out["t"]) == 50 and max(out["series"]["rss"]) == 999
    assert out["t"][0] == 0.0 and out["t"] == sorted(out["t"])


def test_downsampling_a_short_timeline_changes_nothing():
    tl = {"t": [0, 1], "series": {"x": [1, None]}}
    assert downsample(tl, 10) is tl
    assert downsample({"t": [0, 1, 2], "series": {"x": [None, None, None]}}, 2)["series"]["x"] == [None, None]


def test_merging_chunks_aligns_columns():
    a = {"t": [0, 1], "series": {"x": [1, 2]}}
    b = {"t": [2], "series": {"y": [7]}}
    assert merge_timelines([a, b]) == {"t": [0, 1, 2], "series": {"x": [1, 2, None], "y": [None, None, 7]}}


def test_window_keeps_rows_inside_the_bounds():
    tl = {"t": [0, 1, 2, 3], "series": {"x": [0, 1, 2, 3]}}
    assert window(tl, 1, 2) == {"t": [1, 2], "series": {"x": [1, 2]}}
    assert window(tl, None, 0) == {"t": [0], "series": {"x": [0]}}
