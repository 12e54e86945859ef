"""Seats and teams (rules.md, "Seats, teams, direction").

Seats are numbered 0..3 in play order: the seat after ``s`` is ``(s + 1) % 4``
(anticlockwise at a real table). Partners sit opposite, so seats 0 and 2 are
team 0 and seats 1 and 3 are team 1.

>>> Seat(3).next
<Seat.S0: 0>
>>> Seat(1).partner
<Seat.S3: 3>
>>> Seat(2).team
0
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

SEATS: Final = (0, 1, 2, 3)
TEAMS: Final = (0, 1)


class Seat(IntEnum):
    """One of the four seats, in play order."""

    S0 = 0
    S1 = 1
    S2 = 2
    S3 = 3

    @property
    def next(self) -> Seat:
        """The seat that acts after this one."""
        return Seat((self + 1) & 3)

    @property
    def previous(self) -> Seat:
        return Seat((self + 3) & 3)

    @property
    def partner(self) -> Seat:
        return Seat(self ^ 2)

    @property
    def team(self) -> int:
        return self & 1

    @classmethod
    def parse(cls, value: object) -> Seat:
        """A seat from a JSON-ish value: exactly an ``int`` 0..3 (not ``True``)."""
        if type(value) is int and 0 <= value <= 3:
            return cls(value)
        raise ValueError(f"{value!r} is not a seat (seats are the integers 0 to 3)")


def team_of(seat: int) -> int:
    """The team (0 or 1) of a seat."""
    return seat & 1


def team_seats(team: int) -> tuple[int, int]:
    """The two seats of a team."""
    return (team, team + 2)
