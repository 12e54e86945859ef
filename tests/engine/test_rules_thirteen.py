"""The rules of docs/rules.md played out on concrete deals: the 13 bid. Won,
it wins the game whatever the scores; lost, the bidder's team loses at once;
it needs its setting and is worth no points."""

from __future__ import annotations

import pytest
from fh_rules import cards, deal_giving, example_deal, new_state

from fourhundred.engine import (
    PRESETS,
    STANDARD,
    GameOver,
    IllegalBid,
    Phase,
    RecordError,
    card_str,
    parse_card,
    record_from_state,
    replay,
    replay_result,
    view_for,
)

# -------------------------------------------------------------------- 13 bids

THIRTEEN = PRESETS["traditional"]
HEARTS = [parse_card(r + "H") for r in "23456789TJQKA"]


@pytest.mark.parametrize("bidder_offset", [1, 2, 3, 4])
def test_thirteen_won_wins_the_game_whatever_the_scores(bidder_offset: int) -> None:
    dealer = 0
    bidder = (dealer + bidder_offset) % 4
    scores = [-20, 35, -5, 10]
    state = new_state(THIRTEEN, dealer, scores)
    state.deal(deal_giving(bidder, HEARTS))
    for _ in range(4):
        state.bid(13 if state.turn == bidder else state.legal_bids()[0])
    assert state.phase is Phase.PLAY
    while state.phase is Phase.PLAY:
        state.play(state.timeout_action())
    hand = state.history[-1]
    assert hand.tricks[bidder] == 13
    assert len(hand.plays) == 52
    assert hand.deltas == (0, 0, 0, 0)
    assert state.scores == scores
    assert state.phase is Phase.OVER
    assert state.winner == bidder % 2
    result = replay_result(record_from_state(state).to_dict())
    assert result["winner"] == bidder % 2
    assert result["next"] is None
    assert result["hands"][-1]["deltas"] == [0, 0, 0, 0]


def test_thirteen_lost_to_the_partner_loses_at_once() -> None:
    """The bidder leads three top hearts, then a club that the partner's ace
    wins: the hand stops after that fourth trick and the bidder's team loses."""
    dealer = 3
    bidder = 0  # leads to the first trick
    partner = 2
    held = cards("2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    partner_cards = cards("AC 2H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD")
    opp1 = cards("3C 4C 5C 6C KD AD 2S 3S 4S 5S 6S 7S 8S")
    state = new_state(THIRTEEN, dealer, [12, 3, 0, 44])
    state.deal(deal_giving(bidder, held, {partner: partner_cards, 1: opp1}))
    state.bid(13)
    assert state.legal_bids()[-1] == 12, "only one 13 bid per hand"
    with pytest.raises(IllegalBid):
        state.bid(13)
    for _ in range(3):
        state.bid(state.legal_bids()[0])
    script = [
        "AH 2S 2H 9S",  # the partner must follow with the 2H
        "KH 3S 2D TS",
        "QH 4S 3D JS",
        "2C 3C AC 7C",  # the partner's ace takes the bidder's trick
    ]
    for trick in script:
        for c in cards(trick):
            state.play(c)
    assert state.phase is Phase.OVER
    assert state.winner == 1
    hand = state.history[-1]
    assert hand.tricks == (3, 0, 1, 0)
    assert len(hand.plays) == 16
    assert hand.deltas == (0, 0, 0, 0)
    assert state.scores == [12, 3, 0, 44]
    with pytest.raises(GameOver):
        state.play(state.hand(2).bit_length() - 1)
    # The record ends with that trick; one more card is refused.
    data = record_from_state(state).to_dict()
    assert len(data["hands"][0]["plays"]) == 16
    assert replay_result(data)["winner"] == 1
    data["hands"][0]["plays"].append(card_str(state.hand(1).bit_length() - 1))
    with pytest.raises(RecordError) as info:
        replay(data)
    assert str(info.value).startswith("hand 0 action 20: ")


def test_thirteen_lost_on_the_first_trick() -> None:
    held = cards("2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    state = new_state(THIRTEEN, 3)
    state.deal(deal_giving(0, held))
    for n in (13, 2, 2, 2):
        state.bid(n)
    state.play(parse_card("2C"))
    for _ in range(3):
        state.play(state.legal_cards()[-1])
    assert state.phase is Phase.OVER
    assert state.winner == 1
    assert sum(state.history[-1].tricks) == 1


def test_thirteen_needs_the_setting() -> None:
    state = new_state(STANDARD, 0)
    state.deal(example_deal(0))
    assert state.legal_bids()[-1] == 12
    with pytest.raises(IllegalBid, match="may bid 2 to 12"):
        state.bid(13)


def test_thirteen_is_worth_no_points_in_the_view() -> None:
    state = new_state(THIRTEEN, 0)
    state.deal(example_deal(0))
    view = view_for(state, state.turn)
    assert view.legal is not None
    assert view.legal[-1] == 13
    assert view.to_dict()["values"][-1] is None
    assert view.to_dict()["values"][:-1] == [2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36]
