"""The hub of one server process: its tables (actors), its connections, the
Ranked queue and the heartbeat.

Tables are loaded on demand from their stored event log, and every
unfinished table is rebuilt when the process starts, its turn timer resumed
with the time that was left when the previous process stopped (measured from
that process's last heartbeat).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Sequence
from typing import Any, Final, Protocol

from fourhundred.engine import TURN_TIMERS, InvalidSettings, preset
from fourhundred.store import Store, StoredEvent, TableRow, User

from . import protocol as p
from .botpool import BotRunner
from .clock import Clock
from .config import ServerConfig
from .errors import CommandError
from .logs import get_logger
from .matchmaking import QueueEntry, allowed_range, find_matches
from .metrics import Metrics
from .ratings import balanced_teams, display
from .room import KINDS, TableModel
from .table import TableActor, TableDeps

__all__ = ["Hub", "Peer"]

log = get_logger("fourhundred.hub")

HEARTBEAT_S: Final = 1.0


class Peer(Protocol):
    """A live connection, as the hub sees it."""

    user_id: str
    user_name: str
    table: TableActor | None

    def send(self, data: bytes) -> None: ...

    def close(self, code: int, reason: str, message: str) -> None: ...


class SettingError(CommandError):
    """A table setting out of range; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__("bad_request", message)
        self.field = field


def player_dict(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "name": user.name,
        "guest": user.guest,
        "rating": None if user.guest else display(user.mu),
    }


