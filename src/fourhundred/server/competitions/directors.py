"""The directors of this process: which tournaments it runs, and the way in
for everything else (the HTTP API, followers, the system schedule).

Each live (open or running) tournament is directed by exactly one process:
the one holding its lease (:class:`Leases`; one process alone holds every
lease). Every ``tournament_poll_s`` this registry takes up the live
tournaments nobody directs (on start: all of them, so a restart resumes
them; in a cluster: a dead process's), stops a director whose lease was
lost, and tells followers of tournaments directed elsewhere what changed.

A person's command goes to the tournament's director when it runs here;
otherwise it is decided here on the stored log and written with the same
version guard, and the director (wherever it is) reads it on its next poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol

from fourhundred.store import StoredEvent, TournamentRow, VersionConflict

from ..cluster import Cluster
from ..errors import CommandError
from ..logs import get_logger
from ..ratings import display
from . import events as ev
from .commands import Actor, Command, Create, Player
from .decide import FORFEIT_AFTER_MS, decide, scheduled
from .detail import People, detail, list_summary
from .director import Director, DirectorDeps, stored_model
from .model import TournamentModel

__all__ = ["Directors", "Leases", "LocalLeases", "View"]

log = get_logger("fourhundred.tournament")

Changed = Callable[[str, dict[str, Any]], None]
"""Told of a tournament's new DETAIL (to send to its followers)."""


class Leases(Protocol):
    """Who directs a tournament: the holder of its lease."""

    async def acquire(self, key: str) -> bool: ...

    def held(self, key: str) -> bool: ...

    async def release(self, key: str) -> None: ...


class LocalLeases:
    """One process: it holds every lease."""

    async def acquire(self, key: str) -> bool:
        return True

    def held(self, key: str) -> bool:
        return True

    async def release(self, key: str) -> None:
        return None


