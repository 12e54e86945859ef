"""Malformed and illegal game records (docs/game-record.md): every kind of
fault in the record, a hand or an action gives ``hand H action A: reason``
with the right H and A, and the error carries them."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fh_records import (
    Mutation,
    Record,
    cut_hand,
    deal_cards,
    drop,
    drop_in_hand,
    edit_deal,
    error_of,
    in_hand,
    move_card,
    put,
    set_bid,
    set_play,
    swap_in_deal,
)

from fourhundred.engine import RecordError, replay

# ------------------------------------------------------------ bad records
#
# The mutations (put, in_hand, cut_hand...) are in fh_records.py.

NO_SEAT = "hand - action -: first_dealer must be a seat"
CASES: list[tuple[str, Mutation, str | None]] = [
    # ---- the record as a whole: hand - action -
    ("unknown top-level key", put("players", ["a"]), "hand - action -: unknown keys ['players']"),
    ("format missing", drop("format"), "hand - action -: format must be"),
    ("format wrong", put("format", "fourhundred-record/2"), "hand - action -: format must be"),
    ("rules missing", drop("rules"), "hand - action -: "),
    ("rules not an object", put("rules", "standard"), "hand - action -: rules must be an object"),
    (
        "unknown setting",
        put("rules", {"min_bids": 2}),
        "hand - action -: unknown setting 'min_bids'",
    ),
    ("unknown preset", put("rules", {"preset": "fast"}), "hand - action -: unknown preset 'fast'"),
    (
        "setting out of range",
        put("rules", {"preset": "standard", "min_bid": 5}),
        "hand - action -: setting 'min_bid' cannot be 5",
    ),
    (
        "setting of the wrong type",
        put("rules", {"thirteen_bid": "yes"}),
        "hand - action -: setting 'thirteen_bid' cannot be 'yes'",
    ),
    ("first_dealer missing", drop("first_dealer"), NO_SEAT),
    ("first_dealer 4", put("first_dealer", 4), NO_SEAT),
    ("first_dealer -1", put("first_dealer", -1), NO_SEAT),
    (
        "first_dealer true",
        put("first_dealer", True),
        NO_SEAT,
    ),
    ("first_dealer 0.0", put("first_dealer", 0.0), NO_SEAT),
    ("first_dealer '0'", put("first_dealer", "0"), NO_SEAT),
    ("hands missing", drop("hands"), "hand - action -: hands must be a list"),
    ("hands not a list", put("hands", {"0": {}}), "hand - action -: hands must be a list"),
    # ---- one hand: hand H action -
    ("hand not an object", lambda r: r["hands"].__setitem__(1, [1, 2]), "hand 1 action -: "),
    ("unknown key in a hand", in_hand(1, "trump", "H"), "hand 1 action -: "),
    ("hand without bids", drop_in_hand(1, "bids"), "hand 1 action -: "),
    ("hand without plays", drop_in_hand(2, "plays"), "hand 2 action -: "),
    ("hand without deal", drop_in_hand(0, "deal"), "hand 0 action -: "),
    ("hand without dealer", drop_in_hand(1, "dealer"), "hand 1 action -: "),
    ("bids not a list", in_hand(1, "bids", "2 2 2 2"), "hand 1 action -: "),
    ("dealer true", in_hand(1, "dealer", True), "hand 1 action -: "),
    ("redeal_request true", in_hand(1, "redeal_request", True), "hand 1 action -: "),
    ("wrong dealer", in_hand(1, "dealer", 2), "hand 1 action -: dealer should be seat 1"),
    ("first dealer disagrees", put("first_dealer", 3), "hand 0 action -: dealer should be seat 3"),
    ("deal swaps keep 13 each", swap_in_deal(1), None),  # still a deal: not an error by itself
    ("deal: a duplicate card", edit_deal(1, 0, 0, "AS"), "hand 1 action -: the deal is not"),
    ("deal: not a card", edit_deal(2, 3, 5, "1H"), "hand 2 action -: the deal is not"),
    ("deal: lower case", edit_deal(0, 1, 0, "3c"), "hand 0 action -: the deal is not"),
    ("deal: a number", edit_deal(0, 1, 0, 1), "hand 0 action -: the deal is not"),
    ("deal: 14 and 12 cards", move_card(1), "hand 1 action -: the deal is not"),
    (
        "deal: three seats",
        lambda r: r["hands"][2]["deal"].pop(),
        "hand 2 action -: the deal is not",
    ),
    ("deal: a seat not a list", deal_cards(1, 2, "2C 3C"), "hand 1 action -: the deal is not"),
    ("redeal with the setting off", in_hand(2, "redeal_request", 0), "hand 2 action -: redeal"),
    # ---- one action: hand H action A
    ("bid 3.0", set_bid(0, 0, 3.0), "hand 0 action 0: bid 3.0 by seat 1 is not legal"),
    ("bid true", set_bid(0, 1, True), "hand 0 action 1: bid True by seat 2 is not legal"),
    ("bid '3'", set_bid(0, 2, "3"), "hand 0 action 2: bid '3' by seat 3 is not legal"),
    ("bid null", set_bid(0, 3, None), "hand 0 action 3: bid None by seat 0 is not legal"),
    ("bid too low", set_bid(1, 2, 1), "hand 1 action 2: bid 1 by seat 0 is not legal"),
    ("bid 13 without the setting", set_bid(2, 1, 13), "hand 2 action 1: bid 13 by seat 0"),
    ("five bids", lambda r: r["hands"][0]["bids"].append(2), "hand 0 action 4: "),
    ("missing bids", cut_hand(1, bids=2), "hand 1 action 2: hand is missing bids"),
    ("missing plays", cut_hand(0, plays=30), "hand 0 action 34: hand is missing plays"),
    ("no plays at all", cut_hand(0, plays=0), "hand 0 action 4: hand is missing plays"),
    ("a card not held", set_play(0, 0, "2C"), "hand 0 action 4: card '2C' by seat 1 is not legal"),
    ("not following suit", set_play(2, 1, "2C"), "hand 2 action 5: card '2C' by seat 0"),
    ("a card in lower case", set_play(0, 2, "ac"), "hand 0 action 6: card 'ac' by seat 3"),
    ("a card as a number", set_play(0, 3, 12), "hand 0 action 7: card 12 by seat 0"),
    ("a card as 10H", set_play(2, 4, "10H"), "hand 2 action 8: card '10H' by seat "),
    ("plays in a thrown-in hand", in_hand(1, "plays", ["2C"]), "hand 1 action 4: thrown-in"),
    (
        "a card before the bids are complete",
        cut_hand(2, bids=3),
        "hand 2 action 4: a card is played before the bidding is complete",
    ),
    (
        "a card after the hand is over",
        lambda r: r["hands"][0]["plays"].append("2C"),
        "hand 0 action 56: the hand is already over",
    ),
]


@pytest.mark.parametrize(("why", "mutate", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_record(record: Record, why: str, mutate: Mutation, expected: str | None) -> None:
    data = copy.deepcopy(record)
    mutate(data)
    if expected is None:
        replay(data)  # a different deal that the plays may not fit, or may
        return
    message = error_of(data)
    assert message.startswith(expected), f"{why}: {message}"
    assert "\n" not in message


def test_the_plays_of_a_swapped_deal_are_checked(record: Record) -> None:
    """Hand 1 was thrown in, so swapping its cards is fine; in hand 0 the
    same swap makes a card someone no longer holds."""
    data = copy.deepcopy(record)
    swap_in_deal(0)(data)
    assert error_of(data).startswith("hand 0 action ")


@pytest.mark.parametrize("value", [None, [], "record", 3])
def test_a_record_must_be_an_object(value: Any) -> None:
    assert error_of(value) == "hand - action -: a record must be a JSON object"


def test_the_error_carries_hand_and_action(record: Record) -> None:
    data = copy.deepcopy(record)
    set_play(0, 3, "KH")(data)
    with pytest.raises(RecordError) as info:
        replay(data)
    assert (info.value.hand, info.value.action) == (0, 7)
    assert info.value.reason.startswith("card 'KH' by seat 0 is not legal")
    assert isinstance(info.value, ValueError)
