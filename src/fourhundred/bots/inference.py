"""Reading the other hands from the cards they chose to play.

:func:`.sampling.sample_hands` deals the hidden cards consistently with the
counts, the voids shown and the bids. :class:`PlayInference` goes further:
it replays the hand so far on each sampled deal and asks, at every card
another seat played, whether the heuristic (our model of how players
choose) would have played it with the cards that deal gives that seat. A
deal on which the others' plays make sense is more likely than one on
which they would have been mistakes, so deals are drawn in small batches and
one is kept with probability proportional to its likelihood (sampling
importance resampling).

The model of a player: the heuristic's card (or a card touching it) with
probability ``1 - noise``, otherwise any legal card alike. Legal sets and
trick winners come from the engine (``state_from_view``, ``legal_mask``,
``play_unchecked``), never from here.

On the search's fast path (``fast=True``) the same deals are drawn by the
C loop (:func:`.sampling.fast_sample_hands`), the position when play began
is rebuilt once per decision and each deal set into it (``with_hands``),
and the likelihood is its C twin (:data:`.speedups.fast_likelihood`): the
same deal kept, from the same draws.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Final

from fourhundred.engine import (
    SHOWN_VOID,
    GameState,
    View,
    bid_value,
    next_seat,
    same_suit,
    state_from_view,
    with_hands,
)

from .heuristic import choose_card
from .knowledge import ABOVE, BELOW, Knowledge
from .sampling import fast_sample_hands, sample_hands
from .speedups import fast_likelihood

__all__ = ["NOISE", "PlayInference", "play_likelihood"]

NOISE: Final = 0.35
"""Share of plays the model lets a player make away from the heuristic's
choice (search bots and people deviate from it)."""
_BATCH: Final = 3
"""Deals drawn per deal kept."""


def _same_card(a: int, b: int, hand: int, gone: int, trick: list[int]) -> bool:
    """Whether ``a`` and ``b`` are the same card for a player holding
    ``hand``: equal, or touching (no card still in play between them)."""
    if a == b:
        return True
    if not same_suit(a, b):
        return False
    lo, hi = (a, b) if a < b else (b, a)
    between = ABOVE[lo] & BELOW[hi]
    in_play = ~gone | sum(1 << c for c in trick)
    return not between & in_play & ~hand


def play_likelihood(
    start: GameState, order: list[int], me: int, noise: float = NOISE, judge_from: int = 0
) -> float:
    """The chance, under the model of a player, of the others' plays
    ``order`` from ``start`` (the position when play began on one sampled
    deal); ``me``'s own plays, and the plays before index ``judge_from``,
    count for nothing. Advances ``start``."""
    st = start
    bids = list(st.bids)
    values = [0, 0, 0, 0]
    for s in range(4):
        b = bids[s]
        values[s] = 60 if b == 13 else (bid_value(st.settings, b, st.scores[s]) if b else 0)
    gone = 0
    voids = [0, 0, 0, 0]
    w = 1.0
    legal = st.legal_mask()
    for i, c in enumerate(order):
        seat = st.turn
        trick = st.current_trick
        if seat != me and i >= judge_from:
            n = legal.bit_count()
            if n > 1:
                hand = st.hand(seat)
                h = choose_card(
                    seat, hand, legal, trick, gone, voids, bids, st.tricks_won, values,
                    13 - st.n_tricks,
                )  # fmt: skip
                keep = (1.0 - noise) if _same_card(h, c, hand, gone, trick) else 0.0
                w *= keep + noise / n
        if trick:
            voids[seat] |= SHOWN_VOID[trick[0]][c]
        gone |= 1 << c
        legal = st.play_unchecked(c)
    return w


class PlayInference:
    """A sampler for the search (``sampler(k, rng)``, like ``sample_hands``)
    whose deals are weighted by how well the others' plays fit them."""

    def __init__(  # noqa: PLR0913 - the model's knobs, each a measured option of the expert
        self,
        view: View,
        batch: int = _BATCH,
        noise: float = NOISE,
        window: int | None = None,
        *,
        fast: bool = False,
        power: float | None = None,
    ) -> None:
        """``window``: judge only the plays of the last ``window`` tricks
        (the one in progress counts), for a cheaper likelihood; ``fast``:
        the search's fast path (the same deals, sooner); ``power``: instead
        of resampling, keep every deal drawn and give it the weight
        ``likelihood ** power`` (:attr:`last_weight`; the search then
        weighs its tally: below 1 the inference is tempered, so that fewer
        deals carry most of the weight)."""
        self.fast = fast
        self.power = power
        self.weighs = power is not None
        self.last_weight = 1.0
        self._sample = fast_sample_hands if fast else sample_hands
        self._template: GameState | None = None
        self.batch = batch
        self.noise = noise
        self.order: list[int] = [c for t in view.tricks for c in t.cards]
        self.judge_from = 0
        if window is not None:
            kept = view.tricks[-window:] if window > 0 else ()
            self.judge_from = len(self.order) - sum(len(t.cards) for t in kept)
        # The view as it stood when play began: no tricks, the seat's whole
        # hand (the engine rebuilds that position from a deal).
        mine = set(view.hand or ())
        if view.seat is not None:
            s = view.seat
            for t in view.tricks:
                for i, c in enumerate(t.cards):
                    if next_seat(t.leader, i) == s:
                        mine.add(c)
        self.start_view = dataclasses.replace(
            view, tricks=(), hand=tuple(sorted(mine)), tricks_won=(0, 0, 0, 0)
        )
        self.seat = -1 if view.seat is None else view.seat

    def likelihood(self, k: Knowledge, hands: list[int]) -> float:
        """How likely the others' plays so far are on the deal ``hands``."""
        whole = [hands[s] | k.played_by[s] for s in range(4)]
        if not self.fast:
            start = state_from_view(self.start_view, whole)
            return play_likelihood(start, self.order, self.seat, self.noise, self.judge_from)
        if self._template is None:
            self._template = state_from_view(self.start_view, whole)
            start = self._template.clone()
        else:
            start = with_hands(self._template, whole)
        if fast_likelihood is None:
            return play_likelihood(start, self.order, self.seat, self.noise, self.judge_from)
        return fast_likelihood(start, self.order, self.seat, self.noise, self.judge_from)

    def weighted(self, k: Knowledge, rng: random.Random, n: int) -> list[tuple[list[int], float]]:
        """``n`` deals with their likelihood weights (all 1.0 before the
        first card): an expectation over the inferred deals is their
        weighted mean (self-normalised importance sampling), with less
        noise than the mean over deals resampled one by one."""
        drawn = [self._sample(k, rng) for _ in range(n)]
        if not self.order:
            return [(h, 1.0) for h in drawn]
        return [(h, self.likelihood(k, h)) for h in drawn]

    def __call__(self, k: Knowledge, rng: random.Random) -> list[int]:
        if not self.order:
            return self._sample(k, rng)
        if self.power is not None:
            hands = self._sample(k, rng)
            self.last_weight = self.likelihood(k, hands) ** self.power
            return hands
        drawn = [self._sample(k, rng) for _ in range(self.batch)]
        weights = [self.likelihood(k, h) for h in drawn]
        total = sum(weights)
        if total <= 0.0:
            return drawn[0]
        r = rng.random() * total
        for h, w in zip(drawn, weights, strict=True):
            r -= w
            if r < 0:
                return h
        return drawn[-1]
