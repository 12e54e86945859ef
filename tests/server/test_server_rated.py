"""The table actor in-process, on a real store: a Ranked game played to the
end changes ratings (OpenSkill, 2 v 2), fills the leaderboard and the match
history; a rebuilt table resumes its timer with the time that was left."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fh_server_helpers import Databases, FakeClock, choose

from fourhundred.engine import replay
from fourhundred.server.botpool import PoolBotRunner
from fourhundred.server.config import ServerConfig
from fourhundred.server.hub import Hub
from fourhundred.server.metrics import Metrics
from fourhundred.server.protocol import Bid, Join, Play
from fourhundred.server.table import TableActor
from fourhundred.store import Store


class Watcher:
    def __init__(self, user_id: str, name: str) -> None:
        self.user_id = user_id
        self.user_name = name
        self.frames: list[dict[str, Any]] = []
        self.version = 0
        self.view: dict[str, Any] | None = None

    def send(self, data: bytes) -> None:
        msg = json.loads(data)
        self.frames.append(msg)
        if msg["type"] in ("event", "snapshot", "catchup"):
            self.version = msg["version"]
            self.view = msg["view"]

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [
            f["event"] for f in self.frames if f["type"] == "event" and f["event"]["kind"] == kind
        ]


@pytest.fixture
async def store(backend: str, databases: Databases) -> AsyncIterator[Store]:
    url = await asyncio.to_thread(databases.new, backend)
    s = await Store.open(url)
    yield s
    await s.close()


def make_hub(store: Store, clock: FakeClock, node: str) -> Hub:
    config = ServerConfig(bot="random", bot_workers=0, bot_delay_s=0.0, node=node)
    return Hub(store, config, clock, PoolBotRunner(0, 100), Metrics())


async def until(pred: Any, what: str) -> None:
    for _ in range(20000):
        if pred():
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"never: {what}")


async def ranked_table(store: Store, hub: Hub, clock: FakeClock) -> tuple[str, list[Watcher]]:
    tag = secrets.token_hex(3)
    users = [
        await store.create_user(f"u_{tag}{i}", f"P{i}", clock.now_ms(), username=f"p{i}_{tag}")
        for i in range(4)
    ]
    for u in users:
        await hub.queue_join(u)
    await hub.match_now()
    status = await hub.queue_status(users[0].id)
    assert status["status"] == "matched", status
    table = status["table"]
    actor = await hub.actor(table)
    assert actor is not None
    watchers = [Watcher(u.id, u.name) for u in users]
    for i, w in enumerate(watchers):
        actor.submit("join", w, Join(id=i, table=table))
    await until(lambda: all(w.view is not None for w in watchers), "everyone sees the game")
    return table, watchers


async def test_a_ranked_game_to_the_end_changes_ratings(store: Store) -> None:
    clock = FakeClock()
    hub = make_hub(store, clock, "node-a")
    table, watchers = await ranked_table(store, hub, clock)
    actor = hub.actors[table]
    ids = iter(range(100, 100_000))
    while not watchers[0].events("game_over"):
        top = max(w.version for w in watchers)
        await until(lambda top=top: all(w.version >= top for w in watchers), "in step")
        mover = next(w for w in watchers if w.view and w.view["legal"])
        assert mover.view is not None
        kind, value = choose(mover.view)
        msg = Bid(id=next(ids), bid=value) if kind == "bid" else Play(id=next(ids), card=value)
        before = mover.version
        actor.submit("cmd", mover, msg)
        await until(lambda m=mover, b=before: m.version > b, "the move is applied")
        assert not [f for f in mover.frames if f["type"] == "error"]
    over = watchers[0].events("game_over")[0]
    assert over["reason"] == "won" and over["rated"] is True
    winner = over["winner"]
    ratings = {r["user"]: r for r in over["ratings"]}
    seats = {r["user"]: r["seat"] for r in over["ratings"]}
    users = await store.get_users(ratings)
    for uid, r in ratings.items():
        won = seats[uid] % 2 == winner
        assert (r["after"] > r["before"]) == won
        u = users[uid]
        assert round(60 * u.mu) == r["after"]
        assert u.rated_games == 1 and u.games == 1 and u.wins == int(won) and u.bids >= 1
    board = await store.leaderboard(10)
    ours = [u.id for u in board if u.id in ratings]
    assert len(ours) == 4
    assert set(ours[:2]) == {uid for uid in ratings if seats[uid] % 2 == winner}
    history = await store.games_of(next(iter(ratings)), 5)
    row, players = history[0]
    assert row.id == table and row.rated and row.winner == winner
    assert {p.user_id for p in players} == set(ratings)
    assert row.record is not None and replay(row.record).winner == winner
    await hub.stop()


async def test_rebuilt_table_resumes_with_the_time_that_was_left(store: Store) -> None:
    clock = FakeClock()
    hub = make_hub(store, clock, "node-a")
    table, watchers = await ranked_table(store, hub, clock)
    row = await store.get_table(table)
    assert row is not None and row.deadline_ms is not None
    timer_ms = 30_000
    assert row.deadline_ms == clock.now_ms() + timer_ms
    # Node A runs 12 s more (its heartbeat says so), then dies; node B starts
    # 100 s later: the player still has 18 s, not -82 s.
    clock.advance(12)
    await store.heartbeat("node-a", clock.now_ms())
    for a in list(hub.actors.values()):
        await a.stop()
    clock.advance(100)
    hub_b = make_hub(store, clock, "node-b")
    actor = await hub_b.actor(table)
    assert isinstance(actor, TableActor)
    assert actor.deadline_ms == clock.now_ms() + 18_000
    assert actor.model.version == row.version
    # And the rebuilt state is the one the players saw.
    w = watchers[0]
    fresh = Watcher(w.user_id, w.user_name)
    actor.submit("join", fresh, Join(id=1, table=table, last_version=w.version))
    await until(lambda: fresh.view is not None, "resync")
    sync = next(f for f in fresh.frames if f["type"] in ("catchup", "snapshot"))
    assert sync["type"] == "catchup" and sync["events"] == []
    assert fresh.view == w.view
    assert sync["clock"]["remaining_ms"] == 18_000
    await hub_b.stop()


async def test_a_rematch_table_is_made_once(store: Store) -> None:
    """The server may stop after making a rematch's table and before the old
    table records it; the next attempt finds that table instead of making a
    second one (its id is derived from the old table's)."""
    from fourhundred.engine import preset
    from fourhundred.server.rematch_driver import rematch_id
    from fourhundred.server.tablespec import TableSpec
    from fourhundred.store import StoredEvent, TableExists

    clock = FakeClock()
    hub = make_hub(store, clock, "node-a")
    old = f"old{secrets.token_hex(3)}"
    spec = TableSpec(
        kind="private",
        host=None,
        preset_name="standard",
        settings=preset("standard").to_dict(),
        timer=30,
        seats=(None,) * 4,
        ready=(True,) * 4,
        bots=("random",) * 4,
        table_id=rematch_id(old),
    )
    first = await hub.tables.open_rematch(spec)
    second = await hub.tables.open_rematch(spec)
    assert first == second and first[0] == rematch_id(old) and first[1] is not None
    row = await store.get_table(first[0])
    assert row is not None
    with pytest.raises(TableExists):
        await store.create_table(row, StoredEvent(1, "created", {}, 0), [])
    kinds = [e.kind for e in await store.load_events(first[0])]
    assert kinds.count("created") == 1  # nothing written twice
    await hub.stop()
