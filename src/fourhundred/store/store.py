"""The store: every read and write the server makes, over SQLAlchemy async.

The table actor writes through :meth:`Store.commit`: a table's new events,
its row and (at the end of a game) the players' results and ratings in one
transaction, guarded by the table's version so that two writers can never
both extend the same log (the lease of issue 6 relies on it).

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
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from . import models as m
from .database import create_engine, upgrade

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "Commit",
    "GamePlayer",
    "Store",
    "StoredEvent",
    "TableRow",
    "User",
    "UserUpdate",
    "UsernameTaken",
    "VersionConflict",
]

DEFAULT_MU: Final = 25.0
DEFAULT_SIGMA: Final = 25.0 / 3.0


class UsernameTaken(ValueError):
    """Registration with a username that exists (compared case-insensitively)."""


class VersionConflict(RuntimeError):
    """A commit found the table at another version than expected: some other
    writer owns it. Nothing was written."""


class _Mismatch(Exception):
    """A grouped update matched fewer rows than commits: roll the group back."""


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


def _storable(text: str) -> bool:
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


def _user(row: Any) -> User:
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
    )


def _table(row: Any) -> TableRow:
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
    )


def _player(row: Any) -> GamePlayer:
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


class Store:
    """The server's database. Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        # SQLite has one writer at a time; queueing here is faster and
        # clearer than retrying on "database is locked".
        self._write_lock = asyncio.Lock()
        self._pending: list[tuple[Commit, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

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

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self.is_sqlite:
            async with self._write_lock, self.engine.begin() as conn:
                yield conn
        else:
            async with self.engine.begin() as conn:
                yield conn

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
        if not _storable(user_id):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(m.users.select().where(m.users.c.id == user_id))).first()
        return None if row is None else _user(row)

    async def get_users(self, user_ids: Iterable[str]) -> dict[str, User]:
        ids = [i for i in set(user_ids) if _storable(i)]
        if not ids:
            return {}
        async with self.engine.connect() as conn:
            rows = (await conn.execute(m.users.select().where(m.users.c.id.in_(ids)))).all()
        return {r.id: _user(r) for r in rows}

    async def get_user_by_username(self, username: str) -> User | None:
        if not _storable(username):
            return None
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(m.users.select().where(m.users.c.username == username.lower()))
            ).first()
        return None if row is None else _user(row)

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
                    .where(u.rated_games > 0)
                    .order_by((u.mu - 3 * u.sigma).desc(), u.id)
                    .limit(limit)
                )
            ).all()
        return [_user(r) for r in rows]

    # --------------------------------------------------------- sessions

    async def create_session(
        self, token_hash: str, user_id: str, now_ms: int, expires_ms: int
    ) -> None:
        async with self._write() as conn:
            await conn.execute(
                m.sessions.insert().values(
                    token_hash=token_hash,
                    user_id=user_id,
                    created_ms=now_ms,
                    expires_ms=expires_ms,
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
        return None if row is None else _user(row)

    async def delete_session(self, token_hash: str) -> None:
        async with self._write() as conn:
            await conn.execute(m.sessions.delete().where(m.sessions.c.token_hash == token_hash))

    # ----------------------------------------------------------- tables

    async def create_table(
        self, row: TableRow, event: StoredEvent, seats: Sequence[tuple[int, str, bool]]
    ) -> None:
        """A new table with its first event (version 1) and seats."""
        values = {k: getattr(row, k) for k in TableRow.__slots__}
        async with self._write() as conn:
            await conn.execute(m.tables.insert().values(**values))
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
        if not self.is_sqlite:
            async with self._write() as conn:
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
                async with self._write() as conn:
                    await self._apply_moves(conn, moves)
                return [None] * len(commits)
            except _Mismatch:
                pass  # rolled back: find out which, one by one
        else:
            try:
                async with self._write() as conn:
                    for c in commits:
                        await self._apply(conn, c)
                return [None] * len(commits)
            except VersionConflict:
                pass  # rolled back: find out which, one by one
        return [await self._write_one(c) for c in commits]

    async def _write_one(self, c: Commit) -> VersionConflict | None:
        try:
            async with self._write() as conn:
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

    async def get_table(self, table_id: str) -> TableRow | None:
        if not _storable(table_id):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(m.tables.select().where(m.tables.c.id == table_id))).first()
        return None if row is None else _table(row)

    async def table_by_invite(self, code: str) -> TableRow | None:
        if not _storable(code):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(m.tables.select().where(m.tables.c.invite == code))).first()
        return None if row is None else _table(row)

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
        return [_table(r) for r in rows]

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
        if not _storable(table_id):
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
        s, t = m.seats.c, m.tables.c
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(t.id)
                    .join(m.seats, s.table_id == t.id)
                    .where(
                        s.user_id == user_id,
                        s.active.is_(True),
                        t.status.in_(("waiting", "playing")),
                    )
                    .limit(1)
                )
            ).first()
        return None if row is None else str(row.id)

    # ------------------------------------------------------------ games

    async def game_players(self, table_id: str) -> list[GamePlayer]:
        if not _storable(table_id):
            return []
        g = m.game_players.c
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    m.game_players.select().where(g.table_id == table_id).order_by(g.seat)
                )
            ).all()
        return [_player(r) for r in rows]

    async def games_of(
        self, user_id: str, limit: int, before_ms: int | None = None
    ) -> list[tuple[TableRow, list[GamePlayer]]]:
        """A player's finished games, newest first."""
        if not _storable(user_id):
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
                r.id: _table(r)
                for r in (await conn.execute(m.tables.select().where(t.id.in_(ids)))).all()
            }
            players: dict[str, list[GamePlayer]] = {i: [] for i in ids}
            for r in (
                await conn.execute(
                    m.game_players.select().where(g.table_id.in_(ids)).order_by(g.seat)
                )
            ).all():
                players[r.table_id].append(_player(r))
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
