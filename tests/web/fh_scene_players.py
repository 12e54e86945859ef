"""The players of the demo scenes (``scenes.py``): plausible bids and cards
chosen with a seeded ``random.Random``, and :func:`play_until`, which plays
a real engine game on until it reaches the position a scene shows."""

from __future__ import annotations

import random
from collections.abc import Callable

from fourhundred.engine import BID_BASE, GameState, Phase


def _bid(state: GameState, rng: random.Random) -> int:
    """A plausible bid: count likely tricks, stay legal."""
    seat = state.turn
    hand = [c for c in range(52) if state.hand(seat) >> c & 1]
    sure = 0.0
    for c in hand:
        suit, rank = divmod(c, 13)
        if rank == 12:
            sure += 1
        elif rank == 11:
            sure += 0.7
        elif suit == 2 and rank >= 8:
            sure += 0.5
    sure += max(0, sum(1 for c in hand if c // 13 == 2) - 3) * 0.6
    legal = state.legal_bids()
    want = min(max(round(sure + rng.random() * 0.8), legal[0]), 12)
    return want if want in legal else legal[0]


def _play(state: GameState, rng: random.Random) -> int:
    """A plausible card: the highest while short of the bid, else the lowest."""
    seat = state.turn
    need = (state.bid_of(seat) or 0) - state.tricks_won[seat]
    by_rank = sorted(state.legal_cards(), key=lambda c: (c % 13, c // 13 == 2))
    return by_rank[-1] if need > 0 and rng.random() < 0.85 else by_rank[0]


def _step(state: GameState, rng: random.Random) -> None:
    if state.phase is Phase.DEAL:
        state.deal_random(seed=rng.randrange(1 << 30))
    elif state.phase is Phase.BID:
        state.apply(BID_BASE + _bid(state, rng))
    else:
        state.apply(_play(state, rng))


def play_until(state: GameState, rng: random.Random, stop: Callable[[GameState], bool]) -> None:
    for _ in range(5000):
        if stop(state):
            return
        _step(state, rng)
    raise RuntimeError("the scene never reached its position")
