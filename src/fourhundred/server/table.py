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

The actor depends only on small interfaces (:class:`TableLog` for storage,
:class:`Watcher` for connections, ``Clock``, ``BotRunner``), so one process
and several run the same actor: a remote watcher is a :class:`Watcher` whose
``send`` goes to another process, and the store's commit is guarded by the
table's version.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

import msgspec

from fourhundred.bots import BOTS
from fourhundred.engine import Action, view_for
from fourhundred.store import Commit, StoredEvent, User, VersionConflict

from . import frames
from . import protocol as p
from .botpool import BotFailed, BotRunner
from .chat import ChatRoom
from .clock import Clock
from .config import ServerConfig
from .decide import (
    SERVER,
    BotMove,
    Command,
    Expire,
    Facts,
    Person,
    Server,
    Start,
    TurnTimeout,
    decide,
)
from .errors import CommandError
from .events import ACTION_EVENTS, ROOM_EVENTS, Event, Player, from_stored
from .logs import get_logger
from .metrics import Metrics
from .persist import commit_for, deadline_after
from .ratings import display
from .room import TableModel

__all__ = ["MailKind", "TableActor", "TableDeps", "TableLog", "Watcher"]

log = get_logger("fourhundred.table")

_RNG: Final = secrets.SystemRandom()


class Watcher(Protocol):
    """A connection attached to a table, as the actor sees it."""

    user_id: str
    user_name: str

    def send(self, data: bytes) -> None:
        """Queue one frame for this connection (never blocks)."""
        ...


class TableLog(Protocol):
    """What the actor needs from storage."""

    async def commit(self, c: Commit) -> None: ...

    async def get_users(self, user_ids: Iterable[str]) -> dict[str, User]: ...

    async def seated_table(self, user_id: str) -> str | None: ...


@dataclass(slots=True)
class TableDeps:
    log: TableLog
    clock: Clock
    bots: BotRunner
    metrics: Metrics
    config: ServerConfig
    mutes: Callable[[str], Collection[str]] = lambda _user: ()
    """The users a user has muted."""
    on_stop: Callable[[TableActor], None] = lambda _actor: None


