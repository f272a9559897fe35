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
PAIRS = [
    ("error_runtime.log", "runs/error_runtime.json"),
    ("load_oom_ram.log", "runs/load_oom_ram.json"),
    ("decode_oom_ram.log", "runs/decode_oom_ram.json"),
]


def traced_judgement(run: dict) -> tuple:
    failure = run["failure"]
    first = suggest(run)
    return failure["kind"], failure["class_type"], failure["stage"], first[0].id if first else None


def log_judgement(doc: dict) -> tuple:
    failure = doc["failure"]
    return (
        failure["kind"],
        failure["node"]["class_type"],
        failure["stage"],
        doc["suggestions"][0]["id"] if doc["suggestions"] else None,
    )


@pytest.mark.parametrize("log, run", PAIRS, ids=[p[0].removesuffix(".log") for p in PAIRS])
def test_the_log_is_judged_as_the_traced_run(log, run):
    # GIVEN the ComfyUI log and Memory Probe's traced record of the same failed prompt
    traced = load_json(run)
    # WHEN the log alone is explained
    doc = explain_log((LOGS / log).read_bytes())
    # THEN the judgement is the same
    assert log_judgement(doc) == traced_judgement(traced)
    assert doc["failure"]["exception_type"] == traced["failure"]["exception_type"]
    assert doc["failure"]["message"].splitlines()[0] == scrub_text(traced["failure"]["message"].splitlines()[0])
    # what only the trace knows is named as unknown, not invented
    assert any("no peaks" in u for u in doc["unknown"]) and doc["failure"]["node"]["id"] is None


def test_the_recorded_runs_are_the_provoked_ram_failures():
    kinds = {run: load_json(run)["failure"]["kind"] for _, run in PAIRS}
    assert kinds == {
        "runs/error_runtime.json": "other",
        "runs/load_oom_ram.json": "system-ram",
        "runs/decode_oom_ram.json": "system-ram",
    }
