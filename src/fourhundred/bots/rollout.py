"""Rollouts: a sampled deal played to the end of the hand with the
heuristic policy for every seat, on the engine's fast path, and the 400
value of the finished hand for one team.

:data:`fast_rollout` is the same rollout in C (:mod:`.speedups`), card for
card, where it is built; it plays through the state's own
``play_unchecked``.
"""

from __future__ import annotations

from fourhundred.engine import SHOWN_VOID, SUIT_MASKS, GameState, Phase, bid_value

from .heuristic import GAME_BONUS, choose_card
from .speedups import fast_rollout

__all__ = ["fast_rollout", "rollout", "team_value", "true_voids", "voids_after"]


def team_value(state: GameState, base: list[int], team: int) -> float:
    """The 400 value of a finished hand for ``team``."""
    sc = state.scores
    d = [sc[s] - base[s] for s in range(4)]
    v = float(d[team] + d[team + 2] - d[1 - team] - d[3 - team])
    if state.phase is Phase.OVER and state.winner is not None:
        bonus = 2 * GAME_BONUS if not any(d) else GAME_BONUS
        v += bonus if state.winner == team else -bonus
    return v


def true_voids(hands: list[int]) -> list[int]:
    """Every seat's true voids in a deal: the suits it does not hold."""
    return [sum(m for m in SUIT_MASKS if not h & m) for h in hands]


def rollout(state: GameState, gone: int, voids: list[int], seen: int = 0) -> None:
    """Play ``state`` (in the play phase) to the end of the hand with the
    heuristic policy for every seat. ``gone`` and ``voids`` are the public
    knowledge so far (updated as cards fall). ``seen``: from 1, every seat
    plays knowing which suits the others still hold in this deal (its true
    voids, :func:`true_voids`); from 2, also whether an opponent can beat a
    card or a top card is sure (``choose_card``'s ``hands``): steps towards
    the deal's perfect-information values; from 3, also which of its cards
    are the top ones left (``choose_card``'s ``reads_all``: its discards,
    cashed hearts and leads); 4 is 2 with, instead of 3's reading, leads
    into the partner's sure winners for a partner who needs tricks
    (``choose_card``'s ``team``). ``voids`` still gets only the voids shown."""
    st = state.settings
    sc = state.scores
    bids = list(state.bids)
    values = [
        0 if b in (0, 13) else (60 if b == 13 else bid_value(st, b, sc[s]))
        for s, b in enumerate(bids)
    ]
    legal = state.legal_mask()
    trick = state.current_trick
    while True:
        seat = state.turn
        c = choose_card(
            seat,
            state.hand(seat),
            legal,
            trick,
            gone,
            true_voids(list(state.hands)) if seen else voids,
            bids,
            state.tricks_won,
            values,
            13 - state.n_tricks,
            list(state.hands) if seen > 1 else None,
            seen == 3,
            seen == 4,
        )
        if trick:
            voids[seat] |= SHOWN_VOID[trick[0]][c]
            trick.append(c)
        else:
            trick = [c]
        gone |= 1 << c
        legal = state.play_unchecked(c)
        if not legal:
            return
        if len(trick) == 4:
            trick = []


def voids_after(voids: list[int], trick: list[int], seat: int, c: int) -> list[int]:
    out = voids[:]
    if trick:
        out[seat] |= SHOWN_VOID[trick[0]][c]
    return out
