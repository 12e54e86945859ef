"""How fast is the rules engine? Prints medians of repeated runs.

    python bench/engine.py [--runs 5] [--hands 20000]

- ``random_hands_per_s``: whole hands (deal included, uniformly random legal
  bids and cards), once through the public checked API (``legal_actions`` +
  ``apply``) and once through the fast path (``bid_range``/``bid_unchecked``,
  ``legal_mask``/``play_unchecked``). One process: this is per core.
- ``legal_actions_per_s``: ``legal_actions()`` calls on positions taken from
  random games.
- ``naive_baseline_hands_per_s``: the same random hands in a deliberately
  naive list-of-strings engine written here, so the ratios compare both in
  the same run on the same (noisy, shared) machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from fourhundred.engine import GameState, Phase
from fourhundred.engine._core import COMPILED, pick_card

BID = Phase.BID
PLAY = Phase.PLAY
OVER = Phase.OVER


def hands_checked(n: int, seed: int) -> float:
    """Random hands through the checked API; returns hands per second."""
    rng = random.Random(seed)
    choice = rng.choice
    state = GameState(first_dealer=0, rng=rng)
    start = time.perf_counter()
    for _ in range(n):
        if state.phase is OVER:
            state = GameState(first_dealer=0, rng=rng)
        state.deal_random()
        while state.phase is BID or state.phase is PLAY:
            state.apply(choice(state.legal_actions()))
    return n / (time.perf_counter() - start)


def hands_fast(n: int, seed: int) -> float:
    """Random hands through the unchecked fast path; returns hands per second."""
    rng = random.Random(seed)
    rnd = rng.random
    state = GameState(first_dealer=0, rng=rng)
    start = time.perf_counter()
    for _ in range(n):
        if state.phase is OVER:
            state = GameState(first_dealer=0, rng=rng)
        state.deal_random()
        while state.phase is BID:
            lo, hi = state.bid_range()
            state.bid_unchecked(lo + int(rnd() * (hi - lo + 1)))
        if state.phase is not PLAY:
            continue  # thrown in
        mask = state.legal_mask()
        play = state.play_unchecked
        while mask:
            mask = play(pick_card(mask, rnd()))
    return n / (time.perf_counter() - start)


def legal_actions_rate(n: int, seed: int) -> float:
    """``legal_actions()`` calls per second over positions of random games."""
    rng = random.Random(seed)
    positions: list[GameState] = []
    state = GameState(first_dealer=0, rng=rng)
    while len(positions) < 2000:
        if state.phase is OVER:
            state = GameState(first_dealer=0, rng=rng)
        if state.phase is Phase.DEAL:
            state.deal_random()
        positions.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    calls = 0
    start = time.perf_counter()
    while calls < n:
        for p in positions:
            p.legal_actions()
        calls += len(positions)
    return calls / (time.perf_counter() - start)


# --- the naive baseline: cards as strings, hands as lists --------------------

RANKS = "23456789TJQKA"
NAIVE_DECK = [r + s for s in "CDHS" for r in RANKS]


def naive_hands(n: int, seed: int) -> float:
    """Random hands in a straightforward list-of-strings engine."""
    rng = random.Random(seed)
    start = time.perf_counter()
    scores = [0, 0, 0, 0]
    dealer = 0
    for _ in range(n):
        deck = NAIVE_DECK[:]
        rng.shuffle(deck)
        hands = [deck[13 * s : 13 * s + 13] for s in range(4)]
        bids = [0, 0, 0, 0]
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            low = min(5, max(2, scores[seat] // 10))  # 3 from 30 points, 4 from 40, 5 from 50
            bids[seat] = rng.choice(list(range(low, 13)))
        dealer = (dealer + 1) % 4
        if sum(bids) < 11:
            continue
        won = [0, 0, 0, 0]
        leader = dealer  # the seat after the old dealer
        for _trick in range(13):
            played: list[tuple[int, str]] = []
            for i in range(4):
                seat = (leader + i) % 4
                hand = hands[seat]
                legal = [c for c in hand if c[1] == played[0][1][1]] if played else hand
                if not legal:
                    legal = hand
                c = rng.choice(legal)
                hand.remove(c)
                played.append((seat, c))
            best_seat, best = played[0]
            for seat, c in played[1:]:
                if (c[1] == "H" and best[1] != "H") or (
                    c[1] == best[1] and RANKS.index(c[0]) > RANKS.index(best[0])
                ):
                    best_seat, best = seat, c
            won[best_seat] += 1
            leader = best_seat
        for s in range(4):
            value = (0, 1, 2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36)[bids[s]]
            scores[s] += value if won[s] >= bids[s] else -value
    return n / (time.perf_counter() - start)


def median_of(runs: int, fn: Callable[[int, int], float], n: int) -> float:
    return statistics.median(fn(n, seed) for seed in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="repeats; the median is printed")
    parser.add_argument("--hands", type=int, default=20000, help="hands per fast-path run")
    args = parser.parse_args()
    runs, n = args.runs, args.hands

    print(f"python: {platform.python_version()}  machine: {platform.machine()}")
    print(f"core: {'C (_speedups)' if COMPILED else 'pure Python'}  runs: {runs} (medians)")
    naive = median_of(runs, naive_hands, max(n // 4, 1000))
    checked = median_of(runs, hands_checked, max(n // 4, 1000))
    fast = median_of(runs, hands_fast, n)
    legal = median_of(runs, legal_actions_rate, 10 * n)
    print(f"random_hands_per_s (checked API): {checked:,.0f}")
    print(f"random_hands_per_s (fast path): {fast:,.0f}")
    print(f"legal_actions_per_s: {legal:,.0f}")
    print(f"naive_baseline_hands_per_s: {naive:,.0f}")
    print(f"fast / naive: {fast / naive:.1f}x   checked / naive: {checked / naive:.1f}x")


if __name__ == "__main__":
    main()
