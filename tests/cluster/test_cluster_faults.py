"""Faults in a cluster: a process killed with SIGKILL in the middle of hands
on several tables while their clients stay connected through other
processes; Redis restarted mid-game; the database cut off for a while."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
from fh_cluster_helpers import (
    REDIS_URL,
    Acked,
    PrivateRedis,
    TcpProxy,
    check_log,
    cluster_server,
    play,
    stored_events,
)
from test_cluster_play import seat_four_cluster


async def test_sigkill_owner_tables_move_and_nothing_is_lost(
    fresh_db: str, cluster_logs: Path, redis_prefix: str
) -> None:
    db = fresh_db
    a, b, c = (
        cluster_server(db, REDIS_URL, redis_prefix + "k:", cluster_logs / f"kill-{n}.log", n)
        for n in ("kill-a", "kill-b", "kill-c")
    )
    for s in (a, b, c):
        s.start()
    try:
        # Two tables run by A, every client connected through B or C.
        tables = [
            await seat_four_cluster(
                a, [b, c], [f"{t}{n}" for n in ("Rami", "Nour", "Karim", "Hala")]
            )
            for t in ("x", "y")
        ]
        acked: Acked = []
        await asyncio.gather(*(play(ps, t, 7, acked) for ps, t in tables))
        a.kill()
        t0 = time.monotonic()
        refused: list[dict[str, object]] = []
        # The clients stay connected; the tables come back (another process
        # takes the leases) and play goes on from where it was.
        await asyncio.gather(*(play(ps, t, 9, acked, refused=refused) for ps, t in tables))
        resumed = time.monotonic() - t0
        for ps, _ in tables:
            assert all(p.close_code is None for p in ps)
            # The resync is a catchup from the client's last version.
            assert all(any(f["type"] == "catchup" for f in p.frames) for p in ps)
        for ps, t in tables:
            await check_log(db, t, ps, acked)
        assert len(acked) == 2 * 16
        print(f"tables resumed {resumed:.1f} s after SIGKILL; refused meanwhile: {len(refused)}")
        for ps, _ in tables:
            await asyncio.gather(*(p.aclose() for p in ps))
    finally:
        for s in (a, b, c):
            s.stop()


async def health_of(url: str, status: int, error: str, within: float = 10.0) -> bool:
    """Whether ``/healthz`` answers ``status`` (with ``error`` in its error)
    within ``within`` seconds."""
    deadline = time.monotonic() + within
    async with httpx.AsyncClient(base_url=url, timeout=2) as http:
        while True:
            r = await http.get("/healthz")
            if r.status_code == status and error in r.json().get("error", ""):
                return True
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)


async def test_redis_restarted_mid_game(fresh_db: str, cluster_logs: Path) -> None:
    redis = PrivateRedis().start()
    db = fresh_db
    a, b = (
        cluster_server(db, redis.url, "fhr:", cluster_logs / f"redis-{n}.log", n)
        for n in ("redis-a", "redis-b")
    )
    try:
        for s in (a, b):
            s.start()
        players, table = await seat_four_cluster(a, [a, b], ["Rami", "Nour", "Karim", "Hala"])
        acked: Acked = []
        await play(players, table, 6, acked)
        redis.kill()
        await asyncio.sleep(1.0)
        # The processes say so to the balancer while Redis is away...
        assert await health_of(a.url, 503, "redis")
        # A chat at the table's owner now reaches nobody on the other
        # process: the owner lets go of those sockets, whose process still
        # thinks them attached. Their next commands must not be refused as
        # "not attached": they are answered "unavailable" (tried again)
        # while the sockets re-attach.
        assert (await players[0].cmd("chat", text="still there?"))["type"] == "ack"
        redis.start()  # the same port, empty: every lease and queue is gone
        # ... and are healthy again once it is back.
        assert await health_of(a.url, 200, "") and await health_of(b.url, 200, "")
        await play(players, table, 10, acked, refused=[])
        assert all(p.close_code is None for p in players)
        await check_log(db, table, players, acked)
        await asyncio.gather(*(p.aclose() for p in players))
    finally:
        for s in (a, b):
            s.stop()
        redis.kill()


async def test_database_cut_off_refuses_then_resumes(
    fresh_db: str, cluster_logs: Path, redis_prefix: str
) -> None:
    real = fresh_db
    proxy = await TcpProxy(5432).start()
    via_proxy = real.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
    assert via_proxy != real
    a = cluster_server(via_proxy, REDIS_URL, redis_prefix + "d:", cluster_logs / "db-a.log", "db-a")
    await asyncio.to_thread(a.start)
    try:
        players, table = await seat_four_cluster(a, [a], ["Rami", "Nour", "Karim", "Hala"])
        acked: Acked = []
        await play(players, table, 5, acked)
        before, _ = await stored_events(real, table)
        await proxy.cut()
        mover = next(p for p in players if p.view and p.view.get("legal") is not None)
        assert mover.view is not None
        from fh_server_helpers import choose

        kind, value = choose(mover.view)
        field = "bid" if kind == "bid" else "card"
        reply = await mover.cmd(kind, version=mover.version, **{field: value})
        assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        assert "nothing changed" in reply["message"]
        after, events = await stored_events(real, table)
        assert after == before and len(events) == before  # nothing half-written
        await proxy.restore()
        await play(players, table, 5, acked)
        await check_log(real, table, players, acked)
        await asyncio.gather(*(p.aclose() for p in players))
    finally:
        await asyncio.to_thread(a.stop)
        await proxy.close()
