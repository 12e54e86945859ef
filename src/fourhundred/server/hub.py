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
import random
import secrets
from collections.abc import Sequence
from typing import Any, Final, Protocol

import msgspec

from fourhundred.engine import TURN_TIMERS, InvalidSettings, preset
from fourhundred.store import Store, StoredEvent, TableRow, User

from . import protocol as p
from .botpool import BotRunner
from .clock import Clock
from .cluster import Cluster
from .config import ServerConfig
from .errors import CommandError
from .events import Created, Player, to_stored
from .logs import get_logger
from .matchmaking import QueueEntry, allowed_range, find_matches
from .metrics import Metrics
from .ratings import balanced_teams, display
from .room import KINDS, TableModel, rebuild
from .table import MailKind, TableActor, TableDeps

__all__ = ["Hub", "Peer", "RemoteTable", "RemoteWatcher", "TableRef"]

log = get_logger("fourhundred.hub")

HEARTBEAT_S: Final = 1.0
PURGE_EVERY_S: Final = 3600.0
"""How often a process deletes expired sessions and old heartbeats."""
HEARTBEAT_KEEP_MS: Final = 7 * 24 * 3600 * 1000
"""Heartbeats of processes silent for this long (and owning nothing) go."""


class TableRef(Protocol):
    """Where a socket's commands for its table go: the table's actor in this
    process, or a :class:`RemoteTable` (the process that owns it)."""

    id: str

    def submit(self, kind: MailKind, watcher: Any = None, msg: Any = None, **kw: Any) -> None: ...


class Peer(Protocol):
    """A live connection, as the hub sees it."""

    id: str
    user_id: str
    user_name: str
    table: TableRef | None
    table_id: str | None
    via_invite: bool
    last_version: int
    """The last table version this socket was sent (kept for sockets whose
    table is run by another process, to re-attach them after a move)."""
    pending: set[int | str]
    """Commands sent to another process and not yet answered."""
    frames_in: int
    """Frames received from other processes for this socket (a count)."""

    def send(self, data: bytes) -> None: ...

    def close(self, code: int, reason: str, message: str) -> None: ...


class _Peek(msgspec.Struct):
    type: str
    version: int | None = None
    id: int | str | None = None


_peek = msgspec.json.Decoder(_Peek)


FORWARD_TIMEOUT_S = 5.0
"""How long a command forwarded to another process may wait for its answer."""


class RemoteTable:
    """A table run by another process: commands go to its inbox."""

    def __init__(self, hub: Hub, table_id: str, owner: str) -> None:
        self.hub = hub
        self.id = table_id
        self.owner = owner

    def submit(self, kind: MailKind, watcher: Any = None, msg: Any = None, **kw: Any) -> None:
        cluster = self.hub.cluster
        assert cluster is not None and watcher is not None
        peer: Peer = watcher
        out: dict[str, Any] = {"t": kind, "tb": self.id, "n": cluster.node, "c": peer.id}
        if kind == "join":
            out.update(
                u=peer.user_id,
                un=peer.user_name,
                m=msgspec.json.encode(msg),
                vi=bool(kw.get("via_invite")),
                rs=bool(kw.get("resync")),
                mu=sorted(self.hub.mutes.get(peer.user_id, ())),
            )
            if kw.get("resync"):
                self._await_resync(peer)
            else:
                self._await_answer(peer, msg.id)
        elif kind == "cmd":
            out["m"] = msgspec.json.encode(msg)
            self._await_answer(peer, msg.id)
        elif kind != "detach":  # pragma: no cover - a programming error
            raise ValueError(f"cannot forward {kind!r}")
        cluster.post(self.owner, out, on_fail=lambda: self.hub.owner_unreachable(self))

    def _await_resync(self, peer: Peer) -> None:
        """A re-attach is answered by a ``catchup``; if nothing at all comes
        back in time (the owner was not listening yet), re-attach again."""
        before = peer.frames_in

        def check() -> None:
            if peer.table is self and peer.frames_in == before:
                self.hub.resync_soon(self.id)

        asyncio.get_running_loop().call_later(FORWARD_TIMEOUT_S, check)

    def _await_answer(self, peer: Peer, cmd_id: int | str) -> None:
        """Expect the owner's answer to ``cmd_id``. Pub/sub keeps nothing: a
        command sent while the owner was not listening (Redis restarting) is
        lost without a trace, so one left unanswered for FORWARD_TIMEOUT_S
        is answered ``unavailable`` here and the socket is re-attached (its
        catchup shows whether the command took effect)."""
        peer.pending.add(cmd_id)

        def check() -> None:
            if cmd_id in peer.pending and peer.table is self:
                peer.pending.discard(cmd_id)
                peer.send(
                    p.encode(
                        {
                            "type": "error",
                            "id": cmd_id,
                            "code": "unavailable",
                            "message": "no answer from the table's server: look at the"
                            " table's state (it follows) before trying again",
                            "version": None,
                        }
                    )
                )
                self.hub.resync_soon(self.id)

        asyncio.get_running_loop().call_later(FORWARD_TIMEOUT_S, check)


