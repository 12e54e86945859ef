"""The values the store reads and writes: users, a table's row and events,
finished games' players, and one command's commit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "Commit",
    "GamePlayer",
    "StoredEvent",
    "TableExists",
    "TableRow",
    "User",
    "UserUpdate",
    "UsernameTaken",
    "VersionConflict",
    "player_of",
    "storable",
    "table_of",
    "user_of",
]

DEFAULT_MU: Final = 25.0
DEFAULT_SIGMA: Final = 25.0 / 3.0


class UsernameTaken(ValueError):
    """Registration with a username that exists (compared case-insensitively)."""


class TableExists(ValueError):
    """A new table with an id that is already stored."""


class VersionConflict(RuntimeError):
    """A commit found the table at another version than expected: some other
    writer owns it. Nothing was written."""


@dataclass(frozen=True, slots=True)
class User:
    id: str
    name: str
    username: str | None
    guest: bool
    created_ms: int
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    rated_games: int = 0
    games: int = 0
    wins: int = 0
    bids_made: int = 0
    bids: int = 0
    password_hash: str | None = field(default=None, repr=False)
    deleted: bool = False


def storable(text: str) -> bool:
    """Whether ``text`` can be looked up at all: PostgreSQL text cannot hold
    NUL, so such an id (a guess, a fuzzer) simply matches nothing, on every
    database alike, instead of failing the query."""
    return "\x00" not in text


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One entry of a table's event log."""

    version: int
    kind: str
    data: dict[str, Any]
    at_ms: int


@dataclass(slots=True)
class TableRow:
    id: str
    kind: str
    status: str
    invite: str | None
    host: str | None
    version: int
    summary: dict[str, Any]
    open_seats: int
    created_ms: int
    updated_ms: int
    deadline_ms: int | None = None
    owner: str | None = None
    finished_ms: int | None = None
    rated: bool = False
    winner: int | None = None
    reason: str | None = None
    scores: list[int] | None = None
    hands: int | None = None
    record: dict[str, Any] | None = None
    tournament: str | None = None


@dataclass(frozen=True, slots=True)
class GamePlayer:
    table_id: str
    seat: int
    user_id: str | None
    bot: str | None
    score: int
    won: bool
    rating_before: int | None
    rating_after: int | None
    bids_made: int
    bids: int
    finished_ms: int


@dataclass(frozen=True, slots=True)
class UserUpdate:
    """Changes to a user at the end of a game (counters are increments)."""

    user_id: str
    mu: float | None = None
    sigma: float | None = None
    rated_games: int = 0
    games: int = 0
    wins: int = 0
    bids_made: int = 0
    bids: int = 0


@dataclass(slots=True)
class Commit:
    """What one accepted command changes, written atomically."""

    table_id: str
    expect_version: int
    events: Sequence[StoredEvent]
    fields: dict[str, Any]
    """Columns of the ``tables`` row to set (``version`` is set from the events)."""
    seats: Sequence[tuple[int, str, bool]] | None = None
    """When given, the table's seats replace the stored ones: (seat, user, active)."""
    players: Sequence[GamePlayer] = ()
    users: Sequence[UserUpdate] = ()


def user_of(row: Any) -> User:
    return User(
        id=row.id,
        name=row.name,
        username=row.username,
        guest=row.guest,
        created_ms=row.created_ms,
        mu=row.mu,
        sigma=row.sigma,
        rated_games=row.rated_games,
        games=row.games,
        wins=row.wins,
        bids_made=row.bids_made,
        bids=row.bids,
        password_hash=row.password_hash,
        deleted=row.deleted,
    )


def table_of(row: Any) -> TableRow:
    return TableRow(
        id=row.id,
        kind=row.kind,
        status=row.status,
        invite=row.invite,
        host=row.host,
        version=row.version,
        summary=row.summary,
        open_seats=row.open_seats,
        created_ms=row.created_ms,
        updated_ms=row.updated_ms,
        deadline_ms=row.deadline_ms,
        owner=row.owner,
        finished_ms=row.finished_ms,
        rated=row.rated,
        winner=row.winner,
        reason=row.reason,
        scores=row.scores,
        hands=row.hands,
        record=row.record,
        tournament=row.tournament,
    )


def player_of(row: Any) -> GamePlayer:
    return GamePlayer(
        table_id=row.table_id,
        seat=row.seat,
        user_id=row.user_id,
        bot=row.bot,
        score=row.score,
        won=row.won,
        rating_before=row.rating_before,
        rating_after=row.rating_after,
        bids_made=row.bids_made,
        bids=row.bids,
        finished_ms=row.finished_ms,
    )
