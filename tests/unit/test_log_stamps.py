"""A paste that stops inside the time stamp its lines begin with was cut when it was copied: no program writes part of
its stamp. Such a log shows no end of ComfyUI, only where the copy stopped (real logs from tests/fixtures/logs)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log
from memprobe.logs.reader import read_log
from memprobe.logs.stamps import Stamps


def _log(name: str) -> bytes:
    return (FIXTURES / "logs" / name).read_bytes()


@pytest.mark.parametrize(
    ("name", "tail"),
    [
        ("flux_repeated_runs_ffmpeg_thread_normal.log", "2025"),  # Comfy-Org/ComfyUI#8000: ComfyUI's own stamps
        ("nunchaku57_flux_reload_loading_warnings_console.log", "[20"),  # nunchaku-ai/ComfyUI-nunchaku#57: spdlog's
        ("ComfyUI6276_endeavouros_arc_ipexrun_sd3_could_not_create_engine.log", "2025-01-06 06:"),  # Python logging's
    ],
)
def test_a_paste_cut_inside_a_stamp_shows_no_end_of_comfyui(name, tail):
    raw = _log(name)
    assert raw.decode("utf-8").rstrip().endswith(tail)
    facts = read_log(raw)
    assert facts.copy_cut == facts.last_text
    # THEN nothing is said to have ended or failed; what may have come after is what the log cannot tell
    doc = explain_log(raw)
    assert doc["failure"] is None and doc["verdict"]["kind"] is None and not doc["verdict"]["failed"]
    assert any(
        f"after line {facts.copy_cut}: the paste stops inside that line's time stamp" in u for u in doc["unknown"]
    )


def test_a_whole_stamp_alone_is_no_cut_where_the_log_writes_such_lines():
    # SwarmUI's log of ComfyUI's stderr (mcmonkeyprojects/SwarmUI#152) holds lines that are its stamp alone, so one
    # at its end may be the last thing written: it stays a stop of unknown cause
    facts = read_log(_log("swarmui152_flux_schnell_ram_maxed_nofailure_console.log"))
    assert facts.copy_cut is None


def _cut(*lines: str) -> int | None:
    stamps = Stamps()
    for n, line in enumerate(lines, 1):
        stamps.line(n, line)
    return stamps.cut_at()


def test_the_stamp_is_read_from_the_lines_before_the_last():
    logged = ["2023-11-26 19:56:22,847 INFO Device: privateuseone"] * 3
    assert _cut(*logged, "2023-11-26 19:56:24,533 INFO ") == 4  # Python logging writes a record whole: a cut
    assert _cut(*logged, "2023-11-26 19:56:24,533 INFO Using sub quadratic optimization") is None
    assert _cut(*logged[:2], "2023-11-2") is None  # two stamped lines: too few to know the stamp
    comfy = ["2025-05-08T15:38:48.529837 - got prompt"] * 3
    assert _cut(*comfy, "2025-05-08T15:38:48.531812 - ") is None  # ComfyUI writes its stamp, then the line
    assert _cut(*comfy, "2025-05-08T15:3") == 4
    assert _cut(*comfy, "Prompt executed in 17.20 seconds") is None
    assert _cut("got prompt", "100%|██████████| 4/4", "[20") is None  # no stamps above it