class RemoteWatcher:
    """A socket held by another process, watching a table run here: its
    frames (already built for its seat by ``view_for``) go to that process."""

    def __init__(  # noqa: PLR0917 - where the socket is and who it is
        self, hub: Hub, node: str, conn: str, table: str, user_id: str, user_name: str
    ) -> None:
        self.hub = hub
        self.node = node
        self.conn = conn
        self.table = table
        self.user_id = user_id
        self.user_name = user_name

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.node, self.conn, self.table)

    def send(self, data: bytes) -> None:
        assert self.hub.cluster is not None
        self.hub.cluster.post(
            self.node,
            {"t": "f", "tb": self.table, "c": self.conn, "d": data},
            on_fail=lambda: self.hub.watcher_unreachable(self),
        )


class SettingError(CommandError):
    """A table setting out of range; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__("bad_request", message)
        self.field = field


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _replace(peer: Peer) -> None:
    peer.close(4000, "replaced", "you connected from another tab or device; this one was closed")


def _fail_pending(peer: Peer) -> None:
    """Answer the commands a vanished process never answered."""
    for cmd_id in sorted(peer.pending, key=str):
        peer.send(
            p.encode(
                {
                    "type": "error",
                    "id": cmd_id,
                    "code": "unavailable",
                    "message": "the table's server stopped before answering: look at the"
                    " table's state (it follows) before trying again",
                    "version": None,
                }
            )
        )
    peer.pending.clear()


def p_join(table_id: str, last_version: int) -> p.Join:
    """The join a socket would send to come back to ``table_id``."""
    return p.Join(id="resync", table=table_id, last_version=last_version or None)


def player_of(user: User) -> Player:
    return Player(
        id=user.id,
        name=user.name,
        guest=user.guest,
        rating=None if user.guest else display(user.mu),
    )


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
        self._stopping = False
        self.conns: dict[str, Peer] = {}
        """Sockets of this process by connection id."""
        self.attached: dict[str, set[Peer]] = {}
        """Sockets of this process by the table they are attached to."""
        self.remote_watchers: dict[tuple[str, str, str], RemoteWatcher] = {}
        self._remote_refs: dict[tuple[str, str], RemoteTable] = {}
        self._rerouting: set[str] = set()
        self._background: set[asyncio.Task[Any]] = set()
        self._scan_after = 0.0
        self.cluster: Cluster | None = None
        if config.redis_url:
            self.cluster = Cluster(
                config.redis_url,
                config.node,
                prefix=config.redis_prefix,
                lease_ms=config.lease_ms,
                handler=self._on_cluster,
                on_reconnect=self._on_redis_back,
            )
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
        """Rebuild every unfinished table (in a cluster: every one nobody
        holds) and start the background tasks."""
        await self.store.heartbeat(self.config.node, self.clock.now_ms())
        if self.cluster is not None:
            await self.cluster.start()
            taken = await self._take_orphans() if self.cluster.connected.is_set() else 0
            log.info("tables_rebuilt", count=taken, node=self.config.node, cluster=True)
        else:
            ids = await self.store.unfinished_table_ids()
            for table_id in ids:
                try:
                    await self.actor(table_id)
                except Exception:
                    log.exception("table_rebuild_failed", table=table_id)
            log.info("tables_rebuilt", count=len(ids), node=self.config.node)
        self._tasks = [
            asyncio.create_task(self._heartbeat(), name="heartbeat"),
            asyncio.create_task(self._matchmaking(), name="matchmaking"),
        ]
        if self.cluster is not None:
            self._tasks.append(asyncio.create_task(self._leases(), name="leases"))

    async def stop(self) -> None:
        self._stopping = True
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
        if self.cluster is not None:
            # Hand the tables over now rather than after the leases expire.
            for rw in list(self.remote_watchers.values()):
                self.cluster.post(rw.node, {"t": "gone", "tb": rw.table, "n": self.config.node})
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    for table in list(self.cluster.tokens):
                        await self.cluster.release(table)
                    while not self.cluster._out.empty():
                        await asyncio.sleep(0.01)
            await self.cluster.stop()

    async def _heartbeat(self) -> None:
        # Spread the processes' purges (a minute in, then hourly).
        next_purge = self.clock.monotonic() + random.uniform(30.0, 90.0)
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                await self.store.heartbeat(self.config.node, self.clock.now_ms())
            except Exception as e:
                log.warning("heartbeat_failed", error=repr(e))
            self._update_gauges()
            if self.clock.monotonic() >= next_purge:
                next_purge = self.clock.monotonic() + PURGE_EVERY_S
                await self.purge()

    async def purge(self) -> None:
        """Delete expired sessions and long-silent processes' heartbeats."""
        now = self.clock.now_ms()
        try:
            sessions, beats = await self.store.purge(now, now - HEARTBEAT_KEEP_MS)
        except Exception as e:
            log.warning("purge_failed", error=repr(e))
            return
        if sessions or beats:
            log.info("purged", sessions=sessions, heartbeats=beats)

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
        if self._stopping:
            return
        if self.cluster is not None:
            for w in list(actor.watchers):
                if isinstance(w, RemoteWatcher):
                    self.remote_watchers.pop(w.key, None)
                    self.cluster.post(w.node, {"t": "gone", "tb": actor.id, "n": self.config.node})
            self._spawn(self.cluster.release(actor.id))
        # Sockets still attached here (the lease moved, or a commit found
        # another writer): re-attach them to wherever the table runs now.
        peers = [p for p in self.attached.get(actor.id, ()) if p.table is actor]
        if peers and not actor.finished:
            for p in peers:
                p.last_version = actor.model.version
            self._spawn(self.reroute(actor.id, force=True))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def actor(self, table_id: str) -> TableActor | None:
        """The running actor of a table, loading it from the store if needed;
        None for an unknown table. In a cluster only the lease holder may
        load a table: see :meth:`ref`."""
        if self.cluster is not None:
            ref = await self.ref(table_id)
            return ref if isinstance(ref, TableActor) else None
        return await self._load(table_id)

    async def ref(self, table_id: str) -> TableRef | None:
        """Where a table's commands go: its actor here (loaded if needed and,
        in a cluster, if this process holds or takes its lease) or the
        process that holds its lease. None for an unknown table."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.stopped:
            return actor
        cluster = self.cluster
        if cluster is None:
            return await self._load(table_id)
        try:
            owner = await cluster.owner(table_id)
            if owner is None or owner == cluster.node:
                if table_id in cluster.tokens or await cluster.acquire(table_id):
                    actor = await self._load(table_id)
                    if actor is None:
                        await cluster.release(table_id)
                    return actor
                owner = await cluster.owner(table_id)
        except CommandError:
            raise
        except Exception as e:
            log.warning("cluster_unreachable", table=table_id, error=repr(e))
            raise CommandError(
                "unavailable", "the server cannot reach its cluster: try again in a moment"
            ) from None
        if owner is None or owner == cluster.node:
            raise CommandError("unavailable", "the table is changing servers: try again")
        return self._remote_ref(table_id, owner)

    def _remote_ref(self, table_id: str, owner: str) -> RemoteTable:
        ref = self._remote_refs.get((table_id, owner))
        if ref is None:
            ref = self._remote_refs[(table_id, owner)] = RemoteTable(self, table_id, owner)
        return ref

    async def _load(self, table_id: str) -> TableActor | None:
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
        seats: list[Player | None] = [player_of(host), None, None, None]
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
        seats: list[Player | None],
        ready: list[bool],
    ) -> TableRow:
        assert kind in KINDS
        table_id = secrets.token_urlsafe(8)
        invite = secrets.token_urlsafe(16) if kind == "private" else None
        now = self.clock.now_ms()
        created = Created(
            table_kind=kind,
            host=host,
            preset=preset_name,
            settings=settings,
            timer=timer,
            invite=invite,
            seats=tuple(seats),
            ready=tuple(ready),
        )
        model = TableModel(table_id, created, now)
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
        if self.cluster is not None:
            try:
                await self.cluster.acquire(table_id)
            except Exception:
                raise CommandError(
                    "unavailable", "the server cannot reach its cluster: try again in a moment"
                ) from None
        stored = StoredEvent(1, *to_stored(created), now)
        await self.store.create_table(row, stored, model.seat_rows())
        log.info("table_created", table=table_id, kind=kind, host=host)
        await self.actor(table_id)
        return row

    # ------------------------------------------------------------- sockets

    def register(self, peer: Peer) -> None:
        """A new socket for ``peer.user_id``; an older one is taken over
        (in a cluster, also one held by another process)."""
        old = self.peers.get(peer.user_id)
        self.peers[peer.user_id] = peer
        self.conns[peer.id] = peer
        if old is not None and old is not peer:
            _replace(old)
        if self.cluster is not None:
            self._spawn(self._claim_user(peer))

    async def _claim_user(self, peer: Peer) -> None:
        cluster = self.cluster
        assert cluster is not None
        with contextlib.suppress(Exception):
            old = await cluster.redis.set(
                cluster.key("user", peer.user_id),
                f"{cluster.node}/{peer.id}",
                get=True,
                ex=30 * 86400,
            )
            if isinstance(old, bytes):
                node, _, conn = old.decode().partition("/")
                if node != cluster.node:
                    cluster.post(node, {"t": "replace", "u": peer.user_id, "c": conn})

    def unregister(self, peer: Peer) -> None:
        if self.peers.get(peer.user_id) is peer:
            del self.peers[peer.user_id]
        if self.conns.get(peer.id) is peer:
            del self.conns[peer.id]
        self._detach_local(peer)

    def _detach_local(self, peer: Peer) -> None:
        if peer.table is not None:
            peer.table.submit("detach", peer)
            peer.table = None
        if peer.table_id is not None:
            s = self.attached.get(peer.table_id)
            if s is not None:
                s.discard(peer)
                if not s:
                    del self.attached[peer.table_id]
            peer.table_id = None

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
        try:
            actor = await self.ref(table_id)
        except CommandError:
            raise
        except Exception as e:
            log.warning("join_failed", table=table_id, error=repr(e))
            raise CommandError(
                "unavailable", "the server could not load this table: try again in a moment"
            ) from None
        if actor is None:
            raise CommandError("not_found", f"no table {table_id!r}")
        if peer.table is not actor or peer.table_id != table_id:
            self._detach_local(peer)
        peer.table = actor
        peer.table_id = table_id
        peer.via_invite = via_invite
        self.attached.setdefault(table_id, set()).add(peer)
        await self._matched_done(peer.user_id, table_id)
        actor.submit("join", peer, msg, via_invite=via_invite)

    def mute(self, user_id: str, other: str, muted: bool, peer: Peer | None = None) -> None:
        s = self.mutes.setdefault(user_id, set())
        if muted:
            s.add(other)
        else:
            s.discard(other)
        if peer is not None and isinstance(peer.table, RemoteTable) and self.cluster is not None:
            # The table's owner filters chat: it keeps a copy.
            self.cluster.post(peer.table.owner, {"t": "mute", "u": user_id, "o": other, "m": muted})

    # ------------------------------------------------------------ cluster

    def owner_unreachable(self, ref: RemoteTable) -> None:
        """A message to ``ref``'s owner reached nobody: that process is gone
        (or Redis is). Unanswered commands are answered, the sockets find the
        table's new owner once its lease moves."""
        for peer in list(self.attached.get(ref.id, ())):
            if peer.table is ref:
                _fail_pending(peer)
        self._remote_refs.pop((ref.id, ref.owner), None)

    def resync_soon(self, table_id: str) -> None:
        """Re-attach this process's sockets on ``table_id`` (after a lost
        answer): each gets a ``catchup`` from its last version."""
        self._remote_refs = {k: v for k, v in self._remote_refs.items() if k[0] != table_id}
        self._spawn(self.reroute(table_id, force=True))

    def watcher_unreachable(self, rw: RemoteWatcher) -> None:
        """The process holding ``rw``'s socket is gone: detach it."""
        if self.remote_watchers.get(rw.key) is rw:
            del self.remote_watchers[rw.key]
            actor = self.actors.get(rw.table)
            if actor is not None:
                actor.submit("detach", rw)
            # If that process is alive after all (Redis hiccuped), it
            # re-attaches the socket and its catchup fills the gap.
            assert self.cluster is not None
            self.cluster.post(rw.node, {"t": "gone", "tb": rw.table, "n": self.config.node})

    async def reroute(self, table_id: str, *, force: bool = False) -> None:
        """Re-attach this process's sockets on ``table_id`` to wherever the
        table runs now; each gets a ``catchup`` from its last version (no
        ``ack``: the client sent no join)."""
        if table_id in self._rerouting:
            return
        self._rerouting.add(table_id)
        try:
            delay = 0.1
            for _ in range(40):
                peers = [p for p in self.attached.get(table_id, ()) if p.table_id == table_id]
                if not peers or self._stopping:
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
                    if isinstance(p.table, RemoteTable):
                        _fail_pending(p)
                    p.table = ref
                    ref.submit(
                        "join",
                        p,
                        p_join(table_id, p.last_version),
                        via_invite=p.via_invite,
                        resync=True,
                    )
                log.info("table_rerouted", table=table_id, to=getattr(ref, "owner", "here"))
                return
        finally:
            self._rerouting.discard(table_id)

    def _on_redis_back(self) -> None:
        # Frames may have been lost while Redis was away: re-attach every
        # socket whose table runs elsewhere (their catchup fills the gap).
        self._scan_after = self.clock.monotonic() + 2 * self.config.lease_ms / 1000
        self._reattach_remote()
        # Once more when every process is surely listening again: frames
        # published before the other side re-subscribed were lost too.
        self._spawn(self._reattach_later(2 * self.config.lease_ms / 1000))

    async def _reattach_later(self, delay_s: float) -> None:
        await asyncio.sleep(delay_s)
        self._reattach_remote()

    def _reattach_remote(self) -> None:
        for table_id, peers in list(self.attached.items()):
            if any(isinstance(p.table, RemoteTable) for p in peers):
                self._spawn(self.reroute(table_id, force=True))

    def _on_cluster(self, m: dict[str, Any]) -> None:
        """One message from another process (see :class:`RemoteTable`,
        :class:`RemoteWatcher`)."""
        t = m.get("t")
        if t == "f":
            peer = self.conns.get(m["c"])
            if peer is None or peer.table_id != m["tb"]:
                return  # the socket has gone or moved on
            data: bytes = m["d"]
            peer.frames_in += 1
            with contextlib.suppress(msgspec.DecodeError):
                pk = _peek.decode(data)
                if pk.type in ("event", "snapshot", "catchup") and pk.version is not None:
                    peer.last_version = max(peer.last_version, pk.version)
                elif pk.type in ("ack", "error") and pk.id is not None:
                    peer.pending.discard(pk.id)
            peer.send(data)
        elif t in ("join", "cmd", "detach"):
            self._from_edge(m)
        elif t == "gone":
            table_id = m["tb"]
            if any(
                isinstance(p.table, RemoteTable) and p.table.owner == m["n"]
                for p in self.attached.get(table_id, ())
            ):
                self._remote_refs.pop((table_id, m["n"]), None)
                self._spawn(self._reroute_later(table_id))
        elif t == "mute":
            s = self.mutes.setdefault(m["u"], set())
            (s.add if m["m"] else s.discard)(m["o"])
        elif t == "replace":
            peer = self.conns.get(m["c"])
            if peer is not None and peer.user_id == m["u"]:
                _replace(peer)
        elif t == "matched":
            self.notify(m["u"], {"type": "matched", "table": m["tb"], "kind": "ranked"})

    async def _reroute_later(self, table_id: str) -> None:
        # The old owner let go (or stopped): whoever takes the lease first.
        await asyncio.sleep(random.uniform(0.0, 0.05))
        await self.reroute(table_id, force=True)

    def _from_edge(self, m: dict[str, Any]) -> None:
        cluster = self.cluster
        assert cluster is not None
        t, table_id, node, conn = m["t"], m["tb"], m["n"], m["c"]
        key = (node, conn, table_id)
        actor = self.actors.get(table_id)
        if actor is None or actor.stopped:
            if t != "detach":
                cluster.post(node, {"t": "gone", "tb": table_id, "n": cluster.node})
            return
        if t == "detach":
            rw = self.remote_watchers.pop(key, None)
            if rw is not None:
                actor.submit("detach", rw)
            return
        try:
            msg = p.decode(m["m"])
        except CommandError:  # pragma: no cover - the edge decoded it already
            return
        if t == "join":
            rw = self.remote_watchers.get(key)
            if rw is None:
                rw = RemoteWatcher(self, node, conn, table_id, m["u"], m["un"])
                self.remote_watchers[key] = rw
            self.mutes[m["u"]] = set(m.get("mu") or ())
            actor.submit("join", rw, msg, via_invite=bool(m["vi"]), resync=bool(m["rs"]))
        else:
            rw = self.remote_watchers.get(key)
            if rw is None:  # not attached here: the actor says so
                rw = RemoteWatcher(self, node, conn, table_id, "", "")
            actor.submit("cmd", rw, msg, t0=self.clock.monotonic())

    async def _leases(self) -> None:
        """Renew this process's leases, follow tables that moved, and take
        over tables nobody holds (a dead process's, after its leases expire)."""
        cluster = self.cluster
        assert cluster is not None
        period = cluster.lease_ms / 3000
        next_scan = 0.0
        while True:
            await asyncio.sleep(min(period, 0.5))
            try:
                for table_id in await cluster.renew():
                    log.warning("lease_lost", table=table_id)
                    actor = self.actors.get(table_id)
                    if actor is not None:
                        await actor.stop()
                await self._follow_moves()
                now = self.clock.monotonic()
                if now >= next_scan and now >= self._scan_after:
                    next_scan = now + period
                    await self._take_orphans()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("lease_loop_failed", error=repr(e))

    async def _follow_moves(self) -> None:
        cluster = self.cluster
        assert cluster is not None
        remote: dict[str, RemoteTable] = {}
        for table_id, peers in self.attached.items():
            for peer in peers:
                if isinstance(peer.table, RemoteTable):
                    remote[table_id] = peer.table
        tables = list(remote)
        for table_id, owner in zip(tables, await cluster.owners(tables), strict=True):
            if owner != remote[table_id].owner:
                self._spawn(self.reroute(table_id, force=True))

    async def _take_orphans(self) -> int:
        """Load every unfinished table whose lease nobody holds."""
        cluster = self.cluster
        assert cluster is not None
        ids = [t for t in await self.store.unfinished_table_ids() if t not in self.actors]
        owners = await cluster.owners(ids)
        orphans = [t for t, o in zip(ids, owners, strict=True) if o is None]
        random.shuffle(orphans)
        taken = 0
        for table_id in orphans:
            if await cluster.acquire(table_id):
                try:
                    actor = await self._load(table_id)
                except Exception:
                    log.exception("table_rebuild_failed", table=table_id)
                    await cluster.release(table_id)
                    continue
                if actor is None:
                    await cluster.release(table_id)
                else:
                    taken += 1
                    log.info("table_taken_over", table=table_id, node=cluster.node)
                    if self.attached.get(table_id):
                        self._spawn(self.reroute(table_id, force=True))
        return taken

    def notify(self, user_id: str, message: dict[str, Any]) -> None:
        peer = self.peers.get(user_id)
        if peer is not None:
            peer.send(p.encode(message))

    # ---------------------------------------------------------- the queue
    #
    # One process: dictionaries here. A cluster: hashes in Redis
    # ({prefix}queue, {prefix}matched) and one matchmaker at a time (a lock),
    # with wall-clock times since processes share no monotonic clock.

    def _queue_now(self) -> float:
        return self.clock.now_ms() / 1000 if self.cluster else self.clock.monotonic()

    async def _load_queue(self) -> None:
        """Refresh ``queue``/``matched`` from Redis (a cluster only)."""
        c = self.cluster
        if c is None:
            return
        try:
            raw_q = await c.redis.hgetall(c.key("queue"))
            raw_m = await c.redis.hgetall(c.key("matched"))
        except Exception as e:
            log.warning("queue_unreachable", error=repr(e))
            raise CommandError(
                "unavailable", "the Ranked queue cannot be reached: try again in a moment"
            ) from None
        self.queue = {
            _text(k): QueueEntry(
                *msgspec.msgpack.decode(_text(v).encode("latin-1") if isinstance(v, str) else v)
            )
            for k, v in raw_q.items()
        }
        self.matched = {_text(k): _text(v) for k, v in raw_m.items()}

    async def queue_join(self, user: User) -> dict[str, Any]:
        if user.guest:
            raise CommandError("forbidden", "Ranked games need an account: register or log in")
        await self._load_queue()
        if user.id not in self.queue:
            await self._not_seated(user.id)
            entry = QueueEntry(user.id, user.name, user.mu, user.sigma, self._queue_now())
            self.matched.pop(user.id, None)
            self.queue[user.id] = entry
            c = self.cluster
            if c is not None:
                with contextlib.suppress(Exception):
                    await c.redis.hdel(c.key("matched"), user.id)
                    await c.redis.hset(
                        c.key("queue"),
                        user.id,
                        msgspec.msgpack.encode(
                            [entry.user_id, entry.name, entry.mu, entry.sigma, entry.joined]
                        ),
                    )
            log.info("queue_join", user=user.id, queued=len(self.queue))
        return await self.queue_status(user.id)

    async def queue_leave(self, user_id: str) -> None:
        self.queue.pop(user_id, None)
        self.matched.pop(user_id, None)
        c = self.cluster
        if c is not None:
            try:
                await c.redis.hdel(c.key("queue"), user_id)
                await c.redis.hdel(c.key("matched"), user_id)
            except Exception:
                raise CommandError(
                    "unavailable", "the Ranked queue cannot be reached: try again in a moment"
                ) from None

    async def queue_status(self, user_id: str) -> dict[str, Any]:
        await self._load_queue()
        if user_id in self.matched:
            return {"status": "matched", "table": self.matched[user_id]}
        entry = self.queue.get(user_id)
        if entry is None:
            return {"status": "idle"}
        waited = max(0.0, self._queue_now() - entry.joined)
        return {
            "status": "waiting",
            "waited_ms": round(waited * 1000),
            "range": allowed_range(waited),
            "queued": len(self.queue),
        }

    async def _matched_done(self, user_id: str, table_id: str) -> None:
        if self.matched.get(user_id) == table_id:
            del self.matched[user_id]
        c = self.cluster
        if c is not None:
            with contextlib.suppress(Exception):
                if await c.redis.hget(c.key("matched"), user_id) == table_id.encode():
                    await c.redis.hdel(c.key("matched"), user_id)

    async def _matchmaking(self) -> None:
        while True:
            await asyncio.sleep(self.config.matchmaking_interval_s)
            try:
                await self.match_now()
            except Exception:
                log.exception("matchmaking_failed")

    async def match_now(self) -> None:
        """Seat every group of four the queue allows now (in a cluster: one
        process at a time, under a lock in Redis)."""
        c = self.cluster
        if c is None:
            await self._match()
            return
        lock = c.key("matchmaker")
        try:
            if not await c.redis.set(lock, c.node, nx=True, px=10_000):
                return
        except Exception:
            return
        try:
            await self._load_queue()
            if len(self.queue) >= 4:
                await self._match()
        finally:
            with contextlib.suppress(Exception):
                await c.redis.delete(lock)

    async def _match(self) -> None:
        c = self.cluster
        for group in find_matches(list(self.queue.values()), self._queue_now()):
            order = balanced_teams([(e.mu, e.sigma) for e in group])
            users = await self.store.get_users(e.user_id for e in group)
            if len(users) != 4:
                for e in group:
                    if e.user_id not in users:
                        await self.queue_leave(e.user_id)
                continue
            seats: list[Player | None] = [player_of(users[group[i].user_id]) for i in order]
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
                if c is not None:
                    await c.redis.hdel(c.key("queue"), e.user_id)
                    await c.redis.hset(c.key("matched"), e.user_id, row.id)
                    node = await c.redis.get(c.key("user", e.user_id))
                    if node is not None:
                        where = _text(node).partition("/")[0]
                        c.post(where, {"t": "matched", "u": e.user_id, "tb": row.id})
                else:
                    self.notify(e.user_id, {"type": "matched", "table": row.id, "kind": "ranked"})
            log.info("ranked_match", table=row.id, users=[e.user_id for e in group])
