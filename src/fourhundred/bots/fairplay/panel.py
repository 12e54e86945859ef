"""The honest panel: the players the detector must leave alone.

Every built-in level (``beginner``, ``intermediate``, ``expert``; the
expert with a fixed number of deals, in one process, so that a bench run
is affordable and repeatable) and a noisy human-like player: the
heuristic, with plausible slips at stated rates.
"""

from __future__ import annotations

import random
from typing import Final

from fourhundred.engine import BID_BASE, TIMEOUT_ORDER, Action, View, same_suit

from ..base import Bot
from ..expert import ExpertBot
from ..heuristic import HeuristicBot
from ..levels import BeginnerBot

__all__ = ["EXPERT_DEALS", "HONEST", "NoisyBot", "make_honest"]

HONEST: Final = ("beginner", "intermediate", "expert", "noisy")
EXPERT_DEALS: Final = 16
"""Deals per decision of the panel's expert."""


class NoisyBot(HeuristicBot):
    """A human-like player: the heuristic, but a share ``slips`` of its
    card choices is another card of the same suit (a misjudged rank), a
    share ``hurries`` the card a timeout would play (its lowest), and a share
    ``bid_noise`` of its bids is one off, either way, when legal."""

    name = "noisy"

    def __init__(
        self,
        *,
        seed: int | None = None,
        slips: float = 0.12,
        hurries: float = 0.05,
        bid_noise: float = 0.2,
    ) -> None:
        super().__init__(seed=seed)
        self._rng = random.Random(seed)
        self.slips = slips
        self.hurries = hurries
        self.bid_noise = bid_noise

    def choose(self, view: View) -> Action:
        good = super().choose(view)
        legal = view.legal or ()
        if len(legal) < 2:
            return good
        r = self._rng.random()
        if view.phase == "bid":
            if good < BID_BASE or r >= self.bid_noise:
                return good
            near = [b for b in legal if abs(b - (good - BID_BASE)) == 1]
            return BID_BASE + self._rng.choice(near) if near else good
        if r < self.hurries:
            return min(legal, key=TIMEOUT_ORDER.index)  # what a timeout plays
        if r < self.hurries + self.slips:
            alike = [c for c in legal if c != good and same_suit(c, good)]
            if alike:
                return self._rng.choice(alike)
        return good


def make_honest(name: str, seed: int) -> Bot:
    """An honest player of the panel by name (:data:`HONEST`)."""
    if name == "beginner":
        return BeginnerBot(seed=seed)
    if name == "intermediate":
        return HeuristicBot(seed=seed)
    if name == "expert":
        return ExpertBot(seed=seed, iterations=EXPERT_DEALS, workers=1)
    if name == "noisy":
        return NoisyBot(seed=seed)
    raise ValueError(f"unknown honest player {name!r} (known: {', '.join(HONEST)})")
