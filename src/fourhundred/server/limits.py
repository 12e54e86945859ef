"""Abuse limits (docs/deploy.md, "Abuse limits"): named token buckets, one
per key (a client address or a user), each a ``serve`` option.

Any part of the server calls :meth:`Limits.take` with a bucket's name and a
key before it creates anything; over the limit it raises
:class:`RateLimited` with the seconds to wait, and nothing is created. The
HTTP API turns that into ``429`` with ``Retry-After``
(:func:`fourhundred.server.api.http.limit_user`).

>>> from fourhundred.server.config import ServerConfig
>>> class Still:
...     def monotonic(self) -> float: return 0.0
>>> limits = Limits(ServerConfig(guest_limit_per_minute=2, bot="random", bot_workers=0), Still())
>>> limits.take("guest", "10.0.0.1"); limits.take("guest", "10.0.0.1")
>>> limits.take("guest", "10.0.0.1")
Traceback (most recent call last):
...
fourhundred.server.limits.RateLimited: too many new guests: try again in 30 s
>>> limits.take("guest", "10.0.0.2")  # another address has its own bucket
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Final, Protocol

from fourhundred.store import AccountStore

from .config import ServerConfig
from .ratelimit import TokenBucket

__all__ = ["BUCKETS", "ROOM_RETRY_S", "Limits", "RateLimited", "RoomQuota", "Rule"]


class _Clock(Protocol):
    def monotonic(self) -> float: ...


class RateLimited(Exception):
    """Over a limit: ``wait_s`` whole seconds until one more is allowed."""

    def __init__(self, reason: str, wait_s: int) -> None:
        super().__init__(f"{reason}: try again in {wait_s} s")
        self.reason = reason
        self.wait_s = wait_s


@dataclass(frozen=True, slots=True)
class Rule:
    """``count`` in ``per_s`` seconds, all of them at once if saved up."""

    count: int
    per_s: float
    what: str
    """What is counted, for the message ("too many new guests")."""


BUCKETS: Final = ("guest", "table", "chat", "friend_request", "invite", "report")
"""The named buckets: ``guest`` is per client address, the others per user."""

MAX_KEYS: Final = 100_000
"""Keys a bucket keeps before it starts afresh (a flood of addresses must
not grow memory without end; starting afresh only forgives)."""


def rules(config: ServerConfig) -> dict[str, Rule]:
    """Each bucket's rule, from the server's options."""
    return {
        "guest": Rule(config.guest_limit_per_minute, 60.0, "new guests"),
        "table": Rule(config.table_limit_per_minute, 60.0, "new tables"),
        "chat": Rule(config.chat_limit_per_minute, 60.0, "chat messages"),
        "friend_request": Rule(config.friend_request_limit_per_hour, 3600.0, "friend requests"),
        "invite": Rule(config.invite_limit_per_hour, 3600.0, "table invites"),
        "report": Rule(config.report_limit_per_hour, 3600.0, "reports"),
    }


class Limits:
    """The process's buckets by name and key (in a cluster each process
    counts for itself: a socket and its user's requests usually stay on one)."""

    def __init__(self, config: ServerConfig, clock: _Clock) -> None:
        self.rules = rules(config)
        self.clock = clock
        self.rooms = RoomQuota(config)
        self._buckets: dict[str, dict[str, TokenBucket]] = {name: {} for name in self.rules}

    def _bucket(self, name: str, key: str, now: float) -> tuple[Rule, TokenBucket]:
        rule = self.rules[name]
        buckets = self._buckets[name]
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) >= MAX_KEYS:
                buckets.clear()
            bucket = buckets[key] = TokenBucket(rule.count / rule.per_s, rule.count, now)
        return rule, bucket

    def take(self, name: str, key: str) -> None:
        """Count one ``name`` for ``key``; :class:`RateLimited` (nothing
        counted) if over the limit. ``KeyError`` for an unknown bucket."""
        now = self.clock.monotonic()
        rule, bucket = self._bucket(name, key, now)
        if not bucket.take(now):
            raise RateLimited(f"too many {rule.what}", max(1, math.ceil(bucket.retry_after())))

    def check(self, name: str, key: str) -> None:
        """As :meth:`take`, counting nothing: for a caller that counts only
        what it then creates (a refused request spends nothing), taking
        after success with no other taker in between."""
        now = self.clock.monotonic()
        rule, bucket = self._bucket(name, key, now)
        if not bucket.ready(now):
            raise RateLimited(f"too many {rule.what}", max(1, math.ceil(bucket.retry_after())))


ROOM_RETRY_S: Final = 60
"""The ``Retry-After`` of a refused room: a slot frees when a room starts
or closes, which no clock foretells; a minute is a fair time to look again."""


class RoomQuota:
    """At most ``per_address`` open waiting rooms created from one client
    address and ``per_user`` hosted by one user. Rooms are counted in the
    store (a room that starts or closes frees its slot); which rooms an
    address created is remembered by this process."""

    def __init__(self, config: ServerConfig) -> None:
        self.per_address = config.rooms_per_address
        self.per_user = config.rooms_per_user
        self._by_address: dict[str, deque[str]] = {}
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def opening(
        self, accounts: AccountStore, address: str, user_id: str
    ) -> AsyncIterator[list[str]]:
        """Check the quota, then let the caller create its room and put its
        id in the yielded list; :class:`RateLimited` (nothing to create)
        if over. One room opens at a time, so two requests cannot both
        take the last slot."""
        async with self._lock:
            if await accounts.open_rooms_hosted(user_id) >= self.per_user:
                raise RateLimited(
                    f"too many open waiting rooms: at most {self.per_user} a player"
                    " (start or close yours first)",
                    ROOM_RETRY_S,
                )
            mine = self._by_address.get(address, deque())
            waiting = await accounts.still_waiting(mine)
            if len(waiting) >= self.per_address:
                raise RateLimited(
                    f"too many open waiting rooms from this address: at most {self.per_address}"
                    " (start or close one first)",
                    ROOM_RETRY_S,
                )
            made: list[str] = []
            yield made
            if made:
                if len(self._by_address) >= MAX_KEYS:
                    self._by_address.clear()
                self._by_address[address] = deque([*waiting, *made], maxlen=self.per_address + 1)
