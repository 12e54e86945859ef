"""How far one process of a search goes (:class:`Limits`, pickled to the
worker processes) and the machinery it asks for: the rollout and the
rebuilt state of each sampled deal, on the fast path or not."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from fourhundred.engine import GameState, View, state_from_view, with_hands

from .knowledge import Knowledge
from .rollout import fast_rollout, rollout
from .sampling import fast_sample_hands, sample_hands
from .speedups import Roll

__all__ = ["Limits", "Sampler"]

Sampler = Callable[[Knowledge, random.Random], list[int]]
"""Deals the hidden cards of a view: ``sampler(knowledge, rng)`` gives every
seat's unplayed cards."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How far one process searches: until ``deadline`` (a
    ``time.monotonic()`` value) or ``max_deals`` deals, solving exactly from
    ``exact`` tricks left, the hidden cards dealt by ``sampler`` (default
    :func:`.sampling.sample_hands`), the bids valued ``bids`` (default: those
    near the heuristic's). Pickled to the workers."""

    deadline: float = float("inf")
    max_deals: int = 1_000_000
    exact: int = 3
    sampler: Sampler | None = None
    bids: tuple[int, ...] | None = None
    keep: int | None = None
    """A card the choice is measured against (the heuristic's): any other
    that falls clearly behind it, or behind the card with the best mean so
    far, stops being played out (``PRUNE_Z``)."""
    fast: bool = False
    """The fast path (the same deals and cards, sooner): deal and roll out
    in C where it is built, set each deal into one state rebuilt from the
    view instead of rebuilding it (``with_hands``), and play the cards out
    on lean copies (``GameState.clone(lean=True)``: the hand's end settles
    the scores only)."""

    seen: int = 0
    """How much the rollouts' seats see of the deal (:func:`.rollout.rollout`'s
    ``seen``: 0 what was shown, 1 the true voids, 2 the cards too, 3 also
    for which cards are the top ones left, 4 as 2 with leads into the
    partner's sure winners)."""

    def dealer(self) -> Sampler:
        """The sampler of the hidden cards these limits ask for."""
        if self.sampler is not None:
            return self.sampler
        return fast_sample_hands if self.fast else sample_hands

    def roller(self) -> Roll:
        """The rollout these limits ask for."""
        roll = fast_rollout if self.fast and fast_rollout is not None else rollout
        if not self.seen:
            return roll
        level = self.seen

        def seen(state: GameState, gone: int, voids: list[int], _: int = level, /) -> None:
            roll(state, gone, voids, level)

        return seen

    def builder(self, view: View) -> Callable[[list[int]], GameState]:
        """The state of ``view`` with a sampled deal's hands."""
        if not self.fast:
            return lambda hands: state_from_view(view, hands)
        template: list[GameState] = []

        def build(hands: list[int]) -> GameState:
            if not template:
                template.append(state_from_view(view, hands))
                return template[0]
            return with_hands(template[0], hands)

        return build
