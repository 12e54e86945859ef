"""What may be asked of a tournament, and by whom.

A :class:`Player` is a signed-in person (the organiser is the one who
created the tournament); :data:`SYSTEM` is the server itself: the director
that starts a tournament at its time, pairs rounds and reports the results
it reads from finished games' records. A client never reports a result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .events import Format

__all__ = [
    "SYSTEM",
    "AcceptPartner",
    "Actor",
    "Cancel",
    "CheckIn",
    "Command",
    "Create",
    "DeclareForfeit",
    "EnterSolo",
    "EnterTeam",
    "PairNextRound",
    "Pause",
    "Player",
    "RemoveTeam",
    "ReportResult",
    "Resume",
    "Start",
    "System",
    "Withdraw",
]


@dataclass(frozen=True, slots=True)
class Player:
    user_id: str


@dataclass(frozen=True, slots=True)
class System:
    """The server acting on its own, from facts it holds (clock, records)."""


SYSTEM: Final = System()

Actor = Player | System


@dataclass(frozen=True, slots=True)
class Create:
    name: str
    format: Format
    max_teams: int
    start_ms: int
    rounds: int | None = None
    public: bool = True
    preset: str = "standard"
    settings: Mapping[str, Any] = field(default_factory=dict)
    timer: int = 30


@dataclass(frozen=True, slots=True)
class EnterTeam:
    """Enter with ``partner`` (who must accept)."""

    partner: str


@dataclass(frozen=True, slots=True)
class AcceptPartner:
    team: str


@dataclass(frozen=True, slots=True)
class EnterSolo:
    """Enter alone, to be paired with another solo entrant at the start."""


@dataclass(frozen=True, slots=True)
class CheckIn:
    pass


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Leave before the start (a team's player withdraws the whole team)."""


@dataclass(frozen=True, slots=True)
class Start:
    """Close check-in and play: the organiser at any time, the server at the
    start time. ``ratings`` (player -> rating) seed teams and pair solos."""

    ratings: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PairNextRound:
    pass


@dataclass(frozen=True, slots=True)
class ReportResult:
    """A finished game's result, read by the server from its record."""

    round: int
    winner: str
    winner_points: int
    loser_points: int


@dataclass(frozen=True, slots=True)
class DeclareForfeit:
    """``team`` was not seated in time: ``after_ms`` after its round was
    paired (:data:`~.decide.FORFEIT_AFTER_MS`; less under a test's timer
    scale)."""

    round: int
    team: str
    after_ms: int = 180_000


@dataclass(frozen=True, slots=True)
class Pause:
    pass


@dataclass(frozen=True, slots=True)
class Resume:
    pass


@dataclass(frozen=True, slots=True)
class RemoveTeam:
    team: str


@dataclass(frozen=True, slots=True)
class Cancel:
    pass


Command = (
    Create
    | EnterTeam
    | AcceptPartner
    | EnterSolo
    | CheckIn
    | Withdraw
    | Start
    | PairNextRound
    | ReportResult
    | DeclareForfeit
    | Pause
    | Resume
    | RemoveTeam
    | Cancel
)
