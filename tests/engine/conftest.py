"""Fixtures shared by the engine tests: the conformance vectors, a way to run
the ``fourhundred`` command as a user would, and the record the record tests
spoil. The helpers several test modules share (``fh_*.py``, beside this
file) are imported by name."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fh_records import Record, base_state

from fourhundred.engine import record_from_state

DATA = Path(__file__).resolve().parents[1] / "data"
VECTORS_FILE = DATA / "public-records.json.gz"


def load_vectors() -> list[dict[str, Any]]:
    """The 150 public conformance vectors (tests/data/public-records.json.gz)."""
    with gzip.open(VECTORS_FILE, "rt", encoding="utf-8") as f:
        vectors: list[dict[str, Any]] = json.load(f)
    return vectors


@pytest.fixture(scope="session")
def vectors() -> list[dict[str, Any]]:
    return load_vectors()


@pytest.fixture
def record() -> Record:
    """The record of ``fh_records.base_state()``: three hands, dealt by seats
    0, 1 and 2 (the record tests, ``test_record_*.py``)."""
    data = record_from_state(base_state()).to_dict()
    assert [h["dealer"] for h in data["hands"]] == [0, 1, 2]
    return data


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that asks for ``vector`` runs once per conformance vector."""
    if "vector" in metafunc.fixturenames:
        vs = load_vectors()
        metafunc.parametrize("vector", vs, ids=[v["name"] for v in vs])


def fourhundred_command() -> list[str]:
    """The installed console script beside this interpreter, else the module."""
    script = Path(sys.executable).with_name("fourhundred")
    if script.exists():
        return [str(script)]
    found = shutil.which("fourhundred")
    if found:
        return [found]
    return [sys.executable, "-m", "fourhundred.cli"]


RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def run_cli() -> RunCli:
    """Run ``fourhundred ARGS`` in a subprocess; returns the completed process."""

    def run(
        args: Sequence[str],
        *,
        stdin: str | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 120,
    ) -> subprocess.CompletedProcess[str]:
        full_env = dict(os.environ)
        full_env.pop("FOURHUNDRED_PURE_PYTHON", None)
        if env:
            full_env.update(env)
        return subprocess.run(
            [*fourhundred_command(), *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=full_env,
            timeout=timeout,
            check=False,
        )

    return run
