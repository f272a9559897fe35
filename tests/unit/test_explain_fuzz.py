"""`memprobe explain` never crashes, whatever it is given: every real log cut at every kind of
place, binary junk, huge lines, NUL bytes, broken encodings. Random inputs come from fixed seeds,
so a failure here reproduces."""

from __future__ import annotations

import json
import random

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log
from memprobe.output.markdown import explain_md as render_report_md
from memprobe.output.text import explain_text as render_text
from memprobe.vocabulary import VERDICT_KINDS

LOGS = sorted((FIXTURES / "logs").glob("*.log")) + sorted((FIXTURES / "comfyui-0.3.64" / "logs").glob("*.log"))


def survives(data: str | bytes) -> dict:
    doc = explain_log(data)
    json.dumps(doc, allow_nan=False)
    render_text(doc)
    render_report_md(doc)
    assert doc["failure"] is None or doc["failure"]["kind"] in VERDICT_KINDS
    return doc


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_log_cut_anywhere(path):
    data = path.read_bytes()
    rng = random.Random(path.name)
    # its middle and a place of its own (some 23,000 cuts over the corpus, each fixed by the log's name), and its ends
    # where a first or last byte cut leaves half a character; each log whole is read by the corpus tests (at sixteen
    # cuts a log this test took half the suite's time, at seven two thirds of it)
    cuts = {len(data) // 2, rng.randrange(len(data))}
    if not (data[:4].isascii() and data[-4:].isascii()):
        cuts |= {1, len(data) - 1}
    for cut in sorted(cuts):
        survives(data[:cut])  # the paste that stops mid-line, mid-character, mid-traceback
        survives(data[cut:])  # the paste that starts there


@pytest.mark.parametrize("seed", range(20))
def test_binary_junk_and_mangled_logs(seed):
    rng = random.Random(seed)
    survives(rng.randbytes(rng.randrange(1, 200_000)))
    log = rng.choice(LOGS).read_bytes()
    mangled = bytearray(log)
    for _ in range(rng.randrange(1, 40)):  # flip, insert NULs, CRs, invalid UTF-8 and UTF-16 marks
        i = rng.randrange(len(mangled) or 1)
        mangled[i:i] = rng.choice([b"\0", b"\r", b"\xff\xfe", b"\xc3", b"\x1b[31m", b"\n\n", rng.randbytes(8)])
    survives(bytes(mangled))
    shuffled = log.splitlines(keepends=True)
    rng.shuffle(shuffled)
    survives(b"".join(shuffled))


def test_huge_lines_and_pathological_text():
    survives(b"x" * (20 * 1024**2))  # one 20 MB line, no newline
    survives("!!! Exception during processing !!! " + "Allocation on device " * 200_000)
    survives("Traceback (most recent call last):\n" + '  File "a.py", line 1, in f\n' * 50_000)
    survives("got prompt\n" * 100_000)
    survives("\r" * 100_000 + "\n" * 100_000)
    survives("".join(chr(c) for c in range(0x20, 0x3000)) * 3)
    survives(b"\xff\xfe" + "got prompt\n!!! Exception during processing !!! boom\n".encode("utf-16-le")[:-1])
    survives("- **Node Type:** \n- **Node ID:** \n# ComfyUI Error Report\n## Stack Trace\n## Logs\n")
    survives("Failed to validate prompt for output 9:\n* \n  - \nOutput will be ignored\n")


def test_nothing_recognisable_is_said_plainly():
    doc = survives(b"\x00\x01\x02 just some bytes \xff")
    assert doc["failure"] is None and doc["suggestions"] == [] and doc["log"]["lines"] == 1
