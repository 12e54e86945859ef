"""The game state's checked path and its errors: each error quotes the input
and the reason, has its place in the hierarchy, and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fh_game_states import INTERLEAVED, bidding, finished, playing

from fourhundred.engine import (
    BID_BASE,
    REDEAL,
    STANDARD,
    FourHundredError,
    GameOver,
    GameState,
    IllegalAction,
    IllegalBid,
    IllegalCard,
    IllegalRedeal,
    InvalidDeal,
    NotYourTurn,
    Phase,
    RecordError,
    WrongPhase,
    card_str,
    parse_card,
    view_for,
)
from fourhundred.engine.errors import InvalidSettings


def fingerprint(state: GameState) -> tuple[Any, ...]:
    views = (
        ()
        if state.phase is Phase.DEAL
        else tuple(json.dumps(view_for(state, v).to_dict()) for v in (None, 0, 1, 2, 3))
    )
    return (
        state.line(),
        state.hands,
        state.plays,
        list(state.history),
        list(state.scores),
        state.dealt,
        views,
    )


def refused(
    state: GameState, error: type[Exception], message: str, act: Callable[[], object]
) -> None:
    """``act`` raises exactly ``error`` with exactly ``message`` and leaves
    the state as it was."""
    before = fingerprint(state)
    with pytest.raises(error) as info:
        act()
    assert type(info.value) is error
    assert str(info.value) == message
    assert fingerprint(state) == before


# ---------------------------------------------------------------- the errors


def test_error_hierarchy() -> None:
    for e in (
        IllegalAction,
        IllegalBid,
        IllegalCard,
        IllegalRedeal,
        NotYourTurn,
        WrongPhase,
        GameOver,
        InvalidDeal,
        InvalidSettings,
        RecordError,
    ):
        assert issubclass(e, FourHundredError)
        assert issubclass(e, ValueError)
    for e in (IllegalBid, IllegalCard, IllegalRedeal, NotYourTurn, WrongPhase):
        assert issubclass(e, IllegalAction)
    assert issubclass(GameOver, WrongPhase)


def test_illegal_bid() -> None:
    s = bidding()
    refused(s, IllegalBid, "bid 1 by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid(1))
    refused(
        s, IllegalBid, "bid 13 by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid(13)
    )
    refused(
        s,
        IllegalBid,
        "bid 1 by seat 0 is not legal: seat 0 may bid 2 to 12",
        lambda: s.apply(BID_BASE + 1),
    )
    refused(
        s, IllegalBid, "bid 3.0 by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid(3.0)
    )  # type: ignore[arg-type]
    refused(
        s,
        IllegalBid,
        "bid True by seat 0 is not legal: seat 0 may bid 2 to 12",
        lambda: s.bid(True),
    )
    refused(
        s, IllegalBid, "bid '3' by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid("3")
    )  # type: ignore[arg-type]


def test_not_your_turn() -> None:
    s = bidding()
    refused(
        s, NotYourTurn, "bid 3 by seat 2: it is seat 0's turn, not seat 2's", lambda: s.bid(3, 2)
    )
    refused(
        s,
        NotYourTurn,
        "bid 3 by seat 1: it is seat 0's turn, not seat 1's",
        lambda: s.apply(BID_BASE + 3, 1),
    )
    refused(s, NotYourTurn, "bid 3 by seat 7: 7 is not a seat", lambda: s.bid(3, 7))
    refused(s, NotYourTurn, "bid 3 by seat True: True is not a seat", lambda: s.bid(3, True))
    p = playing()
    refused(
        p,
        NotYourTurn,
        "card '3C' by seat 1: it is seat 0's turn, not seat 1's",
        lambda: p.play(parse_card("3C"), 1),
    )


@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_a_seat_must_be_an_int_even_when_it_equals_the_turn(seat: Any) -> None:
    """True == 1 and 1.0 == 1, but neither is seat 1 (a bug found and fixed)."""
    s = bidding(dealer=0)
    assert s.turn == 1
    refused(s, NotYourTurn, f"bid 3 by seat {seat}: {seat!r} is not a seat", lambda: s.bid(3, seat))
    refused(
        s,
        NotYourTurn,
        f"bid 3 by seat {seat}: {seat!r} is not a seat",
        lambda: s.apply(BID_BASE + 3, seat),
    )
    p = playing(dealer=0)
    assert p.turn == 1
    card = p.legal_cards()[0]
    refused(
        p,
        NotYourTurn,
        f"card {card_str(card)!r} by seat {seat}: {seat!r} is not a seat",
        lambda: p.play(card, seat),
    )


def test_illegal_card() -> None:
    p = playing()
    assert p.turn == 0
    refused(
        p,
        IllegalCard,
        "card 'AH' by seat 0 is not legal: seat 0 does not hold it",
        lambda: p.play(parse_card("AH")),
    )
    p.play(parse_card("2C"))
    # Seat 1 holds clubs (3C, 7C, JC) and must follow.
    refused(
        p,
        IllegalCard,
        "card '2D' by seat 1 is not legal: seat 1 must follow clubs",
        lambda: p.play(parse_card("2D")),
    )
    refused(p, IllegalCard, "52 is not a card", lambda: p.play(52))
    refused(p, IllegalCard, "-1 is not a card", lambda: p.play(-1))
    refused(p, IllegalCard, "True is not a card", lambda: p.play(True))
    refused(p, IllegalCard, "'AH' is not a card", lambda: p.play("AH"))  # type: ignore[arg-type]


def test_wrong_phase() -> None:
    s = bidding()
    refused(
        s,
        WrongPhase,
        "card '2C' by seat 0: it is the bid phase, not play",
        lambda: s.play(parse_card("2C")),
    )
    refused(s, WrongPhase, "cannot deal during the bid phase", lambda: s.deal(INTERLEAVED))
    refused(s, WrongPhase, "cannot deal during the bid phase", lambda: s.deal_random(seed=1))
    p = playing()
    refused(p, WrongPhase, "bid 3 by seat 0: it is the play phase, not bid", lambda: p.bid(3))
    fresh = GameState(first_dealer=0)
    refused(
        fresh, WrongPhase, "bid 2 by seat 1: it is the deal phase, not bid", lambda: fresh.bid(2)
    )
    refused(
        fresh,
        WrongPhase,
        "card '2C' by seat 1: it is the deal phase, not play",
        lambda: fresh.play(0),
    )
    refused(fresh, WrongPhase, "no timeout action during the deal phase", fresh.timeout_action)


def test_game_over() -> None:
    s = finished()
    turn = s.turn
    refused(s, GameOver, f"bid 3 by seat {turn}: the game is over", lambda: s.bid(3))
    refused(s, GameOver, f"card '2C' by seat {turn}: the game is over", lambda: s.play(0))
    refused(s, GameOver, "redeal request by seat 1: the game is over", lambda: s.request_redeal(1))
    refused(s, WrongPhase, "cannot deal during the over phase", lambda: s.deal(INTERLEAVED))
    refused(s, WrongPhase, "no timeout action during the over phase", s.timeout_action)
    assert s.legal_actions() == []
    assert s.legal_bids() == []
    assert s.legal_cards() == []
    assert s.phase is Phase.OVER


def test_illegal_redeal() -> None:
    s = bidding(settings=STANDARD.replace(no_face_card_redeal=True))
    refused(
        s,
        IllegalRedeal,
        "redeal request by seat 0 not allowed: the hand holds an A, K, Q or J",
        lambda: s.request_redeal(0),
    )
    refused(
        s,
        IllegalRedeal,
        "redeal request by seat 0 not allowed: the hand holds an A, K, Q or J",
        lambda: s.apply(REDEAL),
    )
    refused(s, IllegalRedeal, "redeal request by 4: not a seat", lambda: s.request_redeal(4))
    off = bidding()
    refused(
        off,
        IllegalRedeal,
        "redeal request by seat 0 not allowed: no_face_card_redeal is off",
        lambda: off.request_redeal(0),
    )


def test_not_an_action() -> None:
    s = bidding()
    for bad in (52, 67, -1, 10**6):
        refused(s, IllegalAction, f"{bad} is not an action", lambda bad=bad: s.apply(bad))
    for weird in (True, 3.0, "3", None, [53]):
        refused(s, IllegalAction, f"{weird!r} is not an action", lambda w=weird: s.apply(w))


@pytest.mark.parametrize(
    "deal",
    [
        INTERLEAVED[:3],
        [*INTERLEAVED, 0],
        [INTERLEAVED[0], INTERLEAVED[0], INTERLEAVED[2], INTERLEAVED[3]],
        [INTERLEAVED[0] ^ 1, INTERLEAVED[1] | 1, INTERLEAVED[2], INTERLEAVED[3]],
        [INTERLEAVED[0] | (1 << 52), INTERLEAVED[1], INTERLEAVED[2], INTERLEAVED[3]],
        [True, INTERLEAVED[1], INTERLEAVED[2], INTERLEAVED[3]],
        [str(INTERLEAVED[0]), INTERLEAVED[1], INTERLEAVED[2], INTERLEAVED[3]],
    ],
)
def test_invalid_deal(deal: list[Any]) -> None:
    s = GameState(first_dealer=0)
    refused(
        s, InvalidDeal, "the deal is not 52 distinct cards, 13 to each seat", lambda: s.deal(deal)
    )
    assert s.phase is Phase.DEAL


@pytest.mark.parametrize("bad", [4, -1, True, 1.0, "0"])
def test_first_dealer_must_be_a_seat(bad: object) -> None:
    with pytest.raises(ValueError, match="first_dealer must be a seat 0-3") as info:
        GameState(first_dealer=bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)
