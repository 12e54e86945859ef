"""Properties of the checked path for every setting and every legal game
(Hypothesis over random settings and random legal play): it refuses every
action that is not legal, with the error its cause names, without changing
anything, refuses a legal action out of turn, and accepts every legal one."""

from __future__ import annotations

import json
from typing import Any

from fh_random_games import VIEWERS, any_settings, seeds, walk
from hypothesis import HealthCheck, given, settings

from fourhundred.engine import (
    BID_BASE,
    REDEAL,
    GameOver,
    GameState,
    IllegalAction,
    IllegalBid,
    IllegalCard,
    IllegalRedeal,
    NotYourTurn,
    Phase,
    Settings,
    WrongPhase,
    view_for,
)

WEIRD_ACTIONS: tuple[Any, ...] = (True, False, 3.0, "3", None, -1, 52, 67, 1000)


def expected_error(state: GameState, action: int) -> type[IllegalAction]:
    """The error class the checked path must raise for a non-legal action."""
    if not 0 <= action <= REDEAL or action == BID_BASE:
        return IllegalAction
    if state.phase is Phase.OVER:
        return GameOver
    if action == REDEAL:
        return IllegalRedeal
    is_bid = action > BID_BASE
    if state.phase is Phase.DEAL:
        return WrongPhase
    if state.phase is Phase.BID:
        return IllegalBid if is_bid else WrongPhase
    return WrongPhase if is_bid else IllegalCard


def snapshot(state: GameState) -> tuple[Any, ...]:
    views = (
        ()
        if state.phase is Phase.DEAL
        else tuple(json.dumps(view_for(state, v).to_dict()) for v in VIEWERS)
    )
    return (state.line(), state.hands, state.plays, len(state.history), views)


def check_refusals(state: GameState) -> None:
    before = snapshot(state)
    legal = set(state.legal_actions())
    for action in (*range(-1, 68), *WEIRD_ACTIONS):
        if type(action) is int and action in legal:
            continue
        if action == REDEAL and type(action) is int and state.can_redeal(state.turn):
            continue  # allowed, though not listed in legal_actions
        check_refused(state, action)
    if state.phase in (Phase.BID, Phase.PLAY):
        check_out_of_turn(state, next(iter(legal)))
        # And every legal action is accepted (on a copy).
        line = state.line()
        for action in legal:
            copy = state.clone()
            copy.apply(action)
            assert state.line() == line, "a clone shares state with the original"
    assert snapshot(state) == before


def check_refused(state: GameState, action: Any) -> None:
    """``action`` is refused with the error its cause names, and the state
    does not change."""
    line = state.line()
    try:
        state.apply(action)
    except IllegalAction as e:
        if type(action) is int:
            assert type(e) is expected_error(state, action), (action, e)
        else:
            assert type(e) is IllegalAction, (action, e)
            assert repr(action) in str(e)
    else:
        raise AssertionError(f"{action!r} was accepted in {line}")
    assert state.line() == line, f"refusing {action!r} changed the state"


def check_out_of_turn(state: GameState, action: int) -> None:
    """A legal ``action`` by any seat but the one to act is out of turn."""
    line = state.line()
    for seat in range(4):
        if seat != state.turn:
            try:
                state.apply(action, seat)
            except NotYourTurn as e:
                assert f"seat {state.turn}'s turn" in str(e)
            else:
                raise AssertionError(f"seat {seat} acted out of turn in {line}")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds)
def test_checked_apply_refuses_every_non_legal_action(settings_: Settings, seed: int) -> None:
    last = None
    for state in walk(settings_, seed, max_hands=2, on_state=check_refusals):
        last = state
    assert last is not None
    check_refusals(last)  # also in the DEAL or OVER phase at the end
