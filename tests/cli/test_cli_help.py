"""Every help screen reads whole in 80 columns: no line is longer, no word
(an environment variable, a default, a path) is cut or broken across
lines, every option that takes a value says its default, and no flag is
labelled ``<bool>``. The commands are found by walking the app, so a new
command is checked without a word here."""

from __future__ import annotations

import inspect

import pytest
import typer
from typer import _click
from typer.core import TyperArgument, TyperOption
from typer.testing import CliRunner

from fourhundred.bots.search import DEFAULT_BUDGET_MS
from fourhundred.cli import app
from fourhundred.cli.common import BOT_BUDGET_DEFAULT
from fourhundred.cli.help import HelpCommand, HelpGroup

NARROW = {"COLUMNS": "80", "TERMINAL_WIDTH": "80"}


def _walk(
    cmd: _click.Command, path: tuple[str, ...]
) -> list[tuple[tuple[str, ...], _click.Command]]:
    found = [(path, cmd)]
    for name, sub in getattr(cmd, "commands", {}).items():
        found += _walk(sub, (*path, name))
    return found


COMMANDS = _walk(typer.main.get_command(app), ())


def _help(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env=NARROW)
    assert result.exit_code == 0, result.output
    return result.output


def _words(text: str) -> list[str]:
    return text.split()


def test_every_command_is_walked() -> None:
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"", "play", "arena", "serve", "db", "db upgrade", "loadtest"} <= names
    assert len(COMMANDS) >= 12


@pytest.mark.parametrize(
    ("path", "cmd"), COMMANDS, ids=[" ".join(("fourhundred", *p)) for p, _ in COMMANDS]
)
def test_help_reads_whole_in_80_columns(path: tuple[str, ...], cmd: _click.Command) -> None:
    out = _help(path)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    assert "<bool>" not in out
    assert "…" not in out
    assert isinstance(cmd, HelpCommand | HelpGroup), "made without the 80-column help"
    tokens = set(_words(out))
    flat = " ".join(_words(out))
    ctx = cmd.make_context(" ".join(("fourhundred", *path)), [], resilient_parsing=True)
    texts = [inspect.cleandoc(cmd.help or "")]
    for param in cmd.get_params(ctx):
        assert isinstance(param, TyperOption | TyperArgument)
        texts.append(param.help or "")
        if isinstance(param, TyperOption) and not param.is_flag:
            tag = _default_tag(param)
            assert tag in flat, f"{param.opts[0]} does not show {tag!r}"
            texts.append(tag)
    for sub in getattr(cmd, "commands", {}).values():
        texts.append(inspect.cleandoc(sub.help or "").split("\n\n")[0])
    # Each word whole on a line: nothing cut, nothing broken at a hyphen or
    # inside a name such as $FOURHUNDRED_DATABASE_URL.
    broken = [w for text in texts for w in _words(text) if w not in tokens]
    assert broken == [], broken


def _default_tag(param: TyperOption) -> str:
    """What the help must show for an option that takes a value: its
    default, or in words what leaving it out means."""
    if isinstance(param.show_default, str):
        return f"[default: ({param.show_default})]"
    assert param.default is not None, f"{param.opts[0]}: say what leaving it out means"
    return f"[default: {param.default}]"


def test_the_budget_and_the_delay_show_their_defaults() -> None:
    out = " ".join(_words(_help(("play",))))
    assert (
        "--budget-ms INTEGER Bots' thinking time per decision, in ms."
        f" [default: ({BOT_BUDGET_DEFAULT})]" in out
    )
    assert (
        "--delay NUMBER Seconds to pause after each bot move. [default: (0.4 in a terminal" in out
    )


def test_the_shown_budget_is_the_bots_default() -> None:
    assert BOT_BUDGET_DEFAULT.startswith(f"{DEFAULT_BUDGET_MS} ")


def test_a_help_screen_with_long_names_keeps_them_whole() -> None:
    out = _help(("serve",))
    for name in (
        "$FOURHUNDRED_DATABASE_URL,",
        "$FOURHUNDRED_REDIS_PREFIX,",
        "[default: (one per CPU)]",
    ):
        assert any(name in line for line in out.splitlines()), name


def test_the_help_names_every_built_in_bot() -> None:
    """The bot arguments' help lists the bots there are (it is written out
    so that ``--help`` need not import them)."""
    from fourhundred.bots import BOTS
    from fourhundred.cli.bots import _BOT_CHOICES

    assert sorted(_BOT_CHOICES.split(", ")) == sorted(BOTS)
    out = CliRunner().invoke(app, ["arena", "--help"], env=NARROW).output
    for name in BOTS:
        assert name in out
