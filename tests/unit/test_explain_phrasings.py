"""Held-out phrasings (``tests/fixtures/phrasings/cases.json``): how torch, ComfyUI, comfy-aimdo, the GPU stacks,
the libraries under them, the kernels, Windows, glibc's and Windows' translations, containers and platforms print a
memory or disk failure, what the frontend, the Desktop app and the launchers show of one in their languages, what custom
node packs print of their own, and the errors printed beside them that are not one. Two helpers that never ran nor read
Memory Probe rendered each from its program's own format string or message catalog, with its source; the reader
scored each set once before anything changed for it (the first 232/293, the original reader 163/293; the frontend's,
the Desktop app's and the launchers' texts in their languages 89/114, the original reader 41/114; custom node packs'
own messages 42/81, the original reader 30/81; docs/explain-accuracy.md).

Each reads as its collector labelled it — which memory ran out, the disk, or neither — or, where the fixture says
``reads``, as that says, for the reason it gives; a memory failure gets a first step; a near miss raises no alarm."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memprobe.logs.explain import explain_log

DOC = json.loads((Path(__file__).parents[1] / "fixtures" / "phrasings" / "cases.json").read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = DOC["cases"]
MEMORY = {"vram", "system-ram", "commit-limit", "cgroup-limit"}


def _short(kind: str | None) -> str | None:
    """What ran short (a memory, the disk) or ``None``: another error and no failure are both none."""
    return kind if kind in MEMORY | {"disk"} else None


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_phrasing_reads_as_its_source_means(case: dict[str, Any]) -> None:
    doc = explain_log(case["text"])
    kind = (doc["failure"] or {}).get("kind")
    expected = case["reads"] if "reads" in case else case["kind"]
    assert _short(kind) == _short(expected), case.get("why") or case["printed_by"]
    if expected in MEMORY:
        assert doc["suggestions"], "a memory failure gets a first step"
    if case.get("fallback"):  # a recovery ComfyUI (or the driver) took: no failure, but the fallback and what ran short
        assert doc["fallbacks"] and "ran short" in doc["no_failure"]


def test_the_set_is_the_held_out_one_with_its_deliberate_readings_explained() -> None:
    assert len(CASES) == 488 and len({c["id"] for c in CASES}) == 488
    assert sum(c["kind"] == "other" for c in CASES) == 145  # near misses, a quarter to a third of each helper's cases
    assert all(c["source"] and c["format"] for c in CASES)
    assert all(c["why"] for c in CASES if "reads" in c) and sum("reads" in c for c in CASES) == 55


NORMAL_SESSION = (
    Path(__file__).parents[1] / "fixtures" / "logs" / "1halfplusminus_fastai_comfy_2023_sdxl_normal_session.log"
)


@pytest.mark.parametrize(
    "line",
    [
        "[VHS] All 97 frames can fit in memory",  # the words of VideoHelperSuite's refusal, saying the opposite
        "Loading video frames within set memory limit of 8GB",
        "Disk check: minimum free space: 10 GB (ok)",  # half of the Desktop installer's refusal
        "[Monitor] host oom guard enabled",  # comfy-aimdo's native "Host OOM", in other words
        "INFO: not enough storage is available to cache previews, skipping",  # half of Windows' error 8
        "[QwenVL] Auto-switch to 8-bit due to VRAM pressure",  # a pack's recovery
    ],
)
def test_a_phrasings_words_in_a_line_that_reports_nothing_raise_no_alarm(line: str) -> None:
    lines = NORMAL_SESSION.read_text(encoding="utf-8").splitlines()
    assert explain_log("\n".join(lines))["failure"] is None
    assert explain_log("\n".join([*lines[: len(lines) // 2], line, *lines[len(lines) // 2 :]]))["failure"] is None
