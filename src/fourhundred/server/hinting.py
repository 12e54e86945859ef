"""Who may ask for a hint, judged like any command (``decide`` calls
:func:`ask_hint`): a seated player whose turn it is, at a table whose
``hints`` setting is on (never Ranked). The first hint of a hand is marked
in the log (``hint_used``, the score sheet's mark); the suggestion itself
is worked out afterwards in the bot pool (:mod:`.hintdesk`) and goes to the
asker alone."""

from __future__ import annotations

from typing import Any, Protocol

from . import events as ev
from .errors import CommandError
from .room import TableModel

__all__ = ["ask_hint", "hint_seat"]


class _Work(Protocol):
    model: TableModel

    def add(self, *events: ev.Event) -> None: ...


def hint_seat(m: TableModel, user_id: str) -> int:
    """The seat a hint is for (the asker's, whose turn it is), or
    ``CommandError`` saying why none may be given now."""
    seat = m.role_seat(user_id)
    if seat is None:
        raise CommandError("not_seated", "only a seated player may ask for a hint")
    if m.kind == "ranked":
        raise CommandError("not_allowed", "no hints at a Ranked table")
    if not m.hints:
        raise CommandError("not_allowed", "hints are off at this table (the host's setting)")
    g = m.game
    if not m.in_play or g is None:
        raise CommandError("wrong_phase", "a hint is for a bid or a card: no hand is in play")
    if m.seats[seat].substitute:
        raise CommandError("not_allowed", "a bot is playing your seat: send reclaim first")
    if g.turn != seat:
        raise CommandError("not_your_turn", f"a hint is for your turn: seat {g.turn} is to act")
    return seat


def ask_hint(w: _Work, who: Any, _cmd: Any, _facts: Any) -> None:
    """``hint``: judged, and marked once per hand and seat."""
    m = w.model
    seat = hint_seat(m, who.user_id)
    assert m.game is not None
    hand = m.game.hand_index
    if (hand, seat) not in m.hints_used:
        w.add(ev.HintUsed(seat=seat, hand_index=hand))
