"""What a command does to a table: ``decide(model, actor, command, facts)``
returns the events it causes, or raises ``CommandError`` and nothing happens.

Pure: no I/O, no asyncio, no clock. What a decision needs from outside (the
ratings of the people seated, whether a person sits elsewhere, the random
source for deals) arrives in :class:`Facts`, gathered by the table actor.
Each event is applied at once to a working copy of the table, so the
engine's checked path refuses an illegal move and later events see the
earlier ones; the caller's model is never touched.

Commands are the client's table messages (:mod:`.protocol`) from a
:class:`Person`, and the server's own (:class:`TurnTimeout`,
:class:`BotMove`, :class:`Expire`, :class:`Start`, :class:`RematchTimeout`,
:class:`RematchOpen`) from :data:`SERVER`. A rematch is judged in
:mod:`.rematch`, a tournament table's fixed seats in :mod:`.fixedseats`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    REDEAL,
    TURN_TIMERS,
    Action,
    GameState,
    IllegalAction,
    InvalidSettings,
    Phase,
    bid_action,
    card_from_name,
    cards_of,
    deal_masks,
    is_card_name,
    preset,
    trick_winner,
)

from . import events as ev
from . import protocol as p
from . import rematch
from .botlevels import seat_bot
from .commands import (
    SERVER,
    BotMove,
    Command,
    Expire,
    Facts,
    Person,
    PersonCommand,
    RematchOpen,
    RematchTimeout,
    Server,
    Start,
    TurnTimeout,
)
from .errors import CommandError, from_engine
from .events import By, Event, Player
from .fixedseats import fixed_seats
from .hinting import ask_hint
from .results import charge, game_over
from .room import TableModel
from .sheet import hand_over

__all__ = [
    "SERVER",
    "SUBSTITUTE_AFTER",
    "BotMove",
    "Command",
    "Expire",
    "Facts",
    "Person",
    "Server",
    "Start",
    "TurnTimeout",
    "decide",
    "decide_into",
    "hand_over",
    "moved_on",
]

SUBSTITUTE_AFTER: Final = 3
"""Consecutive timeouts after which a bot takes the seat."""


Observer = Callable[[TableModel, Event], None]
"""Told of each event as it is decided, with the working table right after it."""


class _Work:
    """Events applied to a copy of the table as they are decided."""

    __slots__ = ("events", "model", "observe")

    def __init__(self, model: TableModel, observe: Observer | None) -> None:
        self.model = model.copy()
        self.events: list[Event] = []
        self.observe = observe

    def add(self, *events: Event) -> None:
        for event in events:
            self.model.apply(event)
            self.events.append(event)
            if self.observe is not None:
                self.observe(self.model, event)


def decide(
    model: TableModel, actor: Person | Server, command: Command, facts: Facts
) -> list[Event]:
    """The events ``command`` causes at this table, in order (possibly none).
    Raises ``CommandError`` when it is refused."""
    return decide_into(model, actor, command, facts)[0]


def decide_into(
    model: TableModel,
    actor: Person | Server,
    command: Command,
    facts: Facts,
    observe: Observer | None = None,
) -> tuple[list[Event], TableModel]:
    """:func:`decide`, also giving the table after the events (a copy:
    ``model`` is never touched) and telling ``observe`` of each event with
    the table right after it: what the table actor broadcasts once the
    events are stored."""
    work = _Work(model, observe)
    try:
        if isinstance(actor, Person):
            if not isinstance(command, PersonCommand):
                raise CommandError("unknown_type", f"{type(command).__name__} is not yours to send")
            _person(work, actor, command, facts)
            _maybe_start(work, facts)
        else:
            _server(work, command, facts)
        _settle(work, facts)
    except IllegalAction as e:
        raise from_engine(e) from None
    return work.events, work.model


# ------------------------------------------------------------ people


def _person(w: _Work, who: Person, cmd: PersonCommand, facts: Facts) -> None:
    if isinstance(cmd, p.Bid | p.Play | p.Redeal):
        _move(w, _mover(w.model, w.model.role_seat(who.user_id), cmd), _action(cmd), "player")
    else:
        fixed_seats(w.model, cmd)
        _ROOM_COMMANDS[type(cmd)](w, who, cmd, facts)


def _ready(w: _Work, who: Person, cmd: p.Ready, _facts: Facts) -> None:
    m = w.model
    _need_waiting(m, "ready")
    seat = m.role_seat(who.user_id)
    if seat is None:
        raise CommandError("not_seated", "only a seated player can be ready")
    w.add(ev.Ready(seat=seat, ready=cmd.ready))


def _swap(w: _Work, who: Person, cmd: p.Move, _facts: Facts) -> None:
    _need_host(w.model, who, "move players")
    _need_waiting(w.model, "move players")
    if cmd.from_ == cmd.to:
        raise CommandError("not_allowed", "move: `from` and `to` are the same seat")
    w.add(ev.Moved(from_=cmd.from_, to=cmd.to))


def _remove(w: _Work, who: Person, cmd: p.Remove, _facts: Facts) -> None:
    m = w.model
    _need_host(m, who, "remove a player")
    _need_waiting(m, "remove a player")
    s = m.seats[cmd.seat]
    if s.empty:
        raise CommandError("not_allowed", f"seat {cmd.seat} is empty")
    if s.holds(who.user_id):
        raise CommandError("not_allowed", "the host cannot remove themselves: use leave")
    w.add(ev.Removed(seat=cmd.seat, user=None if s.user is None else s.user.id))


def _not_elsewhere(m: TableModel, facts: Facts) -> None:
    """One unfinished table at a time: refuse a seat here to a person who
    holds one at another."""
    if facts.elsewhere is not None and facts.elsewhere != m.id:
        raise CommandError(
            "not_allowed", f"you are seated at table {facts.elsewhere}: leave it first"
        )


def _reclaim(w: _Work, who: Person, _cmd: p.Reclaim, facts: Facts) -> None:
    m = w.model
    own = m.seat_of(who.user_id)
    if own is None:
        raise CommandError("not_seated", "you have no seat at this table")
    if not m.seats[own].substitute or m.status != "playing":
        raise CommandError("not_allowed", "no bot is playing your seat")
    _not_elsewhere(m, facts)
    w.add(ev.Reclaimed(seat=own, user=who.user_id))


def _mover(m: TableModel, seat: int | None, cmd: p.Bid | p.Play | p.Redeal) -> int:
    """The seat a move comes from, once it may move at all."""
    if seat is None:
        raise CommandError("not_seated", "spectators cannot play: you have no seat here")
    if cmd.seat is not None and cmd.seat != seat:
        raise CommandError("not_your_seat", f"you sit at seat {seat}, not seat {cmd.seat}")
    if m.status != "playing":
        raise CommandError(
            "wrong_phase",
            "the game has not started" if m.status == "waiting" else "the game is over",
        )
    if m.seats[seat].substitute:
        raise CommandError("not_allowed", "a bot is playing your seat: send reclaim first")
    if cmd.version is not None and cmd.version != m.version:
        raise CommandError(
            "stale", f"you acted on version {cmd.version} but the table is at version {m.version}"
        )
    return seat


def _action(cmd: p.Bid | p.Play | p.Redeal) -> Action:
    if isinstance(cmd, p.Bid):
        try:
            return bid_action(cmd.bid)
        except ValueError as e:
            raise CommandError("illegal", f"bid {cmd.bid}: {e}") from None
    if isinstance(cmd, p.Play):
        if not is_card_name(cmd.card):  # exactly as views write cards: no "10H", no "qd"
            raise CommandError(
                "illegal",
                f"{cmd.card!r} is not a card: write it as the view does, rank then suit "
                "in capitals, the ten as T (like 'QD' or 'TH')",
            )
        return card_from_name(cmd.card)
    return REDEAL


def _sit(w: _Work, who: Person, cmd: p.Sit, facts: Facts) -> None:
    m = w.model
    _need_waiting(m, "sit down")
    if m.kind == "ranked":
        raise CommandError("not_allowed", "Ranked seats are given by the queue")
    own = m.seat_of(who.user_id)
    if own is not None:
        raise CommandError("not_allowed", f"you already sit at seat {own}")
    _not_elsewhere(m, facts)
    if cmd.seat is None:
        free = [i for i, s in enumerate(m.seats) if s.empty]
        if not free:
            raise CommandError("not_allowed", "the table is full")
        seat = free[0]
    else:
        seat = cmd.seat
        if not m.seats[seat].empty:
            raise CommandError("not_allowed", f"seat {seat} is taken")
    player = facts.sitter or Player(id=who.user_id, name=who.name, guest=True, rating=None)
    w.add(ev.Seated(seat=seat, user=player))


def _leave(w: _Work, who: Person, _cmd: p.Leave, facts: Facts) -> None:
    m = w.model
    seat = m.role_seat(who.user_id)
    if seat is None:
        raise CommandError("not_seated", "you have no seat to leave")
    if m.status == "waiting":
        w.add(ev.Left(seat=seat, user=who.user_id))
        if m.host == who.user_id:
            humans = m.user_ids()
            w.add(ev.Host(user=humans[0]) if humans else ev.Closed(reason="left"))
    elif m.status == "playing":
        bot = m.seats[seat].bot or facts.substitute
        w.add(ev.Substituted(seat=seat, user=who.user_id, bot=bot, reason="left"))
        rating = charge(w.model, seat, "left", facts.ratings)
        if rating is not None:
            w.add(rating)
    else:
        raise CommandError("not_allowed", "the game is over")


def _configure(w: _Work, who: Person, cmd: p.Configure, _facts: Facts) -> None:
    m = w.model
    _need_host(m, who, "change the settings")
    _need_waiting(m, "change the settings")
    if m.kind == "ranked":
        raise CommandError("not_allowed", "Ranked tables always use the standard preset")
    name = m.preset if cmd.preset is None else cmd.preset
    try:
        base = m.settings if cmd.preset is None else preset(cmd.preset)
        settings = base.replace(**(cmd.settings or {}))
    except InvalidSettings as e:
        raise CommandError("bad_setting", str(e)) from None
    timer = m.timer if cmd.timer is None else cmd.timer
    if timer not in TURN_TIMERS:
        raise CommandError(
            "bad_setting",
            f"timer must be one of {', '.join(map(str, TURN_TIMERS))} seconds, not {timer}",
        )
    hints = m.hints if cmd.hints is None else cmd.hints
    w.add(ev.Configured(preset=name, settings=settings.to_dict(), timer=timer, hints=hints))


def _add_bot(w: _Work, who: Person, cmd: p.AddBot, facts: Facts) -> None:
    m = w.model
    _need_host(m, who, "add a bot")
    _need_waiting(m, "add a bot")
    if m.kind == "ranked":
        raise CommandError("not_allowed", "no bots at a Ranked table")
    bot = seat_bot(cmd.level, cmd.bot, facts.bot, facts.bots)
    if not m.seats[cmd.seat].empty:
        raise CommandError("not_allowed", f"seat {cmd.seat} is taken")
    w.add(ev.BotAdded(seat=cmd.seat, bot=bot))


def _rematch(w: _Work, who: Person, cmd: p.Rematch | p.RematchBots, facts: Facts) -> None:
    w.add(*rematch.person(w.model, who.user_id, cmd, facts.now_ms))


def _need_waiting(m: TableModel, what: str) -> None:
    if m.status != "waiting":
        raise CommandError("not_allowed", f"cannot {what}: the game has already started")


def _need_host(m: TableModel, who: Person, what: str) -> None:
    if m.host != who.user_id:
        raise CommandError("not_host", f"only the host can {what}")


_ROOM_COMMANDS: Final[dict[type[Any], Callable[[_Work, Person, Any, Facts], None]]] = {
    p.Sit: _sit,
    p.Leave: _leave,
    p.Ready: _ready,
    p.Configure: _configure,
    p.Move: _swap,
    p.AddBot: _add_bot,
    p.Remove: _remove,
    p.Reclaim: _reclaim,
    p.Hint: ask_hint,
    p.Rematch: _rematch,
    p.RematchBots: _rematch,
}
"""The room's commands, each judged by its own function."""


