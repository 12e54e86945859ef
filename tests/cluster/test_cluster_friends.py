"""Friends across processes: a notice reaches a socket held by another
process (``ToUser``), who is online is read from Redis (and goes when the
socket closes), and a block made on the blocker's process hides the
blocked player's chat at a table another process runs."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fh_cluster_helpers import REDIS_URL, cluster_server
from fh_server_helpers import Databases, Player, Server


@pytest.fixture(scope="module")
def two(
    cluster_databases: Databases, cluster_logs: Path, redis_prefix: str
) -> Iterator[list[Server]]:
    db = cluster_databases.new("postgresql")
    servers = [
        cluster_server(db, REDIS_URL, redis_prefix, cluster_logs / f"friends-{n}.log", f"node-{n}")
        for n in ("a", "b")
    ]
    for s in servers:
        s.start()
    yield servers
    for s in servers:
        s.stop()


async def friends_of(p: Player) -> list[dict[str, Any]]:
    r = await p.http.get("/api/friends")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["friends"]
    return out


async def test_notices_presence_and_blocks_across_processes(two: list[Server]) -> None:
    a, b = two
    tag = secrets.token_hex(3)
    x = await Player(a, f"xena_{tag}").register()
    y = await Player(b, f"yusuf_{tag}").register()
    try:
        await x.connect()
        await y.connect()
        r = await y.http.post("/api/friends", json={"user": x.id})
        assert r.status_code == 201, r.text
        await x.wait(lambda: any(f["type"] == "notice" for f in x.frames))
        note = next(f for f in x.frames if f["type"] == "notice")
        assert note["notice"] == "friend_request" and note["from"]["id"] == y.id
        assert (await x.http.post(f"/api/friends/{y.id}/accept")).status_code == 200
        # y's socket is on b; a reads it from Redis.
        assert [(f["id"], f["online"]) for f in await friends_of(x)] == [(y.id, True)]

        # A table run by a; y (on b) sits there; y blocks x (through b).
        r = await x.http.post("/api/tables", json={"kind": "casual", "preset": "quick"})
        table = r.json()["table"]["id"]
        await x.join(table=table)
        await y.join(table=table)
        await y.ok("sit")
        assert (await y.http.post("/api/blocks", json={"user": x.id})).status_code == 201
        await x.ok("chat", text="from x, blocked")
        await y.ok("chat", text="from y")
        await y.wait(lambda: any(f.get("text") == "from y" for f in y.frames))
        await x.wait(lambda: any(f.get("text") == "from y" for f in x.frames))
        assert not any(f.get("text") == "from x, blocked" for f in y.frames)

        assert (await y.http.delete(f"/api/blocks/{y.id}")).status_code == 404
        assert (await y.http.delete(f"/api/blocks/{x.id}")).status_code == 204
        assert (await y.http.post("/api/friends", json={"user": x.id})).status_code == 201
        assert (await x.http.post(f"/api/friends/{y.id}/accept")).status_code == 200

        # y goes: a sees them offline.
        await y.close()
        for _ in range(100):
            if not (await friends_of(x))[0]["online"]:
                break
            await asyncio.sleep(0.05)
        assert (await friends_of(x))[0]["online"] is False
    finally:
        await x.aclose()
        await y.aclose()
