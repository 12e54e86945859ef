"""The table locator of a process in a cluster (``--redis-url``).

A table runs in the one process holding its lease; this process forwards
commands for the others' tables (:class:`~fourhundred.server.remote.RemoteTable`),
serves the others' sockets on its own tables
(:class:`~fourhundred.server.remote.RemoteWatcher`), renews its leases,
takes over tables nobody holds (a dead process's) and re-attaches its
sockets when their table moves. See docs/deploy.md for the design.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Collection

from . import frames
from .cluster import EVERYONE, Cluster, ClusterSpec
from .cluster_messages import (
    ClusterMessage,
    Command,
    Detach,
    Frame,
    Gone,
    JoinTable,
    Matched,
    Mute,
    Replace,
    ToFollowers,
    ToUser,
)
from .errors import CommandError, unavailable
from .locator import LocatorDeps, TableLocator, log
from .remote import RemoteSocket, RemoteTable, RemoteWatcher
from .sockets import Peer, TableRef, fail_pending
from .table import TableActor

__all__ = ["ClusterLocator"]

USER_KEY_TTL_S = 30 * 86400
"""How long Redis remembers where a user's socket is."""
TAKEOVER_CONCURRENCY = 8
"""Orphaned tables loaded at once (each holds a database connection)."""


class ClusterLocator(TableLocator):
    """Tables found through leases in Redis; messages through inboxes."""

    def __init__(self, parts: LocatorDeps) -> None:
        super().__init__(parts)
        config = parts.config
        assert config.redis_url is not None, "a cluster needs --redis-url"
        self.cluster = Cluster(
            ClusterSpec(
                url=config.redis_url,
                node=config.node,
                prefix=config.redis_prefix,
                lease_ms=config.lease_ms,
            ),
            handler=self._on_message,
            on_reconnect=self._on_redis_back,
        )
        self.remote_watchers: dict[RemoteSocket, RemoteWatcher] = {}
        self._remote_refs: dict[tuple[str, str], RemoteTable] = {}
        self._scan_after = 0.0
        self._task: asyncio.Task[None] | None = None
        self._suspects: set[str] = set()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> int:
        await self.cluster.start()
        taken = await self._take_orphans() if self.cluster.connected.is_set() else 0
        log.info("tables_rebuilt", count=taken, node=self.config.node, cluster=True)
        self._task = asyncio.create_task(self._leases(), name="leases")
        return taken

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.stop_actors()
        # Hand the tables over now rather than after the leases expire.
        for rw in list(self.remote_watchers.values()):
            self.cluster.post(rw.node, Gone(table=rw.table, node=self.config.node))
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2):
                for table in list(self.cluster.tokens):
                    await self.cluster.release(table)
                await self.cluster.flush()
        await self.cluster.stop()

    def unhealthy(self) -> str | None:
        # Local tables still play, but commands for tables owned elsewhere
        # cannot travel: a balancer should prefer the other processes.
        return None if self.cluster.connected.is_set() else "redis: unreachable"

    # --------------------------------------------------------------- tables

    async def ref(self, table_id: str) -> TableRef | None:
        actor = self.running(table_id)
        if actor is not None:
            return actor
        cluster = self.cluster
        try:
            # Twice: a lease this process failed to take may have just been
            # taken by this process's own orphan scan (it loads the table).
            for _ in range(2):
                owner = await cluster.owner(table_id)
                if owner is not None and owner != cluster.node:
                    return self._remote_ref(table_id, owner)
                if table_id in cluster.tokens or await cluster.acquire(table_id):
                    actor = await self.load(table_id)
                    if actor is None:
                        await cluster.release(table_id)
                    return actor
        except CommandError:
            raise
        except Exception as e:
            log.warning("cluster_unreachable", table=table_id, error=repr(e))
            raise unavailable("its cluster") from None
        raise CommandError("unavailable", "the table is changing servers: try again")

    def _remote_ref(self, table_id: str, owner: str) -> RemoteTable:
        ref = self._remote_refs.get((table_id, owner))
        if ref is None:
            ref = self._remote_refs[(table_id, owner)] = RemoteTable(self, table_id, owner)
        return ref

    async def claim_new(self, table_id: str) -> None:
        try:
            await self.cluster.acquire(table_id)
        except Exception:
            raise unavailable("its cluster") from None

    def _let_go(self, actor: TableActor) -> None:
        for w in list(actor.watchers):
            if isinstance(w, RemoteWatcher):
                self.remote_watchers.pop(w.key, None)
                self.cluster.post(w.node, Gone(table=actor.id, node=self.config.node))
        self.spawn(self.cluster.release(actor.id))

    # ---------------------------------------------------------------- users

    def user_connected(self, peer: Peer) -> None:
        self.spawn(self._claim_user(peer))

    async def _claim_user(self, peer: Peer) -> None:
        cluster = self.cluster
        with contextlib.suppress(Exception):
            old = await cluster.redis.set(
                cluster.key("user", peer.user_id),
                f"{cluster.node}/{peer.id}",
                get=True,
                ex=USER_KEY_TTL_S,
            )
            if isinstance(old, bytes):
                node, _, conn = old.decode().partition("/")
                if node != cluster.node:
                    cluster.post(node, Replace(user_id=peer.user_id, conn=conn))

    def muted(self, peer: Peer, other: str, muted: bool) -> None:
        if isinstance(peer.table, RemoteTable):
            # The table's owner filters chat: it keeps a copy.
            self.cluster.post(
                peer.table.owner, Mute(user_id=peer.user_id, other=other, muted=muted)
            )

    def user_disconnected(self, peer: Peer) -> None:
        key = self.cluster.key("user", peer.user_id)
        self.spawn(self.cluster.delete_if(key, f"{self.cluster.node}/{peer.id}"))

    async def online(self, user_ids: Collection[str]) -> set[str]:
        # Set while a socket is open; a crashed process's users stay listed.
        ids = list(user_ids)
        if not ids:
            return set()
        found = await self.cluster.redis.mget([self.cluster.key("user", u) for u in ids])
        return {u for u, where in zip(ids, found, strict=True) if where is not None}

    def share_followers(self, tournament: str, sender: str, line: frames.EncodedChat) -> None:
        node = self.cluster.node
        self.cluster.post(EVERYONE, ToFollowers(node, tournament, sender, *line))

    async def notify_user(self, user_id: str, message: frames.UserFrame) -> None:
        cluster = self.cluster
        node = await cluster.redis.get(cluster.key("user", user_id))
        if node is None:
            return
        where = (node.decode() if isinstance(node, bytes) else str(node)).partition("/")[0]
        if where == cluster.node:
            self.sockets.notify(user_id, message)
        elif isinstance(message, frames.Matched):
            cluster.post(where, Matched(user_id=user_id, table=message.table, kind=message.kind))
        else:
            cluster.post(where, ToUser(user_id=user_id, data=frames.encode(message)))

    # ------------------------------------------------------------- failures

    def owner_unreachable(self, ref: RemoteTable) -> None:
        """A message to ``ref``'s owner reached nobody: that process is gone
        (or Redis is). Unanswered commands are answered, the sockets find the
        table's new owner once its lease moves."""
        for peer in list(self.sockets.attached.get(ref.id, ())):
            if peer.table is ref:
                fail_pending(peer)
        self._remote_refs.pop((ref.id, ref.owner), None)
        self._suspect(ref.owner)

    def _suspect(self, node: str) -> None:
        if node != self.cluster.node and node not in self._suspects:
            self._suspects.add(node)
            self.spawn(self._check_gone(node))

    async def _check_gone(self, node: str) -> None:
        """A message to ``node`` reached nobody. If Redis counts no listener
        on its inbox either, that process is gone (a crash, SIGKILL): its
        leases are released now rather than when they expire, so that its
        tables move within a moment instead of a lease's life. Not while
        Redis has just come back (every process is re-subscribing and
        re-taking its own leases then). Were the process only cut off from
        Redis, it finds its leases taken when it renews them and stops
        those tables; the store's version guard keeps the log whole."""
        try:
            if (
                not self.cluster.connected.is_set()
                or self.clock.monotonic() < self._scan_after
                or await self.cluster.listeners(node) > 0
            ):
                return
            released = await self.cluster.release_node(node)
            if released:
                log.warning("node_gone", node=node, leases_released=released)
                await self._take_orphans()
        except Exception as e:
            log.warning("node_check_failed", node=node, error=repr(e))
        finally:
            self._suspects.discard(node)

    def resync_soon(self, table_id: str) -> None:
        """Re-attach this process's sockets on ``table_id`` (after a lost
        answer): each gets a ``catchup`` from its last version."""
        self._remote_refs = {k: v for k, v in self._remote_refs.items() if k[0] != table_id}
        self.spawn(self.reroute(table_id, force=True))

    def watcher_unreachable(self, rw: RemoteWatcher) -> None:
        """The process holding ``rw``'s socket is gone: detach it."""
        if self.remote_watchers.get(rw.key) is rw:
            del self.remote_watchers[rw.key]
            actor = self.actors.get(rw.table)
            if actor is not None:
                actor.submit("detach", rw)
            # If that process is alive after all (Redis hiccuped), it
            # re-attaches the socket and its catchup fills the gap.
            self.cluster.post(rw.node, Gone(table=rw.table, node=self.config.node))
            self._suspect(rw.node)

    def _on_redis_back(self) -> None:
        # Frames may have been lost while Redis was away: re-attach every
        # socket whose table runs elsewhere (their catchup fills the gap).
        self._scan_after = self.clock.monotonic() + 2 * self.config.lease_ms / 1000
        self._reattach_remote()
        # Once more when every process is surely listening again: frames
        # published before the other side re-subscribed were lost too.
        self.spawn(self._reattach_later(2 * self.config.lease_ms / 1000))

    async def _reattach_later(self, delay_s: float) -> None:
        await asyncio.sleep(delay_s)
        self._reattach_remote()

    def _reattach_remote(self) -> None:
        for table_id, peers in list(self.sockets.attached.items()):
            if any(isinstance(p.table, RemoteTable) for p in peers):
                self.spawn(self.reroute(table_id, force=True))

    # ------------------------------------------------------------- messages

    def _on_message(self, m: ClusterMessage) -> None:
        """One message from another process."""
        match m:
            case Frame(table=table_id, conn=conn, data=data):
                self.sockets.forward(conn, table_id, data)
            case JoinTable() | Command() | Detach():
                self._from_edge(m)
            case Gone(table=table_id, node=node):
                if any(
                    isinstance(p.table, RemoteTable) and p.table.owner == node
                    for p in self.sockets.attached.get(table_id, ())
                ):
                    self._remote_refs.pop((table_id, node), None)
                    self.spawn(self._reroute_later(table_id))
            case Mute(user_id=user_id, other=other, muted=muted):
                self.sockets.mute(user_id, other, muted)
            case Replace(user_id=user_id, conn=conn):
                self.sockets.replace_conn(user_id, conn)
            case Matched(user_id=user_id, table=table_id, kind=kind):
                self.sockets.notify(user_id, frames.Matched(table=table_id, kind=kind))
            case ToUser(user_id=user_id, data=data):
                self.sockets.send_to(user_id, data)
            case ToFollowers(node=node, tournament=tid, sender=sender, masked=lm, whole=lw):
                if node != self.cluster.node:
                    self.on_followers(tid, sender, frames.EncodedChat(lm, lw))

    async def _reroute_later(self, table_id: str) -> None:
        # The old owner let go (or stopped): whoever takes the lease first.
        await asyncio.sleep(random.uniform(0.0, 0.05))
        await self.reroute(table_id, force=True)

    def _from_edge(self, m: JoinTable | Command | Detach) -> None:
        key = RemoteSocket(m.node, m.conn, m.table)
        actor = self.running(m.table)
        if actor is None:
            if not isinstance(m, Detach):
                self.cluster.post(m.node, Gone(table=m.table, node=self.cluster.node))
            return
        match m:
            case Detach():
                rw = self.remote_watchers.pop(key, None)
                if rw is not None:
                    actor.submit("detach", rw)
            case JoinTable():
                rw = self.remote_watchers.get(key)
                if rw is None:
                    rw = RemoteWatcher(self, key, m.user_id, m.user_name)
                    self.remote_watchers[key] = rw
                self.sockets.set_mutes(m.user_id, m.mutes)
                self.sockets.set_unfiltered(m.user_id, m.unfiltered)
                actor.submit("join", rw, m.join, via_invite=m.via_invite, resync=m.resync)
            case Command():
                rw = self.remote_watchers.get(key)
                if rw is None:
                    self._lost_watcher(key, m)
                    return
                actor.submit("cmd", rw, m.command, t0=self.clock.monotonic())

    def _lost_watcher(self, key: RemoteSocket, m: Command) -> None:
        """A command from a socket the other process has attached here, but
        this process let go of (a frame to it found nobody listening while
        Redis restarted). Nothing is done; the command is answered
        ``unavailable`` (the client tries again) and the socket is told to
        re-attach (its catchup fills the gap)."""
        e = CommandError("unavailable", "the table is changing servers: try again")
        RemoteWatcher(self, key).send(frames.refusal(m.command.id, e, None))
        self.cluster.post(m.node, Gone(table=m.table, node=self.cluster.node))

    # --------------------------------------------------------------- leases

    async def _leases(self) -> None:
        """Renew this process's leases, follow tables that moved, and take
        over tables nobody holds (a dead process's, after its leases expire)."""
        cluster = self.cluster
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
        remote: dict[str, RemoteTable] = {}
        for table_id, peers in self.sockets.attached.items():
            for peer in peers:
                if isinstance(peer.table, RemoteTable):
                    remote[table_id] = peer.table
        tables = list(remote)
        for table_id, owner in zip(tables, await self.cluster.owners(tables), strict=True):
            if owner != remote[table_id].owner:
                self.spawn(self.reroute(table_id, force=True))
            elif owner is not None:
                # Sockets here wait on that process even when they send
                # nothing: make sure it is still there.
                self._suspect(owner)

    async def _take_orphans(self) -> int:
        """Load every unfinished table whose lease nobody holds (a few at a
        time: after a process dies its tables wait on this, and loading
        one is mostly waiting for the database)."""
        cluster = self.cluster
        ids = [t for t in await self.store.unfinished_table_ids() if t not in self.actors]
        owners = await cluster.owners(ids)
        orphans = [t for t, o in zip(ids, owners, strict=True) if o is None]
        # Shuffled: processes scanning at once mostly take different tables.
        random.shuffle(orphans)
        gate = asyncio.Semaphore(TAKEOVER_CONCURRENCY)

        async def take(table_id: str) -> bool:
            async with gate:
                return await self._take(table_id)

        taken = await asyncio.gather(*(take(t) for t in orphans))
        return sum(taken)

    async def _take(self, table_id: str) -> bool:
        cluster = self.cluster
        try:
            if not await cluster.acquire(table_id):
                return False
        except Exception as e:
            log.warning("cluster_unreachable", table=table_id, error=repr(e))
            return False
        try:
            actor = await self.load(table_id)
        except Exception:
            log.exception("table_rebuild_failed", table=table_id)
            actor = None
        if actor is None:
            with contextlib.suppress(Exception):
                await cluster.release(table_id)
            return False
        log.info("table_taken_over", table=table_id, node=cluster.node)
        if self.sockets.attached.get(table_id):
            self.spawn(self.reroute(table_id, force=True))
        return True
