"""A logger's or a launcher's prefix no table knows, taken off every line: learned from the first lines a log's
lines share (behind a quote or a container's prefix, too), and from no corpus log but the few that carry one
(test_log_prefixes_corpus.py). The other ways a paste is changed (indented, spaced, numbered) are in
test_log_shapes.py; a wrap at a console's width in test_log_wraps.py."""

from __future__ import annotations

import pytest
from helpers import FIXTURES
from helpers import log_text as text

from memprobe.logs.explain import explain_log
from memprobe.logs.text import learned_prefix


@pytest.mark.parametrize(
    "prefix",
    ["2025/01/02 10:11:12 ", "10:11:12 ", "INFO: ", "[12345] ", "12/02/2025 10:11:12 PM | ", "[worker-3] "],
)
@pytest.mark.parametrize(
    "name",
    [
        "vhs_136_loadvideo_1080p_defaultcpuallocator_65gb.log",  # a traceback, its exception line at the start
        "cuda_report_checkpointloader_portable.log",  # a report: its "- **Node Type:**" lines keep their dash
        "comfyui6435_hyvideotextencoder_report_in_title_oneline.log",  # a report on one line, its title behind them
        "other_validation_missing_models_root_format.log",  # a refused prompt, its node lines
    ],
)
def test_a_loggers_prefix_no_table_knows_is_learned_from_the_first_lines(prefix, name):
    """A launcher or a logger nobody here has met puts its own stamp, level or id before each line: the shape
    its first lines share (digits and level words aside) is taken off every line, and the log reads as it is."""
    raw = text(name)
    plain = explain_log(raw)["failure"]
    stamped = explain_log("\n".join(prefix + line for line in raw.splitlines()))["failure"]
    assert (stamped["kind"], stamped["node"]["class_type"], stamped["message"]) == (
        plain["kind"],
        plain["node"]["class_type"],
        plain["message"],
    )


def test_no_prefix_is_learned_where_the_lines_do_not_share_one():
    # a prefix with letters of its own is learned as written ("L" and "9" stand for nothing)
    strip = learned_prefix(["[L12] got prompt", "[L13] Requested to load SDXL", "[L14] loaded completely"])
    assert strip is not None and strip("[L99] Prompt executed in 1.2 seconds") == "Prompt executed in 1.2 seconds"
    # a log of one or two lines, each with a stamp or a level and its separator, loses it
    for prefix in ("2025/01/02 10:11:12 ", "INFO: ", "[12345] "):
        one = prefix + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
        assert (strip := learned_prefix([one])) is not None and strip(one).startswith("torch.OutOfMemoryError")
    # a one-liner's own first words are no prefix: a lower-case "error", a process id before its shell's message
    assert learned_prefix(["error occurred when executing vhs_videocombine: unable to allocate 10.0 gib"]) is None
    assert learned_prefix(["3654441 Segmentation fault"]) is None
    # numbers that begin some lines of a log are not a prefix: a few, or under half of the lines
    assert (
        learned_prefix(["0.0 seconds: a", "got prompt", "Requested to load X", "12 frames", "Prompt executed"]) is None
    )


def test_a_wrappers_prefix_is_learned_behind_a_quote_or_a_containers_prefix():
    # GIVEN SwarmUI's "ComfyUI error: " before each line of ComfyUI's traceback (Comfy-Org/ComfyUI#1474), quoted in a
    # reply with "> " before each line, or SwarmUI run by docker compose ("swarmui-1  | " before each line)
    text = (FIXTURES / "logs" / "ComfyUI1474_swarmui_colab_backend_no_torch_console.log").read_text(encoding="utf-8")
    quoted = "\n".join("> " + line for line in text.splitlines())
    composed = "\n".join("swarmui-1  | " + line for line in text.splitlines())
    # THEN the prefix is learned after the quote or the container's, and the traceback's error is the failure
    for paste in (text, quoted, composed):
        failure = explain_log(paste)["failure"]
        assert (failure["kind"], failure["exception_type"]) == ("other", "ModuleNotFoundError"), paste[:40]
