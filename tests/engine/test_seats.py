"""Seats and teams (docs/rules.md, "Seats and direction")."""

from __future__ import annotations

import pytest

from fourhundred.engine import (
    SEAT_AFTER,
    TEAM_OF,
    Seat,
    bidding_order,
    next_seat,
    other_team,
    partner_of,
    team_of,
    team_seats,
)
from fourhundred.engine.seats import SEATS, TEAMS


def test_play_order() -> None:
    assert [Seat(s).next for s in SEATS] == [1, 2, 3, 0]
    assert [Seat(s).previous for s in SEATS] == [3, 0, 1, 2]
    for s in Seat:
        assert s.next.previous is s
        assert s.next.next.next.next is s


def test_partners_sit_opposite() -> None:
    assert [Seat(s).partner for s in SEATS] == [2, 3, 0, 1]
    for s in Seat:
        assert s.partner.partner is s
        assert s.partner.team == s.team
        assert s.next.team != s.team


def test_teams() -> None:
    assert [Seat(s).team for s in SEATS] == [0, 1, 0, 1]
    assert [team_of(s) for s in SEATS] == [0, 1, 0, 1]
    assert TEAMS == (0, 1)
    assert team_seats(0) == (0, 2)
    assert team_seats(1) == (1, 3)


@pytest.mark.parametrize("value", [0, 1, 2, 3])
def test_parse(value: int) -> None:
    assert Seat.parse(value) == value


@pytest.mark.parametrize("value", [-1, 4, True, False, 1.0, "1", None, [1]])
def test_parse_refuses_what_is_not_an_int_seat(value: object) -> None:
    with pytest.raises(ValueError, match="is not a seat") as info:
        Seat.parse(value)
    assert repr(value) in str(info.value)


def test_seat_functions_agree_with_seat() -> None:
    for s in Seat:
        assert next_seat(s) == s.next
        assert next_seat(s, -1) == s.previous
        assert next_seat(s, 4) == s
        assert partner_of(s) == s.partner
        assert team_of(s) == TEAM_OF[s] == s.team
        assert s in team_seats(s.team)
        assert other_team(s.team) == s.next.team
        assert [SEAT_AFTER[s][k] for k in range(-3, 4)] == [next_seat(s, k) for k in range(-3, 4)]


@pytest.mark.parametrize("dealer", SEATS)
def test_bidding_order_starts_after_the_dealer(dealer: int) -> None:
    order = bidding_order(dealer)
    assert order[0] == Seat(dealer).next
    assert order[-1] == dealer
    assert sorted(order) == [0, 1, 2, 3]
    assert all(order[i + 1] == next_seat(order[i]) for i in range(3))
