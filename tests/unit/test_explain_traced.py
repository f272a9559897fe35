"""A real ComfyUI 0.3.64 log is explained the way Memory Probe judged the traced run of the same
prompt: same memory kind, node class, stage and first suggestion. The logs and runs were recorded
together from a real ComfyUI (tests/fixtures/runs/SOURCES.md): the error_runtime workflow, and RAM
out-of-memory failures provoked with an address-space limit (loading a checkpoint, decoding)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, load_json

from memprobe.judging.advice import suggest
from memprobe.logs.explain import explain_log
from memprobe.privacy import scrub_text

LOGS = FIXTURES / "comfyui-0.3.64" / "logs"
PAIRS = [  # log, traced run, the first step each gives
    ("error_runtime.log", "runs/error_runtime.json", None, None),
    # a trace measured RAM nearly empty when the checkpoint could not be mapped (the failure was provoked
    # with an address-space cap): the process's own cap, not RAM, so no swap; a log cannot see that and
    # raises the limit the OS enforces first. Both offer the smaller model.
    ("load_oom_ram.log", "runs/load_oom_ram.json", "pagefile", "smaller-model"),
    ("decode_oom_ram.log", "runs/decode_oom_ram.json", "tiled-decode", "tiled-decode"),
]


def judgement(kind: str, class_type: str, stage: str) -> tuple:
    return kind, class_type, stage


@pytest.mark.parametrize("log, run, log_first, traced_first", PAIRS, ids=[p[0].removesuffix(".log") for p in PAIRS])
def test_the_log_is_judged_as_the_traced_run(log, run, log_first, traced_first):
    # GIVEN the ComfyUI log and Memory Probe's traced record of the same failed prompt
    traced = load_json(run)
    # WHEN the log alone is explained
    doc = explain_log((LOGS / log).read_bytes())
    # THEN the same memory, node class and stage
    failure = doc["failure"]
    assert judgement(failure["kind"], failure["node"]["class_type"], failure["stage"]) == judgement(
        traced["failure"]["kind"], traced["failure"]["class_type"], traced["failure"]["stage"]
    )
    # and the same first step, but where only the trace measured how full RAM was
    from_log = [s["id"] for s in doc["suggestions"]]
    from_trace = [s.id for s in suggest(traced)]
    assert from_log[:1] == ([log_first] if log_first else []) and from_trace[:1] == (
        [traced_first] if traced_first else []
    )
    assert traced_first is None or traced_first in from_log
    assert ("process-limit" in from_trace) == (traced["failure"]["kind"] == "system-ram")
    assert doc["failure"]["exception_type"] == traced["failure"]["exception_type"]
    assert doc["failure"]["message"].splitlines()[0] == scrub_text(traced["failure"]["message"].splitlines()[0])
    # what only the trace knows is named as unknown, not invented
    assert any("no peaks" in u for u in doc["unknown"]) and doc["failure"]["node"]["id"] is None


def test_the_recorded_runs_are_the_provoked_ram_failures():
    kinds = {run: load_json(run)["failure"]["kind"] for _, run, *_ in PAIRS}
    assert kinds == {
        "runs/error_runtime.json": "other",
        "runs/load_oom_ram.json": "system-ram",
        "runs/decode_oom_ram.json": "system-ram",
    }
