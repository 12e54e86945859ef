"""What several commands share: failing with one line, reading a JSON file
(a game record), and the rules preset and bot names given on the command line.

Nothing here imports more than the engine at module level, so that
``fourhundred --help`` stays quick.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from fourhundred.engine import Settings

__all__ = [
    "BOT_BUDGET_DEFAULT",
    "BotLog",
    "check_bot_name",
    "fail",
    "preset_or_exit",
    "read_json",
    "read_text",
]

BOT_BUDGET_DEFAULT = "500 for search, expert and cmd: bots"
"""What ``--budget-ms`` left out means (``bots.search.DEFAULT_BUDGET_MS``,
not imported here so that ``--help`` stays quick; a test checks they agree)."""

BotLog = Annotated[
    Path | None,
    typer.Option(
        "--bot-log",
        help="Append what cmd: bots write on standard error to this file.",
        show_default="not kept",
    ),
]
"""The ``--bot-log`` option of the commands that run external bots."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one line on standard error; the caller raises the result."""
    print(message, file=sys.stderr)
    return typer.Exit(code)


def read_text(path: str) -> str:
    """The text of the file ``path`` (``-``: standard input), or exit with
    the reason it cannot be read."""
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise fail(f"cannot read {path}: {reason}") from None


def read_json(path: str) -> Any:
    """The JSON of the file ``path`` (``-``: standard input), or exit with
    the reason it cannot be read."""
    text = read_text(path)
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise fail(f"{path} is not valid JSON ({e})") from None


def preset_or_exit(name: str) -> Settings:
    """The rules preset called ``name``, or exit with status 2 naming the choices."""
    from fourhundred.engine import InvalidSettings, preset

    try:
        return preset(name)
    except InvalidSettings as e:
        raise fail(f"{e}; pick one with --preset") from None


def check_bot_name(name: str) -> None:
    """Exit with status 2 unless ``name`` is a built-in bot or ``cmd:COMMAND``."""
    from fourhundred.bots import BOTS, CMD_PREFIX

    if name.startswith(CMD_PREFIX):
        command = name[len(CMD_PREFIX) :]
        if not command.strip():
            raise fail(f"{name!r}: write the command after cmd:, e.g. 'cmd:python3 mybot.py'")
        try:
            shlex.split(command)
        except ValueError as e:  # the bot is started without a shell, from these words
            raise fail(f"cannot read the command line {command!r}: {e}; check its quotes") from None
        return
    if name not in BOTS:
        known = ", ".join(sorted(BOTS))
        raise fail(f"unknown bot {name!r}: use one of {known}, or cmd:COMMAND LINE")
