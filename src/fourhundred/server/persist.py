"""What one accepted command writes: the table's new events, its row's
columns (status, lobby summary, turn deadline, owner, and at the end of a
game its record), its seats, and the match history and ratings of its
players, all in one :class:`~fourhundred.store.Commit`. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fourhundred.engine import record_from_state
from fourhundred.store import Commit, StoredEvent

from . import frames
from .decide import moved_on
from .events import (
    ROOM_EVENTS,
    Closed,
    Event,
    Left,
    Moved,
    Reclaimed,
    Removed,
    Seated,
    Substituted,
    to_stored,
)
from .results import Ratings, rows
from .room import TableModel

__all__ = ["Stamp", "commit_for", "deadline_after"]

_SEAT_EVENTS = (Seated, Left, Moved, Removed, Substituted, Reclaimed, Closed)
"""Events after which the table's stored seats (who sits where) change."""


def deadline_after(
    m: TableModel, events: Sequence[Event], deadline_ms: int | None, now_ms: int, timer_ms: int
) -> int | None:
    """The turn's deadline once ``events`` are applied to ``m``: none
    outside play, a new one after a move or a deal, else the same."""
    if not m.in_play:
        return None
    if deadline_ms is None or moved_on(events):
        return now_ms + timer_ms
    return deadline_ms


@dataclass(frozen=True, slots=True)
class Stamp:
    """The moment of a commit: when, until when the turn runs, which process
    writes, and who is attached (for the lobby row's summary)."""

    now_ms: int
    deadline_ms: int | None
    node: str
    watching: Sequence[str]


def commit_for(
    before: TableModel, after: TableModel, events: Sequence[Event], stamp: Stamp, known: Ratings
) -> Commit:
    """The store's commit for ``events`` taking ``before`` to ``after``."""
    now_ms, watching = stamp.now_ms, stamp.watching
    fields: dict[str, Any] = {
        "updated_ms": now_ms,
        "deadline_ms": stamp.deadline_ms,
        "owner": stamp.node,
    }
    if any(isinstance(e, ROOM_EVENTS) for e in events):
        # The lobby's row changes with the room, not with every card.
        fields.update(
            status=after.status,
            host=after.host,
            summary=frames.summary(after, watching),
            open_seats=after.open_seats,
            rated=after.rated,
        )
    if after.status == "over" and before.status != "over":
        g = after.game
        assert g is not None and after.result is not None
        fields.update(
            finished_ms=now_ms,
            winner=after.result.winner,
            reason=after.result.reason,
            scores=list(g.scores),
            hands=len(g.history),
            record=record_from_state(g).to_dict(),
        )
    stored = []
    for i, e in enumerate(events):
        kind, data = to_stored(e)
        stored.append(StoredEvent(before.version + 1 + i, kind, data, now_ms))
    players, users = rows(after, events, known, now_ms)
    return Commit(
        table_id=after.id,
        expect_version=before.version,
        events=stored,
        fields=fields,
        seats=after.seat_rows() if any(isinstance(e, _SEAT_EVENTS) for e in events) else None,
        players=players,
        users=users,
    )
