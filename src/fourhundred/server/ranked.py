"""The Ranked service: joining, leaving and asking about the queue, and the
matchmaker's round (pure matching from :mod:`.matchmaking`, storage behind
:class:`~fourhundred.server.ranked_queue.RankedQueue`, tables made by the
:class:`~fourhundred.server.creation.TableFactory`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fourhundred.engine import preset
from fourhundred.store import Store, User

from . import frames
from .config import ServerConfig
from .creation import TableFactory, TableSpec, player_of
from .errors import CommandError
from .events import Player
from .logs import get_logger
from .matchmaking import QueueEntry, allowed_range, find_matches
from .ranked_queue import RankedQueue
from .ratings import balanced_teams

__all__ = ["Ranked"]

log = get_logger("fourhundred.hub")

Notify = Callable[[str, frames.UserFrame], Awaitable[None]]


class Ranked:
    def __init__(
        self,
        queue: RankedQueue,
        store: Store,
        config: ServerConfig,
        tables: TableFactory,
        notify: Notify,
    ) -> None:
        self.queue = queue
        self.store = store
        self.config = config
        self.tables = tables
        self.notify = notify

    async def join(self, user: User) -> dict[str, Any]:
        """Queue ``user`` (once) and say where they stand."""
        if user.guest:
            raise CommandError("forbidden", "Ranked games need an account: register or log in")
        if user.id not in await self.queue.entries():
            await self.tables.not_seated(user.id)
            entry = QueueEntry(user.id, user.name, user.mu, user.sigma, self.queue.now())
            await self.queue.add(entry)
            log.info("queue_join", user=user.id)
        return await self.status(user.id)

    async def leave(self, user_id: str) -> None:
        await self.queue.remove(user_id)

    async def status(self, user_id: str) -> dict[str, Any]:
        table = await self.queue.matched(user_id)
        if table is not None:
            return {"status": "matched", "table": table}
        entries = await self.queue.entries()
        entry = entries.get(user_id)
        if entry is None:
            return {"status": "idle"}
        waited = max(0.0, self.queue.now() - entry.joined)
        return {
            "status": "waiting",
            "waited_ms": round(waited * 1000),
            "range": allowed_range(waited),
            "queued": len(entries),
        }

    async def joined(self, user_id: str, table_id: str) -> None:
        """``user_id`` joined ``table_id`` (their match is done if it was it)."""
        await self.queue.joined(user_id, table_id)

    async def match_now(self) -> None:
        """Seat every group of four the queue allows now (in a cluster: one
        process at a time)."""
        async with self.queue.turn() as mine:
            if not mine:
                return
            entries = await self.queue.entries()
            if len(entries) >= 4:
                await self._match(entries)

    async def _match(self, entries: dict[str, QueueEntry]) -> None:
        for group in find_matches(list(entries.values()), self.queue.now()):
            order = balanced_teams([(e.mu, e.sigma) for e in group])
            users = await self.store.get_users(e.user_id for e in group)
            if len(users) != 4:
                for e in group:
                    if e.user_id not in users:
                        await self.leave(e.user_id)
                continue
            seats: tuple[Player | None, ...] = tuple(
                player_of(users[group[i].user_id]) for i in order
            )
            row = await self.tables.create(
                TableSpec(
                    kind="ranked",
                    host=None,
                    preset_name="standard",
                    settings=preset("standard").to_dict(),
                    timer=self.config.ranked_timer,
                    seats=seats,
                    ready=(True,) * 4,
                )
            )
            await self.queue.seat([e.user_id for e in group], row.id)
            for e in group:
                await self.notify(e.user_id, frames.Matched(table=row.id))
            log.info("ranked_match", table=row.id, users=[e.user_id for e in group])
