"""The floor: uniformly random legal actions."""

from __future__ import annotations

import random

from fourhundred.engine import Action, View

from .base import Bot, legal_actions


class RandomBot(Bot):
    name = "random"

    def __init__(self, *, seed: int | None = None, budget_ms: int | None = None) -> None:
        super().__init__(seed=seed, budget_ms=budget_ms)
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self._rng.choice(legal_actions(view))
