"""Where a table runs: the table-locator interface, the part both
implementations share (this process's actors, loading a table from its
log, re-attaching sockets after a table moved) and the one-process
implementation.

A process alone runs every table itself (:class:`LocalLocator`). In a
cluster a table runs in the process holding its lease, and the others
forward to it (:class:`~fourhundred.server.cluster_locator.ClusterLocator`).
The rest of the server asks the locator and never which of the two it has.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from fourhundred.store import Store, StoredEvent, TableRow

from . import frames
from . import protocol as p
from .botpool import BotRunner
from .clock import Clock
from .config import ServerConfig
from .errors import CommandError
from .logs import get_logger
from .metrics import Metrics
from .room import rebuild
from .sockets import Peer, Sockets, TableRef, fail_pending
from .table import TableActor, TableDeps

__all__ = ["LocalLocator", "LocatorDeps", "TableLocator", "rejoin"]

log = get_logger("fourhundred.hub")

REROUTE_TRIES = 40
"""Attempts to find a moving table's new home (backing off to 1 s)."""


def rejoin(table_id: str, last_version: int) -> p.Join:
    """The join a socket would send to come back to ``table_id``."""
    return p.Join(id="resync", table=table_id, last_version=last_version or None)


@dataclass(frozen=True, slots=True)
class LocatorDeps:
    """What a locator needs from its process: the parts it uses itself and
    those it passes through to the table actors it starts."""

    store: Store
    config: ServerConfig
    clock: Clock
    bots: BotRunner
    metrics: Metrics
    sockets: Sockets


