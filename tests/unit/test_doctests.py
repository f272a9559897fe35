"""The examples in the core's docstrings are run: a stale example fails here."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import memprobe

MODULES = sorted(m.name for m in pkgutil.walk_packages(memprobe.__path__, "memprobe."))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def examples(name: str) -> list[doctest.DocTest]:
    """The module's docstrings that hold examples (``doctest.testmod`` also runs every docstring without one, each
    with a debugger of its own: seconds per module where files are slow to look up, under Wine)."""
    module = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder(exclude_empty=True).find(module, name) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in examples(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_the_core_has_examples():
    assert sum(len(t.examples) for n in MODULES for t in examples(n)) >= 5
