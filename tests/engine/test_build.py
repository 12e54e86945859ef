"""The C core is built wherever a C compiler is available (else the engine
silently runs about 5x slower on its fast path)."""

from __future__ import annotations

import os
import shutil
import sysconfig

import pytest

from fourhundred.engine import _core


def test_c_core_is_built_when_a_compiler_exists() -> None:
    if _core.PURE_PYTHON:
        pytest.skip("FOURHUNDRED_PURE_PYTHON is set: the pure-Python core was asked for")
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if not (shutil.which(cc) or shutil.which("cc") or shutil.which("gcc")):
        pytest.skip("no C compiler on this machine: the pure-Python core is expected")
    assert _core.COMPILED, (
        "a C compiler is available but fourhundred.engine._speedups is not built; "
        "reinstall with `.venv/bin/pip install -e .` and read the compiler's errors"
    )


def test_pure_python_switch_is_read_from_the_environment() -> None:
    expected = os.environ.get("FOURHUNDRED_PURE_PYTHON", "") not in ("", "0")
    assert expected == _core.PURE_PYTHON
