"""Which bot a host's ``add_bot`` seats, and how a seat names its bot.

A host picks a **level** for people (``beginner``, ``intermediate``,
``expert``: :data:`fourhundred.bots.levels.LEVELS`); a bot's own name
(``random``, ``heuristic``...) is still accepted, as before levels. The
seat shows the level and its label, whichever way the bot came.

>>> bot_level("heuristic")
{'level': 'intermediate', 'label': 'Intermediate bot'}
>>> bot_level("random")
{'level': None, 'label': 'random'}
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

from fourhundred.bots.levels import LEVELS

from .errors import CommandError

__all__ = ["LEVEL_OF_BOT", "bot_level", "seat_bot"]

LEVEL_OF_BOT: Final = {level.bot: name for name, level in LEVELS.items()}
"""The level a built-in bot plays at (``heuristic``: ``intermediate``)."""


def bot_level(bot: str | None) -> dict[str, Any]:
    """A seat's ``level`` and ``label`` for the bot playing it (both None
    for no bot; a bot without a level shows its own name)."""
    if bot is None:
        return {"level": None, "label": None}
    level = LEVEL_OF_BOT.get(bot)
    return {"level": level, "label": bot if level is None else LEVELS[level].label}


def seat_bot(level: str | None, bot: str | None, default: str, bots: Collection[str]) -> str:
    """The bot ``add_bot`` seats: the level's, else the named bot, else the
    server's ``default``. ``CommandError`` (``not_allowed``) names the
    levels or bots for an unknown one, and refuses both at once."""
    if level is not None:
        if bot is not None:
            raise CommandError("not_allowed", "add_bot takes a `level` or a `bot`, not both")
        found = LEVELS.get(level)
        if found is None or found.bot not in bots:
            known = ", ".join(name for name, lv in LEVELS.items() if lv.bot in bots)
            raise CommandError("not_allowed", f"unknown level {level!r} (levels: {known})")
        return found.bot
    name = bot or default
    if name not in bots:
        raise CommandError(
            "not_allowed", f"unknown bot {name!r} (known: {', '.join(sorted(bots))})"
        )
    return name
