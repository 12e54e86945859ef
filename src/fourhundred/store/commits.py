"""Writing a table's commits: a command's events, its row and (at the end of
a game) the players' results and ratings in one transaction, guarded by the
table's version so that two writers can never both extend the same log.

On SQLite, which has one writer at a time, commits are grouped: the commits
of every table that arrive while a transaction is being written go together
in the next one (each still all or nothing: a table's update that finds
another version writes nothing of that commit). Each ``commit`` call still
returns only once its own transaction is durable, so the actor never
broadcasts an event that is not stored.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .rows import Commit, GamePlayer, VersionConflict

__all__ = ["Writer"]


class _Mismatch(Exception):
    """A grouped update matched fewer rows than commits: roll the group back."""


def _event_rows(c: Commit) -> list[dict[str, Any]]:
    return [
        {
            "table_id": c.table_id,
            "version": e.version,
            "kind": e.kind,
            "data": e.data,
            "at_ms": e.at_ms,
        }
        for e in c.events
    ]


def _is_move(c: Commit) -> bool:
    """A commit of new events and some of the table's columns, nothing else."""
    return bool(c.events) and c.seats is None and not c.players and not c.users


class Writer:
    """The one way the store writes: a transaction at a time on SQLite
    (queueing here is faster and clearer than retrying on "database is
    locked"), and the grouped, version-guarded commits of tables."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._lock = asyncio.Lock()
        self._pending: list[tuple[Commit, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction."""
        if self.is_sqlite:
            async with self._lock, self.engine.begin() as conn:
                yield conn
        else:
            async with self.engine.begin() as conn:
                yield conn

    async def commit(self, c: Commit) -> None:
        """Append events and update the table (and, at the end of a game, its
        players and their ratings) in one transaction. Raises
        :class:`VersionConflict`, writing nothing, if the table is not at
        ``c.expect_version``. Returns once the transaction is committed."""
        if not self.is_sqlite:
            async with self.write() as conn:
                await self._apply(conn, c)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((c, fut))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_commits(), name="store-commits")
        await fut

    async def _flush_commits(self) -> None:
        """Write the waiting commits, a transaction per group, until none wait."""
        while self._pending:
            # A commit whose caller gave up before its group began is dropped:
            # nobody was told it happened.
            batch = [(c, f) for c, f in self._pending if not f.done()]
            self._pending = []
            if not batch:
                continue
            try:
                outcomes = await self._write_group([c for c, _ in batch])
            except Exception as e:
                for _, f in batch:
                    if not f.done():
                        f.set_exception(e)
                continue
            for (_, f), err in zip(batch, outcomes, strict=True):
                if f.done():
                    continue
                if err is None:
                    f.set_result(None)
                else:
                    f.set_exception(err)

    async def _write_group(self, commits: list[Commit]) -> list[VersionConflict | None]:
        """One transaction for ``commits`` (of distinct tables). The common
        case, a move (new events and the same few columns), is written with
        one statement per kind for the whole group; a group where some update
        found another version is rolled back and written commit by commit."""
        if len(commits) == 1:
            return [await self._write_one(commits[0])]
        moves = [c for c in commits if _is_move(c)]
        shapes = {frozenset(c.fields) for c in moves}
        if len(shapes) == 1 and len(moves) == len(commits):
            try:
                async with self.write() as conn:
                    await self._apply_moves(conn, moves)
                return [None] * len(commits)
            except _Mismatch:
                pass  # rolled back: find out which, one by one
        else:
            try:
                async with self.write() as conn:
                    for c in commits:
                        await self._apply(conn, c)
                return [None] * len(commits)
            except VersionConflict:
                pass  # rolled back: find out which, one by one
        return [await self._write_one(c) for c in commits]

    async def _write_one(self, c: Commit) -> VersionConflict | None:
        try:
            async with self.write() as conn:
                await self._apply(conn, c)
        except VersionConflict as e:
            return e
        return None

    async def _apply_moves(self, conn: AsyncConnection, commits: list[Commit]) -> None:
        """Moves of several tables, with the same columns to set: one UPDATE
        and one INSERT for all of them (executemany)."""
        t = m.tables.c
        keys = sorted({*commits[0].fields, "version"})
        update = (
            m.tables.update()
            .where(t.id == sa.bindparam("w_id"), t.version == sa.bindparam("w_expect"))
            .values({k: sa.bindparam(f"v_{k}", type_=m.tables.c[k].type) for k in keys})
        )
        rows = []
        for c in commits:
            values = {**c.fields, "version": c.events[-1].version}
            rows.append(
                {"w_id": c.table_id, "w_expect": c.expect_version}
                | {f"v_{k}": values[k] for k in keys}
            )
        result = await conn.execute(update, rows)
        if result.rowcount != len(commits):
            raise _Mismatch
        await conn.execute(
            m.table_events.insert(), [row for c in commits for row in _event_rows(c)]
        )

    async def _apply(self, conn: AsyncConnection, c: Commit) -> None:
        t = m.tables.c
        fields = dict(c.fields)
        if c.events:
            fields["version"] = c.events[-1].version
        result = await conn.execute(
            m.tables.update()
            .where(t.id == c.table_id, t.version == c.expect_version)
            .values(**fields)
        )
        if result.rowcount != 1:
            raise VersionConflict(
                f"table {c.table_id} is not at version {c.expect_version}: another writer"
            )
        if c.events:
            await conn.execute(m.table_events.insert(), _event_rows(c))
        if c.seats is not None:
            await conn.execute(m.seats.delete().where(m.seats.c.table_id == c.table_id))
            if c.seats:
                await conn.execute(
                    m.seats.insert(),
                    [
                        {"table_id": c.table_id, "seat": s, "user_id": u, "active": a}
                        for s, u, a in c.seats
                    ],
                )
        if c.players:
            await conn.execute(
                m.game_players.insert(),
                [{k: getattr(p, k) for k in GamePlayer.__slots__} for p in c.players],
            )
        u = m.users.c
        for up in c.users:
            values: dict[str, Any] = {
                "rated_games": u.rated_games + up.rated_games,
                "games": u.games + up.games,
                "wins": u.wins + up.wins,
                "bids_made": u.bids_made + up.bids_made,
                "bids": u.bids + up.bids,
            }
            if up.mu is not None:
                values["mu"] = up.mu
            if up.sigma is not None:
                values["sigma"] = up.sigma
            await conn.execute(m.users.update().where(u.id == up.user_id).values(**values))
