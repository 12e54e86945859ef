"""The table actor: one asyncio task per table sequences everything that
happens to it (its mailbox, its turn timer, its commits and broadcasts), so
two commands never race.

The actor judges nothing itself: :func:`~.decide.decide` says what a command
does (pure), :mod:`.results` what the end of a game changes, :mod:`.persist`
what goes to the store, :mod:`.frames` what each person receives, and
:mod:`.chat` keeps the table's chat. An accepted command's events are written
to the store **before** anyone hears of them; only then does the table
change, every watcher get one ``event`` frame per event (with its own view
after *that* event) and the sender its ``ack``.

Its dependencies are small interfaces (:mod:`.ports`), so one process and
several run the same actor.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fourhundred.bots import BOTS
from fourhundred.engine import Action, View, view_for
from fourhundred.store import StoredEvent, VersionConflict

from . import frames
from . import protocol as p
from .botpool import bot_turn
from .catchup import EventBuffer
from .chatcast import ChatCast
from .commands import SERVER, BotMove, Command, Expire, Person, Server, Start, TurnTimeout
from .decide import decide_into
from .errors import CommandError
from .events import Event
from .facts import FactSource
from .fixedseats import expiry_s
from .hintdesk import HintDesk
from .hinting import hint_seat
from .logs import get_logger
from .persist import Stamp, commit_for, deadline_after
from .ports import MailKind, TableDeps, TableLog, Watcher
from .rematch_driver import RematchDriver
from .room import TableModel
from .turnclock import TurnClock

__all__ = ["MailKind", "TableActor", "TableDeps", "TableLog", "Watcher"]

log = get_logger("fourhundred.table")


@dataclass(slots=True)
class _Mail:
    kind: MailKind
    watcher: Watcher | None = None
    msg: Any = None
    t0: float | None = None
    version: int = 0
    action: Action | None = None
    via_invite: bool = False
    resync: bool = False
    """A join the server made for a socket whose table moved to this
    process: answered by ``snapshot``/``catchup`` alone (no ``ack``)."""


class TableActor:
    """Owns one table. Start with :meth:`start`; talk to it with :meth:`submit`."""

    def __init__(
        self,
        model: TableModel,
        deps: TableDeps,
        recent: Sequence[StoredEvent] = (),
        remaining_ms: int | None = None,
    ) -> None:
        self.model = model
        self.deps = deps
        self.id = model.id
        self.watchers: dict[Watcher, None] = {}
        self._mail: deque[_Mail] = deque()
        self._wake = asyncio.Event()
        self._buffer = EventBuffer(deps.config.event_buffer)
        for stored in recent:
            self._buffer.add_stored(stored)
        self.turn = TurnClock(deps.clock)
        if remaining_ms is not None and model.in_play:
            self.turn.start(remaining_ms)
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_version = -1
        self._task: asyncio.Task[None] | None = None
        self._chat = ChatCast(model.id, deps)
        cfg = deps.config
        self._facts = FactSource(deps.log, cfg.bot, BOTS.keys(), deps.clock, cfg.substitute)
        self._hints = HintDesk(model.id, deps.bots, deps.metrics)
        self._rematch = RematchDriver(deps.clock, deps.open_table, deps.config.bot)
        self._idle_since = deps.clock.monotonic()
        self.stopped = False

    # ----------------------------------------------------------- lifecycle

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        """Stop the task (the server is shutting down); the state is already stored."""
        self.stopped = True
        self._wake.set()
        self._hints.close()
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def submit(
        self,
        kind: MailKind,
        watcher: Watcher | None = None,
        msg: Any = None,
        **kw: Any,
    ) -> None:
        """Queue a command for the actor (never blocks)."""
        self._mail.append(_Mail(kind, watcher, msg, **kw))
        self._wake.set()

    @property
    def deadline_ms(self) -> int | None:
        """When the running turn ends, on the wall clock (None: no turn)."""
        return self.turn.deadline_ms

    @property
    def finished(self) -> bool:
        return self.model.finished

    def summary(self) -> dict[str, Any]:
        """The live table summary, as the lobby lists it (no invite)."""
        return frames.summary(self.model, self._users())

    async def _run(self) -> None:
        try:
            await self._server_act(Start())
            self._schedule_bot()
            while not self.stopped:
                self._wake.clear()
                while self._mail and not self.stopped:
                    mail = self._mail.popleft()
                    try:
                        await self._handle(mail)
                    except VersionConflict:
                        self._mail.appendleft(mail)  # answered with the rest
                        raise
                    except Exception:
                        log.exception("table_command_failed", table=self.id, kind=mail.kind)
                timeout = await self._tick()
                if self.stopped or self._mail:
                    continue
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await self._wake.wait()
        except asyncio.CancelledError:
            raise
        except VersionConflict:
            log.error("table_lost", table=self.id, version=self.model.version)
            self._refuse_mail()
        except Exception:
            log.exception("table_actor_crashed", table=self.id)
        finally:
            self.stopped = True
            self.deps.on_stop(self)

    async def _tick(self) -> float | None:
        """Act on the clock (the turn timer, a rematch offer, an abandoned
        room, the linger of a finished table) and say how long to sleep
        until it next matters."""
        now = self.deps.clock.monotonic()
        idle = not self.watchers and not self._mail
        left = self.turn.left()
        if left is not None:
            if left > 0:
                return left
            self.turn.pause()
            await self._server_act(TurnTimeout(), retry_s=1.0)
        elif (wait := self._rematch.wait_s(self.model)) is not None:
            if wait > 0:
                return wait
            cmd = await self._rematch.command(self.model)
            if cmd is not None:
                await self._server_act(cmd)
        elif self.finished:
            linger = self.deps.config.finished_linger_s
            if not idle or now - self._idle_since < linger:
                return linger
            self.stopped = True
        elif (wait := expiry_s(self.model, idle, now - self._idle_since, self.deps)) is not None:
            if wait > 0:
                return wait
            # Closed, or (the store unavailable) tried again after another wait.
            self._idle_since = now
            if await self._server_act(Expire()):
                log.info("waiting_room_expired", table=self.id)
        else:
            return None
        return 0.0

    # ------------------------------------------------------------ mailbox

    async def _handle(self, mail: _Mail) -> None:
        match mail.kind:
            case "cmd":
                await self._command(mail)
            case "join":
                await self._join(mail)
            case "detach":
                assert mail.watcher is not None
                self._detach(mail.watcher)
            case "bot":
                if mail.version == self.model.version:  # else its moment has passed
                    await self._server_act(BotMove(mail.action), retry_s=1.0)

    async def _command(self, mail: _Mail) -> None:
        w, msg = mail.watcher, mail.msg
        assert w is not None
        if w not in self.watchers:
            self._refuse(w, msg.id, CommandError("not_attached", "join a table first"))
            return
        try:
            if isinstance(msg, p.Chat):
                self._on_chat(w, msg)
                return
            await self._act(Person(w.user_id, w.user_name), msg, w=w, cmd_id=msg.id, t0=mail.t0)
            if isinstance(msg, p.Hint):
                self._hints.answer(w, msg.id, self.model, hint_seat(self.model, w.user_id))
        except CommandError as e:
            self._refuse(w, msg.id, e)

    async def _act(
        self,
        who: Person | Server,
        cmd: Command,
        *,
        w: Watcher | None = None,
        cmd_id: int | str | None = None,
        t0: float | None = None,
    ) -> bool:
        """Decide ``cmd`` and commit what it causes (``CommandError`` when it
        is refused or cannot be saved). True if anything changed."""
        facts = await self._facts.facts(self.model, who, cmd)
        frames_of = frames.Collector(self._users())
        events, new = decide_into(self.model, who, cmd, facts, frames_of.observe)
        if events:
            await self._commit(events, new, frames_of, (w, cmd_id, t0))
        elif w is not None and cmd_id is not None:
            self._ack(w, cmd_id, self.model.version)
        return bool(events)

    async def _server_act(self, cmd: Command, retry_s: float | None = None) -> bool:
        """The server's own command (the timer, a bot, an expiry, the start).
        If the store cannot take it, the turn stays open and the timer
        tries again after ``retry_s``."""
        try:
            return await self._act(SERVER, cmd)
        except CommandError as e:
            log.warning("server_command_not_saved", table=self.id, error=e.message)
            if retry_s is not None:
                self._bot_version = -1
                self.turn.retry_in(retry_s)
            return False

    # -------------------------------------------------------------- commit

    async def _commit(
        self,
        events: Sequence[Event],
        new: TableModel,
        frames_of: frames.Collector,
        answer: tuple[Watcher | None, int | str | None, float | None],
    ) -> None:
        """Store ``events`` (``new``: the table after them), then make them
        the table's state and tell everyone (and the sender, ``answer``)."""
        w, cmd_id, t0 = answer
        now_ms = self.deps.clock.now_ms()
        users = frames_of.users
        timer_ms = round(new.timer * 1000 * self.deps.config.timer_scale)
        deadline_ms = deadline_after(new, events, self.turn.deadline_ms, now_ms, timer_ms)
        stamp = Stamp(now_ms, deadline_ms, self.deps.config.node, users)
        commit = commit_for(self.model, new, events, stamp, self._facts.ratings)
        try:
            await self.deps.log.commit(commit)
        except VersionConflict:
            raise
        except Exception as e:
            log.warning("commit_failed", table=self.id, error=repr(e))
            raise CommandError(
                "unavailable", "the server could not save this: nothing changed, try again"
            ) from None
        was_over = self.model.status == "over"
        self.model = new
        self.turn.follow(deadline_ms, now_ms)
        for stored, public in zip(commit.events, frames_of.publics, strict=True):
            self._buffer.add(stored.version, public)
        self._broadcast(frames_of.steps)
        if w is not None and cmd_id is not None:
            # After the events: when a client reads its ack, its state
            # already holds everything the command caused.
            self._ack(w, cmd_id, commit.events[0].version)
        self._count(events, was_over, t0)
        if self.finished:
            self._idle_since = self.deps.clock.monotonic()
        self._schedule_bot()

    def _count(self, events: Sequence[Event], was_over: bool, t0: float | None) -> None:
        metrics = self.deps.metrics
        metrics.count_moves(events)
        if t0 is not None:
            metrics.command_seconds.observe(self.deps.clock.monotonic() - t0)
        result = self.model.result
        if result is not None and not was_over:
            metrics.games_finished.labels(result.reason).inc()
            log.info("game_over", table=self.id, winner=result.winner, reason=result.reason)

    # ---------------------------------------------------------------- bots

    def _schedule_bot(self) -> None:
        m = self.model
        bot = m.bot_for_turn()
        if bot is None or m.game is None or self.stopped or self._bot_version == m.version:
            return
        self._bot_version = m.version
        view = view_for(m.game, m.game.turn)
        self._bot_task = asyncio.create_task(self._think(m.version, bot, view))

    async def _think(self, version: int, bot: str, view: View) -> None:
        pace = self.deps.config.bot_delay_s
        action = await bot_turn(self.deps.bots, bot, view, pace_s=pace, metrics=self.deps.metrics)
        self.submit("bot", version=version, action=action)

    # ------------------------------------------------------- join, detach

    async def _join(self, mail: _Mail) -> None:
        w, msg = mail.watcher, mail.msg
        assert w is not None
        m = self.model
        own = m.seat_of(w.user_id)
        if m.kind == "private" and not mail.via_invite and own is None:
            # Exactly the answer for an id that does not exist (no version
            # either): a Private table's id must not be confirmable.
            self._refuse(w, msg.id, CommandError("not_found", f"no table {self.id!r}"), None)
            return
        if msg.last_version is not None and msg.last_version > m.version:
            await self._check_not_behind(w)
        before = self._connected()
        ack_version = m.version
        if own is not None and m.status == "playing" and m.seats[own].substitute:
            # Coming back is reclaiming the seat.
            try:
                await self._act(Person(w.user_id, w.user_name), p.Reclaim(id=0))
            except CommandError as e:
                self._refuse(w, msg.id, e)
                return
            ack_version = self.model.version
        self.watchers[w] = None
        w.send(self._sync(w, msg.last_version))
        if not mail.resync:
            self._ack(w, msg.id, ack_version)
        self._presence(before)

    def _refuse_mail(self) -> None:
        """Answer what this actor will not handle now that it stops on
        finding another writer: nothing was done; the table follows (its
        sockets are re-attached) and the client tries again."""
        e = CommandError("unavailable", "the table is changing servers: nothing changed, try again")
        while self._mail:
            mail = self._mail.popleft()
            if mail.watcher is not None and mail.kind in ("cmd", "join") and not mail.resync:
                self._refuse(mail.watcher, mail.msg.id, e, None)

    async def _check_not_behind(self, w: Watcher) -> None:
        """A socket has seen a later version than this actor's: another
        process wrote to the log after this one loaded it (both held the
        lease while Redis restarted empty). If the stored log says so, this
        actor stops as on a commit's conflict, and the table is loaded
        again with everyone re-attached (``w`` too); a version the stored
        log does not have is the client's mistake, and only costs a read."""
        row = await self.deps.log.get_table(self.id)
        if row is not None and row.version > self.model.version:
            self.watchers[w] = None  # told to re-attach, with the others
            raise VersionConflict(f"table {self.id} is behind its stored log")

    def _detach(self, w: Watcher) -> None:
        if w not in self.watchers:
            return
        before = self._connected()
        del self.watchers[w]
        self._presence(before)
        if not self.watchers:
            # The linger of a finished table, or the expiry of a waiting
            # room, counts from now.
            self._idle_since = self.deps.clock.monotonic()

    def _presence(self, before: set[int]) -> None:
        after = self._connected()
        for seat in sorted(before ^ after):
            data = frames.encode(frames.Presence(table=self.id, seat=seat, connected=seat in after))
            for w in self.watchers:
                w.send(data)

    # ---------------------------------------------------------------- chat

    def _on_chat(self, w: Watcher, msg: p.Chat) -> None:
        self._chat.say(self.model, self.watchers, w, msg.text)
        self._ack(w, msg.id, None)

    # ------------------------------------------------------------ messages

    def _users(self) -> list[str]:
        return [w.user_id for w in self.watchers]

    def _connected(self) -> set[int]:
        return frames.connected_seats(self.model, self._users())

    def _sync(self, w: Watcher, last_version: int | None) -> bytes:
        m = self.model
        events = self._buffer.since(last_version, m.version)
        frame = frames.sync(m, w.user_id, self._users(), events, self.turn.shown(m))
        frame.chat = self._chat.entries(m, w.user_id)
        return frames.encode(frame)

    def _broadcast(self, steps: Sequence[frames.Step]) -> None:
        if not steps or not self.watchers:
            return
        # Intermediate positions of a command pass at once: only the last
        # event's state has a running turn.
        clock = frames.raw(self.turn.shown(self.model))
        last = len(steps) - 1
        for w in list(self.watchers):
            for i, step in enumerate(steps):
                w.send(step.frame(self.id, w.user_id, clock if i == last else frames.NULL))

    def _ack(self, w: Watcher, cmd_id: int | str, version: int | None) -> None:
        w.send(frames.encode(frames.Ack(id=cmd_id, version=version)))

    def _refuse(
        self, w: Watcher, cmd_id: int | str | None, e: CommandError, version: int | None = -1
    ) -> None:
        self.deps.metrics.ws_errors.labels(e.code).inc()
        w.send(frames.refusal(cmd_id, e, self.model.version if version == -1 else version))
