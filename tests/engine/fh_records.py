"""Records shared by the record tests (``test_record_*.py``): a game of three
hands to record (its record is the ``record`` fixture of conftest.py), a deal
where one seat holds no face card, the error a record gives, and the
mutations that spoil a record in one place each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fh_game_states import INTERLEAVED

from fourhundred.engine import (
    STANDARD,
    GameState,
    Phase,
    RecordError,
    Settings,
    mask_of,
    parse_card,
    replay,
)

Record = dict[str, Any]

LOW = [
    parse_card(x)
    for x in ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "2D", "3D", "4D", "5D"]
]


def low_deal(seat: int) -> list[int]:
    """``seat`` holds no face card; the rest goes round in deck order."""
    rest = [c for c in range(52) if c not in LOW]
    masks = []
    for s in range(4):
        if s == seat:
            masks.append(mask_of(LOW))
        else:
            masks.append(mask_of(rest[:13]))
            rest = rest[13:]
    return masks


def base_state(settings: Settings = STANDARD) -> GameState:
    """Three hands from seat 0's deal: hand 0 played in full (seat 1 deals
    hand 1), hand 1 thrown in, hand 2 under way (bids done, 5 cards)."""
    s = GameState(settings, first_dealer=0)
    s.deal(INTERLEAVED)
    for n in (3, 4, 2, 2):
        s.bid(n)
    while s.phase is Phase.PLAY:
        s.play(s.legal_cards()[0])
    s.deal(INTERLEAVED)
    for n in (2, 2, 2, 2):
        s.bid(n)
    assert s.history[-1].thrown_in
    s.deal(INTERLEAVED)
    for n in (3, 3, 3, 3):
        s.bid(n)
    for _ in range(5):
        s.play(s.legal_cards()[-1])
    return s


def error_of(data: object) -> str:
    with pytest.raises(RecordError) as info:
        replay(data)
    return str(info.value)


# ------------------------------------------------- mutations of a record

Mutation = Callable[[Record], Any]


def drop(key: str) -> Mutation:
    return lambda r: r.pop(key)


def put(key: str, value: Any) -> Mutation:
    return lambda r: r.__setitem__(key, value)


def in_hand(i: int, key: str, value: Any) -> Mutation:
    return lambda r: r["hands"][i].__setitem__(key, value)


def drop_in_hand(i: int, key: str) -> Mutation:
    return lambda r: r["hands"][i].pop(key)


def set_bid(i: int, k: int, value: Any) -> Mutation:
    return lambda r: r["hands"][i]["bids"].__setitem__(k, value)


def set_play(i: int, k: int, value: Any) -> Mutation:
    return lambda r: r["hands"][i]["plays"].__setitem__(k, value)


def swap_in_deal(i: int) -> Mutation:
    def f(r: Record) -> None:
        deal = r["hands"][i]["deal"]
        deal[0][0], deal[1][0] = deal[1][0], deal[0][0]

    return f


def deal_cards(i: int, seat: int, cards: Any) -> Mutation:
    return lambda r: r["hands"][i]["deal"].__setitem__(seat, cards)


def edit_deal(i: int, seat: int, k: int, name: Any) -> Mutation:
    return lambda r: r["hands"][i]["deal"][seat].__setitem__(k, name)


def move_card(i: int) -> Mutation:
    """Seat 0 gets 14 cards and seat 1 gets 12."""

    def f(r: Record) -> None:
        deal = r["hands"][i]["deal"]
        deal[0].append(deal[1].pop())

    return f


def cut_hand(i: int, bids: int | None = None, plays: int | None = None) -> Mutation:
    def f(r: Record) -> None:
        h = r["hands"][i]
        if bids is not None:
            h["bids"] = h["bids"][:bids]
        if plays is not None:
            h["plays"] = h["plays"][:plays]

    return f
