"""The rules of docs/rules.md played out on concrete deals: the timeout
order. A timed-out play is the lowest-ranked legal card, following suit
first; a timed-out bid is the smallest legal bid."""

from __future__ import annotations

import pytest
from fh_rules import cards, deal_giving, example_deal, new_state

from fourhundred.engine import BID_BASE, STANDARD, WrongPhase, card_str

# -------------------------------------------------------------- timeout order


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        ("2H 2S 2D 5C 6C 7C 8C 9C TC JC QC KC AC", "2D"),  # a non-heart first, D before S
        ("2H 2S 3C 3D 5C 6C 7C 8C 9C TC JC QC KC", "2S"),  # lowest rank wins over suit
        ("2H 3C 3D 3S 5C 6C 7C 8C 9C TC JC QC KC", "2H"),  # lowest rank even if a heart
        ("2C 2H 2D 2S 5C 6C 7C 8C 9C TC JC QC KC", "2C"),  # clubs first
        ("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H AS", "3H"),
    ],
)
def test_timeout_play_is_the_lowest_ranked_card(held: str, expected: str) -> None:
    state = new_state(STANDARD, 3)
    state.deal(deal_giving(0, cards(held)))
    for _ in range(4):
        state.bid(3)
    assert state.turn == 0
    assert card_str(state.timeout_action()) == expected


def test_timeout_follows_suit_first() -> None:
    state = new_state(STANDARD, 3)
    state.deal(deal_giving(1, cards("2H 2S 2D 5C 6C 7C 8C 9C TC JC QC KC AC")))
    for _ in range(4):
        state.bid(3)
    # Seat 0 got 2C 3C 4C and low diamonds: it leads the 2C; seat 1 must
    # follow clubs, so its lowest legal card is the 5C, not a 2.
    assert card_str(state.timeout_action()) == "2C"
    state.play(state.timeout_action())
    assert card_str(state.timeout_action()) == "5C"


def test_timeout_bid_is_the_smallest_legal_bid() -> None:
    state = new_state(STANDARD, 0, [0, 45, 0, 0])
    state.deal(example_deal(0))
    assert state.timeout_action() == BID_BASE + 4
    with pytest.raises(WrongPhase, match="no timeout action during the deal phase"):
        new_state(STANDARD, 0).timeout_action()
