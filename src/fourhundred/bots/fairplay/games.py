"""Deals played for the measurement: two partnerships, colluders told
their partner's hand, the games kept as game records.

:func:`play_deals` plays whole games one after another (a new game when
one ends) until ``deals`` hands have been played (thrown-in hands do not
count), and returns every game's record (the last one may be unfinished).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from fourhundred.engine import (
    REDEAL,
    GameRecord,
    GameState,
    Phase,
    partner_of,
    record_from_state,
    view_for,
)

from ..base import Bot
from .colluders import Colluder

__all__ = ["play_deals"]


def _act(bot: Bot, state: GameState) -> None:
    seat = state.turn
    if isinstance(bot, Colluder):
        bot.peek(state.hand(partner_of(seat)))
    action = bot.choose(view_for(state, seat))
    if action == REDEAL and state.can_redeal(seat):
        state.request_redeal(seat)
        return
    state.apply(action, seat)


def play_deals(
    seats: Sequence[Bot],
    deals: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play ``deals`` hands with ``seats[s]`` at seat ``s`` (standard
    rules), game after game, dealt from ``seed``; ``progress`` is told the
    hands played so far after each hand."""
    rng = random.Random(f"fairplay:{seed}")
    records: list[GameRecord] = []
    played = 0
    state = GameState(rng=rng)
    while played < deals:
        if state.phase is Phase.OVER:
            records.append(record_from_state(state))
            state = GameState(rng=rng)
        state.deal_random()
        while state.phase is Phase.BID or state.phase is Phase.PLAY:
            _act(seats[state.turn], state)
        last = state.history[-1] if state.history else None
        if last is not None and not last.thrown_in and last.redeal_request is None:
            played += 1
            if progress:
                progress(played)
    records.append(record_from_state(state))
    return records
