"""The sampler thread: fast during a run, slow when idle, never dies, stops cleanly."""

from __future__ import annotations

import threading
import time

from memprobe._log import reset_warnings
from memprobe.recording.tracker import Tracker
from memprobe.sensing.sampler import Sampler
from memprobe.sensing.sensors import Sensors


def wait_for(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_fast_during_a_run_and_rows_reach_the_run():
    sensors = Sensors()
    tracker = Tracker(sensors)
    sampler = Sampler(sensors, tracker, active_hz=100, idle_hz=1)
    sampler.start()
    try:
        tracker.begin_run("r")  # wakes the sampler at once
        time.sleep(0.5)
        run = tracker.end_run("r", "success")
    finally:
        sampler.stop()
    assert 25 <= len(run.samples) <= 60, len(run.samples)
    assert "process_rss_bytes" in run.samples.series and "ram_total_bytes" not in run.samples.series
    assert not sampler.running


def test_idle_readings_are_kept_for_the_panel_between_runs():
    sensors = Sensors()
    sampler = Sampler(sensors, Tracker(sensors), idle_hz=20)
    sampler.start()
    try:
        assert wait_for(lambda: len(sampler.idle) >= 3)
    finally:
        sampler.stop()
    wall, metrics = sampler.idle[-1]
    assert wall > 1e9 and metrics["process_rss_bytes"] > 0


def test_the_sampler_survives_a_failing_sensor(caplog):
    reset_warnings()
    sensors = Sensors()
    calls = {"n": 0}
    real = sensors.sample

    def flaky():
        calls["n"] += 1
        if calls["n"] % 2:
            raise RuntimeError("driver hiccup")
        return real()

    sensors.sample = flaky  # type: ignore[method-assign]
    sampler = Sampler(sensors, Tracker(sensors), idle_hz=50)
    sampler.start()
    try:
        assert wait_for(lambda: calls["n"] >= 10)
        assert sampler.running and len(sampler.idle) >= 3
    finally:
        sampler.stop()
    assert sum("sampler reading failed" in r.message for r in caplog.records) == 1


def test_stop_is_prompt_even_at_the_idle_rate():
    sensors = Sensors()
    sampler = Sampler(sensors, Tracker(sensors), idle_hz=0.1)
    sampler.start()
    started = time.monotonic()
    sampler.stop()
    assert time.monotonic() - started < 1.0
    assert not [t for t in threading.enumerate() if t.name == "memprobe-sampler"]


def test_the_rate_is_chosen_by_the_device_unless_one_is_set():
    sensors = Sensors()
    tracker = Tracker(sensors)
    sampler = Sampler(sensors, tracker)
    tracker.compute_device = "cpu"  # torch keeps every core busy: the timeline's 10 Hz, no more
    assert sampler.active_hz == 10 and sampler.status()["rate"] == "auto"
    tracker.compute_device = "cuda"  # cores mostly free, and NVML keeps no peak of device memory
    assert sampler.active_hz == 20
    sampler.set_rate(35)
    assert sampler.active_hz == 35 and sampler.status()["rate"] == "fixed"
    sampler.set_rate(0)
    assert sampler.active_hz == 20


def test_its_own_cpu_time_is_counted_and_a_run_wakes_it_at_once():
    sensors = Sensors()
    tracker = Tracker(sensors)
    sampler = Sampler(sensors, tracker, active_hz=50, idle_hz=0.2)
    sampler.start()
    try:
        assert wait_for(lambda: sampler.ticks >= 1)
        tracker.begin_run("r")  # idle rate: the next tick would be 5 s away
        assert wait_for(lambda: len(tracker.current.samples) >= 3, timeout=1.0)
        if hasattr(time, "pthread_getcpuclockid"):  # read from outside the thread, to the nanosecond
            assert sampler.cpu_s > 0
        tracker.end_run("r", "success")
    finally:
        sampler.stop()
    stopped = sampler.cpu_s  # Windows counts thread time in 15.6 ms steps: a few ticks can read 0
    assert stopped >= 0 and sampler.cpu_s == stopped  # kept once the thread has ended
