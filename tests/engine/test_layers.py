"""The engine is the bottom layer: it imports nothing from the layers above
it (bots, server, store, web, cli) and does no I/O, no asyncio, no clock."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import fourhundred.engine

ENGINE = Path(fourhundred.engine.__file__).resolve().parent
MODULES = sorted(ENGINE.glob("*.py"))

UPPER_LAYERS = (
    "fourhundred.bots",
    "fourhundred.server",
    "fourhundred.store",
    "fourhundred.web",
    "fourhundred.cli",
)
# Modules that would mean I/O, networking, concurrency or a clock.
FORBIDDEN_STDLIB = frozenset(
    {
        "asyncio",
        "socket",
        "socketserver",
        "ssl",
        "select",
        "selectors",
        "json",
        "pickle",
        "sqlite3",
        "dbm",
        "shelve",
        "time",
        "datetime",
        "zoneinfo",
        "threading",
        "multiprocessing",
        "concurrent",
        "subprocess",
        "http",
        "urllib",
        "email",
        "logging",
        "tempfile",
        "shutil",
        "pathlib",
        "io",
    }
)
FORBIDDEN_CALLS = frozenset({"open", "print", "input", "exec", "eval", "__import__", "breakpoint"})


def imported_names(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, relative imports resolved, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ["fourhundred", "engine"]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
                if not node.module:  # `from . import x`: x is a module too
                    out.extend((node.lineno, f"{module}.{a.name}") for a in node.names)
            else:
                module = node.module or ""
            out.append((node.lineno, module))
    return out


def is_upper_layer(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in UPPER_LAYERS)


def test_the_engine_has_modules_to_check() -> None:
    names = {p.name for p in MODULES}
    assert {"state.py", "view.py", "record.py", "settings.py", "__init__.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_engine_module_imports_only_downwards(path: Path) -> None:
    for line, module in imported_names(path):
        where = f"{path.name}:{line} imports {module}"
        assert not is_upper_layer(module), where
        assert module.split(".")[0] not in FORBIDDEN_STDLIB, where
        if module.startswith("fourhundred"):
            assert module.startswith("fourhundred.engine"), where


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_engine_module_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno}"


def test_the_checker_sees_relative_and_absolute_imports(tmp_path: Path) -> None:
    """The import parser itself resolves what a bad engine module would write."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from ..bots import make_bot\n"
        "from .. import server\n"
        "import fourhundred.cli\n"
        "from . import state\n"
        "import json, asyncio\n",
        encoding="utf-8",
    )
    found = [m for _, m in imported_names(bad)]
    assert "fourhundred.bots" in found
    assert "fourhundred.server" in found
    assert "fourhundred.cli" in found
    assert "fourhundred.engine.state" in found
    assert [m for m in found if is_upper_layer(m)] == [
        "fourhundred.bots",
        "fourhundred.server",
        "fourhundred.cli",
    ]
    assert {"json", "asyncio"} <= set(found)


PROBE = """
import sys
before = set(sys.modules)
import fourhundred.engine
s = fourhundred.engine.GameState(first_dealer=0)
s.deal_random(seed=1)
fourhundred.engine.view_for(s, 0).to_dict()
fourhundred.engine.replay(fourhundred.engine.record_from_state(s).to_dict())
for name in sorted(set(sys.modules) - before):
    sys.stdout.write(name + "\\n")
"""


def test_importing_the_engine_loads_nothing_above_it_or_io() -> None:
    env = dict(os.environ)
    env.pop("FOURHUNDRED_PURE_PYTHON", None)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True
    )
    loaded = proc.stdout.split()
    assert "fourhundred.engine.state" in loaded, "the probe did import the engine"
    bad = [
        m
        for m in loaded
        if is_upper_layer(m) or m.split(".")[0] in FORBIDDEN_STDLIB or m == "fourhundred.cli"
    ]
    assert bad == [], f"importing and using fourhundred.engine loaded {bad}"
