"""The store: migrations, and the reads and writes the server relies on."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Connection

from fourhundred.store import (
    Commit,
    Store,
    StoredEvent,
    TableRow,
    UsernameTaken,
    UserUpdate,
    VersionConflict,
    create_engine,
    current_revision,
    head_revision,
    normalize_url,
    upgrade,
)
from fourhundred.store.database import UnsupportedDatabase
from fourhundred.store.models import metadata


async def test_migrations_reach_head_and_match_the_models(db_url: str) -> None:
    engine = create_engine(db_url)
    try:
        assert await current_revision(engine) is None
        await upgrade(engine)
        await upgrade(engine)  # a second run changes nothing
        assert await current_revision(engine) == head_revision()

        def diff(conn: Connection) -> list[object]:
            ctx = MigrationContext.configure(conn)
            return list(compare_metadata(ctx, metadata))

        async with engine.connect() as conn:
            differences = await conn.run_sync(diff)
        assert differences == []
    finally:
        await engine.dispose()


def test_urls() -> None:
    assert normalize_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert normalize_url("postgresql+asyncpg://u@h/d") == "postgresql+asyncpg://u@h/d"
    assert normalize_url(None).startswith("sqlite+aiosqlite:///")
    for bad in ("mysql://x", "not a url", "postgresql+psycopg://u@h/d"):
        with pytest.raises(UnsupportedDatabase):
            normalize_url(bad)


async def test_users_and_sessions(store: Store, tag: str) -> None:
    u1, u2, u3, name = f"u1{tag}", f"u2{tag}", f"u3{tag}", f"Rami{tag}"
    u = await store.create_user(u1, "Rami", 1000, username=name, password_hash="h")
    assert u.username == name.lower() and not u.guest
    with pytest.raises(UsernameTaken):
        await store.create_user(u2, "Other", 1000, username=name.upper())
    g = await store.create_user(u3, "Guest", 1000)
    assert g.guest and g.username is None
    assert (await store.get_user_by_username(name.swapcase())) is not None
    h = f"hash{tag}"
    await store.create_session(h, u1, 1000, 5000)
    assert (await store.session_user(h, 4999)) == await store.get_user(u1)
    assert await store.session_user(h, 5000) is None  # expired
    assert await store.session_user(f"other{tag}", 1000) is None
    await store.delete_session(h)
    assert await store.session_user(h, 1000) is None


def _row(table_id: str, host: str, version: int = 1) -> TableRow:
    return TableRow(
        id=table_id,
        kind="casual",
        status="waiting",
        invite=None,
        host=host,
        version=version,
        summary={"id": table_id},
        open_seats=3,
        created_ms=1,
        updated_ms=1,
    )


async def test_commit_is_atomic_and_guarded_by_the_version(store: Store, tag: str) -> None:
    uid, t1 = f"u{tag}", f"t{tag}"
    await store.create_user(uid, "Rami", 1, username=f"r{tag}")
    created = StoredEvent(1, "created", {"x": 1}, 1)
    await store.create_table(_row(t1, uid), created, [(0, uid, True)])
    assert await store.seated_table(uid) == t1
    ev2 = StoredEvent(2, "ready", {"seat": 0, "ready": True}, 2)
    await store.commit(Commit(t1, 1, [ev2], {"updated_ms": 2}))
    # A writer that thinks the table is still at version 1 writes nothing.
    ev2b = StoredEvent(2, "ready", {"seat": 0, "ready": False}, 3)
    with pytest.raises(VersionConflict):
        await store.commit(Commit(t1, 1, [ev2b], {"updated_ms": 3}))
    events = await store.load_events(t1)
    assert [(e.version, e.data) for e in events] == [(1, {"x": 1}), (2, {"seat": 0, "ready": True})]
    assert [e.version for e in await store.load_events(t1, after=1)] == [2]
    row = await store.get_table(t1)
    assert row is not None and row.version == 2 and row.updated_ms == 2
    # A failing statement rolls the whole commit back.
    ev3 = StoredEvent(3, "x", {}, 4)
    with pytest.raises(Exception):  # noqa: B017 - the database's own error
        await store.commit(Commit(t1, 2, [ev3, ev3], {"updated_ms": 4}))
    row = await store.get_table(t1)
    assert row is not None and row.version == 2 and len(await store.load_events(t1)) == 2
    # Leaving the seat (inactive) frees the user; finishing frees everyone.
    await store.commit(Commit(t1, 2, [ev3], {"status": "playing"}, seats=[(0, uid, False)]))
    assert await store.seated_table(uid) is None
    assert t1 in await store.unfinished_table_ids()
    await store.commit(
        Commit(
            t1,
            3,
            [StoredEvent(4, "game_over", {}, 5)],
            {"status": "over", "finished_ms": 5},
            users=[UserUpdate(uid, mu=300.0, sigma=1.0, rated_games=1, games=1, wins=1)],
        )
    )
    assert t1 not in await store.unfinished_table_ids()
    u = await store.get_user(uid)
    assert u is not None and (u.mu, u.sigma, u.games, u.wins) == (300.0, 1.0, 1, 1)
    assert (await store.leaderboard(1))[0].id == uid  # far ahead of anyone else


async def test_a_waiting_tournament_match_is_found_in_one_query(store: Store, tag: str) -> None:
    """What a signed-in socket's hello asks: the tournament table not yet
    started where the user holds a seat; not a casual table, not one
    started, not a seat left."""
    uid = f"wm{tag}"
    await store.create_user(uid, "Maya", 1, username=f"wm{tag}")
    assert await store.waiting_match(uid) is None
    await store.create_table(
        _row(f"c{tag}", uid), StoredEvent(1, "created", {}, 1), [(0, uid, True)]
    )
    assert await store.waiting_match(uid) is None  # a casual table is no match
    match = replace(_row(f"m{tag}", uid), kind="tournament")
    await store.create_table(match, StoredEvent(1, "created", {}, 1), [(0, uid, True)])
    assert await store.waiting_match(uid) == f"m{tag}"
    ev = StoredEvent(2, "start", {}, 2)
    await store.commit(Commit(f"m{tag}", 1, [ev], {"status": "playing"}))
    assert await store.waiting_match(uid) is None  # started: the table is no longer waiting


async def test_lobby_listing_and_invites(store: Store, tag: str) -> None:
    for i in range(3):
        row = _row(f"t{i}{tag}", "h")
        row.created_ms = 10**12 + i
        if i == 2:
            row.open_seats = 0
        await store.create_table(row, StoredEvent(1, "created", {}, i), [])
    private = _row(f"p{tag}", "h")
    private.kind, private.invite = "private", f"secret-{tag}"
    await store.create_table(private, StoredEvent(1, "created", {}, 9), [])
    listed = await store.list_tables(
        statuses=("waiting",), kinds=("casual",), open_only=True, limit=1000
    )
    mine = [r.id for r in listed if r.id.endswith(tag)]
    assert mine == [f"t1{tag}", f"t0{tag}"]  # newest first, full and private left out
    got = await store.table_by_invite(f"secret-{tag}")
    assert got is not None and got.id == f"p{tag}"
    assert await store.table_by_invite(f"guess-{tag}") is None


async def test_heartbeats(store: Store, tag: str) -> None:
    node = f"n{tag}"
    assert await store.last_alive(node) is None
    await store.heartbeat(node, 10)
    await store.heartbeat(node, 20)
    assert await store.last_alive(node) == 20


async def test_purge_expired_sessions_and_silent_processes(store: Store, tag: str) -> None:
    uid = f"p{tag}"
    await store.create_user(uid, "Purged", 1000)
    await store.create_session(f"old{tag}", uid, 1000, 5000)
    await store.create_session(f"live{tag}", uid, 1000, 10**13)
    gone, owner, recent = f"gone{tag}", f"owner{tag}", f"recent{tag}"
    await store.heartbeat(gone, 10)
    await store.heartbeat(owner, 10)
    await store.heartbeat(recent, 500)
    # A silent process that still owns an unfinished table keeps its
    # heartbeat: whoever takes the table resumes its timer from it.
    row = _row(f"owned{tag}", uid)
    row.owner = owner
    await store.create_table(row, StoredEvent(1, "created", {}, 1), [])

    sessions, beats = await store.purge(now_ms=6000, heartbeats_before_ms=100)
    assert sessions >= 1 and beats >= 1
    assert await store.session_user(f"old{tag}", 1000) is None  # gone, not just expired
    assert await store.session_user(f"live{tag}", 6000) is not None
    assert await store.last_alive(gone) is None
    assert await store.last_alive(owner) == 10
    assert await store.last_alive(recent) == 500
    assert await store.purge(now_ms=6000, heartbeats_before_ms=100) == (0, 0)


async def test_commits_of_many_tables_at_once(store: Store, tag: str) -> None:
    """Moves of many tables at the same moment (on SQLite: written as one
    group), with a stale writer among them and commits of other shapes."""
    uid = f"m{tag}"
    await store.create_user(uid, "Many", 1)
    ids = [f"m{i}{tag}" for i in range(12)]
    for tid in ids:
        await store.create_table(_row(tid, uid), StoredEvent(1, "created", {}, 1), [])
    stale, room = f"stale{tag}", f"room{tag}"
    for tid in (stale, room):
        await store.create_table(_row(tid, uid), StoredEvent(1, "created", {}, 1), [])

    def move(tid: str, i: int) -> Commit:
        events = [StoredEvent(2, "bid", {"seat": 0, "bid": i}, 2)]
        if i % 3 == 0:  # a move that ends a trick: two events
            events.append(StoredEvent(3, "trick", {"winner": 1}, 2))
        return Commit(tid, 1, events, {"updated_ms": 2, "deadline_ms": 100 + i, "owner": "n"})

    commits = [move(tid, i) for i, tid in enumerate(ids)]
    commits.append(Commit(stale, 5, [StoredEvent(6, "bid", {}, 2)], {"updated_ms": 2}))
    results = await asyncio.gather(*(store.commit(c) for c in commits), return_exceptions=True)
    assert results[:-1] == [None] * len(ids)
    assert isinstance(results[-1], VersionConflict)
    for i, tid in enumerate(ids):
        row = await store.get_table(tid)
        want = 3 if i % 3 == 0 else 2
        assert row is not None and (row.version, row.deadline_ms) == (want, 100 + i)
        assert [e.version for e in await store.load_events(tid)] == list(range(1, want + 1))
    row = await store.get_table(stale)
    assert row is not None and row.version == 1 and len(await store.load_events(stale)) == 1

    # Moves together with a room change (seats) and a stale move: every
    # good one lands whole, the stale one writes nothing.
    mixed = [
        Commit(ids[1], 2, [StoredEvent(3, "bid", {}, 3)], {"updated_ms": 3, "deadline_ms": 1}),
        Commit(
            room, 1, [StoredEvent(2, "seated", {}, 3)], {"open_seats": 2}, seats=[(1, uid, True)]
        ),
        Commit(ids[2], 1, [StoredEvent(2, "bid", {}, 3)], {"updated_ms": 3, "deadline_ms": 1}),
    ]
    results = await asyncio.gather(*(store.commit(c) for c in mixed), return_exceptions=True)
    assert results[0] is None and results[1] is None
    assert isinstance(results[2], VersionConflict)
    assert [e.version for e in await store.load_events(ids[1])] == [1, 2, 3]
    assert await store.seated_table(uid) == room
    assert [e.version for e in await store.load_events(ids[2])] == [1, 2]
