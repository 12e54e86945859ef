"""The hub of one server process: the parts, put together.

- :class:`~.sockets.Sockets`: this process's sockets, one per user, and mutes;
- a :class:`~.locator.TableLocator`: where each table runs (here, or with
  ``--redis-url`` in whichever process holds its lease) and its actors here;
- :class:`~.ranked.Ranked` over a :class:`~.ranked_queue.RankedQueue`
  (in memory, or in Redis for a cluster);
- :class:`~.creation.TableFactory`: new tables;
- :class:`~.friends.Friends`: friends, blocks and table invites;
- :class:`~.heartbeat.Heartbeat`;
- :class:`~.fairplay.FairPlaySweeper`: finished games' fair-play checks
  (unless ``--fair-play off``).

Tables are loaded on demand from their stored event log, and every
unfinished table is rebuilt when the process starts (see ``locator``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fourhundred.store import Store, TableRow, User

from . import frames
from . import protocol as p
from .botpool import BotRunner
from .chatfilter import ChatFilter
from .chatlog import ChatLog
from .clock import Clock
from .cluster_locator import ClusterLocator
from .competitions.director import DirectorDeps
from .competitions.directors import ClusterLeases, Directors, Leases, LocalLeases
from .competitions.system import load_schedule, schedule_once
from .config import ServerConfig
from .creation import TableFactory
from .errors import CommandError
from .fairplay import FairPlaySweeper
from .following import Followers
from .friends import Friends
from .heartbeat import Heartbeat
from .limits import Limits
from .locator import LocalLocator, LocatorDeps, TableLocator
from .logs import get_logger
from .metrics import Metrics
from .ranked import Ranked
from .ranked_queue import MemoryQueue, RankedQueue, RedisQueue
from .sockets import Peer, Sockets
from .standing import Standings
from .table import TableActor

__all__ = ["Hub"]

log = get_logger("fourhundred.hub")


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
        self.metrics = metrics
        self.sockets = Sockets()
        deps = LocatorDeps(
            store=store,
            config=config,
            clock=clock,
            bots=bots,
            metrics=metrics,
            sockets=self.sockets,
        )
        locator: TableLocator
        queue: RankedQueue
        leases: Leases
        if config.redis_url:
            cluster = ClusterLocator(deps)
            queue = RedisQueue(cluster.cluster.redis, config.redis_prefix, config.node, clock)
            locator = cluster
            leases = ClusterLeases(cluster.cluster)
        else:
            locator = LocalLocator(deps)
            queue = MemoryQueue(clock)
            leases = LocalLeases()
        self.locator = locator
        self.tables = TableFactory(store, config, clock, locator)
        locator.deps.open_table = self.tables.open_rematch
        self.chat_log = ChatLog(store.moderation)
        locator.deps.chat_filter = ChatFilter.from_option(config.chat_filter)
        locator.deps.unfiltered = self.sockets.is_unfiltered
        locator.deps.chat_log = self.chat_log.add
        self.ranked = Ranked(queue, store, config, self.tables, locator.notify_user)
        self.limits = Limits(config, clock)
        """The abuse limits' buckets (``app.state.limits`` too)."""
        self.friends = Friends(store, clock, locator, self.sockets, self.limits)
        self.standings = Standings(store.moderation, clock)
        self.directors = Directors(
            DirectorDeps(store, clock, config, self.tables.create, locator.notify_user), leases
        )
        self.followers = Followers(
            self.directors,
            clock,
            self.sockets,
            locator.deps.chat_filter.mask,
            locator.share_followers,
        )
        locator.on_followers = self.followers.deliver
        if config.tournaments_file is not None:
            entries = load_schedule(config.tournaments_file, clock.now_ms())
            self.directors.schedule = lambda: schedule_once(self.directors, entries)
        self.heartbeat = Heartbeat(store, config.node, clock, on_beat=locator.update_gauges)
        self.fair_play = FairPlaySweeper(store, clock, config)
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Take up this process's tables and start the background tasks."""
        await self.heartbeat.beat()
        await self.locator.start()
        await self.directors.start()
        self._tasks = [
            asyncio.create_task(self.heartbeat.run(), name="heartbeat"),
            asyncio.create_task(self._matchmaking(), name="matchmaking"),
        ]
        if self.fair_play.mode != "off":
            self._tasks.append(asyncio.create_task(self.fair_play.run(), name="fair-play"))

    async def stop(self) -> None:
        self.locator.stopping = True
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        self.sockets.close_all(1001, "shutdown", "the server is restarting: reconnect in a moment")
        await self.directors.stop()
        await self.locator.stop()
        await self.chat_log.flush()
        self.fair_play.close()

    async def _matchmaking(self) -> None:
        while True:
            await asyncio.sleep(self.config.matchmaking_interval_s)
            try:
                await self.ranked.match_now()
            except Exception:
                log.exception("matchmaking_failed")

    # --------------------------------------------------------------- tables

    @property
    def actors(self) -> dict[str, TableActor]:
        """The tables this process runs."""
        return self.locator.actors

    async def actor(self, table_id: str) -> TableActor | None:
        return await self.locator.actor(table_id)

    def summary_of(self, row: TableRow) -> dict[str, Any]:
        return self.locator.summary_of(row)

    async def create_table(
        self, host: User, kind: str, preset_name: str, changes: dict[str, Any], timer: int
    ) -> TableRow:
        return await self.tables.create_table(host, kind, preset_name, changes, timer)

    # ------------------------------------------------------------- sockets

    def register(self, peer: Peer) -> None:
        """A new socket for ``peer.user_id``; an older one is taken over
        (in a cluster, also one held by another process)."""
        self.sockets.register(peer)
        self.locator.user_connected(peer)

    def unregister(self, peer: Peer) -> None:
        self.sockets.unregister(peer)
        self.locator.user_disconnected(peer)
        self.followers.drop(peer)

    async def tell_waiting_match(self, user: User) -> None:
        """A player who connects while their tournament match waits for them
        is sent its ``matched`` again: the director's was sent while they
        were away (a reconnect, a server restart). Guests never enter a
        tournament, so their hello costs no query."""
        if user.guest:
            return
        try:
            table_id = await self.store.waiting_match(user.id)
        except Exception as e:  # the socket works without it
            log.warning("waiting_match_unknown", user=user.id, error=repr(e))
            return
        if table_id is not None:
            self.sockets.notify(user.id, frames.Matched(table=table_id, kind="tournament"))

    async def load_blocks(self, user: User) -> None:
        """A block is a mute that lasts: load the user's when a socket opens."""
        if not user.guest:
            self.sockets.set_blocks(user.id, await self.store.social.blocked_ids(user.id))

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
            ref = await self.locator.ref(table_id)
        except CommandError:
            raise
        except Exception as e:
            log.warning("join_failed", table=table_id, error=repr(e))
            raise CommandError(
                "unavailable", "the server could not load this table: try again in a moment"
            ) from None
        if ref is None:
            raise CommandError("not_found", f"no table {table_id!r}")
        self.sockets.attach(peer, table_id, ref, via_invite=via_invite)
        await self.ranked.joined(peer.user_id, table_id)
        ref.submit("join", peer, msg, via_invite=via_invite)

    def mute(self, user_id: str, other: str, muted: bool, peer: Peer | None = None) -> None:
        self.sockets.mute(user_id, other, muted)
        if peer is not None:
            # Unmuting a blocked player leaves them muted (a block lasts).
            blocked = other in self.sockets.blocks.get(user_id, ())
            self.locator.muted(peer, other, muted or blocked)

    # ---------------------------------------------------------- the queue

    async def queue_join(self, user: User) -> dict[str, Any]:
        return await self.ranked.join(user)

    async def queue_leave(self, user_id: str) -> None:
        await self.ranked.leave(user_id)

    async def queue_status(self, user_id: str) -> dict[str, Any]:
        return await self.ranked.status(user_id)

    async def match_now(self) -> None:
        await self.ranked.match_now()