# ------------------------------------------------------------ the server


def _server(w: _Work, cmd: Command, facts: Facts) -> None:
    m = w.model
    g = m.game
    match cmd:
        case TurnTimeout() if m.in_play and g is not None:
            seat = g.turn
            by: By = "bot" if m.seats[seat].bot is not None else "timeout"
            _move(w, seat, g.timeout_action(), by)
            s = w.model.seats[seat]
            if by == "timeout" and s.timeouts >= SUBSTITUTE_AFTER and s.user is not None:
                sub = facts.substitute
                w.add(ev.Substituted(seat=seat, user=s.user.id, bot=sub, reason="timeouts"))
                rating = charge(w.model, seat, "timeouts", facts.ratings)
                if rating is not None:
                    w.add(rating)
        case BotMove(action=action) if m.bot_for_turn() is not None and g is not None:
            if action is None or action not in g.legal_actions():
                action = g.timeout_action()
            _move(w, g.turn, action, "bot")
        case Expire() if m.status == "waiting":
            w.add(ev.Closed(reason="expired"))
        case Start():
            _maybe_start(w, facts)
        case RematchOpen(table=table, invite=invite):
            w.add(*rematch.server(m, table, invite))
        case RematchTimeout():
            w.add(*rematch.server(m, None, None))
        case _:
            pass  # the moment has passed (the turn moved on, the room started)


