"""The corpus' real logs (tests/fixtures/logs) and the prefixes learned from them: every prefix they carry is in the
table, and none is learned but from the few whose lines share one no table knows. The rule itself is in
test_log_prefixes.py."""

from __future__ import annotations

from helpers import FIXTURES

from memprobe.logs.text import iter_lines, learned_prefix

LOGS = FIXTURES / "logs"
RECORD = {
    line.split("  #")[0]
    for line in (FIXTURES / "learned_prefixes.txt").read_text(encoding="utf-8").splitlines()
    if line[:1] not in "#"
}
"""The corpus logs a prefix is learned from, one name per line (a note after it; a "#" line notes the rounds that added
those below)."""


def test_no_prefix_is_learned_from_a_corpus_log_but_the_few_that_carry_one():
    # every real log of the corpus: the prefixes they carry are all in the table, and no other is taken off but
    # StableSwarmUI's "ComfyUI error: " before each line of its backend's stderr (Stability-AI/StableSwarmUI#153)
    learned = set()
    for path in sorted(LOGS.glob("*.log")):
        head = [line for line, _ in zip(iter_lines(path.read_bytes()), range(40), strict=False)]
        if learned_prefix(line for line, _ in head) is not None:
            learned.add(path.name)
    assert learned == RECORD, (sorted(learned - RECORD), sorted(RECORD - learned))
