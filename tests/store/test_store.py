"""The store: migrations, and the reads and writes the server relies on."""

from __future__ import annotations

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


async def test_users_and_sessions(store: Store) -> None:
    u = await store.create_user("u_1", "Rami", 1000, username="Rami", password_hash="h")
    assert u.username == "rami" and not u.guest
    with pytest.raises(UsernameTaken):
        await store.create_user("u_2", "Other", 1000, username="RAMI")
    g = await store.create_user("u_3", "Guest", 1000)
    assert g.guest and g.username is None
    assert (await store.get_user_by_username("rAmI")) is not None
    await store.create_session("hash1", "u_1", 1000, 5000)
    assert (await store.session_user("hash1", 4999)) == await store.get_user("u_1")
    assert await store.session_user("hash1", 5000) is None  # expired
    assert await store.session_user("other", 1000) is None
    await store.delete_session("hash1")
    assert await store.session_user("hash1", 1000) is None


def _row(table_id: str, version: int = 1) -> TableRow:
    return TableRow(
        id=table_id,
        kind="casual",
        status="waiting",
        invite=None,
        host="u_1",
        version=version,
        summary={"id": table_id},
        open_seats=3,
        created_ms=1,
        updated_ms=1,
    )


async def test_commit_is_atomic_and_guarded_by_the_version(store: Store) -> None:
    await store.create_user("u_1", "Rami", 1, username="rami")
    created = StoredEvent(1, "created", {"x": 1}, 1)
    await store.create_table(_row("t1"), created, [(0, "u_1", True)])
    assert await store.seated_table("u_1") == "t1"
    ev2 = StoredEvent(2, "ready", {"seat": 0, "ready": True}, 2)
    await store.commit(Commit("t1", 1, [ev2], {"updated_ms": 2}))
    # A writer that thinks the table is still at version 1 writes nothing.
    ev2b = StoredEvent(2, "ready", {"seat": 0, "ready": False}, 3)
    with pytest.raises(VersionConflict):
        await store.commit(Commit("t1", 1, [ev2b], {"updated_ms": 3}))
    events = await store.load_events("t1")
    assert [(e.version, e.data) for e in events] == [(1, {"x": 1}), (2, {"seat": 0, "ready": True})]
    assert [e.version for e in await store.load_events("t1", after=1)] == [2]
    row = await store.get_table("t1")
    assert row is not None and row.version == 2 and row.updated_ms == 2
    # A failing statement rolls the whole commit back.
    ev3 = StoredEvent(3, "x", {}, 4)
    with pytest.raises(Exception):  # noqa: B017 - the database's own error
        await store.commit(Commit("t1", 2, [ev3, ev3], {"updated_ms": 4}))
    row = await store.get_table("t1")
    assert row is not None and row.version == 2 and len(await store.load_events("t1")) == 2
    # Leaving the seat (inactive) frees the user; finishing frees everyone.
    await store.commit(Commit("t1", 2, [ev3], {"status": "playing"}, seats=[(0, "u_1", False)]))
    assert await store.seated_table("u_1") is None
    assert await store.unfinished_table_ids() == ["t1"]
    await store.commit(
        Commit(
            "t1",
            3,
            [StoredEvent(4, "game_over", {}, 5)],
            {"status": "over", "finished_ms": 5},
            users=[UserUpdate("u_1", mu=30.0, sigma=5.0, rated_games=1, games=1, wins=1)],
        )
    )
    assert await store.unfinished_table_ids() == []
    u = await store.get_user("u_1")
    assert u is not None and (u.mu, u.sigma, u.games, u.wins) == (30.0, 5.0, 1, 1)
    assert [x.id for x in await store.leaderboard(5)] == ["u_1"]


async def test_lobby_listing_and_invites(store: Store) -> None:
    for i in range(3):
        row = _row(f"t{i}")
        row.created_ms = i
        if i == 2:
            row.open_seats = 0
        await store.create_table(row, StoredEvent(1, "created", {}, i), [])
    private = _row("p1")
    private.kind, private.invite = "private", "secret-code"
    await store.create_table(private, StoredEvent(1, "created", {}, 9), [])
    listed = await store.list_tables(
        statuses=("waiting",), kinds=("casual",), open_only=True, limit=10
    )
    assert [r.id for r in listed] == ["t1", "t0"]
    got = await store.table_by_invite("secret-code")
    assert got is not None and got.id == "p1"
    assert await store.table_by_invite("guess") is None


async def test_heartbeats(store: Store) -> None:
    assert await store.last_alive("n1") is None
    await store.heartbeat("n1", 10)
    await store.heartbeat("n1", 20)
    assert await store.last_alive("n1") == 20
