"""What an account holds beyond its row: its sessions, the waiting rooms it
hosts, and the deleted account, anonymised but kept for its games.

A deleted user's row stays (the match history and other players' ratings
refer to it) with its name replaced by :data:`DELETED_NAME`, its username and
password cleared and ``deleted`` set; its sessions, friends, blocks,
invites, chat log lines and moderator role go, and the finished tables'
lobby rows stop naming it (reports and penalties about it stay, for the
moderators' record).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .commits import Writer
from .rows import storable

__all__ = [
    "DELETED_NAME",
    "OPEN_ROOM_KINDS",
    "AccountStore",
    "SessionRow",
    "scrubbed",
    "seated_users",
]

DELETED_NAME: Final = "Deleted player"
OPEN_ROOM_KINDS: Final = ("casual", "private")
"""The rooms people open themselves (Ranked tables are made by the queue)."""


@dataclass(frozen=True, slots=True)
class SessionRow:
    token_hash: str
    created_ms: int
    expires_ms: int
    browser: str = ""
    system: str = ""


def scrubbed(summary: Any, deleted: Collection[str]) -> Any:
    """A table's lobby row with the names of the ``deleted`` users' seats
    replaced by :data:`DELETED_NAME`.

    >>> row = {"seats": [{"user": {"id": "u1", "name": "Rami"}}, {"user": None}]}
    >>> scrubbed(row, {"u1"})["seats"][0]["user"]["name"]
    'Deleted player'
    """
    if not isinstance(summary, dict) or not deleted:
        return summary

    def seat_of(seat: Any) -> Any:
        user = seat.get("user") if isinstance(seat, dict) else None
        if isinstance(user, dict) and user.get("id") in deleted:
            return {**seat, "user": {**user, "name": DELETED_NAME, "rating": None}}
        return seat

    return {**summary, "seats": [seat_of(s) for s in summary.get("seats", ())]}


def seated_users(summary: Any) -> set[str]:
    """The ids of the users seated in a table's lobby row."""
    seats = summary.get("seats", ()) if isinstance(summary, dict) else ()
    return {
        str(s["user"]["id"])
        for s in seats
        if isinstance(s, dict) and isinstance(s.get("user"), dict) and "id" in s["user"]
    }


class AccountStore:
    """The account queries (``store.accounts``)."""

    def __init__(self, engine: AsyncEngine, writer: Writer) -> None:
        self.engine = engine
        self._writer = writer

    # ----------------------------------------------------------- rooms

    async def open_rooms_hosted(self, user_id: str) -> int:
        """Waiting rooms (Casual or Private) that ``user_id`` hosts."""
        t = m.tables.c
        q = sa.select(sa.func.count()).where(
            t.host == user_id, t.status == "waiting", t.kind.in_(OPEN_ROOM_KINDS)
        )
        async with self.engine.connect() as conn:
            return int((await conn.execute(q)).scalar_one())

    async def still_waiting(self, table_ids: Iterable[str]) -> list[str]:
        """Those of ``table_ids`` that are still waiting rooms."""
        ids = [i for i in table_ids if storable(i)]
        if not ids:
            return []
        t = m.tables.c
        q = sa.select(t.id).where(t.id.in_(ids), t.status == "waiting")
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(q)).all()]

    # -------------------------------------------------------- sessions

    async def sessions(self, user_id: str, now_ms: int) -> list[SessionRow]:
        """The user's live sessions, newest first."""
        s = m.sessions.c
        q = (
            sa.select(s.token_hash, s.created_ms, s.expires_ms, s.browser, s.system)
            .where(s.user_id == user_id, s.expires_ms > now_ms)
            .order_by(s.created_ms.desc(), s.token_hash)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [
            SessionRow(r.token_hash, r.created_ms, r.expires_ms, r.browser, r.system) for r in rows
        ]

    @staticmethod
    async def _end_sessions(conn: AsyncConnection, user_id: str, keep: str | None) -> int:
        s = m.sessions.c
        q = m.sessions.delete().where(s.user_id == user_id)
        if keep is not None:
            q = q.where(s.token_hash != keep)
        return int((await conn.execute(q)).rowcount)

    async def end_sessions(self, user_id: str, *, keep: str | None) -> int:
        """End the user's sessions but ``keep`` (a token hash; None: all);
        how many ended."""
        async with self._writer.write() as conn:
            return await self._end_sessions(conn, user_id, keep)

    async def set_password(self, user_id: str, password_hash: str, *, keep: str) -> None:
        """A new password hash, and every session but ``keep`` ended, at once."""
        async with self._writer.write() as conn:
            await conn.execute(
                m.users.update().where(m.users.c.id == user_id).values(password_hash=password_hash)
            )
            await self._end_sessions(conn, user_id, keep)

    # ---------------------------------------------------------- delete

    async def delete(self, user_id: str) -> None:
        """Anonymise the account (see the module's docstring), in one transaction."""
        g, t = m.game_players.c, m.tables.c
        async with self._writer.write() as conn:
            await conn.execute(
                m.users.update()
                .where(m.users.c.id == user_id)
                .values(name=DELETED_NAME, username=None, password_hash=None, deleted=True)
            )
            await self._end_sessions(conn, user_id, None)
            # Their chat goes; reports and penalties about them stay (audit).
            await conn.execute(m.chat_log.delete().where(m.chat_log.c.user_id == user_id))
            await conn.execute(m.moderators.delete().where(m.moderators.c.user_id == user_id))
            await conn.execute(
                m.friends.delete().where(
                    (m.friends.c.user_id == user_id) | (m.friends.c.friend_id == user_id)
                )
            )
            await conn.execute(
                m.blocks.delete().where(
                    (m.blocks.c.user_id == user_id) | (m.blocks.c.blocked_id == user_id)
                )
            )
            await conn.execute(
                m.table_invites.delete().where(
                    (m.table_invites.c.to_user == user_id)
                    | (m.table_invites.c.from_user == user_id)
                )
            )
            played = sa.select(g.table_id).where(g.user_id == user_id)
            rows = (await conn.execute(sa.select(t.id, t.summary).where(t.id.in_(played)))).all()
            for row in rows:
                await conn.execute(
                    m.tables.update()
                    .where(t.id == row.id)
                    .values(summary=scrubbed(row.summary, {user_id}))
                )
