"""The store: every read and write the server makes, over SQLAlchemy async.

The table actor writes through :meth:`Store.commit` (:mod:`.commits`: one
version-guarded transaction per command, grouped on SQLite); the values read
and written are in :mod:`.rows`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .accounts import AccountStore
from .commits import Writer
from .database import create_engine, upgrade
from .fairplay import FairPlayStore
from .moderation import ModerationStore
from .rows import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Commit,
    GamePlayer,
    StoredEvent,
    TableExists,
    TableRow,
    User,
    UsernameTaken,
    UserUpdate,
    VersionConflict,
    player_of,
    storable,
    table_of,
    user_of,
)
from .social import Social
from .tournaments import TournamentRow, TournamentStore

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "Commit",
    "GamePlayer",
    "Store",
    "StoredEvent",
    "TableExists",
    "TableRow",
    "TournamentRow",
    "TournamentStore",
    "User",
    "UserUpdate",
    "UsernameTaken",
    "VersionConflict",
]


class Store:
    """The server's database. Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._writer = Writer(engine)
        self.social = Social(engine, self._writer.write)
        """Friends, blocks and table invites (:mod:`.social`)."""
        self.accounts = AccountStore(engine, self._writer)
        self.moderation = ModerationStore(engine, self._writer)
        self.fair_play = FairPlayStore(engine, self._writer)
        """Finished games' fair-play checks and partnerships' evidence."""
        self.tournaments = TournamentStore(engine, self._writer.write)

    @classmethod
    async def open(cls, url: str | None, *, migrate: bool = True) -> Store:
        """Connect to ``url`` (None: the default SQLite file) and, unless told
        not to, apply the migrations."""
        engine = create_engine(url)
        if migrate:
            await upgrade(engine)
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    def _write(self) -> contextlib.AbstractAsyncContextManager[AsyncConnection]:
        return self._writer.write()

    async def ping(self) -> None:
        """Raise if the database does not answer."""
        async with self.engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

    # ------------------------------------------------------------ users

    async def create_user(
        self,
        user_id: str,
        name: str,
        now_ms: int,
        *,
        username: str | None = None,
        password_hash: str | None = None,
    ) -> User:
        """A new user (a guest when ``username`` is None)."""
        user = User(
            id=user_id,
            name=name,
            username=username.lower() if username else None,
            guest=username is None,
            created_ms=now_ms,
            password_hash=password_hash,
        )
        try:
            async with self._write() as conn:
                await conn.execute(
                    m.users.insert().values(
                        id=user.id,
                        name=user.name,
                        username=user.username,
                        password_hash=password_hash,
                        guest=user.guest,
                        created_ms=now_ms,
                        mu=user.mu,
                        sigma=user.sigma,
                        rated_games=0,
                        games=0,
                        wins=0,
                        bids_made=0,
                        bids=0,
                    )
                )
        except IntegrityError:
            raise UsernameTaken(f"the username {username!r} is taken") from None
        return user

    async def get_user(self, user_id: str) -> User | None:
        if not storable(user_id):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(m.users.select().where(m.users.c.id == user_id))).first()
        return None if row is None else user_of(row)

    async def get_users(self, user_ids: Iterable[str]) -> dict[str, User]:
        ids = [i for i in set(user_ids) if storable(i)]
        if not ids:
            return {}
        async with self.engine.connect() as conn:
            rows = (await conn.execute(m.users.select().where(m.users.c.id.in_(ids)))).all()
        return {r.id: user_of(r) for r in rows}

    async def get_user_by_username(self, username: str) -> User | None:
        if not storable(username):
            return None
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(m.users.select().where(m.users.c.username == username.lower()))
            ).first()
        return None if row is None else user_of(row)

    async def set_rating(self, user_id: str, mu: float, sigma: float) -> None:
        async with self._write() as conn:
            await conn.execute(
                m.users.update().where(m.users.c.id == user_id).values(mu=mu, sigma=sigma)
            )

    async def leaderboard(self, limit: int) -> list[User]:
        """Users with a rated game, best conservative rating (mu - 3 sigma) first."""
        u = m.users.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    m.users.select()
                    .where(u.rated_games > 0, u.deleted == sa.false())
                    .order_by((u.mu - 3 * u.sigma).desc(), u.id)
                    .limit(limit)
                )
            ).all()
        return [user_of(r) for r in rows]

    # --------------------------------------------------------- sessions

    async def create_session(
        self,
        token_hash: str,
        user_id: str,
        now_ms: int,
        expires_ms: int,
        device: tuple[str, str] = ("", ""),
    ) -> None:
        """A new session; ``device``: its browser and system (may be empty)."""
        async with self._write() as conn:
            await conn.execute(
                m.sessions.insert().values(
                    token_hash=token_hash,
                    user_id=user_id,
                    created_ms=now_ms,
                    expires_ms=expires_ms,
                    browser=device[0][:40],
                    system=device[1][:40],
                )
            )

    async def session_user(self, token_hash: str, now_ms: int) -> User | None:
        """The user of a live session, or None."""
        s, u = m.sessions.c, m.users
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(u)
                    .join(m.sessions, s.user_id == u.c.id)
                    .where(s.token_hash == token_hash, s.expires_ms > now_ms)
                )
            ).first()
        return None if row is None else user_of(row)

    async def delete_session(self, token_hash: str) -> None:
        async with self._write() as conn:
            await conn.execute(m.sessions.delete().where(m.sessions.c.token_hash == token_hash))

    # ----------------------------------------------------------- tables

    async def create_table(
        self, row: TableRow, event: StoredEvent, seats: Sequence[tuple[int, str, bool]]
    ) -> None:
        """A new table with its first event (version 1) and seats
        (``TableExists``, nothing written, if its id is taken)."""
        values = {k: getattr(row, k) for k in TableRow.__slots__}
        async with self._write() as conn:
            try:
                await conn.execute(m.tables.insert().values(**values))
            except IntegrityError:
                raise TableExists(f"table {row.id} exists") from None
            await conn.execute(
                m.table_events.insert().values(
                    table_id=row.id,
                    version=event.version,
                    kind=event.kind,
                    data=event.data,
                    at_ms=event.at_ms,
                )
            )
            if seats:
                await conn.execute(
                    m.seats.insert(),
                    [
                        {"table_id": row.id, "seat": s, "user_id": u, "active": a}
                        for s, u, a in seats
                    ],
                )

    async def commit(self, c: Commit) -> None:
        """Append events and update the table (and, at the end of a game, its
        players and their ratings) in one transaction. Raises
        :class:`VersionConflict`, writing nothing, if the table is not at
        ``c.expect_version``. Returns once the transaction is committed."""
        await self._writer.commit(c)

    async def get_table(self, table_id: str) -> TableRow | None:
        if not storable(table_id):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(m.tables.select().where(m.tables.c.id == table_id))).first()
        return None if row is None else table_of(row)

    async def table_by_invite(self, code: str) -> TableRow | None:
        if not storable(code):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(m.tables.select().where(m.tables.c.invite == code))).first()
        return None if row is None else table_of(row)

    async def list_tables(
        self, *, statuses: Sequence[str], kinds: Sequence[str], open_only: bool, limit: int
    ) -> list[TableRow]:
        """Tables for the lobby, newest first."""
        t = m.tables.c
        q = m.tables.select().where(t.status.in_(statuses), t.kind.in_(kinds))
        if open_only:
            q = q.where(t.open_seats > 0)
        q = q.order_by(t.created_ms.desc(), t.id).limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [table_of(r) for r in rows]

    async def unfinished_table_ids(self) -> list[str]:
        """Tables in the waiting room or in play (to rebuild on start)."""
        t = m.tables.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(t.id).where(t.status.in_(("waiting", "playing"))).order_by(t.id)
                )
            ).all()
        return [r.id for r in rows]

    async def load_events(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        """A table's events with version > ``after``, in order."""
        if not storable(table_id):
            return []
        e = m.table_events.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    m.table_events.select()
                    .where(e.table_id == table_id, e.version > after)
                    .order_by(e.version)
                )
            ).all()
        return [StoredEvent(r.version, r.kind, r.data, r.at_ms) for r in rows]

    async def seated_table(self, user_id: str) -> str | None:
        """The unfinished table where ``user_id`` holds a seat, if any."""
        return await self._seat_at(user_id, m.tables.c.status.in_(("waiting", "playing")))

    async def waiting_match(self, user_id: str) -> str | None:
        """The tournament table, not yet started, where ``user_id`` holds a
        seat, if any (one query: asked on every signed-in socket's hello)."""
        t = m.tables.c
        return await self._seat_at(user_id, t.kind == "tournament", t.status == "waiting")

    async def _seat_at(self, user_id: str, *where: sa.ColumnElement[bool]) -> str | None:
        """A table matching ``where`` where ``user_id`` holds a seat."""
        s, t = m.seats.c, m.tables.c
        query = sa.select(t.id).join(m.seats, s.table_id == t.id)
        query = query.where(s.user_id == user_id, s.active.is_(True), *where).limit(1)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else str(row.id)

    # ------------------------------------------------------------ games

    async def game_players(self, table_id: str) -> list[GamePlayer]:
        if not storable(table_id):
            return []
        g = m.game_players.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    m.game_players.select().where(g.table_id == table_id).order_by(g.seat)
                )
            ).all()
        return [player_of(r) for r in rows]

    async def games_of(
        self, user_id: str, limit: int, before_ms: int | None = None
    ) -> list[tuple[TableRow, list[GamePlayer]]]:
        """A player's finished games, newest first."""
        if not storable(user_id):
            return []
        g, t = m.game_players.c, m.tables.c
        q = sa.select(g.table_id).where(g.user_id == user_id)
        if before_ms is not None:
            q = q.where(g.finished_ms < before_ms)
        q = q.order_by(g.finished_ms.desc(), g.table_id).limit(limit)
        async with self.engine.connect() as conn:
            ids = [r.table_id for r in (await conn.execute(q)).all()]
            if not ids:
                return []
            trows = {
                r.id: table_of(r)
                for r in (await conn.execute(m.tables.select().where(t.id.in_(ids)))).all()
            }
            players: dict[str, list[GamePlayer]] = {i: [] for i in ids}
            for r in (
                await conn.execute(
                    m.game_players.select().where(g.table_id.in_(ids)).order_by(g.seat)
                )
            ).all():
                players[r.table_id].append(player_of(r))
        return [(trows[i], players[i]) for i in ids if i in trows]

    # ------------------------------------------------------- heartbeats

    async def heartbeat(self, node: str, now_ms: int) -> None:
        """Record that process ``node`` is alive at ``now_ms``."""
        h = m.heartbeats.c
        async with self._write() as conn:
            result = await conn.execute(
                m.heartbeats.update().where(h.node == node).values(alive_ms=now_ms)
            )
            if result.rowcount == 0:
                await conn.execute(m.heartbeats.insert().values(node=node, alive_ms=now_ms))

    async def purge(self, now_ms: int, heartbeats_before_ms: int) -> tuple[int, int]:
        """Delete expired sessions, and the heartbeats of processes not heard
        from since ``heartbeats_before_ms`` that own no unfinished table (a
        process gets a new name at every start, so their rows pile up).
        Returns how many of each went."""
        s, h, t = m.sessions.c, m.heartbeats.c, m.tables.c
        owning = sa.select(t.owner).where(
            t.status.in_(("waiting", "playing")), t.owner.is_not(None)
        )
        async with self._write() as conn:
            sessions = await conn.execute(m.sessions.delete().where(s.expires_ms <= now_ms))
            beats = await conn.execute(
                m.heartbeats.delete().where(
                    h.alive_ms < heartbeats_before_ms, h.node.not_in(owning)
                )
            )
        return int(sessions.rowcount or 0), int(beats.rowcount or 0)

    async def last_alive(self, node: str) -> int | None:
        h = m.heartbeats.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(h.alive_ms).where(h.node == node))).first()
        return None if row is None else int(row.alive_ms)
