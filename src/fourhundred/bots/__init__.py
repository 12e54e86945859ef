"""Players that see only their seat's view: random, beginner, heuristic,
search and expert, and any external program that speaks the bot protocol (``cmd:COMMAND``)."""

from __future__ import annotations

from .base import Bot, legal_actions
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .levels import LEVELS, BeginnerBot, make_level
from .random_bot import RandomBot
from .search import SearchBot

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "expert": ExpertBot,
}
"""Built-in bots by name."""

CMD_PREFIX = "cmd:"


def make_bot(name: str, *, seed: int | None = None, budget_ms: int | None = None) -> Bot:
    """A bot by name (a key of :data:`BOTS`) or an external
    program as ``cmd:COMMAND LINE``. Raises ``ValueError`` naming the known
    ones."""
    if name.startswith(CMD_PREFIX):
        from .external import ExternalBot

        return ExternalBot(name[len(CMD_PREFIX) :], seed=seed, budget_ms=budget_ms)
    cls = BOTS.get(name)
    if cls is None:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"unknown bot {name!r} (known: {known}, or cmd:COMMAND LINE)")
    return cls(seed=seed, budget_ms=budget_ms)


__all__ = [
    "BOTS",
    "CMD_PREFIX",
    "LEVELS",
    "BeginnerBot",
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "legal_actions",
    "make_bot",
    "make_level",
]