MailKind = Literal["cmd", "join", "detach", "bot"]


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
        self._deadline: float | None = None
        self.deadline_ms: int | None = None
        if remaining_ms is not None and model.in_play:
            self._set_deadline(remaining_ms)
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_version = -1
        self._task: asyncio.Task[None] | None = None
        self._chat = ChatRoom(model.id)
        self._ratings: dict[str, tuple[float, float]] = {}
        """(mu, sigma) of the people seated here, fetched when first needed."""
        self._idle_since = deps.clock.monotonic()
        self.stopped = False

    # ----------------------------------------------------------- lifecycle

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        """Stop the task (the server is shutting down); the state is already stored."""
        self.stopped = True
        self._wake.set()
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
    def finished(self) -> bool:
        return self.model.finished

    def summary(self) -> dict[str, Any]:
        """The live table summary (``room``, with a Private table's invite)."""
        return frames.room(self.model, self._users())

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
        except Exception:
            log.exception("table_actor_crashed", table=self.id)
        finally:
            self.stopped = True
            self.deps.on_stop(self)

    async def _tick(self) -> float | None:
        """Act on the clock (the turn timer, an abandoned room, the linger of
        a finished table) and say how long to sleep until it next matters."""
        now = self.deps.clock.monotonic()
        idle = not self.watchers and not self._mail
        if self._deadline is not None:
            if now < self._deadline:
                return self._deadline - now
            self._deadline = None
            await self._server_act(TurnTimeout(), retry_s=1.0)
        elif self.finished:
            linger = self.deps.config.finished_linger_s
            if not idle or now - self._idle_since < linger:
                return linger
            self.stopped = True
        elif self.model.status == "waiting" and idle:
            expiry = self.deps.config.waiting_expiry_s
            if now - self._idle_since < expiry:
                return self._idle_since + expiry - now
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
        events = decide(self.model, who, cmd, await self._facts(who, cmd))
        if events:
            await self._commit(events, w, cmd_id, t0)
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
                self._deadline = self.deps.clock.monotonic() + retry_s
            return False

    async def _facts(self, who: Person | Server, cmd: Command) -> Facts:
        m = self.model
        sitter = elsewhere = None
        store = self.deps.log
        want = set(m.user_ids()) if m.status == "playing" else set()
        if isinstance(cmd, p.Sit) and isinstance(who, Person):
            elsewhere = await store.seated_table(who.user_id)
            want.add(who.user_id)
        missing = want - self._ratings.keys()
        if missing:
            users = await store.get_users(missing)
            self._ratings.update({u.id: (u.mu, u.sigma) for u in users.values()})
            if isinstance(cmd, p.Sit) and isinstance(who, Person):
                u = users.get(who.user_id)
                guest = u is None or u.guest
                rating = None if u is None or u.guest else display(u.mu)
                sitter = Player(id=who.user_id, name=who.name, guest=guest, rating=rating)
        return Facts(
            rng=_RNG,
            bot=self.deps.config.bot,
            bots=BOTS.keys(),
            ratings=self._ratings,
            sitter=sitter,
            elsewhere=elsewhere,
        )

    # -------------------------------------------------------------- commit

    async def _commit(
        self,
        events: Sequence[Event],
        w: Watcher | None = None,
        cmd_id: int | str | None = None,
        t0: float | None = None,
    ) -> None:
        """Store ``events``, then make them the table's state and tell everyone."""
        now_ms = self.deps.clock.now_ms()
        users = self._users()
        new = self.model.copy()
        steps: list[frames.Step] = []
        publics: list[msgspec.Raw] = []
        for e in events:
            new.apply(e)
            public = frames.raw(e.public())
            publics.append(public)
            if users:
                same = steps[-1] if steps and not isinstance(e, ROOM_EVENTS) else None
                steps.append(frames.Step(new, public, users, same))
        timer_ms = round(new.timer * 1000 * self.deps.config.timer_scale)
        deadline_ms = deadline_after(new, events, self.deadline_ms, now_ms, timer_ms)
        commit = commit_for(
            self.model,
            new,
            events,
            now_ms=now_ms,
            deadline_ms=deadline_ms,
            node=self.deps.config.node,
            watching=users,
            known=self._ratings,
        )
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
        if deadline_ms is None:
            self._deadline = self.deadline_ms = None
        elif deadline_ms != self.deadline_ms:
            self._set_deadline(deadline_ms - now_ms, deadline_ms)
        for stored, public in zip(commit.events, publics, strict=True):
            self._buffer.add(stored.version, public)
        self._broadcast(steps)
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
        for e in events:
            if isinstance(e, ACTION_EVENTS):
                by = getattr(e, "by", "player")
                metrics.actions.labels(e.__struct_config__.tag, by).inc()
                if by == "timeout":
                    metrics.timeouts.inc()
        if t0 is not None:
            metrics.command_seconds.observe(self.deps.clock.monotonic() - t0)
        result = self.model.result
        if result is not None and not was_over:
            metrics.games_finished.labels(result.reason).inc()
            log.info("game_over", table=self.id, winner=result.winner, reason=result.reason)

    def _set_deadline(self, remaining_ms: int, deadline_ms: int | None = None) -> None:
        remaining_ms = max(0, remaining_ms)
        self._deadline = self.deps.clock.monotonic() + remaining_ms / 1000
        self.deadline_ms = (
            deadline_ms if deadline_ms is not None else self.deps.clock.now_ms() + remaining_ms
        )

    # ---------------------------------------------------------------- bots

    def _schedule_bot(self) -> None:
        m = self.model
        bot = m.bot_for_turn()
        if bot is None or m.game is None or self.stopped or self._bot_version == m.version:
            return
        self._bot_version = m.version
        view = view_for(m.game, m.game.turn)
        self._bot_task = asyncio.create_task(self._think(m.version, bot, view))

    async def _think(self, version: int, bot: str, view: Any) -> None:
        t0 = self.deps.clock.monotonic()
        action: Action | None
        try:
            action = await self.deps.bots.choose(bot, view, secrets.randbits(32))
        except BotFailed as e:
            log.warning("bot_failed", table=self.id, bot=bot, error=str(e))
            action = None
        elapsed = self.deps.clock.monotonic() - t0
        self.deps.metrics.bot_seconds.observe(elapsed)
        delay = self.deps.config.bot_delay_s - elapsed
        if delay > 0:
            await asyncio.sleep(delay)
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
        player = self.model.role_seat(w.user_id) is not None
        clock = self.deps.clock
        line = self._chat.post(
            w.user_id,
            w.user_name,
            msg.text,
            player=player,
            now=clock.monotonic(),
            now_ms=clock.now_ms(),
        )
        data = frames.encode(line)
        for r in self.watchers:
            reader_plays = self.model.role_seat(r.user_id) is not None
            if self._chat.reaches(line, player=reader_plays, muted=self.deps.mutes(r.user_id)):
                r.send(data)
        self._ack(w, msg.id, None)

    # ------------------------------------------------------------ messages

    def _users(self) -> list[str]:
        return [w.user_id for w in self.watchers]

    def _connected(self) -> set[int]:
        return frames.connected_seats(self.model, self._users())

    def _clock(self) -> dict[str, Any] | None:
        m = self.model
        if self._deadline is None or not m.in_play or m.game is None:
            return None
        remaining = max(0, round((self._deadline - self.deps.clock.monotonic()) * 1000))
        return {
            "seat": m.game.turn,
            "timer": m.timer,
            "remaining_ms": remaining,
            "deadline_ms": self.deadline_ms,
        }

    def _sync(self, w: Watcher, last_version: int | None) -> bytes:
        m = self.model
        player = m.role_seat(w.user_id) is not None
        chat = self._chat.history(player=player, muted=self.deps.mutes(w.user_id))
        events = self._buffer.since(last_version, m.version)
        return frames.sync(
            m, w.user_id, users=self._users(), events=events, clock=self._clock(), chat=chat
        )

    def _broadcast(self, steps: Sequence[frames.Step]) -> None:
        if not steps or not self.watchers:
            return
        # Intermediate positions of a command pass at once: only the last
        # event's state has a running turn.
        clock = frames.raw(self._clock())
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


