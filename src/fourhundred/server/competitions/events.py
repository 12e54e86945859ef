"""A tournament's events: what happened, as immutable typed values.

A tournament is the fold of its event log (:mod:`.model`); every organiser
act, every entry and every result is one event. Each is a frozen msgspec
Struct tagged by ``kind``, stored as its fields (the ``kind`` apart).

>>> to_stored(CheckedIn(player="u1"))
('checked_in', {'player': 'u1'})
>>> from_stored("checked_in", {"player": "u1"})
CheckedIn(player='u1')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

__all__ = [
    "Cancelled",
    "CheckedIn",
    "Created",
    "Dropped",
    "Entered",
    "Finished",
    "Forfeit",
    "Format",
    "MatchResult",
    "Pairing",
    "PartnerAccepted",
    "Paused",
    "Resumed",
    "RoundPaired",
    "SoloPaired",
    "Started",
    "TeamRemoved",
    "TournamentEvent",
    "Withdrawn",
    "from_stored",
    "to_stored",
]

Format = Literal["knockout", "swiss"]


class Pairing(msgspec.Struct, frozen=True):
    """One match of a round: the table slot and the two teams."""

    table: int
    a: str
    b: str


class _Event(msgspec.Struct, frozen=True, tag_field="kind"):
    """The base of every tournament event."""


class Created(_Event, frozen=True, tag="created"):
    name: str
    organiser: str
    format: Format
    rounds: int | None
    """Swiss only: how many rounds (a knockout runs until one team is left)."""
    max_teams: int
    start_ms: int
    public: bool
    preset: str
    settings: dict[str, Any]
    timer: int


class Entered(_Event, frozen=True, tag="entered"):
    """A team entered by ``player`` with ``partner`` invited (who must
    accept), or a solo entrant (``team`` and ``partner`` None)."""

    player: str
    team: str | None = None
    partner: str | None = None


class PartnerAccepted(_Event, frozen=True, tag="partner_accepted"):
    team: str
    player: str


class SoloPaired(_Event, frozen=True, tag="solo_paired"):
    """Two solo entrants made into a team when check-in closed."""

    team: str
    players: tuple[str, str]


class Withdrawn(_Event, frozen=True, tag="withdrawn"):
    """``player`` withdrew before the start: a solo entry ends, a team's
    entry ends for both its players (``team``)."""

    player: str
    team: str | None = None


class CheckedIn(_Event, frozen=True, tag="checked_in"):
    player: str


class Dropped(_Event, frozen=True, tag="dropped"):
    """Left out at the start: a team not checked in (or whose partner never
    accepted), or a solo entrant without a partner."""

    reason: Literal["not_checked_in", "no_partner"]
    team: str | None = None
    player: str | None = None


class Started(_Event, frozen=True, tag="started"):
    at_ms: int
    seeds: tuple[str, ...]
    """Every playing team, best seed first (by the average rating at start)."""


class RoundPaired(_Event, frozen=True, tag="round_paired"):
    round: int
    at_ms: int
    tables: tuple[Pairing, ...]
    byes: tuple[str, ...]


class MatchResult(_Event, frozen=True, tag="match_result"):
    """A finished game's result, taken from its record by the server."""

    round: int
    a: str
    b: str
    winner: str
    points_a: int
    points_b: int


class Forfeit(_Event, frozen=True, tag="forfeit"):
    """``team`` loses its match of ``round``: not seated within the time
    allowed, or removed by the organiser."""

    round: int
    team: str
    reason: Literal["not_seated", "removed"]


class Paused(_Event, frozen=True, tag="paused"):
    at_ms: int


class Resumed(_Event, frozen=True, tag="resumed"):
    at_ms: int


class TeamRemoved(_Event, frozen=True, tag="team_removed"):
    team: str


class Cancelled(_Event, frozen=True, tag="cancelled"):
    reason: Literal["organiser", "too_few_teams"]


class Finished(_Event, frozen=True, tag="finished"):
    winner: str


TournamentEvent = (
    Created
    | Entered
    | PartnerAccepted
    | Withdrawn
    | SoloPaired
    | CheckedIn
    | Dropped
    | Started
    | RoundPaired
    | MatchResult
    | Forfeit
    | Paused
    | Resumed
    | TeamRemoved
    | Cancelled
    | Finished
)


def to_stored(event: TournamentEvent) -> tuple[str, dict[str, Any]]:
    """The event's ``kind`` and its stored fields."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    return data.pop("kind"), data


def from_stored(kind: str, data: Mapping[str, Any]) -> TournamentEvent:
    """The event a stored row holds; ``ValueError`` for one that does not fit."""
    fields = {**data, "kind": kind}
    try:
        event: TournamentEvent = msgspec.convert(fields, TournamentEvent)
    except msgspec.ValidationError as e:
        raise ValueError(f"stored {kind!r} event does not fit: {e}") from None
    return event
