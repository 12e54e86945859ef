"""The examples in the bots' docstrings run (src is not collected by pytest)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "fourhundred.bots.knowledge",
    "fourhundred.bots.heuristic",
    "fourhundred.bots.sampling",
    "fourhundred.bots.solver",
    "fourhundred.bots.protocol",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
