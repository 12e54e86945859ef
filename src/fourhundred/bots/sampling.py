"""Deals consistent with what one seat knows (determinizations).

The hidden cards (everyone else's unplayed cards) are dealt at random to the
other seats so that each gets exactly the number of cards it still holds and
no seat gets a suit it has shown out of. Deals are then accepted with a
probability that measures how well each earlier bidder's whole hand (the
sampled cards plus what it has played) fits its bid, so bidders who bid
high tend to get the strong hands.

>>> import random
>>> from fourhundred.engine import GameState, view_for
>>> s = GameState(first_dealer=0)
>>> s.deal_random(seed=3)
>>> k = Knowledge.from_view(view_for(s, 1))
>>> hands = sample_hands(k, random.Random(1))
>>> [h.bit_count() for h in hands], hands[1] == k.hand
([13, 13, 13, 13], True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from fourhundred.engine import cards_of, lowest_bid

from .heuristic import estimate_tricks
from .knowledge import SUIT_MASKS, Knowledge
from .speedups import DrawArgs, fast_draw

__all__ = ["bid_likelihood", "draw_args", "fast_sample_hands", "sample_hands"]

_TRIES: Final = 12
"""Deals drawn per accepted sample at most (the best-fitting one is kept)."""


def bid_likelihood(k: Knowledge, seat: int, whole_hand: int) -> float:
    """How well a 13-card hand fits the bid ``seat`` made, in (0, 1]."""
    b = k.bids[seat]
    if not b or b == 13:
        return 1.0
    e = estimate_tricks(whole_hand) * 1.05 + 0.2
    low = lowest_bid(k.settings, k.scores[seat])
    if b <= low:
        # The lowest bid says only "not much more than this".
        over = e - (b + 1.2)
        return 1.0 if over <= 0 else math.exp(-0.5 * over * over)
    d = e - (b + 0.4)
    return math.exp(-0.5 * d * d / 1.3)


def _deal_once(k: Knowledge, rng: random.Random, others: tuple[int, ...]) -> list[int] | None:
    hands = [0, 0, 0, 0]
    hands[k.seat] = k.hand
    cap = {s: k.left(s) for s in others}
    by_suit: list[list[int]] = []
    for suit in range(4):
        m = k.unknown & SUIT_MASKS[suit]
        cards = []
        while m:
            low = m & -m
            cards.append(low.bit_length() - 1)
            m ^= low
        by_suit.append(cards)
    elig = [[s for s in others if not k.voids[s] & SUIT_MASKS[suit]] for suit in range(4)]
    # The most constrained suits first, so a seat's few open slots are not
    # used up before the cards only it can take are dealt.
    order = sorted(range(4), key=lambda su: len(elig[su]))
    for suit in order:
        cards = by_suit[suit]
        rng.shuffle(cards)
        seats = elig[suit]
        for c in cards:
            total = 0
            for s in seats:
                total += cap[s]
            if total == 0:
                return None
            r = rng.random() * total
            for s in seats:
                r -= cap[s]
                if r < 0 and cap[s]:
                    hands[s] |= 1 << c
                    cap[s] -= 1
                    break
            else:
                s = next(x for x in reversed(seats) if cap[x])
                hands[s] |= 1 << c
                cap[s] -= 1
    return hands


@dataclass(frozen=True, slots=True)
class _Hall:
    """Hall's condition for placing the hidden cards: for every set of the
    other seats (``subsets``, as seat bits), the cards only those seats may
    hold (by ``elig_bits``: the seats that may hold each suit) fit in their
    room."""

    subsets: list[int]
    elig_bits: list[int]
    others: tuple[int, ...]

    def feasible(self, left: list[int], cap: list[int]) -> bool:
        """Whether ``left[suit]`` cards of each suit still fit the seats'
        ``cap``."""
        for m in self.subsets:
            need = 0
            for suit in range(4):
                if left[suit] and self.elig_bits[suit] & ~m == 0:
                    need += left[suit]
            room = 0
            for s in self.others:
                if m >> s & 1:
                    room += cap[s]
            if need > room:
                return False
        return True


def _deal_careful(k: Knowledge, rng: random.Random, others: tuple[int, ...]) -> list[int] | None:
    """A deal that never runs into a dead end: each card goes to a seat only
    if the cards left can still be placed (Hall's condition over the sets
    of seats, which is exact for this transport problem)."""
    hands = [0, 0, 0, 0]
    hands[k.seat] = k.hand
    cap = [0, 0, 0, 0]
    for s in others:
        cap[s] = k.left(s)
    elig = [[s for s in others if not k.voids[s] & SUIT_MASKS[suit]] for suit in range(4)]
    elig_bits = [sum(1 << s for s in e) for e in elig]
    left = [(k.unknown & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
    hall = _Hall([m for m in range(1, 16) if not m & (1 << k.seat)], elig_bits, others)

    def feasible() -> bool:
        return hall.feasible(left, cap)

    if not feasible():
        return None
    cards = cards_of(k.unknown)
    rng.shuffle(cards)
    for c in cards:
        suit = c // 13
        seats = [s for s in elig[suit] if cap[s]]
        rng.shuffle(seats)
        seats.sort(key=lambda s: -cap[s] * rng.random())
        left[suit] -= 1
        for s in seats:
            cap[s] -= 1
            if feasible():
                hands[s] |= 1 << c
                break
            cap[s] += 1
        else:
            return None
    return hands


Drawn = tuple[list[int] | None, int, bool, list[int] | None, float]
"""What a turn of the rejection loop gives: the deal kept (or ``None``),
the deals tried, whether the last was a dead end, the best deal tried (or
``None``) and its weight; as ``fast_draw`` gives it for many turns."""


def sample_hands(
    k: Knowledge, rng: random.Random, weigh_bids: bool = True, *, fast: bool = False
) -> list[int]:
    """Every seat's unplayed cards: this seat's own, and a random deal of the
    hidden cards consistent with the counts, the voids and (when
    ``weigh_bids``) the bids. Raises ``ValueError`` if the view admits no
    deal at all (it cannot come from a real game). ``fast``: deal and weigh
    in C where it is built (:mod:`.speedups`: the same deals from the same
    draws)."""
    others = tuple(s for s in range(4) if s != k.seat)
    bidders = [s for s in others if k.bids[s]] if weigh_bids else []
    args = draw_args(k, bidders) if fast and fast_draw is not None else None
    best: list[int] | None = None
    best_w = -1.0
    failures = 0
    tries = _TRIES * 4
    tried = 0
    while tried < tries:
        got: Drawn
        if args is not None and fast_draw is not None and failures < 3:
            # Turns of the loop in C, until a deal is kept or a dead end.
            got = fast_draw(rng, None, *args, tries - tried)
        else:
            got = _draw_once(k, rng, others, bidders, failures)
        kept, n, dead, b, bw = got
        tried += n
        if kept is not None:
            return kept
        if b is not None and bw > best_w:
            best, best_w = b, bw
        if dead:
            failures += 1
            if failures > 6:
                break
    if best is None:
        raise ValueError("no deal of the hidden cards is consistent with this view")
    return best


def _draw_once(
    k: Knowledge, rng: random.Random, others: tuple[int, ...], bidders: list[int], failures: int
) -> Drawn:
    """One turn of the rejection loop: a deal (the careful one after three
    dead ends), kept with the chance that the bidders' hands fit their bids."""
    hands = _deal_once(k, rng, others) if failures < 3 else _deal_careful(k, rng, others)
    if hands is None:
        return None, 1, True, None, -1.0
    w = 1.0
    for s in bidders:
        w *= bid_likelihood(k, s, hands[s] | k.played_by[s])
    return (hands if rng.random() < w else None), 1, False, hands, w


def draw_args(k: Knowledge, bidders: list[int], rel: list[int] | None = None) -> DrawArgs:
    """The C loop's arguments after ``rng`` and ``chances``, before
    ``tries``: the seat, its hand, the unknown cards, each seat's room, the
    voids, ``rel`` (the location sampler's columns), the cards played, the
    bids weighed (``bidders``'; 0 for the others) and each seat's lowest
    bid."""
    caps = [0 if s == k.seat else k.left(s) for s in range(4)]
    bids = [k.bids[s] if s in bidders else 0 for s in range(4)]
    lows = [lowest_bid(k.settings, k.scores[s]) for s in range(4)]
    return (k.seat, k.hand, k.unknown, caps, k.voids, rel, k.played_by, bids, lows)


def fast_sample_hands(k: Knowledge, rng: random.Random) -> list[int]:
    """:func:`sample_hands` on the fast path (the same deals, sooner)."""
    return sample_hands(k, rng, fast=True)