class Hub:
    def __init__(
        self,
        store: Store,
        config: ServerConfig,
        clock: Clock,
        bots: BotRunner,
        metrics: Metrics,
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.bots = bots
        self.metrics = metrics
        self.actors: dict[str, TableActor] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.peers: dict[str, Peer] = {}
        self.mutes: dict[str, set[str]] = {}
        self.queue: dict[str, QueueEntry] = {}
        self.matched: dict[str, str] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._deps = TableDeps(
            log=store,
            clock=clock,
            bots=bots,
            metrics=metrics,
            config=config,
            mutes=lambda uid: self.mutes.get(uid, ()),
            on_stop=self._actor_stopped,
        )

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Rebuild every unfinished table and start the background tasks."""
        ids = await self.store.unfinished_table_ids()
        for table_id in ids:
            try:
                await self.actor(table_id)
            except Exception:
                log.exception("table_rebuild_failed", table=table_id)
        log.info("tables_rebuilt", count=len(ids), node=self.config.node)
        await self.store.heartbeat(self.config.node, self.clock.now_ms())
        self._tasks = [
            asyncio.create_task(self._heartbeat(), name="heartbeat"),
            asyncio.create_task(self._matchmaking(), name="matchmaking"),
        ]

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        for peer in list(self.peers.values()):
            peer.close(1001, "shutdown", "the server is restarting: reconnect in a moment")
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                await self.store.heartbeat(self.config.node, self.clock.now_ms())
            except Exception as e:
                log.warning("heartbeat_failed", error=repr(e))
            self._update_gauges()

    def _update_gauges(self) -> None:
        counts: dict[str, int] = {"waiting": 0, "playing": 0, "over": 0, "closed": 0}
        for a in self.actors.values():
            counts[a.model.status] = counts.get(a.model.status, 0) + 1
        for status, n in counts.items():
            self.metrics.tables.labels(status).set(n)

    # --------------------------------------------------------------- tables

    def _actor_stopped(self, actor: TableActor) -> None:
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]
        self._update_gauges()

    async def actor(self, table_id: str) -> TableActor | None:
        """The running actor of a table, loading it from the store if needed;
        None for an unknown table."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.stopped:
            return actor
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            actor = self.actors.get(table_id)
            if actor is not None and not actor.stopped:
                return actor
            row = await self.store.get_table(table_id)
            if row is None:
                return None
            events = await self.store.load_events(table_id)
            actor = await self._build(row, events)
            self.actors[table_id] = actor
            actor.start()
        self._loading.pop(table_id, None)
        self._update_gauges()
        return actor

    async def _build(self, row: TableRow, events: Sequence[StoredEvent]) -> TableActor:
        model = TableModel(row.id, events[0])
        for ev in events[1:]:
            model.apply(ev)
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
        return TableActor(model, self._deps, events, remaining)

    def summary_of(self, row: TableRow) -> dict[str, Any]:
        """A table's summary: live when this process runs it, else as stored."""
        actor = self.actors.get(row.id)
        if actor is not None and not actor.stopped:
            s = actor.summary()
            s.pop("invite", None)
            return s
        return dict(row.summary)

    async def create_table(
        self,
        host: User,
        kind: str,
        preset_name: str,
        changes: dict[str, Any],
        timer: int,
    ) -> TableRow:
        """A new Casual or Private table with ``host`` at seat 0."""
        if kind not in ("casual", "private"):
            raise SettingError("kind", "kind must be 'casual' or 'private' (Ranked: use the queue)")
        try:
            base = preset(preset_name)
        except InvalidSettings as e:
            raise SettingError("preset", str(e)) from None
        try:
            settings = base.replace(**changes)
        except InvalidSettings as e:
            name = str(e).split("'")[1] if "'" in str(e) else ""
            raise SettingError(f"settings.{name}" if name else "settings", str(e)) from None
        if timer not in TURN_TIMERS:
            raise SettingError(
                "timer", f"timer must be one of {', '.join(map(str, TURN_TIMERS))} seconds"
            )
        await self._not_seated(host.id)
        seats: list[dict[str, Any] | None] = [player_dict(host), None, None, None]
        return await self._create(
            kind,
            host=host.id,
            preset_name=preset_name,
            settings=settings.to_dict(),
            timer=timer,
            seats=seats,
            ready=[False] * 4,
        )

    async def _not_seated(self, user_id: str) -> None:
        elsewhere = await self.store.seated_table(user_id)
        if elsewhere is not None:
            raise CommandError("conflict", f"you are seated at table {elsewhere}: leave it first")

    async def _create(
        self,
        kind: str,
        *,
        host: str | None,
        preset_name: str,
        settings: dict[str, Any],
        timer: int,
        seats: list[dict[str, Any] | None],
        ready: list[bool],
    ) -> TableRow:
        assert kind in KINDS
        table_id = secrets.token_urlsafe(8)
        invite = secrets.token_urlsafe(16) if kind == "private" else None
        now = self.clock.now_ms()
        created = StoredEvent(
            1,
            "created",
            {
                "kind": kind,
                "host": host,
                "preset": preset_name,
                "settings": settings,
                "timer": timer,
                "invite": invite,
                "seats": seats,
                "ready": ready,
            },
            now,
        )
        model = TableModel(table_id, created)
        row = TableRow(
            id=table_id,
            kind=kind,
            status="waiting",
            invite=invite,
            host=host,
            version=1,
            summary=model.summary(set(), 0),
            open_seats=model.open_seats,
            created_ms=now,
            updated_ms=now,
            owner=self.config.node,
        )
        await self.store.create_table(row, created, model.seat_rows())
        log.info("table_created", table=table_id, kind=kind, host=host)
        await self.actor(table_id)
        return row

    # ------------------------------------------------------------- sockets

    def register(self, peer: Peer) -> None:
        """A new socket for ``peer.user_id``; an older one is taken over."""
        old = self.peers.get(peer.user_id)
        self.peers[peer.user_id] = peer
        if old is not None and old is not peer:
            old.close(
                4000,
                "replaced",
                "you connected from another tab or device; this one was closed",
            )

    def unregister(self, peer: Peer) -> None:
        if self.peers.get(peer.user_id) is peer:
            del self.peers[peer.user_id]
        if peer.table is not None:
            peer.table.submit("detach", peer)
            peer.table = None

    async def join(self, peer: Peer, msg: p.Join) -> None:
        """Attach ``peer`` to a table (answered by the table's actor)."""
        if (msg.table is None) == (msg.invite is None):
            raise CommandError("bad_message", "join needs exactly one of `table` or `invite`")
        via_invite = msg.invite is not None
        table_id = msg.table
        if msg.invite is not None:
            row = await self.store.table_by_invite(msg.invite)
            if row is None:
                raise CommandError("not_found", "no table has this invite code")
            table_id = row.id
        assert table_id is not None
        actor = await self.actor(table_id)
        if actor is None:
            raise CommandError("not_found", f"no table {table_id!r}")
        if peer.table is not None and peer.table is not actor:
            peer.table.submit("detach", peer)
        peer.table = actor
        if self.matched.get(peer.user_id) == table_id:
            del self.matched[peer.user_id]
        actor.submit("join", peer, msg, via_invite=via_invite)

    def mute(self, user_id: str, other: str, muted: bool) -> None:
        s = self.mutes.setdefault(user_id, set())
        if muted:
            s.add(other)
        else:
            s.discard(other)

    def notify(self, user_id: str, message: dict[str, Any]) -> None:
        peer = self.peers.get(user_id)
        if peer is not None:
            peer.send(p.encode(message))

    # ---------------------------------------------------------- the queue

    async def queue_join(self, user: User) -> dict[str, Any]:
        if user.guest:
            raise CommandError("forbidden", "Ranked games need an account: register or log in")
        if user.id not in self.queue:
            await self._not_seated(user.id)
            self.matched.pop(user.id, None)
            self.queue[user.id] = QueueEntry(
                user.id, user.name, user.mu, user.sigma, self.clock.monotonic()
            )
            log.info("queue_join", user=user.id, queued=len(self.queue))
        return self.queue_status(user.id)

    def queue_leave(self, user_id: str) -> None:
        self.queue.pop(user_id, None)
        self.matched.pop(user_id, None)

    def queue_status(self, user_id: str) -> dict[str, Any]:
        if user_id in self.matched:
            return {"status": "matched", "table": self.matched[user_id]}
        entry = self.queue.get(user_id)
        if entry is None:
            return {"status": "idle"}
        waited = self.clock.monotonic() - entry.joined
        return {
            "status": "waiting",
            "waited_ms": round(waited * 1000),
            "range": allowed_range(waited),
            "queued": len(self.queue),
        }

    async def _matchmaking(self) -> None:
        while True:
            await asyncio.sleep(self.config.matchmaking_interval_s)
            try:
                await self.match_now()
            except Exception:
                log.exception("matchmaking_failed")

    async def match_now(self) -> None:
        """Seat every group of four the queue allows now."""
        for group in find_matches(list(self.queue.values()), self.clock.monotonic()):
            order = balanced_teams([(e.mu, e.sigma) for e in group])
            users = await self.store.get_users(e.user_id for e in group)
            if len(users) != 4:
                for e in group:
                    if e.user_id not in users:
                        self.queue.pop(e.user_id, None)
                continue
            seats: list[dict[str, Any] | None] = [
                player_dict(users[group[i].user_id]) for i in order
            ]
            row = await self._create(
                "ranked",
                host=None,
                preset_name="standard",
                settings=preset("standard").to_dict(),
                timer=self.config.ranked_timer,
                seats=seats,
                ready=[True] * 4,
            )
            for e in group:
                self.queue.pop(e.user_id, None)
                self.matched[e.user_id] = row.id
                self.notify(e.user_id, {"type": "matched", "table": row.id, "kind": "ranked"})
            log.info("ranked_match", table=row.id, users=[e.user_id for e in group])