class EventBuffer:
    """The last public events of a table, for clients that come back: a
    ``catchup`` from their last version instead of a whole ``snapshot``.

    Kept lean, since every live table holds one: the encoded events only (no
    version beside each: they are consecutive, ending at ``last``).

    >>> b = EventBuffer(2)
    >>> for v in (1, 2, 3):
    ...     b.add(v, msgspec.Raw(b'{"kind":"x"}'))
    >>> [v for v, _ in b.since(1, 3)], b.since(0, 3), b.since(3, 3)
    ([2, 3], None, [])
    """

    __slots__ = ("_events", "_last")

    def __init__(self, size: int) -> None:
        self._events: deque[bytes] = deque(maxlen=size)
        self._last = 0

    def add(self, version: int, public: msgspec.Raw) -> None:
        if version != self._last + 1:
            self._events.clear()
        self._events.append(bytes(public))
        self._last = version

    def add_stored(self, stored: StoredEvent) -> None:
        self.add(stored.version, frames.raw(from_stored(stored.kind, stored.data).public()))

    def since(self, last_version: int | None, version: int) -> list[tuple[int, msgspec.Raw]] | None:
        """The events after ``last_version`` (None: too old, or unknown)."""
        if not last_version or last_version > version:
            return None  # 0 (seen nothing) or a version the table never had
        if last_version == version:
            return []
        first = self._last - len(self._events) + 1
        if not self._events or self._last != version or first > last_version + 1:
            return None
        skip = last_version + 1 - first
        return [(first + i, msgspec.Raw(e)) for i, e in enumerate(self._events) if i >= skip]