class ClusterLeases:
    """A cluster: the tournament's lease in Redis, beside the tables' (the
    locator's loop renews every lease this process holds, and a dead
    process's leases are released like its tables')."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    async def acquire(self, key: str) -> bool:
        if key in self.cluster.tokens:
            return True
        # A look first: the scan asks every second for every tournament.
        return await self.cluster.owner(key) is None and await self.cluster.acquire(key)

    def held(self, key: str) -> bool:
        return key in self.cluster.tokens

    async def release(self, key: str) -> None:
        await self.cluster.release(key)


def lease_key(tournament: str) -> str:
    """The lease's name, apart from the tables' (``tourney:ID``)."""
    return f"tourney:{tournament}"


class View:
    """A tournament as stored: its row, log, model and names."""

    def __init__(
        self, row: TournamentRow, log_: list[StoredEvent], m: TournamentModel, people: People
    ) -> None:
        self.row, self.log, self.model, self.people = row, log_, m, people

    def detail(self, wait_ms: int) -> dict[str, Any]:
        return detail(self.row.id, self.model, self.log, self.people, wait_ms)

    def names(self, user_id: str) -> bool:
        """Whether ``user_id`` is the organiser or an entrant."""
        m = self.model
        return user_id == m.terms.organiser or m.entry_of(user_id) is not None


class Directors:
    def __init__(self, deps: DirectorDeps, leases: Leases) -> None:
        """``deps``: what the directors need (their ``changed`` and
        ``stopped`` are this registry's own)."""
        self.store = deps.store
        self.config = deps.config
        self.clock = deps.clock
        self.leases = leases
        self.running: dict[str, Director] = {}
        self.changed: Changed = lambda _t, _d: None
        self.followed: Callable[[], set[str]] = set
        """The tournaments this process's sockets follow (set by the hub)."""
        self._versions: dict[str, int] = {}
        self._deps = replace(deps, changed=self._director_changed, stopped=self._director_stopped)
        self._background: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._taking: set[str] = set()
        self.stopping = False
        self.schedule: Callable[[], Awaitable[int]] | None = None
        """The system tournaments' scheduler (:mod:`.system`), if configured."""

    @property
    def wait_ms(self) -> int:
        return round(FORFEIT_AFTER_MS * self.config.timer_scale)

    # ----------------------------------------------------------- lifecycle

    async def start(self) -> None:
        await self.scan()
        if self.schedule is not None:
            await self.schedule()
        self._task = asyncio.create_task(self._loop(), name="tournaments")

    async def stop(self) -> None:
        self.stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for d in list(self.running.values()):
            await d.stop()
            with contextlib.suppress(Exception):
                await self.leases.release(lease_key(d.id))
        self.running.clear()

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.tournament_poll_s)
            try:
                await self.scan()
                await self._tell_followers()
                if self.schedule is not None:
                    await self.schedule()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("tournament_scan_failed", error=repr(e))

    async def scan(self) -> int:
        """Stop directors whose lease was lost; direct every live tournament
        nobody directs. Returns how many were taken up."""
        for tid, d in list(self.running.items()):
            if not self.leases.held(lease_key(tid)):
                log.warning("tournament_lease_lost", tournament=tid)
                await d.stop()
        taken = 0
        for tid in await self.store.tournaments.live_ids():
            if tid not in self.running and await self._take(tid):
                taken += 1
        return taken

    async def _take(self, tid: str) -> bool:
        if tid in self._taking or self.stopping:
            return False
        self._taking.add(tid)
        try:
            if not await self.leases.acquire(lease_key(tid)):
                return False
            log_ = await self.store.tournaments.load(tid)
            if not log_:
                await self.leases.release(lease_key(tid))
                return False
            d = Director(tid, log_, self._deps)
            self.running[tid] = d
            d.start()
            log.info("tournament_directed", tournament=tid, node=self.config.node)
            return True
        except Exception:
            log.exception("tournament_rebuild_failed", tournament=tid)
            with contextlib.suppress(Exception):
                await self.leases.release(lease_key(tid))
            return False
        finally:
            self._taking.discard(tid)

    def _director_stopped(self, d: Director) -> None:
        if self.running.get(d.id) is d:
            del self.running[d.id]
        if not self.stopping:
            task = asyncio.create_task(self.leases.release(lease_key(d.id)))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def _director_changed(self, d: Director) -> None:
        self._versions[d.id] = d.version
        if d.id not in self.followed():
            return  # nobody to tell: no DETAIL to build
        self.changed(d.id, detail(d.id, d.model, d.log, d.people, self.wait_ms))

    async def _tell_followers(self) -> None:
        """Followed tournaments directed elsewhere: a new DETAIL when their
        stored version moved."""
        for tid in self.followed():
            if tid in self.running:
                continue
            row = await self.store.tournaments.get(tid)
            if row is None or self._versions.get(tid) == row.version:
                continue
            view = await self.view(tid)
            if view is not None:
                self._versions[tid] = row.version
                self.changed(tid, view.detail(self.wait_ms))

    # ------------------------------------------------------------- reading

    async def people(self, m: TournamentModel) -> dict[str, tuple[str, int | None]]:
        ids = {p for t in m.teams.values() for p in t.players} | set(m.solos)
        if m.terms.organiser:
            ids.add(m.terms.organiser)
        users = await self.store.get_users(ids)
        return {u.id: (u.name, None if u.guest else display(u.mu)) for u in users.values()}

    async def view(self, tid: str) -> View | None:
        """The tournament as its director has it (here) or as stored."""
        row = await self.store.tournaments.get(tid)
        if row is None:
            return None
        d = self.running.get(tid)
        if d is not None and not d.stopped:
            return View(row, list(d.log), d.model, dict(d.people))
        log_ = await self.store.tournaments.load(tid)
        m = stored_model(log_)
        return View(row, log_, m, await self.people(m))

    # ------------------------------------------------------------ changing

    async def create(
        self, organiser: str | None, c: Create, invite: bool
    ) -> tuple[TournamentRow, View]:
        """Store a new tournament (``organiser`` None: the server's own) and
        direct it."""
        now = self.clock.now_ms()
        if organiser is None:
            created = scheduled(c, now)
        else:
            [event] = decide(None, Player(organiser), c, now)
            assert isinstance(event, ev.Created)
            created = event
        tid = secrets.token_urlsafe(6)
        m = TournamentModel(created)
        people = await self.people(m)
        row = TournamentRow(
            id=tid,
            name=created.name,
            organiser=organiser,
            status="open",
            public=created.public,
            invite=secrets.token_urlsafe(12) if invite or not created.public else None,
            start_ms=created.start_ms,
            version=1,
            summary=list_summary(tid, m, people),
            created_ms=now,
            updated_ms=now,
        )
        first = StoredEvent(1, *ev.to_stored(created), now)
        await self.store.tournaments.create(row, first)
        log.info("tournament_created", tournament=tid, organiser=organiser)
        await self._take(tid)
        return row, View(row, [first], m, people)

    async def act(self, tid: str, actor: Actor, command: Command) -> None:
        """Decide ``command`` for tournament ``tid`` and store what it causes
        (``CommandError`` when refused: nothing changed)."""
        d = self.running.get(tid)
        if d is not None and not d.stopped:
            await d.ask(actor, command)
            return
        for _ in range(5):
            log_ = await self.store.tournaments.load(tid)
            if not log_:
                raise CommandError("not_found", "no such tournament")
            m = stored_model(log_)
            now = self.clock.now_ms()
            events = decide(m, actor, command, now)
            if not events:
                return
            for e in events:
                m.apply(e)
            stored = [
                StoredEvent(len(log_) + i + 1, *ev.to_stored(e), now) for i, e in enumerate(events)
            ]
            fields = {
                "status": m.status,
                "summary": list_summary(tid, m, await self.people(m)),
                "updated_ms": now,
            }
            try:
                await self.store.tournaments.append(tid, len(log_), stored, fields)
                return
            except VersionConflict:
                continue
        raise CommandError("unavailable", "the tournament is busy: try again")
