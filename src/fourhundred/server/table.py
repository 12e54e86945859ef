"""The table actor: one asyncio task per table owns its state, its turn timer
and its event log, and every command reaches it through its queue, so two
commands never race.

A command is judged on a copy of the table (:class:`Tx`): the engine's
checked path refuses anything illegal and nothing changes. An accepted
command's events are written to the store **before** anyone hears of them;
only then does the copy become the table, the sender get its ``ack`` and
every watcher its ``event`` (with the view after that event, built by
``view_at`` for that watcher's seat, or for a spectator).

The actor depends only on small interfaces (:class:`TableLog` for storage,
:class:`Watcher` for connections, ``Clock``, ``BotRunner``), so that several
processes can later share tables (issue 6): a remote watcher is a
:class:`Watcher` whose ``send`` publishes to Redis, and the store's commit is
already guarded by the table's version.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import msgspec

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    REDEAL,
    TURN_TIMERS,
    Action,
    HandSummary,
    IllegalAction,
    InvalidSettings,
    Phase,
    bid_action,
    cards_of,
    deal_masks,
    parse_card,
    preset,
    record_from_state,
    view_for,
)
from fourhundred.engine.steps import view_at
from fourhundred.store import Commit, GamePlayer, StoredEvent, User, UserUpdate, VersionConflict

from . import protocol as p
from .botpool import BotFailed, BotRunner
from .clock import Clock
from .config import ServerConfig
from .errors import CommandError, from_engine
from .logs import get_logger
from .metrics import Metrics
from .ratelimit import TokenBucket
from .ratings import display, leaver_loss, rate_game
from .room import ACTION_KINDS, TableModel, public_event

__all__ = ["TableActor", "TableDeps", "TableLog", "Tx", "Watcher", "hand_summary"]

log = get_logger("fourhundred.table")

_MOVE_KINDS: Final = ACTION_KINDS | {"deal", "hand_over"}
"""Events that leave the room (and so the lobby's row) as it was."""
SUBSTITUTE_AFTER: Final = 3
"""Consecutive timeouts after which a bot takes the seat."""
CHAT_HISTORY: Final = 50


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


class Tx:
    """A transaction: events applied to a copy of the table, to be committed
    together. ``add`` raises (the engine's ``IllegalAction``, ``ValueError``)
    and the table is untouched when an event does not fit."""

    def __init__(self, model: TableModel, now_ms: int) -> None:
        self.model = model.copy()
        self.now_ms = now_ms
        self.events: list[StoredEvent] = []
        self.players: list[GamePlayer] = []
        self.users: list[UserUpdate] = []
        self.moved = False
        """A move was made or a hand dealt: the turn timer starts again."""
        self.seats_changed = False

    def add(self, kind: str, data: dict[str, Any]) -> StoredEvent:
        ev = StoredEvent(self.model.version + 1, kind, data, self.now_ms)
        self.model.apply(ev)
        self.events.append(ev)
        if kind in ACTION_KINDS or kind in ("deal", "started"):
            self.moved = True
        if kind in ("seated", "left", "moved", "removed", "substituted", "reclaimed", "closed"):
            self.seats_changed = True
        return ev


def hand_summary(h: HandSummary, last_trick: dict[str, Any] | None) -> dict[str, Any]:
    """The public line of the score sheet for a finished hand (no cards but
    the last trick, which everyone saw)."""
    bids: list[int | None] = [None, None, None, None]
    for i, b in enumerate(h.bids):
        bids[(h.dealer + 1 + i) & 3] = b
    return {
        "hand_index": h.hand_index,
        "dealer": h.dealer,
        "bids": bids,
        "tricks": list(h.tricks),
        "deltas": list(h.deltas),
        "scores": list(h.scores),
        "thrown_in": h.thrown_in,
        "redeal_request": h.redeal_request,
        "last_trick": last_trick if h.plays else None,
    }


def _clean_text(text: str) -> str:
    # Control and format characters (bidi overrides, zero-width tricks) out.
    return "".join(c for c in text if unicodedata.category(c)[0] != "C" or c == " ").strip()


@dataclass(slots=True)
class _Item:
    kind: str
    watcher: Watcher | None = None
    msg: Any = None
    t0: float = 0.0
    version: int = 0
    action: Action | None = None
    via_invite: bool = False
    resync: bool = False
    """A join the server made for a socket whose table moved to this
    process: answered by ``snapshot``/``catchup`` alone (no ``ack``)."""
    done: asyncio.Future[Any] | None = field(default=None)


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
        self._queue: deque[_Item] = deque()
        self._wake = asyncio.Event()
        # Recent public events, encoded once, for clients that reconnect.
        self._buffer: deque[tuple[int, bytes]] = deque(maxlen=deps.config.event_buffer)
        for ev in recent[-deps.config.event_buffer :]:
            self._remember(ev)
        self._deadline: float | None = None
        self.deadline_ms: int | None = None
        if remaining_ms is not None and model.in_play:
            self._set_deadline(remaining_ms)
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_version = -1
        self._task: asyncio.Task[None] | None = None
        self._chat: dict[str, deque[dict[str, Any]]] = {
            "players": deque(maxlen=CHAT_HISTORY),
            "spectators": deque(maxlen=CHAT_HISTORY),
        }
        self._chat_buckets: dict[str, TokenBucket] = {}
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

    def submit(self, kind: str, watcher: Watcher | None = None, msg: Any = None, **kw: Any) -> None:
        """Queue a command for the actor (never blocks)."""
        self._queue.append(_Item(kind, watcher, msg, **kw))
        self._wake.set()

    def call(self, kind: str, **kw: Any) -> asyncio.Future[Any]:
        """Queue an internal request and get its answer as a future."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.submit(kind, done=fut, **kw)
        return fut

    @property
    def finished(self) -> bool:
        return self.model.status in ("over", "closed")

    async def _run(self) -> None:
        try:
            await self._boot()
            while not self.stopped:
                self._wake.clear()
                while self._queue and not self.stopped:
                    item = self._queue.popleft()
                    try:
                        await self._handle(item)
                    except Exception:
                        log.exception("table_command_failed", table=self.id, kind=item.kind)
                        if item.done is not None and not item.done.done():
                            item.done.set_exception(RuntimeError("table command failed"))
                now = self.deps.clock.monotonic()
                if self._deadline is not None and now >= self._deadline:
                    await self._on_timeout()
                    continue
                if (
                    self.finished
                    and not self.watchers
                    and not self._queue
                    and now - self._idle_since >= self.deps.config.finished_linger_s
                ):
                    break
                if self._abandoned(now):
                    await self._expire()
                    continue
                timeout = None
                if self._deadline is not None:
                    timeout = max(0.0, self._deadline - now)
                elif self.finished:
                    timeout = self.deps.config.finished_linger_s
                elif self.model.status == "waiting" and not self.watchers:
                    timeout = max(0.0, self._idle_since + self.deps.config.waiting_expiry_s - now)
                if self._queue:
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

    def _abandoned(self, now: float) -> bool:
        """A waiting room nobody has had open for ``waiting_expiry_s``."""
        return (
            self.model.status == "waiting"
            and not self.watchers
            and not self._queue
            and now - self._idle_since >= self.deps.config.waiting_expiry_s
        )

    async def _expire(self) -> None:
        tx = Tx(self.model, self.deps.clock.now_ms())
        tx.add("closed", {"reason": "expired"})
        # Closed, or (the store unavailable) tried again after another wait.
        self._idle_since = self.deps.clock.monotonic()
        try:
            await self._commit(tx)
        except CommandError as e:
            log.warning("expiry_not_saved", table=self.id, error=e.message)
            return
        log.info("waiting_room_expired", table=self.id)

    async def _boot(self) -> None:
        # A Ranked table is created full and ready: it starts at once. A
        # table rebuilt mid-turn may owe a bot its move.
        if self.model.status == "waiting":
            tx = Tx(self.model, self.deps.clock.now_ms())
            self._maybe_start(tx)
            if tx.events:
                await self._settle(tx)
                await self._commit(tx)
        self._schedule_bot()

    # ------------------------------------------------------------ dispatch

    async def _handle(self, item: _Item) -> None:
        if item.kind == "cmd":
            await self._command(item)
        elif item.kind == "join":
            await self._join(item)
        elif item.kind == "detach":
            assert item.watcher is not None
            self._detach(item.watcher)
        elif item.kind == "bot":
            await self._bot_move(item)
        elif item.kind == "summary":
            assert item.done is not None
            item.done.set_result(self.summary())
        else:  # pragma: no cover - a programming error
            raise ValueError(f"unknown table item {item.kind!r}")

    async def _command(self, item: _Item) -> None:
        w, msg = item.watcher, item.msg
        assert w is not None
        if w not in self.watchers:
            self._error(w, msg.id, CommandError("not_attached", "join a table first"))
            return
        try:
            if isinstance(msg, p.Chat):
                self._on_chat(w, msg)
                return
            tx = Tx(self.model, self.deps.clock.now_ms())
            await self._decide(tx, w, msg)
            await self._settle(tx)
            if not tx.events:  # pragma: no cover - every command makes an event
                self._ack(w, msg.id, self.model.version)
                return
            await self._commit(tx, w, msg.id, item.t0)
        except CommandError as e:
            self._error(w, msg.id, e)
        except IllegalAction as e:
            self._error(w, msg.id, from_engine(e))

    # ------------------------------------------------------------ commands

    async def _decide(self, tx: Tx, w: Watcher, msg: Any) -> None:
        m = tx.model
        uid = w.user_id
        seat = self.role_seat(uid)
        if isinstance(msg, p.Bid | p.Play | p.Redeal):
            self._check_mover(seat, msg)
            assert seat is not None
            if isinstance(msg, p.Bid):
                try:
                    action = bid_action(msg.bid)
                except ValueError as e:
                    raise CommandError("illegal", f"bid {msg.bid}: {e}") from None
            elif isinstance(msg, p.Play):
                try:
                    action = parse_card(msg.card)
                except ValueError:
                    raise CommandError(
                        "illegal", f"{msg.card!r} is not a card (rank then suit, like 'QD')"
                    ) from None
            else:
                action = REDEAL
            self._add_move(tx, seat, action, "player")
        elif isinstance(msg, p.Sit):
            await self._sit(tx, uid, w.user_name, msg)
        elif isinstance(msg, p.Leave):
            await self._leave(tx, uid, seat)
        elif isinstance(msg, p.Ready):
            self._need_waiting(m, "ready")
            if seat is None:
                raise CommandError("not_seated", "only a seated player can be ready")
            tx.add("ready", {"seat": seat, "ready": msg.ready})
        elif isinstance(msg, p.Configure):
            self._configure(tx, uid, msg)
        elif isinstance(msg, p.Move):
            self._need_host(m, uid, "move players")
            self._need_waiting(m, "move players")
            if msg.from_ == msg.to:
                raise CommandError("not_allowed", "move: `from` and `to` are the same seat")
            tx.add("moved", {"from": msg.from_, "to": msg.to})
        elif isinstance(msg, p.AddBot):
            self._need_host(m, uid, "add a bot")
            self._need_waiting(m, "add a bot")
            if m.kind == "ranked":
                raise CommandError("not_allowed", "no bots at a Ranked table")
            from fourhundred.bots import BOTS

            bot = msg.bot or self.deps.config.bot
            if bot not in BOTS:
                raise CommandError(
                    "not_allowed", f"unknown bot {bot!r} (known: {', '.join(sorted(BOTS))})"
                )
            if not m.seats[msg.seat].empty:
                raise CommandError("not_allowed", f"seat {msg.seat} is taken")
            tx.add("bot_added", {"seat": msg.seat, "bot": bot})
        elif isinstance(msg, p.Remove):
            self._need_host(m, uid, "remove a player")
            self._need_waiting(m, "remove a player")
            s = m.seats[msg.seat]
            if s.empty:
                raise CommandError("not_allowed", f"seat {msg.seat} is empty")
            if s.user is not None and s.user.id == uid:
                raise CommandError("not_allowed", "the host cannot remove themselves: use leave")
            tx.add("removed", {"seat": msg.seat, "user": None if s.user is None else s.user.id})
        elif isinstance(msg, p.Reclaim):
            own = m.seat_of(uid)
            if own is None:
                raise CommandError("not_seated", "you have no seat at this table")
            if not m.seats[own].substitute or m.status != "playing":
                raise CommandError("not_allowed", "no bot is playing your seat")
            tx.add("reclaimed", {"seat": own, "user": uid})
        else:  # pragma: no cover - the socket layer sends only table commands
            raise CommandError("unknown_type", f"{type(msg).__name__} is not a table command")
        if m.status == "waiting":
            self._maybe_start(tx)

    def _check_mover(self, seat: int | None, msg: p.Bid | p.Play | p.Redeal) -> None:
        m = self.model
        if seat is None:
            raise CommandError("not_seated", "spectators cannot play: you have no seat here")
        if msg.seat is not None and msg.seat != seat:
            raise CommandError("not_your_seat", f"you sit at seat {seat}, not seat {msg.seat}")
        if m.status != "playing":
            raise CommandError(
                "wrong_phase",
                "the game has not started" if m.status == "waiting" else "the game is over",
            )
        if m.seats[seat].substitute:
            raise CommandError("not_allowed", "a bot is playing your seat: send reclaim first")
        if msg.version is not None and msg.version != m.version:
            raise CommandError(
                "stale",
                f"you acted on version {msg.version} but the table is at version {m.version}",
            )

    def _need_waiting(self, m: TableModel, what: str) -> None:
        if m.status != "waiting":
            raise CommandError("not_allowed", f"cannot {what}: the game has already started")

    def _need_host(self, m: TableModel, uid: str, what: str) -> None:
        if m.host != uid:
            raise CommandError("not_host", f"only the host can {what}")

    async def _sit(self, tx: Tx, uid: str, name: str, msg: p.Sit) -> None:
        m = tx.model
        self._need_waiting(m, "sit down")
        if m.kind == "ranked":
            raise CommandError("not_allowed", "Ranked seats are given by the queue")
        own = m.seat_of(uid)
        if own is not None:
            raise CommandError("not_allowed", f"you already sit at seat {own}")
        elsewhere = await self.deps.log.seated_table(uid)
        if elsewhere is not None and elsewhere != self.id:
            raise CommandError(
                "not_allowed", f"you are seated at table {elsewhere}: leave it first"
            )
        if msg.seat is None:
            free = [i for i, s in enumerate(m.seats) if s.empty]
            if not free:
                raise CommandError("not_allowed", "the table is full")
            seat = free[0]
        else:
            seat = msg.seat
            if not m.seats[seat].empty:
                raise CommandError("not_allowed", f"seat {seat} is taken")
        users = await self.deps.log.get_users([uid])
        u = users.get(uid)
        player = {
            "id": uid,
            "name": name,
            "guest": u.guest if u else True,
            "rating": None if u is None or u.guest else display(u.mu),
        }
        tx.add("seated", {"seat": seat, "user": player})

    async def _leave(self, tx: Tx, uid: str, seat: int | None) -> None:
        m = tx.model
        if seat is None:
            raise CommandError("not_seated", "you have no seat to leave")
        if m.status == "waiting":
            tx.add("left", {"seat": seat, "user": uid})
            if m.host == uid:
                humans = [s.user.id for s in m.seats if s.user is not None]
                if humans:
                    tx.add("host", {"user": humans[0]})
                else:
                    tx.add("closed", {"reason": "left"})
        elif m.status == "playing":
            bot = m.seats[seat].bot or self.deps.config.bot
            tx.add("substituted", {"seat": seat, "user": uid, "bot": bot, "reason": "left"})
            await self._charge(tx, seat, "left")
        else:
            raise CommandError("not_allowed", "the game is over")

    def _configure(self, tx: Tx, uid: str, msg: p.Configure) -> None:
        m = tx.model
        self._need_host(m, uid, "change the settings")
        self._need_waiting(m, "change the settings")
        if m.kind == "ranked":
            raise CommandError("not_allowed", "Ranked tables always use the standard preset")
        name = m.preset if msg.preset is None else msg.preset
        try:
            base = m.settings if msg.preset is None else preset(msg.preset)
            settings = base.replace(**(msg.settings or {}))
        except InvalidSettings as e:
            raise CommandError("bad_setting", str(e)) from None
        timer = m.timer if msg.timer is None else msg.timer
        if timer not in TURN_TIMERS:
            raise CommandError(
                "bad_setting",
                f"timer must be one of {', '.join(map(str, TURN_TIMERS))} seconds, not {timer}",
            )
        tx.add("configured", {"preset": name, "settings": settings.to_dict(), "timer": timer})

    # --------------------------------------------------------------- moves

    def _add_move(self, tx: Tx, seat: int, action: Action, by: str) -> None:
        g = tx.model.game
        assert g is not None
        if action == REDEAL:
            if by != "player":  # pragma: no cover - bots and timers never ask
                raise CommandError("not_allowed", "only a player asks for a new deal")
            if not g.can_redeal(seat):
                g.request_redeal(seat)  # raises the engine's reason
            tx.add("redeal", {"seat": seat})
        elif BID_BASE < action < REDEAL:
            if g.phase is Phase.BID and seat == g.turn:
                low, high = g.bid_range()
                n = action - BID_BASE
                if not low <= n <= high:
                    g.bid(n, seat)  # raises IllegalBid naming the range
            tx.add("bid", {"seat": seat, "bid": action - BID_BASE, "by": by})
        else:
            data: dict[str, Any] = {
                "seat": seat,
                "card": CARD_NAMES[action],
                "by": by,
                "trick_winner": None,
            }
            tx.add("play", data)
            if not g.current_trick:
                data["trick_winner"] = (
                    tx.model.last_trick["winner"] if tx.model.last_trick else None
                )
        self.deps.metrics.actions.labels(
            "card" if action < BID_BASE else "redeal" if action == REDEAL else "bid", by
        ).inc()

    def _maybe_start(self, tx: Tx) -> None:
        m = tx.model
        if m.status != "waiting" or any(s.empty for s in m.seats):
            return
        if not all(s.ready or s.bot is not None for s in m.seats):
            return
        rated = m.kind == "ranked" and all(s.bot is None for s in m.seats)
        tx.add("started", {"first_dealer": secrets.randbelow(4), "rated": rated})

    async def _settle(self, tx: Tx) -> None:
        """Add what follows from the moves: finished hands, the next deal, the
        end of the game."""
        m = tx.model
        g = m.game
        if m.status != "playing" or g is None:
            return
        while len(m.sheet) < len(g.history):
            tx.add("hand_over", hand_summary(g.history[len(m.sheet)], m.last_trick))
        if g.phase is Phase.DEAL:
            masks = deal_masks(secrets.SystemRandom())
            tx.add(
                "deal",
                {
                    "hand_index": g.hand_index,
                    "dealer": g.dealer,
                    "cards": [[CARD_NAMES[c] for c in cards_of(h)] for h in masks],
                },
            )
        if g.phase is Phase.OVER:
            await self._game_over(tx, "won")
        elif not any(s.user is not None and s.active for s in m.seats):
            await self._game_over(tx, "abandoned")

    async def _charge(self, tx: Tx, seat: int, reason: str) -> None:
        """A Ranked player who leaves (or is replaced after timeouts) takes a
        loss at once."""
        m = tx.model
        s = m.seats[seat]
        if m.kind != "ranked" or s.user is None or s.user.id in m.charged:
            return
        ids = [x.user.id for x in m.seats if x.user is not None]
        if len(ids) != 4:  # pragma: no cover - Ranked tables seat four people
            return
        users = await self.deps.log.get_users(ids)
        by_seat = [(users[i].mu, users[i].sigma) for i in ids]
        mu, sigma = leaver_loss(by_seat, seat)
        uid = s.user.id
        tx.add(
            "rating",
            {
                "user": uid,
                "before": display(users[uid].mu),
                "after": display(mu),
                "reason": reason,
                "mu": mu,
                "sigma": sigma,
            },
        )
        tx.users.append(UserUpdate(uid, mu=mu, sigma=sigma, rated_games=1))

    async def _game_over(self, tx: Tx, reason: str) -> None:
        m = tx.model
        g = m.game
        assert g is not None
        winner = g.winner if reason == "won" else None
        ids = [s.user.id if s.user is not None else None for s in m.seats]
        users = await self.deps.log.get_users([i for i in ids if i is not None])
        rated = m.rated and winner is not None and all(i in users for i in ids)
        new: list[tuple[float, float]] | None = None
        ratings: list[dict[str, Any]] | None = None
        if rated and winner is not None:
            by_seat = [(users[i].mu, users[i].sigma) for i in ids if i is not None]
            new = rate_game(by_seat, winner)
            ratings = [
                {
                    "seat": k,
                    "user": ids[k],
                    "before": display(by_seat[k][0]),
                    "after": display(new[k][0]),
                }
                for k in range(4)
            ]
        bids = [0, 0, 0, 0]
        made = [0, 0, 0, 0]
        for h in g.history:
            if h.thrown_in:
                continue
            for i, b in enumerate(h.bids):
                s_ = (h.dealer + 1 + i) & 3
                bids[s_] += 1
                made[s_] += h.tricks[s_] >= b
        for k, s in enumerate(m.seats):
            uid = ids[k]
            before = after = None
            if ratings is not None:
                before, after = ratings[k]["before"], ratings[k]["after"]
            elif uid is not None and uid in m.charged:
                before, after = m.charged[uid]
            won = winner is not None and (k & 1) == winner
            tx.players.append(
                GamePlayer(
                    table_id=m.id,
                    seat=k,
                    user_id=uid,
                    bot=s.bot,
                    score=g.scores[k],
                    won=won,
                    rating_before=before,
                    rating_after=after,
                    bids_made=made[k],
                    bids=bids[k],
                    finished_ms=tx.now_ms,
                )
            )
            if uid is not None and uid in users:
                tx.users.append(
                    UserUpdate(
                        uid,
                        mu=None if new is None else new[k][0],
                        sigma=None if new is None else new[k][1],
                        rated_games=1 if new is not None else 0,
                        games=1,
                        wins=int(won),
                        bids_made=made[k],
                        bids=bids[k],
                    )
                )
        tx.add(
            "game_over",
            {
                "winner": winner,
                "scores": list(g.scores),
                "reason": reason,
                "rated": rated,
                "ratings": ratings,
            },
        )

    # -------------------------------------------------------------- commit

    async def _commit(
        self,
        tx: Tx,
        w: Watcher | None = None,
        cmd_id: int | str | None = None,
        t0: float | None = None,
    ) -> None:
        """Store ``tx``, then make it the table's state and tell everyone."""
        m = tx.model
        now_ms = tx.now_ms
        timer_ms = round(m.timer * 1000 * self.deps.config.timer_scale)
        deadline_ms = self.deadline_ms
        if not m.in_play:
            deadline_ms = None
        elif tx.moved or deadline_ms is None:
            deadline_ms = now_ms + timer_ms
        fields: dict[str, Any] = {
            "updated_ms": now_ms,
            "deadline_ms": deadline_ms,
            "owner": self.deps.config.node,
        }
        if any(ev.kind not in _MOVE_KINDS for ev in tx.events):
            # The lobby's row changes with the room, not with every card.
            fields.update(
                status=m.status,
                host=m.host,
                summary=m.summary(self._connected(m), self._spectators(m)),
                open_seats=m.open_seats,
                rated=m.rated,
            )
        if m.status == "over" and self.model.status != "over":
            g = m.game
            assert g is not None and m.result is not None
            fields.update(
                finished_ms=now_ms,
                winner=m.result["winner"],
                reason=m.result["reason"],
                scores=list(g.scores),
                hands=len(g.history),
                record=record_from_state(g).to_dict(),
            )
        try:
            await self.deps.log.commit(
                Commit(
                    table_id=self.id,
                    expect_version=self.model.version,
                    events=tx.events,
                    fields=fields,
                    seats=m.seat_rows() if tx.seats_changed else None,
                    players=tx.players,
                    users=tx.users,
                )
            )
        except VersionConflict:
            raise
        except Exception as e:
            log.warning("commit_failed", table=self.id, error=repr(e))
            raise CommandError(
                "unavailable", "the server could not save this: nothing changed, try again"
            ) from None
        before = self.model
        old_status = before.status
        self.model = m
        if deadline_ms is None:
            self._deadline = None
            self.deadline_ms = None
        elif deadline_ms != self.deadline_ms:
            self._set_deadline(deadline_ms - now_ms, deadline_ms)
        for ev in tx.events:
            self._remember(ev)
        # Events first, then the ack: when a client reads its ack, its state
        # already holds everything the command caused.
        self._broadcast(tx.events, before)
        if w is not None and cmd_id is not None:
            self._ack(w, cmd_id, tx.events[0].version)
        if t0 is not None:
            self.deps.metrics.command_seconds.observe(self.deps.clock.monotonic() - t0)
        if m.status == "over" and old_status != "over":
            self.deps.metrics.games_finished.labels(m.result["reason"] if m.result else "").inc()
            log.info(
                "game_over",
                table=self.id,
                winner=m.result and m.result["winner"],
                reason=m.result and m.result["reason"],
            )
        if self.finished:
            self._idle_since = self.deps.clock.monotonic()
        self._schedule_bot()

    def _set_deadline(self, remaining_ms: int, deadline_ms: int | None = None) -> None:
        remaining_ms = max(0, remaining_ms)
        self._deadline = self.deps.clock.monotonic() + remaining_ms / 1000
        self.deadline_ms = (
            deadline_ms if deadline_ms is not None else self.deps.clock.now_ms() + remaining_ms
        )

    def _remember(self, ev: StoredEvent) -> None:
        self._buffer.append((ev.version, p.encode(public_event(ev.kind, ev.data))))

    # --------------------------------------------------------- timers, bots

    async def _on_timeout(self) -> None:
        self._deadline = None
        m = self.model
        if not m.in_play or m.game is None:
            return
        g = m.game
        seat = g.turn
        s = m.seats[seat]
        by = "bot" if s.bot is not None else "timeout"
        tx = Tx(m, self.deps.clock.now_ms())
        try:
            self._add_move(tx, seat, g.timeout_action(), by)
            if by == "timeout":
                self.deps.metrics.timeouts.inc()
                ts = tx.model.seats[seat]
                if ts.timeouts >= SUBSTITUTE_AFTER and ts.user is not None:
                    tx.add(
                        "substituted",
                        {
                            "seat": seat,
                            "user": ts.user.id,
                            "bot": self.deps.config.bot,
                            "reason": "timeouts",
                        },
                    )
                    await self._charge(tx, seat, "timeouts")
            await self._settle(tx)
            await self._commit(tx)
        except CommandError as e:
            # The store is unavailable: try again shortly, the turn stays open.
            log.warning("timeout_not_saved", table=self.id, error=e.message)
            self._deadline = self.deps.clock.monotonic() + 1.0

    def _schedule_bot(self) -> None:
        m = self.model
        bot = m.bot_for_turn()
        if bot is None or m.game is None or self.stopped:
            return
        if self._bot_version == m.version:
            return
        self._bot_version = m.version
        seat = m.game.turn
        view = view_for(m.game, seat)
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

    async def _bot_move(self, item: _Item) -> None:
        m = self.model
        if item.version != m.version or m.bot_for_turn() is None or m.game is None:
            return  # a move for a position that has passed
        g = m.game
        seat = g.turn
        action = item.action
        legal = g.legal_actions()
        if action is None or action not in legal:
            action = g.timeout_action()
        tx = Tx(m, self.deps.clock.now_ms())
        try:
            self._add_move(tx, seat, action, "bot")
            await self._settle(tx)
            await self._commit(tx)
        except CommandError as e:
            log.warning("bot_move_not_saved", table=self.id, error=e.message)
            self._bot_version = -1
            self._deadline = self.deps.clock.monotonic() + 1.0

    # ------------------------------------------------------- join, detach

    async def _join(self, item: _Item) -> None:
        w, msg = item.watcher, item.msg
        assert w is not None
        m = self.model
        uid = w.user_id
        own = m.seat_of(uid)
        if m.kind == "private" and not item.via_invite and own is None:
            # Exactly the hub's answer for an id that does not exist (no
            # version either): a Private table's id must not be confirmable.
            self.deps.metrics.ws_errors.labels("not_found").inc()
            w.send(
                p.encode(
                    {
                        "type": "error",
                        "id": msg.id,
                        "code": "not_found",
                        "message": f"no table {self.id!r}",
                        "version": None,
                    }
                )
            )
            return
        before = self._connected(m)
        ack_version = m.version
        if own is not None and m.status == "playing" and m.seats[own].substitute:
            # Coming back is reclaiming the seat.
            tx = Tx(m, self.deps.clock.now_ms())
            tx.add("reclaimed", {"seat": own, "user": uid})
            try:
                await self._commit(tx)
            except CommandError as e:
                self._error(w, msg.id, e)
                return
            ack_version = tx.events[0].version
        self.watchers[w] = None
        w.send(self._sync(w, msg.last_version))
        if not item.resync:
            self._ack(w, msg.id, ack_version)
        self._presence(before)

    def _detach(self, w: Watcher) -> None:
        if w not in self.watchers:
            return
        before = self._connected(self.model)
        del self.watchers[w]
        self._presence(before)
        if not self.watchers:
            # The linger of a finished table, or the expiry of a waiting
            # room, counts from now.
            self._idle_since = self.deps.clock.monotonic()

    def _presence(self, before: set[int]) -> None:
        after = self._connected(self.model)
        for seat in sorted(before ^ after):
            data = p.encode(
                {"type": "presence", "table": self.id, "seat": seat, "connected": seat in after}
            )
            for w in self.watchers:
                w.send(data)

    # ----------------------------------------------------------------- chat

    def _on_chat(self, w: Watcher, msg: p.Chat) -> None:
        text = _clean_text(msg.text)
        if not 1 <= len(text) <= p.MAX_CHAT:
            raise CommandError("bad_message", f"chat text must be 1 to {p.MAX_CHAT} characters")
        now = self.deps.clock.monotonic()
        bucket = self._chat_buckets.get(w.user_id)
        if bucket is None:
            bucket = self._chat_buckets[w.user_id] = TokenBucket(0.5, 5, now)
        if not bucket.take(now):
            raise CommandError(
                "chat_rate_limited", "too many chat messages: at most 5 in 10 seconds"
            )
        channel = "players" if self.role_seat(w.user_id) is not None else "spectators"
        entry = {
            "table": self.id,
            "channel": channel,
            "from": {"id": w.user_id, "name": w.user_name},
            "text": text,
            "at_ms": self.deps.clock.now_ms(),
        }
        self._chat[channel].append(entry)
        data = p.encode({"type": "chat", **entry})
        for r in self.watchers:
            if channel == "spectators" and self.role_seat(r.user_id) is not None:
                continue  # players never read the spectators' channel
            if w.user_id in self.deps.mutes(r.user_id):
                continue
            r.send(data)
        self._ack(w, msg.id, None)

    def _chat_for(self, w: Watcher) -> list[dict[str, Any]]:
        muted = self.deps.mutes(w.user_id)
        entries = list(self._chat["players"])
        if self.role_seat(w.user_id) is None:
            entries += list(self._chat["spectators"])
            entries.sort(key=lambda e: e["at_ms"])
        return [e for e in entries if e["from"]["id"] not in muted]

    # ------------------------------------------------------------ messages

    def role_seat(self, user_id: str, m: TableModel | None = None) -> int | None:
        """The seat ``user_id`` plays from (None: a spectator). A player who
        left watches as a spectator until they reclaim the seat."""
        m = m or self.model
        for i, s in enumerate(m.seats):
            if s.user is not None and s.user.id == user_id and s.active:
                return i
        return None

    def _connected(self, m: TableModel) -> set[int]:
        out = set()
        for w in self.watchers:
            seat = self.role_seat(w.user_id, m)
            if seat is not None:
                out.add(seat)
        return out

    def _spectators(self, m: TableModel) -> int:
        return sum(1 for w in self.watchers if self.role_seat(w.user_id, m) is None)

    def summary(self, m: TableModel | None = None) -> dict[str, Any]:
        """The live table summary (``room``), of the table or of ``m``."""
        m = m or self.model
        room = m.summary(self._connected(m), self._spectators(m))
        if m.kind == "private":
            room["invite"] = m.invite
        return room

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

    def _view(self, seat: int | None, m: TableModel | None = None) -> dict[str, Any] | None:
        m = m or self.model
        g = m.game
        if g is None or m.status == "closed" or (g.phase is Phase.DEAL and not g.history):
            return None
        return view_at(g, seat).to_dict()

    def _you(self, w: Watcher, m: TableModel | None = None) -> dict[str, Any]:
        m = m or self.model
        seat = self.role_seat(w.user_id, m)
        return {
            "seat": seat,
            "role": "spectator" if seat is None else "player",
            "host": m.host == w.user_id,
        }

    def _sync(self, w: Watcher, last_version: int | None) -> bytes:
        m = self.model
        seat = self.role_seat(w.user_id)
        events: list[dict[str, Any]] | None = None
        if last_version is not None and last_version <= m.version:
            if last_version == m.version:
                events = []
            elif self._buffer and self._buffer[0][0] <= last_version + 1:
                events = [
                    {"version": v, "event": msgspec.Raw(raw)}
                    for v, raw in self._buffer
                    if v > last_version
                ]
        msg: dict[str, Any] = {
            "type": "snapshot" if events is None else "catchup",
            "table": self.id,
            "version": m.version,
        }
        if events is not None:
            msg["events"] = events
        msg.update(
            you=self._you(w),
            room=self.summary(),
            view=self._view(seat),
            clock=self._clock(),
            sheet=m.sheet,
            chat=self._chat_for(w),
        )
        return p.encode(msg)

    def _broadcast(self, events: Sequence[StoredEvent], before: TableModel) -> None:
        """Send each event with the state *after that event*: a command that
        ends a hand sends the last card's view, then the hand's end, then the
        next deal. ``before`` is the table as it was before the command."""
        if not self.watchers:
            return
        clock = self._clock()
        # One event (nearly every command): the state after it is the table's.
        step = before.copy() if len(events) > 1 else self.model
        for ev in events:
            if step is not self.model:
                step.apply(ev)
            self._send_event(ev, step, clock if step.in_play else None)

    def _send_event(self, ev: StoredEvent, m: TableModel, clock: dict[str, Any] | None) -> None:
        raw_room = msgspec.Raw(p.encode(self.summary(m)))
        raw_clock = msgspec.Raw(p.encode(clock))  # type: ignore[arg-type]
        pub = msgspec.Raw(p.encode(public_event(ev.kind, ev.data)))
        views: dict[int | None, msgspec.Raw] = {}
        for w in list(self.watchers):
            seat = self.role_seat(w.user_id, m)
            view = views.get(seat)
            if view is None:
                view = views[seat] = msgspec.Raw(p.encode(self._view(seat, m)))  # type: ignore[arg-type]
            w.send(
                p.encode(
                    {
                        "type": "event",
                        "table": self.id,
                        "version": ev.version,
                        "event": pub,
                        "you": msgspec.Raw(p.encode(self._you(w, m))),
                        "room": raw_room,
                        "view": view,
                        "clock": raw_clock,
                    }
                )
            )

    def _ack(self, w: Watcher, cmd_id: int | str, version: int | None) -> None:
        w.send(p.encode({"type": "ack", "id": cmd_id, "version": version}))

    def _error(self, w: Watcher, cmd_id: int | str | None, e: CommandError) -> None:
        self.deps.metrics.ws_errors.labels(e.code).inc()
        w.send(
            p.encode(
                {
                    "type": "error",
                    "id": cmd_id,
                    "code": e.code,
                    "message": e.message,
                    "version": self.model.version,
                }
            )
        )
