"""Seats and teams (docs/rules.md, "Seats and direction").

Seats are numbered 0..3 in play order: the seat after ``s`` is ``(s + 1) % 4``
(anticlockwise at a real table). Partners sit opposite, so seats 0 and 2 are
team 0 and seats 1 and 3 are team 1.

This module is the one place seat arithmetic is written down. :class:`Seat`
is the readable form; the plain functions (:func:`next_seat`,
:func:`partner_of`, :func:`team_of`, ...) take and return ints, for code
that holds seats as ints; the tables (:data:`TEAM_OF`, :data:`SEAT_AFTER`)
are the same answers for the bots' innermost loops, where even a function
call counts.

>>> Seat(3).next
<Seat.S0: 0>
>>> Seat(1).partner
<Seat.S3: 3>
>>> Seat(2).team
0
>>> next_seat(3), next_seat(1, 2), next_seat(0, -1)
(0, 3, 3)
>>> partner_of(1), team_of(3), team_seats(1), other_team(0)
(3, 1, (1, 3), 1)
>>> bidding_order(dealer=2)
(3, 0, 1, 2)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

__all__ = [
    "SEATS",
    "SEAT_AFTER",
    "TEAMS",
    "TEAM_OF",
    "Seat",
    "bidding_order",
    "next_seat",
    "other_team",
    "partner_of",
    "team_of",
    "team_seats",
]

SEATS: Final = (0, 1, 2, 3)
TEAMS: Final = (0, 1)


def next_seat(seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` in play order (negative
    ``steps`` count backwards: ``next_seat(s, -1)`` is the seat before)."""
    return (seat + steps) & 3


def partner_of(seat: int) -> int:
    """The seat opposite ``seat``: its partner."""
    return seat ^ 2


def team_of(seat: int) -> int:
    """The team (0 or 1) of a seat."""
    return seat & 1


def team_seats(team: int) -> tuple[int, int]:
    """The two seats of a team."""
    return (team, team + 2)


def other_team(team: int) -> int:
    """The team that is not ``team``."""
    return 1 - team


def bidding_order(dealer: int) -> tuple[int, int, int, int]:
    """The four seats in the order they bid (and lead the first trick): the
    seat after the dealer first, the dealer last."""
    return _BIDDING_ORDER[dealer]


_BIDDING_ORDER: Final = tuple((next_seat(d, 1), next_seat(d, 2), next_seat(d, 3), d) for d in SEATS)

TEAM_OF: Final[tuple[int, int, int, int]] = (0, 1, 0, 1)
"""``TEAM_OF[seat]`` is ``team_of(seat)`` without a call."""

SEAT_AFTER: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(next_seat(s, k) for k in range(4)) for s in SEATS
)
"""``SEAT_AFTER[seat][k]`` is ``next_seat(seat, k)`` without a call, for
``k`` in -3..3 (a negative ``k`` counts back, by Python's indexing): the
seat ``k`` places after ``seat``."""


class Seat(IntEnum):
    """One of the four seats, in play order."""

    S0 = 0
    S1 = 1
    S2 = 2
    S3 = 3

    @property
    def next(self) -> Seat:
        """The seat that acts after this one."""
        return Seat(next_seat(self))

    @property
    def previous(self) -> Seat:
        """The seat that acts before this one."""
        return Seat(next_seat(self, -1))

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return Seat(partner_of(self))

    @property
    def team(self) -> int:
        """This seat's team (0 or 1)."""
        return team_of(self)

    @classmethod
    def parse(cls, value: object) -> Seat:
        """A seat from a JSON-ish value: exactly an ``int`` 0..3 (not ``True``)."""
        if type(value) is int and 0 <= value <= 3:
            return cls(value)
        raise ValueError(f"{value!r} is not a seat (seats are the integers 0 to 3)")