class TableLocator(ABC):
    """Finds (and, when it may, loads) the actor of a table; tells this
    process's sockets where their table went."""

    def __init__(self, parts: LocatorDeps) -> None:
        self.store = parts.store
        self.config = parts.config
        self.clock = parts.clock
        self.metrics = parts.metrics
        self.sockets = parts.sockets
        self.actors: dict[str, TableActor] = {}
        """The tables this process runs."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._rerouting: set[str] = set()
        self._background: set[asyncio.Task[Any]] = set()
        self.stopping = False
        self.on_followers: Callable[[str, str, frames.EncodedChat], None] = lambda _t, _s, _d: None
        """Give a tournament chat line (tournament, sender, frame) to the
        tournament's followers on this process (set by ``Followers``)."""
        self.deps = TableDeps(
            log=parts.store,
            clock=parts.clock,
            bots=parts.bots,
            metrics=parts.metrics,
            config=parts.config,
            mutes=parts.sockets.muted_by,
            on_stop=self._actor_stopped,
        )
        """What this process's table actors are given."""

    # ------------------------------------------------------ the interface

    @abstractmethod
    async def start(self) -> int:
        """Take up the tables this process should run now (returns how
        many) and start the background work."""

    @abstractmethod
    async def stop(self) -> None:
        """Stop every actor here and hand the tables over."""

    @abstractmethod
    async def ref(self, table_id: str) -> TableRef | None:
        """Where a table's commands go: its actor here (loaded if need be
        and allowed) or the process running it. None for an unknown table;
        ``CommandError("unavailable")`` while it cannot be told."""

    @abstractmethod
    async def claim_new(self, table_id: str) -> None:
        """Make this process the owner of a table about to be created."""

    @abstractmethod
    def user_connected(self, peer: Peer) -> None:
        """``peer`` is its user's socket now (an older one elsewhere goes)."""

    @abstractmethod
    def muted(self, peer: Peer, other: str, muted: bool) -> None:
        """``peer``'s user (un)muted ``other`` (the sockets registry has it
        already); the table's owner filters chat, so it must know too."""

    @abstractmethod
    def user_disconnected(self, peer: Peer) -> None:
        """``peer`` closed (if it was its user's socket, they are offline)."""

    @abstractmethod
    async def notify_user(self, user_id: str, message: frames.UserFrame) -> None:
        """Send ``message`` to the user's socket, wherever it is."""

    @abstractmethod
    def share_followers(self, tournament: str, sender: str, line: frames.EncodedChat) -> None:
        """A tournament chat line given to this process's followers: give
        it to the followers on every other process too."""

    @abstractmethod
    async def online(self, user_ids: Collection[str]) -> set[str]:
        """Which of ``user_ids`` have a socket open (on any process)."""

    @abstractmethod
    def unhealthy(self) -> str | None:
        """Why the process cannot serve every table now (None: it can)."""

    @abstractmethod
    def _let_go(self, actor: TableActor) -> None:
        """``actor`` stopped for good here: tell whoever must know."""

    # --------------------------------------------------- shared machinery

    async def actor(self, table_id: str) -> TableActor | None:
        """The table's actor if it runs here (loaded if need be); None for
        an unknown table or one run elsewhere."""
        ref = await self.ref(table_id)
        return ref if isinstance(ref, TableActor) else None

    def running(self, table_id: str) -> TableActor | None:
        """The table's live actor here, without loading anything."""
        actor = self.actors.get(table_id)
        return actor if actor is not None and not actor.stopped else None

    async def stop_actors(self) -> None:
        self.stopping = True
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()

    async def load(self, table_id: str) -> TableActor | None:
        """Start the table's actor here from its stored log (once, however
        many ask at the same time); None for an unknown table."""
        actor = self.running(table_id)
        if actor is not None:
            return actor
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            actor = self.running(table_id)
            if actor is not None:
                return actor
            row = await self.store.get_table(table_id)
            if row is None:
                return None
            events = await self.store.load_events(table_id)
            actor = await self._build(row, events)
            self.actors[table_id] = actor
            actor.start()
        self._loading.pop(table_id, None)
        self.update_gauges()
        return actor

    async def _build(self, row: TableRow, events: Sequence[StoredEvent]) -> TableActor:
        model = rebuild(row.id, events)
        remaining: int | None = None
        if model.in_play:
            timer_ms = round(model.timer * 1000 * self.config.timer_scale)
            if row.deadline_ms is None:
                remaining = timer_ms
            else:
                # The time that was left when the last owner stopped: its
                # last heartbeat, not now (the downtime is nobody's turn).
                alive = None
                if row.owner is not None and row.owner != self.config.node:
                    alive = await self.store.last_alive(row.owner)
                stopped_at = max(alive or row.updated_ms, row.updated_ms)
                if row.owner == self.config.node:
                    stopped_at = self.clock.now_ms()
                remaining = min(timer_ms, max(0, row.deadline_ms - stopped_at))
        return TableActor(model, self.deps, events, remaining)

    def update_gauges(self) -> None:
        counts: dict[str, int] = {"waiting": 0, "playing": 0, "over": 0, "closed": 0}
        for a in self.actors.values():
            counts[a.model.status] = counts.get(a.model.status, 0) + 1
        for status, n in counts.items():
            self.metrics.tables.labels(status).set(n)

    def summary_of(self, row: TableRow) -> dict[str, Any]:
        """A table's summary: live when this process runs it, else as stored."""
        actor = self.running(row.id)
        return dict(row.summary) if actor is None else actor.summary()

    def _actor_stopped(self, actor: TableActor) -> None:
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]
        self.update_gauges()
        if self.stopping:
            return
        self._let_go(actor)
        # Sockets still attached here (the lease moved, or a commit found
        # another writer): re-attach them to wherever the table runs now.
        peers = [p for p in self.sockets.attached.get(actor.id, ()) if p.table is actor]
        if peers and not actor.finished:
            for p in peers:
                p.last_version = actor.model.version
            self.spawn(self.reroute(actor.id, force=True))

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background, keeping a reference until done."""
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def reroute(self, table_id: str, *, force: bool = False) -> None:
        """Re-attach this process's sockets on ``table_id`` to wherever the
        table runs now; each gets a ``catchup`` from its last version (no
        ``ack``: the client sent no join)."""
        if table_id in self._rerouting:
            return
        self._rerouting.add(table_id)
        try:
            delay = 0.1
            for _ in range(REROUTE_TRIES):
                peers = self.sockets.at(table_id)
                if not peers or self.stopping:
                    return
                try:
                    ref = await self.ref(table_id)
                except CommandError:
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 1.0)
                    continue
                if ref is None:
                    return
                for p in peers:
                    if p.table is ref and not force:
                        continue
                    if p.table is not None and not isinstance(p.table, TableActor):
                        fail_pending(p)
                    p.table = ref
                    ref.submit(
                        "join",
                        p,
                        rejoin(table_id, p.last_version),
                        via_invite=p.via_invite,
                        resync=True,
                    )
                log.info("table_rerouted", table=table_id, to=getattr(ref, "owner", "here"))
                return
        finally:
            self._rerouting.discard(table_id)


class LocalLocator(TableLocator):
    """One process: every table runs here."""

    async def start(self) -> int:
        ids = await self.store.unfinished_table_ids()
        for table_id in ids:
            try:
                await self.load(table_id)
            except Exception:
                log.exception("table_rebuild_failed", table=table_id)
        log.info("tables_rebuilt", count=len(ids), node=self.config.node)
        return len(ids)

    async def stop(self) -> None:
        await self.stop_actors()

    async def ref(self, table_id: str) -> TableRef | None:
        return await self.load(table_id)

    async def claim_new(self, table_id: str) -> None:
        return None  # nobody else could run it

    def user_connected(self, peer: Peer) -> None:
        return None  # the sockets registry closed an older socket already

    def muted(self, peer: Peer, other: str, muted: bool) -> None:
        return None  # the actor reads the sockets registry's mutes

    def user_disconnected(self, peer: Peer) -> None:
        return None  # the sockets registry is the whole truth here

    async def notify_user(self, user_id: str, message: frames.UserFrame) -> None:
        self.sockets.notify(user_id, message)

    def share_followers(self, tournament: str, sender: str, line: frames.EncodedChat) -> None:
        return None  # no other process

    async def online(self, user_ids: Collection[str]) -> set[str]:
        return {u for u in user_ids if u in self.sockets.peers}

    def unhealthy(self) -> str | None:
        return None

    def _let_go(self, actor: TableActor) -> None:
        return None
