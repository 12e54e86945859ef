"""The view (docs/view.md): its JSON shape exactly, and what each seat or a
spectator may see."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from fourhundred.engine import (
    PRESETS,
    STANDARD,
    VIEW_FORMAT,
    GameState,
    Phase,
    Settings,
    TrickView,
    View,
    card_str,
    cards_of,
    mask_of,
    parse_card,
    required_total,
    view_for,
)

KEYS = [
    "format",
    "rules",
    "seat",
    "hand_index",
    "dealer",
    "phase",
    "scores",
    "required_total",
    "hand",
    "bids",
    "tricks_won",
    "tricks",
    "turn",
    "legal",
    "values",
    "can_redeal",
    "winner",
]
SPECTATOR_KEYS = [k for k in KEYS if k != "hand"]

# Card c goes to seat c % 4.
INTERLEAVED = [mask_of(c for c in range(52) if c % 4 == s) for s in range(4)]


def names(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def cards(text: str) -> list[int]:
    return [parse_card(x) for x in text.split()]


def bidding(settings: Settings = STANDARD, deal: list[int] = INTERLEAVED) -> GameState:
    s = GameState(settings, first_dealer=3)
    s.deal(deal)
    return s


def test_exact_view_mid_trick() -> None:
    s = bidding()
    for n in (3, 4, 2, 2):
        s.bid(n)
    for c in cards("AC 3C 4C 5C 6C"):
        s.play(c)
    view = view_for(s, 1)
    assert view.to_dict() == {
        "format": "fourhundred-view/1",
        "rules": STANDARD.to_dict(),
        "seat": 1,
        "hand_index": 0,
        "dealer": 3,
        "phase": "play",
        "scores": [0, 0, 0, 0],
        "required_total": 11,
        "hand": ["7C", "JC", "2D", "6D", "TD", "AD", "5H", "9H", "KH", "4S", "8S", "QS"],
        "bids": [3, 4, 2, 2],
        "tricks_won": [1, 0, 0, 0],
        "tricks": [
            {"leader": 0, "cards": ["AC", "3C", "4C", "5C"], "winner": 0},
            {"leader": 0, "cards": ["6C"], "winner": None},
        ],
        "turn": 1,
        "legal": ["7C", "JC"],
        "values": None,
        "can_redeal": False,
        "winner": None,
    }
    assert list(view.to_dict()) == KEYS
    spectator = view_for(s, None).to_dict()
    assert list(spectator) == SPECTATOR_KEYS
    assert spectator["seat"] is None
    assert spectator["legal"] is None
    other = view_for(s, 2).to_dict()
    assert other["legal"] is None
    assert other["values"] is None
    assert other["hand"] == names(s.hand(2))


def test_exact_view_while_bidding() -> None:
    s = bidding(PRESETS["traditional"])
    s.bid(5)
    d = view_for(s, 1).to_dict()
    assert d["phase"] == "bid"
    assert d["bids"] == [5, None, None, None]
    assert d["tricks"] == []
    assert d["tricks_won"] == [0, 0, 0, 0]
    assert d["turn"] == 1
    assert d["legal"] == list(range(2, 14))
    # values: the points of each legal bid for this seat now; 13 has none.
    assert d["values"] == [2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36, None]
    assert "preset" not in d["rules"]
    assert d["rules"] == PRESETS["traditional"].to_dict()
    for seat in (0, 2, 3, None):
        od = view_for(s, seat).to_dict()
        assert od["legal"] is None
        assert od["values"] is None


def test_values_follow_the_seats_own_score() -> None:
    s = GameState(PRESETS["jawaker"], first_dealer=3)
    # As if earlier hands had brought seat 0 to 30 points.
    s.scores = [30, 0, 0, 0]
    s.required = required_total(s.settings, s.scores)
    s.deal(INTERLEAVED)
    d = view_for(s, 0).to_dict()
    # At 30: lowest bid 3, a 5 worth 5, a 6 worth 6, 10+ worth 40.
    assert d["legal"] == list(range(3, 14))
    assert d["values"] == [3, 4, 5, 6, 14, 16, 27, 40, 40, 40, None]
    assert d["scores"] == [30, 0, 0, 0]
    assert d["required_total"] == 12


def test_can_redeal_only_for_an_eligible_seat() -> None:
    low = cards("2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D")
    rest = [c for c in range(52) if c not in low]
    deal = [mask_of(rest[:13]), mask_of(rest[13:26]), mask_of(low), mask_of(rest[26:])]
    s = bidding(STANDARD.replace(no_face_card_redeal=True), deal)
    # Seat 2 may ask though it is seat 0's turn; nobody else may.
    assert [view_for(s, x).can_redeal for x in (None, 0, 1, 2, 3)] == [
        False,
        False,
        False,
        True,
        False,
    ]
    s.bid(2)
    assert not view_for(s, 2).can_redeal
    same = bidding(STANDARD, deal)
    assert not view_for(same, 2).can_redeal, "the setting is off"


def test_view_when_the_game_is_over() -> None:
    s = GameState(STANDARD.replace(target=11), first_dealer=3)
    s.scores = [9, 0, 5, 0]
    by_suit = [mask_of(range(13 * x, 13 * x + 13)) for x in range(4)]
    s.deal([by_suit[2], by_suit[0], by_suit[1], by_suit[3]])
    for n in (2, 3, 3, 3):
        s.bid(n)
    while s.phase is Phase.PLAY:
        s.play(s.timeout_action())
    assert s.phase is Phase.OVER
    for seat in (None, 0, 1, 2, 3):
        d = view_for(s, seat).to_dict()
        assert d["phase"] == "over"
        assert d["turn"] is None
        assert d["legal"] is None
        assert d["values"] is None
        assert d["winner"] == 0
        assert d["scores"] == [11, -3, 2, -3]
        assert len(d["tricks"]) == 13
        assert all(t["winner"] == 0 for t in d["tricks"])
        if seat is not None:
            assert d["hand"] == []


def test_no_view_between_hands() -> None:
    s = GameState(first_dealer=0)
    with pytest.raises(ValueError, match="no view between hands"):
        view_for(s, 0)
    with pytest.raises(ValueError, match="no view between hands"):
        view_for(s, None)


@pytest.mark.parametrize("bad", [4, -1, True, "0", 1.0])
def test_view_for_refuses_what_is_not_a_seat(bad: Any) -> None:
    with pytest.raises(ValueError, match="is not a seat") as info:
        view_for(bidding(), bad)
    assert repr(bad) in str(info.value)


def test_hand_index_counts_thrown_in_hands() -> None:
    s = bidding()
    for _ in range(4):
        s.bid(2)  # 8 < 11: thrown in
    s.deal(INTERLEAVED)
    d = view_for(s, 0).to_dict()
    assert d["hand_index"] == 1
    assert d["dealer"] == 0
    assert d["turn"] == 1


def test_view_is_a_frozen_value_and_its_json_is_plain() -> None:
    s = bidding()
    view = view_for(s, 0)
    assert isinstance(view, View)
    assert VIEW_FORMAT == "fourhundred-view/1"
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 3  # type: ignore[misc]
    d = view.to_dict()
    assert d["format"] == VIEW_FORMAT
    assert json.loads(json.dumps(d)) == d
    d["rules"]["target"] = 1
    d["scores"][0] = 99
    assert view.to_dict()["rules"]["target"] == 41
    assert view.to_dict()["scores"][0] == 0
    assert view == view_for(s, 0)
    assert view.legal_is_bids
    assert TrickView(0, (1, 2), None).to_dict() == {
        "leader": 0,
        "cards": ["3C", "4C"],
        "winner": None,
    }
