"""Friends, blocks and table invites: the store's queries for them (reached
as ``Store.social``).

A friendship is two ``friends`` rows, one each way, both ``accepted``; a
request is one row from the asker, not accepted. A block is one row from
the blocker. A table invite is one row per invited user and table; it is
only listed while the table waits for players (once it starts or closes,
the invite is gone for every purpose, and :meth:`Social.purge_invites`
deletes such rows).

The rules (who may ask whom, what a block forbids) are the server's
(``fourhundred.server.friends``): these methods only read and write.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .rows import TableRow, storable, table_of

__all__ = ["Invite", "Person", "Relation", "Social"]

Write = Callable[[], contextlib.AbstractAsyncContextManager[AsyncConnection]]


@dataclass(frozen=True, slots=True)
class Person:
    """Someone in a list: a friend, a request's other side, a blocked user."""

    id: str
    name: str
    since_ms: int


@dataclass(frozen=True, slots=True)
class Relation:
    """How ``a`` and ``b`` stand (see :meth:`Social.relation`)."""

    friends: bool = False
    asked: bool = False
    """``a`` asked ``b`` (not yet answered)."""
    asked_by: bool = False
    """``b`` asked ``a`` (not yet answered)."""
    blocked: bool = False
    """``a`` blocked ``b``."""
    blocked_by: bool = False
    """``b`` blocked ``a``."""


@dataclass(frozen=True, slots=True)
class Invite:
    """An open invite to a waiting table."""

    table: TableRow
    from_id: str
    from_name: str
    at_ms: int


