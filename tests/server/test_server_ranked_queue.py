"""The Ranked queue's storage: the same tests against the in-memory backend
(one process) and the Redis one (a cluster; Redis on 127.0.0.1:6379, a key
prefix of its own per test)."""

from __future__ import annotations

import secrets
import socket
from collections.abc import AsyncIterator

import pytest
from fh_server_helpers import FakeClock

from fourhundred.server.errors import CommandError
from fourhundred.server.matchmaking import QueueEntry
from fourhundred.server.ranked_queue import MemoryQueue, RankedQueue, RedisQueue

REDIS_URL = "redis://127.0.0.1:6379/0"


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", "redis"])
async def queue(request: pytest.FixtureRequest, clock: FakeClock) -> AsyncIterator[RankedQueue]:
    if request.param == "memory":
        yield MemoryQueue(clock)
        return
    if not _redis_up():
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    import redis.asyncio as aioredis

    r = aioredis.from_url(REDIS_URL)
    prefix = f"fhtest:{secrets.token_hex(6)}:"
    try:
        yield RedisQueue(r, prefix, "node-q", clock)
    finally:
        keys = [k async for k in r.scan_iter(match=prefix + "*")]
        if keys:
            await r.delete(*keys)
        await r.aclose()


def entry(queue: RankedQueue, uid: str, mu: float = 25.0) -> QueueEntry:
    return QueueEntry(uid, uid.upper(), mu, 8.0, queue.now())


async def test_an_added_entry_comes_back_whole(queue: RankedQueue, clock: FakeClock) -> None:
    e = entry(queue, "u1", 27.5)
    await queue.add(e)
    clock.advance(3)
    assert await queue.entries() == {"u1": e}
    assert queue.now() - e.joined == pytest.approx(3)
    assert await queue.matched("u1") is None


async def test_removing_takes_the_user_out(queue: RankedQueue) -> None:
    await queue.add(entry(queue, "u1"))
    await queue.add(entry(queue, "u2"))
    await queue.remove("u1")
    assert list(await queue.entries()) == ["u2"]
    await queue.remove("nobody")  # not an error
    assert list(await queue.entries()) == ["u2"]


async def test_seating_moves_players_from_the_queue_to_their_match(queue: RankedQueue) -> None:
    for uid in ("a", "b", "c", "d", "e"):
        await queue.add(entry(queue, uid))
    await queue.seat(["a", "b", "c", "d"], "T1")
    assert list(await queue.entries()) == ["e"]
    assert [await queue.matched(u) for u in "abcde"] == ["T1"] * 4 + [None]


async def test_a_match_is_done_only_when_its_own_table_is_joined(queue: RankedQueue) -> None:
    for uid in "abcd":
        await queue.add(entry(queue, uid))
    await queue.seat(list("abcd"), "T1")
    await queue.joined("a", "OTHER")
    assert await queue.matched("a") == "T1"
    await queue.joined("a", "T1")
    assert await queue.matched("a") is None
    await queue.remove("b")
    assert await queue.matched("b") is None
    await queue.add(entry(queue, "c"))  # queueing again forgets the old match
    assert await queue.matched("c") is None
    assert list(await queue.entries()) == ["c"]
    assert await queue.matched("d") == "T1"


async def test_one_matchmaker_at_a_time(queue: RankedQueue) -> None:
    async with queue.turn() as first:
        assert first
        if isinstance(queue, RedisQueue):
            # Another process asking now is told to wait for its next round.
            async with queue.turn() as second:
                assert not second
    async with queue.turn() as again:
        assert again, "the turn is free once the round is over"


async def test_an_unreachable_redis_is_unavailable_not_a_crash(clock: FakeClock) -> None:
    import redis.asyncio as aioredis

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = aioredis.from_url(f"redis://127.0.0.1:{port}/0", socket_connect_timeout=0.5)
    q = RedisQueue(r, "fhtest:down:", "node-q", clock)
    try:
        for call in (q.entries(), q.matched("u"), q.add(entry(q, "u")), q.remove("u")):
            with pytest.raises(CommandError) as e:
                await call
            assert e.value.code == "unavailable"
        await q.joined("u", "T")  # never raises: nothing depends on it
        async with q.turn() as mine:
            assert not mine
    finally:
        await r.aclose()
