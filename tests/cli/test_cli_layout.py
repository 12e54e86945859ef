"""Every command lives in ``fourhundred.cli``; the layers below never import
it; ``fourhundred --help`` loads none of the heavy parts (server, database,
network clients, bots)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
import typer

import fourhundred
from fourhundred.cli import COMMAND_MODULES, app

PACKAGE = Path(fourhundred.__file__).resolve().parent
CLI = PACKAGE / "cli"
BELOW_CLI = ("engine", "bots", "server", "store")
COMMANDS = {
    "replay",
    "serve",
    "db",
    "arena",
    "analyse",
    "calibrate",
    "bot",
    "train",
    "play",
    "loadtest",
    "admin",
    "fairplay",
}


def imports_in(text: str, package: str) -> list[tuple[int, str]]:
    """Every module ``text`` imports, relative imports resolved as from
    ``package``, with its line."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                module = f"{base}.{module}" if module else base
                if not node.module:  # `from .. import cli`: cli is a module too
                    out.extend((node.lineno, f"{module}.{a.name}") for a in node.names)
            out.append((node.lineno, module))
    return out


def imports_of(path: Path) -> list[tuple[int, str]]:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = ".".join(parts if path.name == "__init__.py" else parts[:-1])
    return imports_in(path.read_text(encoding="utf-8"), package)


def below_cli() -> list[Path]:
    return sorted(p for layer in BELOW_CLI for p in (PACKAGE / layer).rglob("*.py"))


def test_the_import_parser_resolves_relative_imports() -> None:
    text = "from ..cli import app\nfrom .. import cli\nimport fourhundred.cli.play\n"
    found = [m for _, m in imports_in(text, "fourhundred.bots")]
    assert found.count("fourhundred.cli") == 2
    assert "fourhundred.cli.play" in found
    own = [m for _, m in imports_of(PACKAGE / "bots" / "__init__.py")]
    assert any(m.startswith("fourhundred.bots.") for m in own), own


@pytest.mark.parametrize("path", below_cli(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_layer_below_the_cli_imports_it(path: Path) -> None:
    for line, module in imports_of(path):
        assert not (module == "fourhundred.cli" or module.startswith("fourhundred.cli.")), (
            f"{path.relative_to(PACKAGE)}:{line} imports {module}"
        )


def test_typer_commands_live_only_in_the_cli_package() -> None:
    outside = [
        str(p.relative_to(PACKAGE))
        for p in sorted(PACKAGE.rglob("*.py"))
        if CLI not in p.parents and any(m == "typer" for _, m in imports_of(p))
    ]
    assert outside == []


def test_every_command_is_registered_from_its_module() -> None:
    command = typer.main.get_command(app)
    names = set(command.commands)  # type: ignore[attr-defined]
    assert names == COMMANDS
    assert all(m.startswith("fourhundred.cli.") for m in COMMAND_MODULES)
    assert {Path(m.replace(".", "/")).name for m in COMMAND_MODULES} == {
        "records",
        "server",
        "bots",
        "play",
        "loadtest",
        "admin",
        "fairplay",
    }


HELP_PROBE = """
import sys
from typer.testing import CliRunner
from fourhundred.cli import app
result = CliRunner().invoke(app, ["--help"])
assert result.exit_code == 0, result.output
sys.stdout.write("\\n".join(sorted(sys.modules)))
"""
HEAVY = (
    "asyncio",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "redis",
    "httpx",
    "websockets",
    "msgspec",
    "fourhundred.store",
    "fourhundred.bots",
)
LIGHT = frozenset({"fourhundred.server", "fourhundred.server.config"})
"""All of the server that the help may load: the config, for the defaults."""


def test_help_loads_nothing_heavy() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", HELP_PROBE], capture_output=True, text=True, check=True
    )
    loaded = proc.stdout.split()
    assert "fourhundred.cli.server" in loaded, "the probe did load the commands"
    heavy = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    heavy += [m for m in loaded if m.startswith("fourhundred.server") and m not in LIGHT]
    assert heavy == [], f"`fourhundred --help` loaded {heavy}"
