"""A game step by step: the view after every action, between hands too.

:func:`~fourhundred.engine.view.view_for` has no view between two hands
(the ``DEAL`` phase), yet the last card of a hand, and the hand's end, are
moments a player must see. :func:`view_at` gives the view at any moment:
between hands it is the hand that just ended as its last action left it
(phase ``"deal"``, every trick on the table, the scores after the hand),
just as the view of a finished game shows its last hand.

:func:`replay_steps` steps through a finished game's record and gives, for
every action, the view after it and every seat's unplayed cards (a finished
game hides nothing).

>>> from fourhundred.engine.state import GameState
>>> s = GameState(first_dealer=0)
>>> s.deal_random(seed=3)
>>> for _ in range(4):
...     s.bid(2)
>>> s.phase.label
'deal'
>>> v = view_at(s, 1)
>>> v.phase, v.hand_index, v.bids, v.turn, v.legal
('deal', 0, (2, 2, 2, 2), None, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import BID_BASE, REDEAL, Action
from .cards import CARD_NAMES, CardMask, card_from_name, cards_of, mask_of
from .record import GameRecord, replay
from .scoring import required_total
from .seats import bidding_order
from .state import GameState, HandSummary, Phase
from .view import TrickView, View, view_for

__all__ = ["HandSteps", "Step", "hand_line", "replay_steps", "view_at"]


def view_at(state: GameState, seat: int | None) -> View:
    """What ``seat`` (or a spectator, ``None``) may know now, at any moment of
    the game: :func:`view_for`, and between hands the hand just ended."""
    if state.phase is not Phase.DEAL:
        return view_for(state, seat)
    if not state.history:
        raise ValueError("no view before the first deal")
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        raise ValueError(f"{seat!r} is not a seat (0 to 3) or None for a spectator")
    h = state.history[-1]
    before = [s - d for s, d in zip(h.scores, h.deltas, strict=True)]
    return View(
        rules=state.settings.to_dict(),
        seat=seat,
        hand_index=h.hand_index,
        dealer=h.dealer,
        phase=Phase.DEAL.label,
        scores=(h.scores[0], h.scores[1], h.scores[2], h.scores[3]),
        required_total=required_total(state.settings, before),
        # The core keeps the ended hand's cards and tricks until the next deal.
        hand=None if seat is None else tuple(cards_of(state.hand(seat))),
        bids=h.bids_by_seat,
        tricks_won=(h.tricks[0], h.tricks[1], h.tricks[2], h.tricks[3]),
        tricks=_tricks(h),
        turn=None,
        legal=None,
        values=None,
        can_redeal=False,
        winner=None,
    )


def _tricks(h: HandSummary) -> tuple[TrickView, ...]:
    out = []
    leader = bidding_order(h.dealer)[0]
    for i, winner in enumerate(h.trick_winners):
        out.append(TrickView(leader, tuple(h.plays[4 * i : 4 * i + 4]), winner))
        leader = winner
    return tuple(out)


def hand_line(h: HandSummary) -> dict[str, Any]:
    """A finished hand as a score-sheet line: bids, tricks, points won or
    lost and the totals after it, by seat."""
    return {
        "hand_index": h.hand_index,
        "dealer": h.dealer,
        "bids": list(h.bids_by_seat),
        "tricks": list(h.tricks),
        "deltas": list(h.deltas),
        "scores": list(h.scores),
        "thrown_in": h.thrown_in,
        "redeal_request": h.redeal_request,
    }


@dataclass(frozen=True, slots=True)
class Step:
    """One moment of a replay: the action that led to it (``None`` for the
    deal), the spectator's view after it, and every seat's unplayed cards."""

    seat: int | None
    action: Action | None
    view: View
    hands: tuple[CardMask, CardMask, CardMask, CardMask]

    def to_dict(self) -> dict[str, Any]:
        act: dict[str, Any] | None = None
        if self.action is not None:
            if self.action == REDEAL:
                act = {"kind": "redeal", "seat": self.seat}
            elif self.action > BID_BASE:
                act = {"kind": "bid", "seat": self.seat, "bid": self.action - BID_BASE}
            else:
                act = {"kind": "play", "seat": self.seat, "card": CARD_NAMES[self.action]}
        return {
            "action": act,
            "view": self.view.to_dict(),
            "hands": [[CARD_NAMES[c] for c in cards_of(m)] for m in self.hands],
        }


@dataclass(frozen=True, slots=True)
class HandSteps:
    """One hand of a replay: its steps, and its score-sheet line once it has
    ended (``None`` for a hand left unfinished)."""

    hand_index: int
    dealer: int
    steps: tuple[Step, ...]
    line: dict[str, Any] | None


def replay_steps(record: GameRecord | object) -> list[HandSteps]:
    """Every hand of a record, step by step (checked first: raises
    :class:`~fourhundred.engine.errors.RecordError` like :func:`replay`)."""
    rec = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    final = replay(rec)  # the checks; what follows only repeats legal actions
    state = GameState(rec.settings, rec.first_dealer)
    out: list[HandSteps] = []
    for i, hand in enumerate(rec.hands):
        state.deal([mask_of(card_from_name(c) for c in cards) for cards in hand.deal])
        steps = [_step(state, None, None)]
        actions: list[tuple[int, Action]] = []
        if hand.redeal_request is not None:
            actions.append((hand.redeal_request, REDEAL))
        actions += [(-1, BID_BASE + b) for b in hand.bids]
        actions += [(-1, card_from_name(c)) for c in hand.plays]
        for who, action in actions:
            seat = state.turn if who < 0 else who
            state.apply(action, seat)
            steps.append(_step(state, seat, action))
        line = hand_line(final.history[i]) if i < len(final.history) else None
        out.append(HandSteps(i, hand.dealer, tuple(steps), line))
    return out


def _step(state: GameState, seat: int | None, action: Action | None) -> Step:
    hands = state.hands
    return Step(seat, action, view_at(state, None), (hands[0], hands[1], hands[2], hands[3]))
