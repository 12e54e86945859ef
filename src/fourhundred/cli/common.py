"""What several commands share: failing with one line, and the rules preset
and bot names given on the command line.

Nothing here imports more than the engine at module level, so that
``fourhundred --help`` stays quick.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from fourhundred.engine import Settings

__all__ = ["BOT_BUDGET_DEFAULT", "check_bot_name", "fail", "preset_or_exit"]

BOT_BUDGET_DEFAULT = "500 for search, expert and cmd: bots"
"""What ``--budget-ms`` left out means (``bots.search.DEFAULT_BUDGET_MS``,
not imported here so that ``--help`` stays quick; a test checks they agree)."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one line on standard error; the caller raises the result."""
    print(message, file=sys.stderr)
    return typer.Exit(code)


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
        if not name[len(CMD_PREFIX) :].strip():
            raise fail(f"{name!r}: write the command after cmd:, e.g. 'cmd:python3 mybot.py'")
        return
    if name not in BOTS:
        known = ", ".join(sorted(BOTS))
        raise fail(f"unknown bot {name!r}: use one of {known}, or cmd:COMMAND LINE")
