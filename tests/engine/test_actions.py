"""The closed action space: cards 0..51, bids 53..65, redeal 66."""

from __future__ import annotations

import pytest

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    NUM_ACTIONS,
    REDEAL,
    action_str,
    bid_action,
    parse_action,
)
from fourhundred.engine.actions import bid_of, is_bid, is_card


def test_layout() -> None:
    assert BID_BASE == 52
    assert REDEAL == 66
    assert NUM_ACTIONS == 67
    assert [bid_action(n) for n in range(1, 14)] == list(range(53, 66))
    assert [a for a in range(NUM_ACTIONS) if is_card(a)] == list(range(52))
    assert [a for a in range(NUM_ACTIONS) if is_bid(a)] == list(range(53, 66))
    assert not is_bid(BID_BASE)
    assert not is_bid(REDEAL)
    assert not is_card(-1)


@pytest.mark.parametrize("a", [a for a in range(NUM_ACTIONS) if a != BID_BASE])
def test_every_action_round_trips_through_text(a: int) -> None:
    assert parse_action(action_str(a)) == a


def test_text_forms() -> None:
    assert action_str(parse_action("QD")) == "QD"
    assert action_str(bid_action(4)) == "4"
    assert action_str(REDEAL) == "redeal"
    assert [action_str(c) for c in range(52)] == list(CARD_NAMES)
    assert bid_of(bid_action(13)) == 13


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bid 7", BID_BASE + 7),
        ("BID 13", BID_BASE + 13),
        ("bid7", BID_BASE + 7),
        (" 1 ", BID_BASE + 1),
        ("Redeal", REDEAL),
        ("10h", 34),
        ("ah", 38),
    ],
)
def test_parse_action_forms(text: str, action: int) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize("text", ["0", "14", "bid 0", "bid", "-3", "pass", "", "AX", "bid AH"])
def test_parse_action_refuses_and_quotes(text: str) -> None:
    with pytest.raises(ValueError, match="is not an action") as info:
        parse_action(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("n", [0, 14, -1])
def test_bid_action_range(n: int) -> None:
    with pytest.raises(ValueError, match=f"{n} is not a bid"):
        bid_action(n)


@pytest.mark.parametrize("a", [-1, BID_BASE, 67, 1000])
def test_action_str_refuses(a: int) -> None:
    with pytest.raises(ValueError, match=f"{a} is not an action"):
        action_str(a)
