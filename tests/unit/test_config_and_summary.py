"""Server-side settings and the probe's on-canvas text."""

from __future__ import annotations

import pytest

from memprobe.config import Config, ConfigError, load_config, save_config
from memprobe.format import probe_summary
from memprobe.sensing.snapshot import GpuMemory, Snapshot, SystemMemory

GIB = 1024**3


def test_settings_are_validated_with_a_clear_message():
    config = Config().updated({"sample_hz": 20, "tracing": False, "retention_runs": 50, "exact_rss_peaks": False})
    assert (config.sample_hz, config.tracing, config.retention_runs, config.exact_rss_peaks) == (20.0, False, 50, False)
    assert Config().sample_hz == 0.0 and config.updated({"sample_hz": 0}).sample_hz == 0.0  # 0: automatic
    for bad, message in [
        ({"sample_hz": 0.5}, r"between 1 and 200 \(0: automatic\)"),
        ({"sample_hz": "fast"}, "must be a number"),
        ({"exact_rss_peaks": 1}, "true or false"),
        ({"tracing": "yes"}, "true or false"),
        ({"colour": 1}, "unknown setting"),
        ({"retention_runs": True}, "must be a number"),
        ([], "JSON object"),
    ]:
        with pytest.raises(ConfigError, match=message):
            Config().updated(bad)


def test_settings_survive_a_restart_and_a_broken_file_falls_back_to_defaults(tmp_path, caplog):
    path = tmp_path / "memprobe" / "config.json"
    save_config(path, Config(sample_hz=10.0))
    assert load_config(path).sample_hz == 10.0
    path.write_text("{not json")
    assert load_config(path) == Config()
    assert path.read_text() == "{not json"  # left for the user to look at
    assert load_config(tmp_path / "missing.json") == Config()


def test_probe_summary_lists_each_gpu_then_ram_then_commit():
    snap = Snapshot(
        0,
        0,
        gpus=(
            GpuMemory(
                0, "cuda", "RTX 3060", device_used_bytes=6 * GIB, device_total_bytes=12 * GIB, shared_used_bytes=GIB
            ),
        ),
        system=SystemMemory(
            ram_total_bytes=32 * GIB, ram_available_bytes=16 * GIB, commit_bytes=20 * GIB, commit_limit_bytes=40 * GIB
        ),
    )
    assert probe_summary(snap).splitlines() == [
        "GPU0 RTX 3060: VRAM 6.0 GiB / 12.0 GiB (50%), shared 1.0 GiB",
        "RAM 16.0 GiB / 32.0 GiB (50%)",
        "Commit 20.0 GiB / 40.0 GiB (50%)",
    ]
