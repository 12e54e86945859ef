"""The bots' docstrings hold examples, and pytest runs every example in
``src`` (``testpaths`` and ``--doctest-modules``; ``src/conftest.py`` leaves
out the modules that must not be imported)."""

from __future__ import annotations

import doctest
import importlib
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = [
    "fourhundred.bots.knowledge",
    "fourhundred.bots.heuristic",
    "fourhundred.bots.heuristic_bidding",
    "fourhundred.bots.sampling",
    "fourhundred.bots.solver",
    "fourhundred.bots.tally",
    "fourhundred.bots.protocol",
    "fourhundred.bots.fairplay.evidence",
    "fourhundred.bots.fairplay.reports",
    "fourhundred.bots.fairplay.measure",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_module_has_examples(name: str) -> None:
    found = doctest.DocTestFinder().find(importlib.import_module(name))
    assert sum(len(t.examples) for t in found) > 0


def test_pytest_collects_the_examples_in_src() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        options = tomllib.load(f)["tool"]["pytest"]["ini_options"]
    assert "src" in options["testpaths"]
    assert "--doctest-modules" in options["addopts"].split()
