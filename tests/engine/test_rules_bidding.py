"""The rules of docs/rules.md played out on concrete deals: bidding. The
escalating minimum bid and required total, throw-ins, five_to_run and
no_face_card_redeal."""

from __future__ import annotations

import pytest
from fh_rules import cards, deal_giving, example_deal, new_state

from fourhundred.engine import (
    BID_BASE,
    PRESETS,
    REDEAL,
    STANDARD,
    GameState,
    IllegalBid,
    IllegalRedeal,
    Phase,
    RecordError,
    Settings,
    record_from_state,
    replay,
    replay_result,
    view_for,
)

# ------------------------------------------------------------------ escalations


def test_escalating_min_bid_in_play() -> None:
    state = new_state(STANDARD, 0, [30, 40, 50, 29])
    state.deal(example_deal(0))
    # Seat 1 bids first (40 -> 4), then 2 (50 -> 5), 3 (29 -> 2), 0 (30 -> 3).
    expected_low = {1: 4, 2: 5, 3: 2, 0: 3}
    for seat in (1, 2, 3, 0):
        assert state.turn == seat
        assert state.legal_bids()[0] == expected_low[seat]
        with pytest.raises(IllegalBid, match=f"may bid {expected_low[seat]} to 12"):
            state.bid(expected_low[seat] - 1)
        state.bid(expected_low[seat])


def test_escalating_total_in_play() -> None:
    state = new_state(PRESETS["jawaker"], 0, [30, 0, 0, 0])
    assert state.required == 12
    state.deal(example_deal(0))
    for n in (2, 3, 3, 3):  # 11 < 12
        state.bid(n)
    hand = state.history[-1]
    assert hand.thrown_in
    assert state.phase is Phase.DEAL
    assert state.dealer == 1
    assert view_for(_dealt(state), None).required_total == 12


def _dealt(state: GameState) -> GameState:
    state.deal(example_deal(state.dealer))
    return state


# -------------------------------------------------------------------- throw-in


def test_throw_in_passes_the_deal_and_scores_nothing() -> None:
    state = new_state(STANDARD, 3, [5, -2, 7, 0])
    state.deal(example_deal(3))
    for n in (2, 2, 2, 2):
        state.bid(n)
    assert state.phase is Phase.DEAL
    hand = state.history[-1]
    assert hand.thrown_in
    assert hand.redeal_request is None
    assert hand.bids == (2, 2, 2, 2)
    assert hand.plays == ()
    assert hand.tricks == (0, 0, 0, 0)
    assert hand.deltas == (0, 0, 0, 0)
    assert state.scores == [5, -2, 7, 0]
    assert state.winner is None
    assert state.dealer == 0, "the dealer passes to the next seat"
    assert state.hand_index == 1
    assert state.turn == 1
    data = record_from_state(state).to_dict()
    data["hands"][0]["plays"] = ["AC"]
    with pytest.raises(RecordError, match="thrown-in hand has plays"):
        replay(data)


def test_a_total_just_reaching_the_minimum_is_played() -> None:
    state = new_state(STANDARD.replace(min_total=9, min_bid=1), 0)
    state.deal(example_deal(0))
    for n in (3, 2, 2, 2):
        state.bid(n)
    assert state.phase is Phase.PLAY


# ----------------------------------------------------------------- five_to_run

FIVE = STANDARD.replace(five_to_run=True)


@pytest.mark.parametrize(
    ("earlier", "dealer_low"),
    [
        ((2, 2, 2), 5),
        ((4, 4, 4), 5),
        ((2, 5, 2), 2),
        ((6, 2, 2), 2),
    ],
)
def test_five_to_run(earlier: tuple[int, ...], dealer_low: int) -> None:
    state = new_state(FIVE, 2)
    state.deal(example_deal(2))
    for n in earlier:
        assert state.legal_bids()[0] == 2, "only the dealer is bound"
        state.bid(n)
    assert state.turn == 2
    assert state.legal_bids()[0] == dealer_low
    if dealer_low == 5:
        with pytest.raises(IllegalBid, match="may bid 5 to 12"):
            state.bid(4)
        assert state.timeout_action() == BID_BASE + 5


def test_five_to_run_counts_a_13() -> None:
    state = new_state(FIVE.replace(thirteen_bid=True), 2)
    state.deal(example_deal(2))
    for n in (13, 2, 2):
        state.bid(n)
    assert state.legal_bids() == list(range(2, 13))


def test_five_to_run_off_by_default() -> None:
    state = new_state(STANDARD, 2)
    state.deal(example_deal(2))
    for n in (2, 2, 2):
        state.bid(n)
    assert state.legal_bids()[0] == 2


# ---------------------------------------------------------- no_face_card_redeal

REDEAL_ON = STANDARD.replace(no_face_card_redeal=True)
LOW_HAND = cards("2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D")


def redeal_state(settings: Settings = REDEAL_ON, asker: int = 2) -> GameState:
    """Seat 1 deals; ``asker`` holds no face card, every other seat does."""
    state = new_state(settings, 1)
    state.deal(deal_giving(asker, LOW_HAND))
    return state


def test_redeal_request_same_dealer_deals_again() -> None:
    state = redeal_state()
    assert state.turn == 2
    assert state.can_redeal(2)
    assert not any(state.can_redeal(s) for s in (0, 1, 3))
    assert REDEAL not in state.legal_actions()
    assert view_for(state, 2).can_redeal
    assert not view_for(state, 0).can_redeal
    assert not view_for(state, None).can_redeal
    state.apply(REDEAL, 2)
    assert state.phase is Phase.DEAL
    assert state.dealer == 1, "the same dealer deals again"
    assert state.hand_index == 1
    assert state.turn == 2
    assert state.scores == [0, 0, 0, 0]
    hand = state.history[-1]
    assert hand.redeal_request == 2
    assert hand.thrown_in
    assert hand.bids == ()
    assert hand.deltas == (0, 0, 0, 0)


def test_redeal_by_a_seat_that_is_not_to_act() -> None:
    state = redeal_state(asker=0)
    assert state.turn == 2
    state.request_redeal(0)
    assert state.history[-1].redeal_request == 0
    state.deal(example_deal(1))
    result = replay_result(record_from_state(state).to_dict())
    assert result["hands"][0] == {
        "thrown_in": True,
        "tricks": [0, 0, 0, 0],
        "deltas": [0, 0, 0, 0],
        "scores": [0, 0, 0, 0],
    }


@pytest.mark.parametrize(
    ("why", "settings", "seat", "bid_first", "message"),
    [
        ("setting off", STANDARD, 2, False, "no_face_card_redeal is off"),
        ("holds a face card", REDEAL_ON, 0, False, "holds an A, K, Q or J"),
        ("after the first bid", REDEAL_ON, 2, True, "only before the first bid"),
    ],
)
def test_redeal_refused(
    why: str, settings: Settings, seat: int, bid_first: bool, message: str
) -> None:
    state = redeal_state(settings, asker=2)
    if bid_first:
        state.bid(2)
    line = state.line()
    assert not state.can_redeal(seat), why
    with pytest.raises(IllegalRedeal, match=message):
        state.request_redeal(seat)
    assert state.line() == line


def test_redeal_refused_when_no_seat_is_eligible() -> None:
    state = new_state(REDEAL_ON, 0)
    state.deal(example_deal(0))  # every seat holds a face card
    assert not any(state.can_redeal(s) for s in range(4))
    with pytest.raises(IllegalRedeal):
        state.apply(REDEAL)
