"""The Redis transport alone (``server/cluster.py``): typed messages in
order, ``flush``, and what a process needs to find another one gone."""

from __future__ import annotations

import asyncio

from fh_cluster_helpers import REDIS_URL

from fourhundred.server.cluster import Cluster, ClusterSpec
from fourhundred.server.cluster_messages import ClusterMessage, Gone, Mute


async def test_messages_arrive_typed_and_in_order(redis_prefix: str) -> None:
    got: list[ClusterMessage] = []
    a = Cluster(ClusterSpec(REDIS_URL, "a", prefix=redis_prefix + "t1:"), handler=got.append)
    b = Cluster(ClusterSpec(REDIS_URL, "b", prefix=redis_prefix + "t1:"))
    await a.start()
    await b.start()
    try:
        sent = [Gone(table=f"t{i}", node="b") for i in range(50)]
        sent.append(Mute(user_id="u1", other="u2", muted=True))
        for m in sent:
            b.post("a", m)
        await b.flush()
        async with asyncio.timeout(10):
            while len(got) < len(sent):
                await asyncio.sleep(0.01)
        assert got == sent
    finally:
        await a.stop()
        await b.stop()


async def test_a_dead_process_is_seen_and_only_its_leases_released(redis_prefix: str) -> None:
    prefix = redis_prefix + "t2:"
    a = Cluster(ClusterSpec(REDIS_URL, "a", prefix=prefix, lease_ms=60_000))
    b = Cluster(ClusterSpec(REDIS_URL, "b", prefix=prefix, lease_ms=60_000))
    await a.start()
    await b.start()
    try:
        assert await a.acquire("t1") and await a.acquire("t2")
        assert await b.acquire("t3")
        assert await b.listeners("a") == 1
        unreached: list[str] = []
        await a.stop()  # gone without releasing anything, as after SIGKILL
        b.post("a", Gone(table="t1", node="b"), on_fail=lambda: unreached.append("a"))
        await b.flush()
        assert unreached == ["a"]
        assert await b.listeners("a") == 0
        assert await b.owners(["t1", "t2", "t3"]) == ["a", "a", "b"]
        assert await b.release_node("a") == 2
        assert await b.owners(["t1", "t2", "t3"]) == [None, None, "b"]
        assert await b.acquire("t1")
    finally:
        await b.stop()