# ---------------------------------------------------------------- moves


def _move(w: _Work, seat: int, action: Action, by: By) -> None:
    """Add a move's event; the engine judges it when the event is applied."""
    g = w.model.game
    assert g is not None
    if action == REDEAL:
        if by != "player":  # pragma: no cover - bots and timers never ask
            raise CommandError("not_allowed", "only a player asks for a new deal")
        w.add(ev.Redeal(seat=seat))
    elif action > BID_BASE:
        w.add(ev.Bid(seat=seat, bid=action - BID_BASE, by=by))
    else:
        winner = _wins(g, action)
        w.add(ev.Play(seat=seat, card=CARD_NAMES[action], by=by, trick_winner=winner))


def _wins(g: GameState, card: Action) -> int | None:
    """The seat that wins the trick ``card`` completes, or None (a card that
    does not complete a trick). Whether the card may be played is judged
    when its event is applied."""
    trick = g.current_trick
    if len(trick) != 3 or g.phase is not Phase.PLAY:
        return None
    leader = g.tricks()[-1][0]
    return trick_winner([*trick, card], leader)


def _maybe_start(w: _Work, facts: Facts) -> None:
    m = w.model
    if m.status != "waiting" or any(s.empty for s in m.seats):
        return
    if not all(s.ready or s.bot is not None for s in m.seats):
        return
    rated = m.kind == "ranked" and all(s.bot is None for s in m.seats)
    w.add(ev.Started(first_dealer=facts.rng.randrange(4), rated=rated))


def _settle(w: _Work, facts: Facts) -> None:
    """Add what follows from the moves: finished hands, the next deal, the
    end of the game."""
    m = w.model
    g = m.game
    if m.status != "playing" or g is None:
        return
    while len(m.sheet) < len(g.history):
        w.add(hand_over(g.history[len(m.sheet)], m.hints_used))
    if g.phase is Phase.DEAL:
        masks = deal_masks(facts.rng)
        cards = tuple(tuple(CARD_NAMES[c] for c in cards_of(h)) for h in masks)
        w.add(ev.Deal(hand_index=g.hand_index, dealer=g.dealer, cards=cards))
    if g.phase is Phase.OVER:
        w.add(game_over(m, "won", facts.ratings))
    elif not any(s.user is not None and s.active for s in m.seats) and m.kind != "tournament":
        w.add(game_over(m, "abandoned", facts.ratings))


def moved_on(events: Sequence[Event]) -> bool:
    """Whether these events start a new turn (a move, a deal, the start):
    the turn timer starts again."""
    return any(isinstance(e, ev.Bid | ev.Play | ev.Redeal | ev.Deal | ev.Started) for e in events)
