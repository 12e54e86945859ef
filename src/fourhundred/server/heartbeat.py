"""The process's heartbeat (a row the next owner of its tables reads to
know when it stopped) and the hourly purge of expired sessions and of
long-silent processes' heartbeats, and of chat lines past the chat log's keep."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Final

from fourhundred.store import CHAT_KEEP_MS, Store

from .clock import Clock
from .logs import get_logger

__all__ = ["HEARTBEAT_KEEP_MS", "HEARTBEAT_S", "PURGE_EVERY_S", "Heartbeat"]

log = get_logger("fourhundred.hub")

HEARTBEAT_S: Final = 1.0
PURGE_EVERY_S: Final = 3600.0
"""How often a process deletes expired sessions and old heartbeats."""
HEARTBEAT_KEEP_MS: Final = 7 * 24 * 3600 * 1000
"""Heartbeats of processes silent for this long (and owning nothing) go."""


class Heartbeat:
    def __init__(
        self, store: Store, node: str, clock: Clock, on_beat: Callable[[], None] = lambda: None
    ) -> None:
        self.store = store
        self.node = node
        self.clock = clock
        self.on_beat = on_beat

    async def beat(self) -> None:
        await self.store.heartbeat(self.node, self.clock.now_ms())

    async def run(self) -> None:
        """Beat every second; purge a minute in, then hourly (the start is
        spread so that the processes of a cluster do not purge together)."""
        next_purge = self.clock.monotonic() + random.uniform(30.0, 90.0)
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                await self.beat()
            except Exception as e:
                log.warning("heartbeat_failed", error=repr(e))
            self.on_beat()
            if self.clock.monotonic() >= next_purge:
                next_purge = self.clock.monotonic() + PURGE_EVERY_S
                await self.purge()

    async def purge(self) -> None:
        """Delete expired sessions, long-silent processes' heartbeats,
        invites to tables that no longer wait and chat lines older than the
        chat log keeps (docs/moderation.md, "Chat log")."""
        now = self.clock.now_ms()
        try:
            sessions, beats = await self.store.purge(now, now - HEARTBEAT_KEEP_MS)
            invites = await self.store.social.purge_invites()
            chat = await self.store.moderation.purge_chat(now - CHAT_KEEP_MS)
        except Exception as e:
            log.warning("purge_failed", error=repr(e))
            return
        if sessions or beats or invites or chat:
            log.info(
                "purged", sessions=sessions, heartbeats=beats, invites=invites, chat_lines=chat
            )
