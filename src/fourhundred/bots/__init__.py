"""Players that see only their seat's view: random, heuristic and search,
and any external program that speaks the bot protocol."""

from __future__ import annotations

from .base import Bot, legal_actions
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot}
"""Built-in bots by name."""


def make_bot(name: str, *, seed: int | None = None, budget_ms: int | None = None) -> Bot:
    """A bot by name (``random``, ...). Raises ``ValueError`` naming the known ones."""
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    return cls(seed=seed, budget_ms=budget_ms)


__all__ = ["BOTS", "Bot", "RandomBot", "legal_actions", "make_bot"]
