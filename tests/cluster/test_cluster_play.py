"""Several processes, one game: players connected through different
processes play at the same table; the lobby, presence and the Ranked queue
are shared."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fh_cluster_helpers import REDIS_URL, Acked, check_log, cluster_server, play
from fh_server_helpers import Databases, Player, Server


async def seat_four_cluster(
    owner: Server, edges: list[Server], names: list[str]
) -> tuple[list[Player], str]:
    """A Casual table created at ``owner`` (which takes its lease); player
    ``i`` connects through ``edges[i % len(edges)]``; all seated and ready."""
    players = [await Player(edges[i % len(edges)], n).guest() for i, n in enumerate(names)]
    host = players[0]
    r = await host.http.post(
        owner.url + "/api/tables",
        json={"kind": "casual", "preset": "quick", "timer": 90},
    )
    assert r.status_code == 201, r.text
    table: str = r.json()["table"]["id"]
    for p in players:
        await p.connect()
        await p.join(table=table)
        if p is not host:
            await p.ok("sit")
    for p in players:
        await p.ok("ready", ready=True)
    for p in players:
        await p.wait(lambda p=p: p.view is not None)
    return players, table


@pytest.fixture(scope="module")
def two(
    cluster_databases: Databases, cluster_logs: Path, redis_prefix: str
) -> Iterator[tuple[str, list[Server]]]:
    db = cluster_databases.new("postgresql")
    servers = [
        cluster_server(db, REDIS_URL, redis_prefix, cluster_logs / f"play-{n}.log", f"node-{n}")
        for n in ("a", "b")
    ]
    for s in servers:
        s.start()
    yield db, servers
    for s in servers:
        s.stop()


async def test_players_on_two_processes_share_a_table(two: tuple[str, list[Server]]) -> None:
    db, (a, b) = two
    players, table = await seat_four_cluster(a, [a, b], ["Rami", "Nour", "Karim", "Hala"])
    # Presence is the owner's: everyone shows as connected, wherever they are.
    for p in players:
        assert p.room is not None
        assert all(s["connected"] for s in p.room["seats"]), p.room["seats"]
    # The lobby lists the table from either process.
    for s in (a, b):
        r = await players[1].http.get(s.url + "/api/tables?status=playing")
        assert table in [t["id"] for t in r.json()["tables"]]
    # A spectator through the other process never gets a hand.
    watcher = await Player(b, "Watcher").guest()
    await watcher.connect()
    snap = await watcher.join(table=table)
    assert snap["you"]["role"] == "spectator" and "hand" not in snap["view"]
    acked: Acked = []
    await play(players, table, 24, acked)
    assert len(acked) == 24
    # Chat crosses processes too.
    await players[1].ok("chat", text="yalla")
    await players[0].wait(lambda: any(f["type"] == "chat" for f in players[0].frames))
    await check_log(db, table, players, acked)
    await watcher.wait(lambda: watcher.version == players[0].version)
    assert watcher.view is not None and "hand" not in watcher.view
    # A second socket of the same user on the other process replaces the first.
    twin = Player(a, "Nour")
    twin.http.cookies.set("fh_session", players[1].token)
    await twin.connect()
    await players[1].wait(lambda: players[1].close_code == 4000)
    await asyncio.gather(*(p.aclose() for p in [*players, watcher, twin]))


async def test_ranked_queue_is_shared(two: tuple[str, list[Server]]) -> None:
    _, (a, b) = two
    people = [await Player((a, b)[i % 2], f"ranked{i}x").register() for i in range(4)]
    for p in people:
        await p.connect()
    for p in people:
        r = await p.http.post("/api/queue")
        assert r.status_code == 200, r.text
    tables: set[Any] = set()
    for p in people:
        await p.wait(lambda p=p: any(f["type"] == "matched" for f in p.frames), timeout=30)
        tables.add(next(f["table"] for f in p.frames if f["type"] == "matched"))
        r = await p.http.get("/api/queue")
        assert r.json()["status"] == "matched"
    assert len(tables) == 1
    table = tables.pop()
    for p in people:
        sync = await p.join(table=table)
        assert sync["you"]["role"] == "player"
    await asyncio.gather(*(p.aclose() for p in people))


async def test_the_chat_filter_choice_reaches_the_tables_process(
    two: tuple[str, list[Server]],
) -> None:
    """A reader on the other process who turned the chat filter off gets
    lines as said from the table's owner; one who did not, masked only."""
    _, (a, b) = two
    host = await Player(a, "Host").guest()
    r = await host.http.post(a.url + "/api/tables", json={"kind": "casual"})
    table: str = r.json()["table"]["id"]
    opted, plain = await Player(b, "Opted").guest(), await Player(b, "Plain").guest()
    for p in (host, opted, plain):
        await p.connect()
    await opted.ok("chat_filter", off=True)
    for p in (host, opted, plain):
        await p.join(table=table)
    await host.ok("chat", text="shit happens")
    for p in (opted, plain):
        await p.wait(lambda p=p: any(f["type"] == "chat" for f in p.frames))
    line = {p.name: next(f for f in p.frames if f["type"] == "chat") for p in (opted, plain)}
    assert line["Opted"]["text"] == line["Plain"]["text"] == "**** happens"
    assert line["Opted"]["raw"] == "shit happens" and "raw" not in line["Plain"]
    await asyncio.gather(*(p.aclose() for p in (host, opted, plain)))
