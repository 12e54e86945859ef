"""Tournaments in the store: their rows and their event logs.

A tournament is its event log (``tournament_events``), written only by its
director through :meth:`TournamentStore.append`, guarded by the row's
version like a table's commit; the row holds what lists need (status,
public, invite, start time, a summary). Reached as ``store.tournaments``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .rows import StoredEvent, TableRow, VersionConflict, storable, table_of

__all__ = ["TournamentRow", "TournamentStore"]

Write = Callable[[], contextlib.AbstractAsyncContextManager[AsyncConnection]]


@dataclass(slots=True)
class TournamentRow:
    id: str
    name: str
    organiser: str | None
    status: str
    public: bool
    invite: str | None
    start_ms: int
    version: int
    summary: dict[str, Any]
    created_ms: int
    updated_ms: int


def _row(r: Any) -> TournamentRow:
    return TournamentRow(**{k: getattr(r, k) for k in TournamentRow.__slots__})


class TournamentStore:
    def __init__(self, engine: AsyncEngine, write: Write) -> None:
        self.engine = engine
        self._write = write

    async def create(self, row: TournamentRow, first: StoredEvent) -> None:
        """A new tournament with its first event (version 1)."""
        values = {k: getattr(row, k) for k in TournamentRow.__slots__}
        async with self._write() as conn:
            await conn.execute(m.tournaments.insert().values(**values))
            await conn.execute(
                m.tournament_events.insert().values(
                    tournament_id=row.id,
                    version=first.version,
                    kind=first.kind,
                    data=first.data,
                    at_ms=first.at_ms,
                )
            )

    async def append(
        self,
        tournament_id: str,
        expect_version: int,
        events: Sequence[StoredEvent],
        fields: dict[str, Any],
    ) -> None:
        """Append ``events`` and set the row's ``fields`` in one transaction;
        :class:`VersionConflict` (nothing written) when the tournament is not
        at ``expect_version``: another director wrote first."""
        t = m.tournaments.c
        values = {**fields, "version": events[-1].version} if events else dict(fields)
        async with self._write() as conn:
            result = await conn.execute(
                m.tournaments.update()
                .where(t.id == tournament_id, t.version == expect_version)
                .values(**values)
            )
            if result.rowcount != 1:
                raise VersionConflict(
                    f"tournament {tournament_id} is not at version {expect_version}"
                )
            if events:
                await conn.execute(
                    m.tournament_events.insert(),
                    [
                        {
                            "tournament_id": tournament_id,
                            "version": e.version,
                            "kind": e.kind,
                            "data": e.data,
                            "at_ms": e.at_ms,
                        }
                        for e in events
                    ],
                )

    async def get(self, tournament_id: str) -> TournamentRow | None:
        if not storable(tournament_id) or len(tournament_id) > 32:
            return None
        t = m.tournaments
        async with self.engine.connect() as conn:
            r = (await conn.execute(t.select().where(t.c.id == tournament_id))).first()
        return None if r is None else _row(r)

    async def by_invite(self, code: str) -> TournamentRow | None:
        if not storable(code) or len(code) > 64:
            return None
        t = m.tournaments
        async with self.engine.connect() as conn:
            r = (await conn.execute(t.select().where(t.c.invite == code))).first()
        return None if r is None else _row(r)

    async def load(self, tournament_id: str) -> list[StoredEvent]:
        """The tournament's whole log, in order."""
        e = m.tournament_events.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    m.tournament_events.select()
                    .where(e.tournament_id == tournament_id)
                    .order_by(e.version)
                )
            ).all()
        return [StoredEvent(r.version, r.kind, r.data, r.at_ms) for r in rows]

    async def listed(
        self, statuses: Sequence[str], *, public_only: bool = True, limit: int = 100
    ) -> list[TournamentRow]:
        """Tournaments in ``statuses``: soonest start first for the open ones,
        latest first otherwise."""
        t = m.tournaments.c
        q = m.tournaments.select().where(t.status.in_(statuses))
        if public_only:
            q = q.where(t.public.is_(True))
        order = t.start_ms.asc() if tuple(statuses) == ("open",) else t.start_ms.desc()
        q = q.order_by(order, t.id).limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [_row(r) for r in rows]

    async def live_ids(self) -> list[str]:
        """Open and running tournaments: each needs its director."""
        t = m.tournaments.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(t.id).where(t.status.in_(("open", "running"))).order_by(t.id)
                )
            ).all()
        return [r.id for r in rows]

    async def tables(self, tournament_id: str, ids: Sequence[str] | None = None) -> list[TableRow]:
        """The match tables of a tournament (only ``ids`` when given), with
        their status and, once over, their record."""
        t = m.tables.c
        q = m.tables.select().where(t.tournament == tournament_id)
        if ids is not None:
            q = q.where(t.id.in_(list(ids)))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q.order_by(t.id))).all()
        return [table_of(r) for r in rows]
