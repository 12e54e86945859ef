"""Levels for people: the bots a host picks when adding one to a table.

| level | bot | what it is |
|---|---|---|
| ``beginner`` | :class:`BeginnerBot` | the heuristic with human-like mistakes at stated rates |
| ``intermediate`` | the heuristic | fast rules that know 400 |
| ``expert`` | :class:`.expert.ExpertBot` | the strongest (search with inference, learned bids) |

``make_level(name, ...)`` makes one by name, like ``make_bot``; each level
carries the label to show on the seat.

>>> sorted(LEVELS)
['beginner', 'expert', 'intermediate']
>>> LEVELS["beginner"].label
'Beginner bot'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from fourhundred.engine import BID_BASE, Action, View, same_suit

from .base import Bot
from .heuristic import HeuristicBot

__all__ = [
    "BEGINNER_BID_MISTAKES",
    "BEGINNER_CARD_MISTAKES",
    "LEVELS",
    "BeginnerBot",
    "Level",
    "make_level",
]

BEGINNER_BID_MISTAKES: Final = 0.35
"""Share of a beginner's bids that overbid: one more than the heuristic's
bid (two more one time in four), when legal."""
BEGINNER_CARD_MISTAKES: Final = 0.35
"""Share of a beginner's card decisions (with a real choice) where it plays
another legal card than the heuristic's: a plausible one (of the suit the
heuristic chose when it can, else any), usually worse."""


class BeginnerBot(HeuristicBot):
    """The heuristic, but it sometimes overbids and sometimes plays a
    plausible but worse card, at the rates above (repeatable from ``seed``)."""

    name = "beginner"

    def __init__(
        self,
        *,
        seed: int | None = None,
        budget_ms: int | None = None,
        bid_mistakes: float = BEGINNER_BID_MISTAKES,
        card_mistakes: float = BEGINNER_CARD_MISTAKES,
    ) -> None:
        super().__init__(seed=seed, budget_ms=budget_ms)
        self._rng = random.Random(seed)
        self.bid_mistakes = bid_mistakes
        self.card_mistakes = card_mistakes

    def choose(self, view: View) -> Action:
        good = super().choose(view)
        legal = view.legal or ()
        if len(legal) < 2:
            return good
        if view.phase == "bid":
            if good < BID_BASE or self._rng.random() >= self.bid_mistakes:
                return good
            more = 2 if self._rng.random() < 0.25 else 1
            higher = [b for b in legal if good - BID_BASE < b <= good - BID_BASE + more]
            return BID_BASE + max(higher) if higher else good
        if self._rng.random() >= self.card_mistakes:
            return good
        alike = [c for c in legal if c != good and same_suit(c, good)]
        others = alike or [c for c in legal if c != good]
        return self._rng.choice(others)


@dataclass(frozen=True, slots=True)
class Level:
    """A level as a host sees it: its name, the label shown on the seat, a
    one-line description, and the built-in bot that plays it."""

    name: str
    label: str
    description: str
    bot: str


LEVELS: Final[dict[str, Level]] = {
    "beginner": Level(
        "beginner",
        "Beginner bot",
        f"overbids {BEGINNER_BID_MISTAKES:.0%} of the time and plays a weaker card "
        f"{BEGINNER_CARD_MISTAKES:.0%} of the time",
        "beginner",
    ),
    "intermediate": Level(
        "intermediate", "Intermediate bot", "plays by sound rules of thumb", "heuristic"
    ),
    "expert": Level(
        "expert", "Expert bot", "searches the possible deals and reads the play", "expert"
    ),
}
"""Levels by name."""


def make_level(name: str, *, seed: int | None = None, budget_ms: int | None = None) -> Bot:
    """The bot of level ``name``. Raises ``ValueError`` naming the levels."""
    from . import make_bot

    level = LEVELS.get(name)
    if level is None:
        raise ValueError(f"unknown level {name!r} (levels: {', '.join(LEVELS)})")
    return make_bot(level.bot, seed=seed, budget_ms=budget_ms)
