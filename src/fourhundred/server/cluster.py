"""Several server processes sharing one PostgreSQL database and one Redis
(opt-in: ``fourhundred serve --redis-url``).

- **Leases.** A table is run by the one process holding its lease,
  ``{prefix}lease:{table}`` = ``NODE:TOKEN`` (``SET NX PX``; ``TOKEN`` comes
  from ``INCR {prefix}fence:{table}``, so every new holding has a new value
  and a stale holder's renewal fails). The owner renews its leases every
  third of their life; a renewal that finds another value stops the actor.
  The store's version-guarded commit stays the last word: a stale owner can
  never append to the log.
- **Messages.** Each process subscribes to its inbox channel
  ``{prefix}node:{NODE}`` (Redis pub/sub: no polling, lowest latency).
  Batches are msgpack lists of the typed messages of
  :mod:`~fourhundred.server.cluster_messages`, sent in order by one sender
  task.
  A lost message is never fatal: a socket whose table moved, or whose
  process lost Redis for a while, is re-attached with its last version and
  gets a ``catchup``.

This module is transport only; the cluster's table locator
(:mod:`~fourhundred.server.cluster_locator`) decides what the messages mean.
It reads no environment: ``ServerConfig`` carries the URL and the prefix.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from .cluster_messages import ClusterMessage, decode_batch, encode_batch
from .logs import get_logger

__all__ = ["EVERYONE", "Cluster", "ClusterSpec"]

log = get_logger("fourhundred.cluster")

# Renew (or re-take, when Redis lost it: a restarted Redis) our own lease;
# 0 when someone else holds it.
_RENEW: Final = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
elseif not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

EVERYONE: Final = "*"
"""The node name whose inbox every process reads: ``post(EVERYONE, m)``
reaches them all (node names never contain ``*``)."""

Handler = Callable[[ClusterMessage], None]
OnFail = Callable[[], None]


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    """Where the cluster's Redis is and who this process is in it."""

    url: str
    node: str
    prefix: str = "fh:"
    """Put before every key and channel (several clusters on one Redis)."""
    lease_ms: int = 3000
    """How long a table's lease lasts unless renewed."""


