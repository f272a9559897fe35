"""The examples in the core's docstrings are run: a stale example fails here."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import memprobe

MODULES = sorted(m.name for m in pkgutil.walk_packages(memprobe.__path__, "memprobe."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"


def test_the_core_has_examples():
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert attempted >= 5
