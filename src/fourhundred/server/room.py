"""A table's whole state as a fold over its event log.

:class:`TableModel` is rebuilt by applying the stored events in order, the
same way the table actor changes it live: :meth:`TableModel.apply` is the one
place a table changes, so a table rebuilt after a restart is exactly the one
that was running. Pure: no I/O, no clock, no asyncio.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    REDEAL,
    GameState,
    Phase,
    Settings,
    mask_of,
    parse_card,
    preset,
    team_of,
)
from fourhundred.store import StoredEvent

from . import events as ev
from . import rematch
from .botlevels import bot_level
from .events import Event, HandOver, LastTrick, Player, TableKind

__all__ = ["KINDS", "SeatState", "Status", "TableModel", "rebuild"]

KINDS: Final[tuple[TableKind, ...]] = ("private", "casual", "ranked", "tournament")

GameEvent = ev.Deal | ev.Bid | ev.Play | ev.Redeal | ev.HandOver | ev.HintUsed
GAME_EVENTS: Final = (ev.Deal, ev.Bid, ev.Play, ev.Redeal, ev.HandOver, ev.HintUsed)
SeatEvent = (
    ev.Seated | ev.Left | ev.Removed | ev.Ready | ev.Moved | ev.BotAdded | ev.Substituted
    | ev.Reclaimed
)  # fmt: skip
SEAT_EVENTS: Final = (
    ev.Seated, ev.Left, ev.Removed, ev.Ready, ev.Moved, ev.BotAdded, ev.Substituted, ev.Reclaimed,
)  # fmt: skip
REMATCH_EVENTS: Final = (
    ev.RematchOffered, ev.RematchAnswered, ev.RematchEnded, ev.RematchWithBots, ev.RematchOpened,
)  # fmt: skip
TableLevelEvent = (
    ev.Configured | ev.Host | ev.Closed | ev.Started | ev.Rating | ev.GameOver | ev.Created
)
Status = Literal["waiting", "playing", "over", "closed"]


@dataclass(slots=True)
class SeatState:
    user: Player | None = None
    bot: str | None = None
    """The bot playing this seat: host-added (``user`` None) or a substitute."""
    substitute: bool = False
    ready: bool = False
    active: bool = True
    """False once the seated player left the game (a bot plays on)."""
    timeouts: int = 0
    """Consecutive turns the timer played for this seat."""

    @property
    def empty(self) -> bool:
        return self.user is None and self.bot is None

    def holds(self, user_id: str) -> bool:
        return self.user is not None and self.user.id == user_id


class TableModel:
    """Room (seats, host, rules, timer) and game of one table."""

    __slots__ = (
        "charged",
        "created_ms",
        "game",
        "hints",
        "hints_used",
        "host",
        "id",
        "invite",
        "kind",
        "last_trick",
        "preset",
        "rated",
        "rematch",
        "result",
        "seats",
        "settings",
        "sheet",
        "start_by_ms",
        "status",
        "timer",
        "tournament",
        "version",
    )

    def __init__(self, table_id: str, created: ev.Created, created_ms: int) -> None:
        self.id = table_id
        self.kind: TableKind = created.table_kind
        self.tournament = created.tournament
        self.start_by_ms = created.start_by_ms
        self.invite = created.invite
        self.created_ms = created_ms
        self.host = created.host
        self.preset = created.preset
        self.settings = Settings.from_dict(created.settings)
        self.timer = created.timer
        self.hints = created.hints and created.table_kind != "ranked"
        """Whether seated players may ask for hints (never at Ranked tables)."""
        self.hints_used: set[tuple[int, int]] = set()
        """(hand index, seat) of each hand where that seat asked for a hint."""
        self.status: Status = "waiting"
        self.seats = [SeatState() for _ in range(4)]
        for seat, (player, ready) in enumerate(zip(created.seats, created.ready, strict=True)):
            if player is not None:
                self.seats[seat] = SeatState(user=player, ready=ready)
        for seat, bot in enumerate(created.bots or ()):
            if bot is not None:
                self.seats[seat] = SeatState(bot=bot, ready=True)
        self.game: GameState | None = None
        self.version = 1
        self.rated = False
        self.sheet: list[HandOver] = []
        self.charged: dict[str, tuple[int, int]] = {}
        """Ranked leavers already charged a loss: user -> (before, after)."""
        self.result: ev.GameOver | None = None
        self.last_trick: LastTrick | None = None
        self.rematch: rematch.Rematch | None = None

    def copy(self) -> TableModel:
        """An independent copy (a command is judged on one)."""
        new = TableModel.__new__(TableModel)
        # Spelled out: every command copies the table, and this is the
        # fastest way to copy a class with slots.
        new.id, new.kind, new.invite = self.id, self.kind, self.invite
        new.tournament, new.start_by_ms = self.tournament, self.start_by_ms
        new.created_ms, new.host, new.preset = self.created_ms, self.host, self.preset
        new.settings, new.timer, new.status = self.settings, self.timer, self.status
        new.version, new.rated, new.result = self.version, self.rated, self.result
        new.last_trick, new.hints = self.last_trick, self.hints
        new.hints_used = set(self.hints_used)
        new.seats = [replace(s) for s in self.seats]
        new.game = None if self.game is None else self.game.clone()
        new.sheet = list(self.sheet)
        new.charged = dict(self.charged)
        new.rematch = None if self.rematch is None else self.rematch.copy()
        return new

    # ----------------------------------------------------------- queries

    def seat_of(self, user_id: str) -> int | None:
        """The seat ``user_id`` holds (as player or as the owner of a
        substitute's seat)."""
        for i, s in enumerate(self.seats):
            if s.holds(user_id):
                return i
        return None

    def role_seat(self, user_id: str) -> int | None:
        """The seat ``user_id`` plays from (None: a spectator). A player who
        left watches as a spectator until they reclaim the seat."""
        for i, s in enumerate(self.seats):
            if s.active and s.holds(user_id):
                return i
        return None

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.empty) if self.status == "waiting" else 0

    @property
    def finished(self) -> bool:
        return self.status in ("over", "closed")

    @property
    def in_play(self) -> bool:
        return (
            self.status == "playing"
            and self.game is not None
            and self.game.phase in (Phase.BID, Phase.PLAY)
        )

    def bot_for_turn(self) -> str | None:
        """The bot that must act now, if the seat to act is a bot's."""
        if not self.in_play or self.game is None:
            return None
        return self.seats[self.game.turn].bot

    def user_ids(self) -> list[str]:
        return [s.user.id for s in self.seats if s.user is not None]

    def seat_rows(self) -> list[tuple[int, str, bool]]:
        """(seat, user, active) for every seat a person holds."""
        return [(i, s.user.id, s.active) for i, s in enumerate(self.seats) if s.user is not None]

    def summary(self, connected: Collection[int], spectators: int) -> dict[str, Any]:
        """The table summary of docs/protocol.md (the lobby row and ``room``)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "preset": self.preset,
            "settings": self.settings.to_dict(),
            "changes": self.settings.differences(preset(self.preset)),
            "timer": self.timer,
            "hints": self.hints,
            "seats": [
                {
                    "seat": i,
                    "team": team_of(i),
                    "user": None if s.user is None else _player_dict(s.user),
                    "bot": s.bot,
                    **bot_level(s.bot),
                    "substitute": s.substitute,
                    "ready": s.ready or (s.bot is not None and not s.substitute),
                    "connected": (s.bot is not None and s.user is None) or i in connected,
                }
                for i, s in enumerate(self.seats)
            ],
            "open_seats": self.open_seats,
            "host": self.host,
            "spectators": spectators,
            "rated": self.rated,
            "created_ms": self.created_ms,
        }

    # ------------------------------------------------------------ change

    def apply(self, event: Event) -> None:
        """Apply the next event of the log. Raises ``ValueError`` (an engine
        ``IllegalAction`` for a move) if the event does not fit; the model
        may then be half-changed, so callers apply to a :meth:`copy`."""
        if isinstance(event, GAME_EVENTS):
            self._apply_game(event)
        elif isinstance(event, SEAT_EVENTS):
            self._apply_seat(event)
        elif isinstance(event, REMATCH_EVENTS):
            rematch.apply(self, event)
        else:
            self._apply_table(event)
        self.version += 1

    def _apply_game(self, event: GameEvent) -> None:
        """The cards: deals, moves, finished hands."""
        match event:
            case ev.Deal(cards=cards):
                self._game().deal([mask_of([parse_card(c) for c in hand]) for hand in cards])
                self.last_trick = None
            case ev.Bid(seat=seat, bid=bid, by=by):
                self._game().apply(BID_BASE + bid, seat)
                self._moved(seat, by)
            case ev.Play(seat=seat, card=card, by=by):
                self._play(seat, parse_card(card))
                self._moved(seat, by)
            case ev.Redeal(seat=seat):
                self._game().apply(REDEAL, seat)
            case ev.HandOver():
                self.sheet.append(event)
            case ev.HintUsed(seat=seat, hand_index=hand):
                self.hints_used.add((hand, seat))

    def _apply_seat(self, event: SeatEvent) -> None:
        """Who sits where, and how."""
        seats = self.seats
        match event:
            case ev.Seated(seat=seat, user=user):
                if not seats[seat].empty:
                    raise ValueError(f"seat {seat} is taken")
                seats[seat] = SeatState(user=user)
            case ev.Left(seat=seat) | ev.Removed(seat=seat):
                seats[seat] = SeatState()
            case ev.Ready(seat=seat, ready=ready):
                seats[seat].ready = ready
            case ev.Moved(from_=a, to=b):
                seats[a], seats[b] = seats[b], seats[a]
            case ev.BotAdded(seat=seat, bot=bot):
                seats[seat] = SeatState(bot=bot, ready=True)
            case ev.Substituted(seat=seat, bot=bot, reason=reason):
                s = seats[seat]
                s.bot, s.substitute = bot, True
                if reason == "left":
                    s.active = False
                if self.kind == "ranked":
                    # A bot plays from now on: the game can no longer be rated.
                    self.rated = False
            case ev.Reclaimed(seat=seat):
                s = seats[seat]
                s.bot, s.substitute, s.active, s.timeouts = None, False, True, 0

    def _apply_table(self, event: TableLevelEvent) -> None:
        """The table as a whole: its rules, host, status and results."""
        match event:
            case ev.Configured():
                self.preset = event.preset
                self.settings = Settings.from_dict(event.settings)
                self.timer = event.timer
                self.hints = event.hints
                for s in self.seats:
                    s.ready = False
            case ev.Host(user=user):
                self.host = user
            case ev.Closed():
                self.status = "closed"
            case ev.Started(first_dealer=dealer, rated=rated):
                self.status = "playing"
                self.rated = rated
                self.game = GameState(self.settings, first_dealer=dealer)
            case ev.Rating(user=user, before=before, after=after):
                self.charged[user] = (before, after)
            case ev.GameOver():
                self.status = "over"
                self.result = event
            case ev.Created():
                raise ValueError("a table is created once, at version 1")

    def _game(self) -> GameState:
        if self.game is None:
            raise ValueError("no game at this table yet")
        return self.game

    def _play(self, seat: int, card: int) -> None:
        g = self._game()
        g.apply(card, seat)
        trick = g.last_trick()
        if trick is not None and not g.current_trick:
            cards = tuple(CARD_NAMES[c] for c in trick.cards)
            self.last_trick = LastTrick(trick.leader, cards, trick.winner)

    def _moved(self, seat: int, by: str) -> None:
        s = self.seats[seat]
        if by == "player":
            s.timeouts = 0
        elif by == "timeout":
            s.timeouts += 1


def _player_dict(p: Player) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "guest": p.guest, "rating": p.rating}


def rebuild(table_id: str, log: Sequence[StoredEvent]) -> TableModel:
    """A table from its stored event log (either stored form): the same
    fold the actor made live. Raises ``ValueError`` for a broken log."""
    if not log or log[0].kind != "created" or log[0].version != 1:
        raise ValueError(f"table {table_id}: a log starts with its `created` event at version 1")
    created = ev.from_stored(log[0].kind, log[0].data)
    assert isinstance(created, ev.Created)
    m = TableModel(table_id, created, log[0].at_ms)
    for stored in log[1:]:
        if stored.version != m.version + 1:
            raise ValueError(
                f"table {table_id}: event {stored.version} does not follow version {m.version}"
            )
        m.apply(ev.from_stored(stored.kind, stored.data))
    return m
