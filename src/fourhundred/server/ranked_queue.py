"""Where the Ranked queue is kept: who waits (since when, at what rating),
who was just seated at which table, and whose turn it is to match.

:class:`MemoryQueue` serves one process; :class:`RedisQueue` is shared by
the processes of a cluster (hashes ``{prefix}queue`` and
``{prefix}matched``, one matchmaker at a time under ``{prefix}matchmaker``).
Both answer the same questions, and the same tests run against both.
Matching itself is pure and lives in :mod:`~fourhundred.server.matchmaking`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol

import msgspec

from .clock import Clock
from .errors import CommandError, unavailable
from .logs import get_logger
from .matchmaking import QueueEntry

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["MemoryQueue", "RankedQueue", "RedisQueue", "queue_unavailable"]

log = get_logger("fourhundred.ranked")

MATCHMAKER_LOCK_MS: Final = 10_000
"""The matchmaker's lock lapses after this if its holder dies mid-round."""


def queue_unavailable() -> CommandError:
    return unavailable("the Ranked queue")


class RankedQueue(Protocol):
    """The queue's storage. Every method may raise ``CommandError``
    (``unavailable``) when the storage cannot be reached."""

    def now(self) -> float:
        """Seconds on the clock that ``QueueEntry.joined`` is measured by."""
        ...

    async def entries(self) -> dict[str, QueueEntry]:
        """Everyone waiting, by user id."""
        ...

    async def matched(self, user_id: str) -> str | None:
        """The table the queue seated ``user_id`` at, until they join it."""
        ...

    async def add(self, entry: QueueEntry) -> None:
        """Put ``entry`` in the queue (forgetting an older match of theirs)."""
        ...

    async def remove(self, user_id: str) -> None:
        """Take ``user_id`` out of the queue and forget their match."""
        ...

    async def seat(self, user_ids: Iterable[str], table_id: str) -> None:
        """The queue made ``table_id`` for these users: out of the queue,
        matched to it."""
        ...

    async def joined(self, user_id: str, table_id: str) -> None:
        """``user_id`` came to ``table_id``: if that was their match, it is
        done (never raises: nothing depends on it)."""
        ...

    def turn(self) -> contextlib.AbstractAsyncContextManager[bool]:
        """Whether this process may match now (True for the length of the
        ``async with``): one matchmaker at a time."""
        ...


class MemoryQueue:
    """One process's queue, in dictionaries (monotonic clock)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._queue: dict[str, QueueEntry] = {}
        self._matched: dict[str, str] = {}

    def now(self) -> float:
        return self.clock.monotonic()

    async def entries(self) -> dict[str, QueueEntry]:
        return dict(self._queue)

    async def matched(self, user_id: str) -> str | None:
        return self._matched.get(user_id)

    async def add(self, entry: QueueEntry) -> None:
        self._matched.pop(entry.user_id, None)
        self._queue[entry.user_id] = entry

    async def remove(self, user_id: str) -> None:
        self._queue.pop(user_id, None)
        self._matched.pop(user_id, None)

    async def seat(self, user_ids: Iterable[str], table_id: str) -> None:
        for uid in user_ids:
            self._queue.pop(uid, None)
            self._matched[uid] = table_id

    async def joined(self, user_id: str, table_id: str) -> None:
        if self._matched.get(user_id) == table_id:
            del self._matched[user_id]

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[bool]:
        yield True


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class _Row(msgspec.Struct, array_like=True):
    """A queue entry as stored in Redis (compact: one per waiting player)."""

    user_id: str
    name: str
    mu: float
    sigma: float
    joined: float


_row_decoder = msgspec.msgpack.Decoder(_Row)
_encoder = msgspec.msgpack.Encoder()


class RedisQueue:
    """The cluster's queue, in Redis. Processes share no monotonic clock,
    so waits are measured on the wall clock."""

    def __init__(self, redis: Redis, prefix: str, node: str, clock: Clock) -> None:
        self.redis = redis
        self.node = node
        self.clock = clock
        self._queue_key = f"{prefix}queue"
        self._matched_key = f"{prefix}matched"
        self._lock_key = f"{prefix}matchmaker"

    def now(self) -> float:
        return self.clock.now_ms() / 1000

    async def entries(self) -> dict[str, QueueEntry]:
        try:
            raw = await self.redis.hgetall(self._queue_key)
        except Exception as e:
            log.warning("queue_unreachable", error=repr(e))
            raise queue_unavailable() from None
        out = {}
        for k, v in raw.items():
            row = _row_decoder.decode(v if isinstance(v, bytes) else v.encode())
            out[_text(k)] = QueueEntry(row.user_id, row.name, row.mu, row.sigma, row.joined)
        return out

    async def matched(self, user_id: str) -> str | None:
        try:
            value = await self.redis.hget(self._matched_key, user_id)
        except Exception as e:
            log.warning("queue_unreachable", error=repr(e))
            raise queue_unavailable() from None
        return None if value is None else _text(value)

    async def add(self, entry: QueueEntry) -> None:
        row = _Row(entry.user_id, entry.name, entry.mu, entry.sigma, entry.joined)
        await self._write(
            lambda pipe: (
                pipe.hdel(self._matched_key, entry.user_id),
                pipe.hset(self._queue_key, entry.user_id, _encoder.encode(row)),
            )
        )

    async def remove(self, user_id: str) -> None:
        await self._write(
            lambda pipe: (
                pipe.hdel(self._queue_key, user_id),
                pipe.hdel(self._matched_key, user_id),
            )
        )

    async def seat(self, user_ids: Iterable[str], table_id: str) -> None:
        ids = list(user_ids)
        await self._write(
            lambda pipe: (
                pipe.hdel(self._queue_key, *ids),
                pipe.hset(self._matched_key, mapping=dict.fromkeys(ids, table_id)),
            )
        )

    async def joined(self, user_id: str, table_id: str) -> None:
        with contextlib.suppress(Exception):
            if await self.redis.hget(self._matched_key, user_id) == table_id.encode():
                await self.redis.hdel(self._matched_key, user_id)

    async def _write(self, commands: Any) -> None:
        """Run ``commands(pipe)`` in one transaction: a player is never half
        moved from the queue to a match."""
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                commands(pipe)
                await pipe.execute()
        except Exception as e:
            log.warning("queue_unreachable", error=repr(e))
            raise queue_unavailable() from None

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[bool]:
        try:
            mine = bool(
                await self.redis.set(self._lock_key, self.node, nx=True, px=MATCHMAKER_LOCK_MS)
            )
        except Exception:
            mine = False
        try:
            yield mine
        finally:
            if mine:
                with contextlib.suppress(Exception):
                    await self.redis.delete(self._lock_key)
