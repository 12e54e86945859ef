"""Environment variables are read in one place, ``fourhundred.env``: no other
module of the package touches ``os.environ`` (or ``getenv``, or a click
``envvar``), except the engine's core switch, which may import nothing
outside the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fourhundred
from fourhundred import env

PACKAGE = Path(fourhundred.__file__).resolve().parent
ENV_MODULE = PACKAGE / "env.py"
READERS = frozenset({"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"})
CLICK_ENV = frozenset({"envvar", "auto_envvar_prefix"})

EXCEPTIONS = {
    "engine/_core.py": (
        "the engine imports nothing outside fourhundred.engine, so it reads its one"
        f" switch, ${env.PURE_PYTHON}, itself"
    ),
}
PENDING: dict[str, str] = {}
"""Modules allowed to read the environment until a change removes it (none now)."""
"""Readers in modules being rewritten elsewhere: each must still read the
environment (a stale entry fails), so the list only shrinks."""


def env_reads(path: Path) -> list[str]:
    """Each place ``path`` reads or changes the process environment."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in READERS:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found.extend(f"{node.lineno}: from os import {a.name}" for a in node.names)
        elif isinstance(node, ast.keyword) and node.arg in CLICK_ENV:
            found.append(f"{node.lineno}: {node.arg}=")
    return found


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p != ENV_MODULE)


def test_the_checker_finds_every_form(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import os\nimport os as o\nfrom os import getenv\n"
        "a = os.environ['A']\nb = o.getenv('B')\nc = os.environ.get('C')\n"
        "import typer\nd = typer.Option(envvar='D')\n",
        encoding="utf-8",
    )
    assert len(env_reads(probe)) == 5
    probe.write_text("import os\nn = os.cpu_count()\n", encoding="utf-8")
    assert env_reads(probe) == []


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_env_module_reads_the_environment(path: Path) -> None:
    name = path.relative_to(PACKAGE).as_posix()
    reads = env_reads(path)
    if name in EXCEPTIONS:
        text = path.read_text(encoding="utf-8")
        assert len(reads) == 1 and f'"{env.PURE_PYTHON}"' in text, reads
    elif name in PENDING:
        assert reads, f"{name} no longer reads the environment: remove it from PENDING"
    else:
        assert reads == [], f"{name} reads the environment ({reads}): use fourhundred.env"


def test_the_exceptions_name_real_modules() -> None:
    for name in (*EXCEPTIONS, *PENDING):
        assert (PACKAGE / name).is_file(), name


def test_the_env_module_imports_nothing_from_the_package() -> None:
    tree = ast.parse(ENV_MODULE.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("fourhundred")
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("fourhundred") for a in node.names)


_NAMES = frozenset(
    {
        "DATABASE_URL",
        "DATABASE_URL_FALLBACK",
        "DATA_DIR",
        "REDIS_URL",
        "REDIS_PREFIX",
        "LEASE_MS",
        "NODE",
        "TIMER_SCALE",
        "BOT_WORKERS",
        "PURE_PYTHON",
        "MALLOC_ARENA_MAX",
    }
)


def test_every_variable_is_named_in_the_module_doc() -> None:
    constants = {k for k, v in vars(env).items() if k.isupper() and isinstance(v, str)}
    assert constants == _NAMES
    assert env.__doc__ is not None
    for name in _NAMES:
        assert getattr(env, name) in env.__doc__, name


def test_unset_and_blank_are_none_and_bad_values_are_named() -> None:
    blank = dict.fromkeys((getattr(env, n) for n in _NAMES), "  ")
    assert env.database_url(blank) is None
    assert env.data_dir(blank) is None
    assert env.redis_url(blank) is None and env.redis_prefix(blank) is None
    assert env.node(blank) is None and env.lease_ms(blank) is None
    assert env.timer_scale(blank) == 1.0 and env.bot_workers(blank) is None
    assert not env.malloc_arenas_given(blank)
    assert env.data_dir({env.DATA_DIR: "/srv/fh"}) == Path("/srv/fh")
    for bad in ("x", "0", "-1"):
        with pytest.raises(env.BadEnvironment, match=env.TIMER_SCALE):
            env.timer_scale({env.TIMER_SCALE: bad})
    assert env.bot_workers({env.BOT_WORKERS: "many"}) is None


def test_the_process_environment_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(env.DATABASE_URL, raising=False)
    monkeypatch.setenv(env.DATABASE_URL_FALLBACK, "postgres://db/x")
    assert env.database_url() == "postgres://db/x"
    monkeypatch.setenv(env.DATABASE_URL, "sqlite:///a.db")
    assert env.database_url() == "sqlite:///a.db"
    monkeypatch.setenv(env.LEASE_MS, "1500")
    assert env.lease_ms() == 1500
