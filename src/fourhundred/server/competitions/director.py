"""A tournament's director: one asyncio task per live tournament, like a
table's actor.

Its state is the fold of its own event log (:func:`.model.rebuild`); every
command, a person's or its own, goes through the pure :func:`.decide`, and
the events are stored (version-guarded) **before** anyone hears of them.
On its clock it starts the tournament at its time, opens each round's
tables (ids derived from the tournament, round and slot, so a restart
never makes a table twice), reads each finished match from its game's
record in the store (never from a client), declares the forfeit of a team
not ready when its table closed unstarted, and pairs the next round. It
polls the store (``tournament_poll_s``), so it works the same after a
restart and whichever process runs the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fourhundred.engine import preset, replay
from fourhundred.store import DELETED_NAME, Store, StoredEvent, TableRow, VersionConflict

from ..clock import Clock
from ..config import ServerConfig
from ..errors import CommandError
from ..events import Player as Seat
from ..frames import Matched
from ..logs import get_logger
from ..ratings import display
from ..tablespec import TableSpec
from . import events as ev
from .commands import (
    SYSTEM,
    Actor,
    Command,
    DeclareForfeit,
    PairNextRound,
    ReportResult,
    Start,
    System,
)
from .decide import FORFEIT_AFTER_MS, decide
from .detail import list_summary, table_id
from .model import Round, TournamentModel, rebuild

__all__ = ["Director", "DirectorDeps", "match_result", "stored_model"]

log = get_logger("fourhundred.tournament")

CLOSE_GRACE_MS = 10_000
"""After a table's start-by time, how long the director waits for the table
to close itself before it declares the forfeit anyway (its process died)."""


@dataclass(slots=True)
class DirectorDeps:
    store: Store
    clock: Clock
    config: ServerConfig
    create_table: Callable[[TableSpec], Awaitable[Any]]
    notify: Callable[[str, Matched], Awaitable[None]]
    changed: Callable[[Director], None] = lambda _d: None
    stopped: Callable[[Director], None] = lambda _d: None


def stored_model(log_: Sequence[StoredEvent]) -> TournamentModel:
    """The tournament a stored log describes."""
    return rebuild(ev.from_stored(e.kind, e.data) for e in log_)


def match_result(record: Any) -> tuple[int, int, int]:
    """(winning team 0 or 1, team 0's points, team 1's points) from a game's
    record: the engine replays it. Team 0 is seats 0 and 2 (team A); a
    team's points are its players' final scores added up (both raised so
    that neither is below zero)."""
    state = replay(record)
    s = state.scores
    a, b = s[0] + s[2], s[1] + s[3]
    winner = state.winner
    if winner is None:  # never at a tournament table (bots finish it), but safe
        winner = 0 if a >= b else 1
    # Points are counted from zero (the core refuses less), while a score in
    # 400 can fall below it: both move up together, keeping the difference
    # that breaks ties.
    low = min(0, a, b)
    return winner, a - low, b - low


def absent_team(row: TableRow, a: str, b: str) -> str:
    """The team that forfeits a table closed unstarted: the one with fewer
    players ready (both short: team B, the lower of the pairing)."""
    seats = row.summary.get("seats", [])
    ready = [bool(s.get("ready")) for s in seats] if len(seats) == 4 else [False] * 4
    return a if ready[0] + ready[2] < ready[1] + ready[3] else b


@dataclass(slots=True)
class _Mail:
    actor: Actor
    command: Command
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Director:
    """Runs one tournament. :meth:`start`; talk to it with :meth:`ask`."""

    def __init__(self, tid: str, log_: list[StoredEvent], deps: DirectorDeps) -> None:
        self.id = tid
        self.log = log_
        self.model = stored_model(log_)
        self.deps = deps
        self.people: dict[str, tuple[str, int | None]] = {}
        self._opened: set[str] = set()
        self._mail: deque[_Mail] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.stopped = False

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def wait_ms(self) -> int:
        """How long a team has to be ready after its round was paired."""
        return round(FORFEIT_AFTER_MS * self.deps.config.timer_scale)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"tournament-{self.id}")

    async def stop(self) -> None:
        self.stopped = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def ask(self, actor: Actor, command: Command) -> None:
        """Decide and store ``command`` (``CommandError`` when refused)."""
        if self.stopped:
            raise CommandError("unavailable", "the tournament is changing servers: try again")
        mail = _Mail(actor, command)
        self._mail.append(mail)
        self._wake.set()
        await mail.done

    # ---------------------------------------------------------------- loop

    async def _run(self) -> None:
        try:
            await self.learn_people()
            while not self.stopped:
                self._wake.clear()
                while self._mail:
                    mail = self._mail.popleft()
                    try:
                        await self._act(mail.actor, mail.command)
                        mail.done.set_result(None)
                    except CommandError as e:
                        mail.done.set_exception(e)
                    except Exception as e:
                        log.exception("tournament_command_failed", tournament=self.id)
                        mail.done.set_exception(
                            CommandError("unavailable", f"could not be saved: {e!r}")
                        )
                busy = await self._duties()
                if self.model.status in ("finished", "cancelled") and not self._mail:
                    break
                if busy or self._mail:
                    continue
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.deps.config.tournament_poll_s):
                        await self._wake.wait()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament_director_crashed", tournament=self.id)
        finally:
            self.stopped = True
            for mail in self._mail:
                if not mail.done.done():
                    mail.done.set_exception(CommandError("unavailable", "try again"))
            self.deps.stopped(self)

    # -------------------------------------------------------------- commit

    async def _act(self, actor: Actor, command: Command) -> bool:
        """Decide ``command`` and store its events; True if any. A person's
        command is decided on the stored log as it is now (what another
        process acknowledged, a check-in there, counts before its next
        poll); a write there first is read and the command decided again."""
        if not isinstance(actor, System):
            await self.catch_up()
        for _ in range(3):
            now = self.deps.clock.now_ms()
            events = decide(self.model, actor, command, now)
            if not events:
                return False
            try:
                await self._commit(events, now)
                return True
            except VersionConflict:
                await self.reload()
        raise CommandError("unavailable", "the tournament is busy: try again")

    async def _commit(self, events: Sequence[ev.TournamentEvent], now: int) -> None:
        new = self.model.copy()
        for e in events:
            new.apply(e)
        stored = [
            StoredEvent(self.version + i + 1, *ev.to_stored(e), now) for i, e in enumerate(events)
        ]
        await self.learn_people(new)
        fields = {
            "status": new.status,
            "summary": list_summary(self.id, new, self.people),
            "updated_ms": now,
        }
        try:
            await self.deps.store.tournaments.append(self.id, self.version, stored, fields)
        except VersionConflict:
            raise
        except Exception as e:
            log.warning("tournament_commit_failed", tournament=self.id, error=repr(e))
            raise CommandError("unavailable", "the server could not save this: try again") from None
        self.model = new
        self.log.extend(stored)
        log.info("tournament_events", tournament=self.id, kinds=[s.kind for s in stored])
        self.deps.changed(self)

    async def catch_up(self) -> None:
        """Read what another process stored since (one look at the row)."""
        row = await self.deps.store.tournaments.get(self.id)
        if row is not None and row.version != self.version:
            await self.reload()

    async def reload(self) -> None:
        """Catch up with the stored log (another process wrote to it)."""
        stored = await self.deps.store.tournaments.load(self.id)
        if len(stored) != self.version:
            self.log = stored
            self.model = stored_model(stored)
            await self.learn_people()
            self.deps.changed(self)

    async def learn_people(self, m: TournamentModel | None = None) -> None:
        """Names and ratings of everyone the tournament names (once each)."""
        m = m or self.model
        ids = {p for t in m.teams.values() for p in t.players} | set(m.solos)
        if m.terms.organiser:
            ids.add(m.terms.organiser)
        missing = ids - self.people.keys()
        if not missing:
            return
        users = await self.deps.store.get_users(missing)
        for uid in missing:
            u = users.get(uid)
            if u is not None:
                self.people[uid] = (u.name, None if u.guest else display(u.mu))

    # ---------------------------------------------------------- the clock

    async def _duties(self) -> bool:
        """Act on the clock and the match tables; True if something changed."""
        await self.catch_up()
        m = self.model
        now = self.deps.clock.now_ms()
        if m.status == "open":
            return now >= m.terms.start_ms and await self._start()
        if m.status != "running" or m.current is None:
            return False
        r = m.current
        if r.complete:
            if m.paused or m.decided() is not None:
                return False
            return await self._system(PairNextRound())
        await self._open_tables(r)
        return await self._collect(r, now)

    async def _system(self, command: Command) -> bool:
        try:
            return await self._act(SYSTEM, command)
        except CommandError as e:
            log.info("tournament_duty_refused", tournament=self.id, code=e.code, error=e.message)
            return False

    async def _start(self) -> bool:
        m = self.model
        ids = {p for t in m.teams.values() for p in t.players} | set(m.solos)
        users = await self.deps.store.get_users(ids)
        ratings = {u.id: display(u.mu) for u in users.values() if not u.guest}
        return await self._system(Start(ratings=ratings))

    def _seat(self, player: str) -> Seat:
        name, rating = self.people.get(player, (DELETED_NAME, None))
        return Seat(id=player, name=name, guest=False, rating=rating)

    async def _open_tables(self, r: Round) -> None:
        """Make the round's tables that do not exist yet and send each of
        their players ``matched``."""
        want = {
            table_id(self.id, r.number, p.table): p
            for p in r.tables
            if p.table not in r.outcomes
            and table_id(self.id, r.number, p.table) not in self._opened
        }
        if not want:
            return
        rows = await self.deps.store.tournaments.tables(self.id, list(want))
        self._opened.update(row.id for row in rows)
        m = self.model
        for row in rows:
            if row.status == "waiting":
                # Made before a restart: its players may not have heard.
                p = want[row.id]
                for player in (*m.teams[p.a].players, *m.teams[p.b].players):
                    await self.deps.notify(player, Matched(table=row.id, kind="tournament"))
        for tid, p in want.items():
            if tid in self._opened:
                continue
            a, b = m.teams[p.a].players, m.teams[p.b].players
            spec = TableSpec(
                kind="tournament",
                host=None,
                preset_name=m.terms.preset,
                settings=self._settings(),
                timer=m.terms.timer,
                seats=(self._seat(a[0]), self._seat(b[0]), self._seat(a[1]), self._seat(b[1])),
                ready=(False,) * 4,
                table_id=tid,
                tournament=self.id,
                start_by_ms=r.at_ms + self.wait_ms,
            )
            try:
                await self.deps.create_table(spec)
            except Exception as e:
                # Made by a director before (its row came after the read)
                # or the store is down: the next tick looks again.
                log.warning("tournament_table_failed", tournament=self.id, table=tid, error=repr(e))
                continue
            self._opened.add(tid)
            for player in (*a, *b):
                await self.deps.notify(player, Matched(table=tid, kind="tournament"))

    def _settings(self) -> dict[str, Any]:
        terms = self.model.terms
        return preset(terms.preset).replace(**terms.settings).to_dict()

    async def _collect(self, r: Round, now: int) -> bool:
        """Report the round's finished games and forfeits."""
        open_ = {
            table_id(self.id, r.number, p.table): p for p in r.tables if p.table not in r.outcomes
        }
        changed = False
        for row in await self.deps.store.tournaments.tables(self.id, list(open_)):
            p = open_[row.id]
            if row.status == "over" and row.record is not None:
                side, points_a, points_b = match_result(row.record)
                winner, won, lost = (
                    (p.a, points_a, points_b) if side == 0 else (p.b, points_b, points_a)
                )
                changed |= await self._system(ReportResult(r.number, winner, won, lost))
            elif not self.model.paused and (
                row.status == "closed"
                or (row.status == "waiting" and now > r.at_ms + self.wait_ms + CLOSE_GRACE_MS)
            ):
                # (Paused: forfeits wait for the resume.)
                absent = absent_team(row, p.a, p.b)
                changed |= await self._system(DeclareForfeit(r.number, absent, self.wait_ms))
        return changed