class Social:
    """The friends, blocks and table-invites queries."""

    def __init__(self, engine: AsyncEngine, write: Write) -> None:
        self.engine = engine
        self._write = write

    # ---------------------------------------------------------- relations

    async def relation(self, a: str, b: str) -> Relation:
        """Every link between ``a`` and ``b``, in both directions."""
        if not (storable(a) and storable(b)):
            return Relation()
        f, k = m.friends.c, m.blocks.c
        pair = sa.or_(
            sa.and_(f.user_id == a, f.friend_id == b), sa.and_(f.user_id == b, f.friend_id == a)
        )
        bpair = sa.or_(
            sa.and_(k.user_id == a, k.blocked_id == b), sa.and_(k.user_id == b, k.blocked_id == a)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(f.user_id, f.accepted).where(pair))).all()
            brows = (await conn.execute(sa.select(k.user_id).where(bpair))).all()
        mine = next((r.accepted for r in rows if r.user_id == a), None)
        theirs = next((r.accepted for r in rows if r.user_id == b), None)
        return Relation(
            friends=bool(mine and theirs),
            asked=mine is False,
            asked_by=theirs is False,
            blocked=any(r.user_id == a for r in brows),
            blocked_by=any(r.user_id == b for r in brows),
        )

    async def request(self, a: str, b: str, now_ms: int) -> bool:
        """``a`` asks ``b`` to be friends. False if a row from ``a`` to
        ``b`` is already there (nothing written)."""
        return await self._insert_new(
            m.friends.insert().values(user_id=a, friend_id=b, accepted=False, created_ms=now_ms)
        )

    async def accept(self, a: str, b: str, now_ms: int) -> bool:
        """``a`` accepts ``b``'s request: both rows, accepted. False (nothing
        written) if ``b`` has no open request to ``a``."""
        f = m.friends.c
        async with self._write() as conn:
            done = await conn.execute(
                m.friends.update()
                .where(f.user_id == b, f.friend_id == a, f.accepted.is_(False))
                .values(accepted=True)
            )
            if not done.rowcount:
                return False
            await conn.execute(m.friends.delete().where(f.user_id == a, f.friend_id == b))
            await conn.execute(
                m.friends.insert().values(user_id=a, friend_id=b, accepted=True, created_ms=now_ms)
            )
        return True

    async def unlink(self, a: str, b: str, *, only_request_from: str | None = None) -> int:
        """Delete the friendship or requests between ``a`` and ``b``: every
        row, or with ``only_request_from`` only that user's unanswered
        request. Returns how many rows went."""
        f = m.friends.c
        if only_request_from is not None:
            other = b if only_request_from == a else a
            where = sa.and_(
                f.user_id == only_request_from, f.friend_id == other, f.accepted.is_(False)
            )
        else:
            where = sa.or_(
                sa.and_(f.user_id == a, f.friend_id == b),
                sa.and_(f.user_id == b, f.friend_id == a),
            )
        async with self._write() as conn:
            done = await conn.execute(m.friends.delete().where(where))
        return int(done.rowcount or 0)

    async def _people(self, q: sa.Select[Any]) -> list[Person]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return sorted((Person(r[0], r[1], int(r[2])) for r in rows), key=_by_name)

    async def friends(self, user_id: str) -> list[Person]:
        """``user_id``'s friends, by name."""
        f, u = m.friends.c, m.users.c
        mine = sa.select(f.friend_id).where(f.user_id == user_id, f.accepted.is_(True))
        return await self._people(
            sa.select(u.id, u.name, f.created_ms)
            .join(m.friends, f.user_id == u.id)
            .where(f.friend_id == user_id, f.accepted.is_(True), u.id.in_(mine))
        )

    async def incoming(self, user_id: str) -> list[Person]:
        """Who asked ``user_id`` and has no answer yet."""
        f, u = m.friends.c, m.users.c
        return await self._people(
            sa.select(u.id, u.name, f.created_ms)
            .join(m.friends, f.user_id == u.id)
            .where(f.friend_id == user_id, f.accepted.is_(False))
        )

    async def outgoing(self, user_id: str) -> list[Person]:
        """Whom ``user_id`` asked, still unanswered."""
        f, u = m.friends.c, m.users.c
        return await self._people(
            sa.select(u.id, u.name, f.created_ms)
            .join(m.friends, f.friend_id == u.id)
            .where(f.user_id == user_id, f.accepted.is_(False))
        )

    # ------------------------------------------------------------- blocks

    async def block(self, a: str, b: str, now_ms: int) -> bool:
        """``a`` blocks ``b``: the block, and no more friendship, requests
        or table invites between them (one transaction). False (nothing
        written) if ``a`` had blocked ``b`` already."""
        f, i = m.friends.c, m.table_invites.c
        try:
            async with self._write() as conn:
                await conn.execute(
                    m.blocks.insert().values(user_id=a, blocked_id=b, created_ms=now_ms)
                )
                await conn.execute(
                    m.friends.delete().where(
                        sa.or_(
                            sa.and_(f.user_id == a, f.friend_id == b),
                            sa.and_(f.user_id == b, f.friend_id == a),
                        )
                    )
                )
                await conn.execute(
                    m.table_invites.delete().where(
                        sa.or_(
                            sa.and_(i.to_user == a, i.from_user == b),
                            sa.and_(i.to_user == b, i.from_user == a),
                        )
                    )
                )
        except IntegrityError:
            return False
        return True

    async def unblock(self, a: str, b: str) -> bool:
        """False if ``a`` had not blocked ``b``."""
        if not storable(b):
            return False
        k = m.blocks.c
        async with self._write() as conn:
            done = await conn.execute(m.blocks.delete().where(k.user_id == a, k.blocked_id == b))
        return bool(done.rowcount)

    async def blocked(self, user_id: str) -> list[Person]:
        """Whom ``user_id`` blocked, by name."""
        k, u = m.blocks.c, m.users.c
        return await self._people(
            sa.select(u.id, u.name, k.created_ms)
            .join(m.blocks, k.blocked_id == u.id)
            .where(k.user_id == user_id)
        )

    async def blocked_ids(self, user_id: str) -> set[str]:
        """The ids ``user_id`` blocked (their chat is hidden from them)."""
        k = m.blocks.c
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(k.blocked_id).where(k.user_id == user_id))).all()
        return {r.blocked_id for r in rows}

    # ------------------------------------------------------- where people sit

    async def public_tables(self, user_ids: Iterable[str]) -> dict[str, str]:
        """For each of ``user_ids`` seated at an unfinished table that is not
        Private, that table's id."""
        ids = [i for i in set(user_ids) if storable(i)]
        if not ids:
            return {}
        s, t = m.seats.c, m.tables.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(s.user_id, t.id)
                    .join(m.tables, s.table_id == t.id)
                    .where(
                        s.user_id.in_(ids),
                        s.active.is_(True),
                        t.status.in_(("waiting", "playing")),
                        t.kind != "private",
                    )
                    .order_by(t.created_ms)
                )
            ).all()
        return {r.user_id: r.id for r in rows}

    # ------------------------------------------------------------ invites

    async def invite(self, to_user: str, table_id: str, from_user: str, now_ms: int) -> bool:
        """Invite ``to_user`` to ``table_id``. False (nothing written) if
        they are invited to it already."""
        return await self._insert_new(
            m.table_invites.insert().values(
                to_user=to_user, table_id=table_id, from_user=from_user, created_ms=now_ms
            )
        )

    async def _insert_new(self, insert: sa.Insert) -> bool:
        """Run ``insert``: False (nothing written) if its row is there already."""
        try:
            async with self._write() as conn:
                await conn.execute(insert)
        except IntegrityError:
            return False
        return True

    async def invites(self, user_id: str) -> list[Invite]:
        """``user_id``'s invites to tables still waiting for players, newest
        first."""
        i, t, u = m.table_invites.c, m.tables.c, m.users.c
        q = (
            sa.select(m.tables, i.from_user, u.name.label("from_name"), i.created_ms.label("at"))
            .select_from(m.table_invites)
            .join(m.tables, t.id == i.table_id)
            .join(m.users, u.id == i.from_user)
            .where(i.to_user == user_id, t.status == "waiting")
            .order_by(i.created_ms.desc(), t.id)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [Invite(table_of(r), r.from_user, r.from_name, int(r.at)) for r in rows]

    async def drop_invite(self, user_id: str, table_id: str) -> bool:
        """Decline (delete) an invite. False if there was none."""
        if not storable(table_id):
            return False
        i = m.table_invites.c
        async with self._write() as conn:
            done = await conn.execute(
                m.table_invites.delete().where(i.to_user == user_id, i.table_id == table_id)
            )
        return bool(done.rowcount)

    async def purge_invites(self) -> int:
        """Delete the invites to tables that no longer wait for players."""
        i, t = m.table_invites.c, m.tables.c
        waiting = sa.select(t.id).where(t.status == "waiting")
        async with self._write() as conn:
            done = await conn.execute(m.table_invites.delete().where(i.table_id.not_in(waiting)))
        return int(done.rowcount or 0)


def _by_name(p: Person) -> tuple[str, str]:
    return p.name.casefold(), p.id