class Cluster:
    """One process's link to Redis: leases, an inbox, a sender."""

    def __init__(
        self,
        spec: ClusterSpec,
        *,
        handler: Handler = lambda _m: None,
        on_reconnect: Callable[[], None] = lambda: None,
    ) -> None:
        import redis.asyncio as aioredis

        url = spec.url
        self.url = url
        self.node = spec.node
        self.prefix = spec.prefix
        self.lease_ms = spec.lease_ms
        self.handler = handler
        self.on_reconnect = on_reconnect
        self.redis = aioredis.from_url(
            url, socket_timeout=2.0, socket_connect_timeout=2.0, health_check_interval=5
        )
        self.tokens: dict[str, str] = {}
        """The lease values this process holds, by table."""
        self._out: asyncio.Queue[tuple[str, ClusterMessage, OnFail | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.connected = asyncio.Event()

    # ------------------------------------------------------------ keys

    def inbox(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def lease_key(self, table: str) -> str:
        return f"{self.prefix}lease:{table}"

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Subscribe to this process's inbox (waits until Redis answers once,
        for at most a few seconds, then goes on and keeps retrying)."""
        self._tasks = [
            asyncio.create_task(self._listen(), name="cluster-listen"),
            asyncio.create_task(self._send_loop(), name="cluster-send"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), 10)

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _listen(self) -> None:
        delay = 0.1
        first = True
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.inbox(self.node), self.inbox(EVERYONE))
                self.connected.set()
                delay = 0.1
                if not first:
                    log.info("redis_reconnected", node=self.node)
                    self.on_reconnect()
                first = False
                while True:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None or msg.get("type") != "message":
                        continue
                    try:
                        batch = decode_batch(msg["data"])
                    except msgspec.DecodeError:
                        log.warning("cluster_bad_message", node=self.node)
                        continue
                    for item in batch:
                        try:
                            self.handler(item)
                        except Exception:
                            log.exception("cluster_handler_failed", kind=type(item).__name__)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except Exception as e:
                if self.connected.is_set():
                    log.warning("redis_lost", node=self.node, error=repr(e))
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                # Back off (with jitter) so a restarting Redis is not hammered.
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 2.0)

    # ------------------------------------------------------------ messages

    def post(self, node: str, message: ClusterMessage, on_fail: OnFail | None = None) -> None:
        """Queue ``message`` for ``node``'s inbox (never blocks). Messages to
        one node arrive in the order posted. ``on_fail`` runs when nobody
        received it (the node is gone) or Redis could not be reached."""
        self._out.put_nowait((node, message, on_fail))

    async def flush(self) -> None:
        """Wait until every message posted so far has been published (or
        given up on): a process handing its tables over on shutdown must
        not stop with its ``Gone`` messages still queued."""
        await self._out.join()

    async def _send_loop(self) -> None:
        while True:
            first = await self._out.get()
            items = [first]
            while not self._out.empty() and len(items) < 512:
                items.append(self._out.get_nowait())
            try:
                await self._send(items)
            finally:
                for _ in items:
                    self._out.task_done()

    async def _send(self, items: list[tuple[str, ClusterMessage, OnFail | None]]) -> None:
        by_node: dict[str, list[tuple[ClusterMessage, OnFail | None]]] = {}
        for node, message, on_fail in items:
            by_node.setdefault(node, []).append((message, on_fail))
        for node, batch in by_node.items():
            data = encode_batch([m for m, _ in batch])
            received = 0
            # Twice: after a Redis restart the first try may meet a dead
            # pooled connection.
            for attempt in (1, 2):
                try:
                    received = await self.redis.publish(self.inbox(node), data)
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("cluster_send_failed", to=node, error=repr(e), attempt=attempt)
                    await asyncio.sleep(0.05)
            if received == 0:
                for _, on_fail in batch:
                    if on_fail is not None:
                        with contextlib.suppress(Exception):
                            on_fail()

    # -------------------------------------------------------------- leases

    @staticmethod
    def node_of(value: Any) -> str | None:
        """The node in a lease value (``NODE:TOKEN``)."""
        if value is None:
            return None
        text = value.decode() if isinstance(value, bytes) else str(value)
        return text.rsplit(":", 1)[0]

    async def owners(self, tables: Sequence[str]) -> list[str | None]:
        """The node holding each table's lease (None: nobody)."""
        if not tables:
            return []
        values = await self.redis.mget([self.lease_key(t) for t in tables])
        return [self.node_of(v) for v in values]

    async def owner(self, table: str) -> str | None:
        return (await self.owners([table]))[0]

    async def acquire(self, table: str) -> bool:
        """Take the table's lease if nobody holds it."""
        token = await self.redis.incr(self.key("fence", table))
        value = f"{self.node}:{token}"
        ok = await self.redis.set(self.lease_key(table), value, nx=True, px=self.lease_ms)
        if ok:
            self.tokens[table] = value
        return bool(ok)

    async def renew(self) -> list[str]:
        """Renew every lease held; returns the tables whose lease another
        process holds now (they must stop here). Raises when Redis is down."""
        tables = list(self.tokens)
        if not tables:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for t in tables:
                pipe.eval(_RENEW, 1, self.lease_key(t), self.tokens[t], self.lease_ms)
            results = await pipe.execute()
        lost = [t for t, r in zip(tables, results, strict=True) if int(r) == 0]
        for t in lost:
            self.tokens.pop(t, None)
        return lost

    async def listeners(self, node: str) -> int:
        """How many connections subscribe to ``node``'s inbox (0: that
        process is not listening; after a SIGKILL, Redis knows at once)."""
        counts = await self.redis.pubsub_numsub(self.inbox(node))
        return int(counts[0][1]) if counts else 0

    async def release_node(self, node: str) -> int:
        """Delete every lease ``node`` holds (each only if it still holds
        it); returns how many went."""
        keys = [k async for k in self.redis.scan_iter(match=self.lease_key("*"), count=1000)]
        if not keys:
            return 0
        values = await self.redis.mget(keys)
        gone = 0
        for key, value in zip(keys, values, strict=True):
            if value is not None and self.node_of(value) == node:
                gone += int(await self.redis.eval(_RELEASE, 1, key, value))
        return gone

    async def release(self, table: str) -> None:
        value = self.tokens.pop(table, None)
        if value is not None:
            await self.redis.eval(_RELEASE, 1, self.lease_key(table), value)

    async def delete_if(self, key: str, value: str) -> None:
        """Delete ``key`` if it still holds ``value`` (one atomic step)."""
        await self.redis.eval(_RELEASE, 1, key, value)
