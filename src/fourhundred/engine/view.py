"""What one seat, or a spectator, may know (docs/view.md).

:func:`view_for` is the only door through which hidden state leaves the
engine: the server sends only its output, the bots decide only from it. It
never holds another seat's unplayed cards.

>>> from fourhundred.engine.state import GameState
>>> s = GameState(first_dealer=0)
>>> s.deal_random(seed=1)
>>> v = view_for(s, None)
>>> v.hand is None, v.turn, v.legal
(True, 1, None)
>>> sorted(view_for(s, 1).to_dict())[:4]
['bids', 'can_redeal', 'dealer', 'format']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import BID_BASE
from .cards import CARD_NAMES, Card, CardMask, cards_of, mask_of
from .phase import NO_BID, Phase
from .seats import bidding_order, next_seat
from .settings import Settings
from .state import GameState

__all__ = ["VIEW_FORMAT", "TrickView", "View", "state_from_view", "view_for"]

VIEW_FORMAT: Final = "fourhundred-view/1"


@dataclass(frozen=True, slots=True)
class TrickView:
    leader: int
    cards: tuple[Card, ...]
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [CARD_NAMES[c] for c in self.cards],
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class View:
    """One seat's (or a spectator's) knowledge of the game, as docs/view.md."""

    rules: dict[str, Any]
    seat: int | None
    hand_index: int
    dealer: int
    phase: str
    scores: tuple[int, int, int, int]
    required_total: int
    hand: tuple[Card, ...] | None
    bids: tuple[int | None, int | None, int | None, int | None]
    tricks_won: tuple[int, int, int, int]
    tricks: tuple[TrickView, ...]
    turn: int | None
    legal: tuple[int, ...] | None
    """Bids (numbers) or cards, for the seat to act only."""
    values: tuple[int | None, ...] | None
    can_redeal: bool
    winner: int | None

    @property
    def legal_is_bids(self) -> bool:
        return self.phase == "bid" and self.legal is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of docs/view.md (plain dicts, lists, strings and ints)."""
        legal: list[Any] | None
        if self.legal is None:
            legal = None
        elif self.phase == "bid":
            legal = list(self.legal)
        else:
            legal = [CARD_NAMES[c] for c in self.legal]
        out: dict[str, Any] = {
            "format": VIEW_FORMAT,
            "rules": dict(self.rules),
            "seat": self.seat,
            "hand_index": self.hand_index,
            "dealer": self.dealer,
            "phase": self.phase,
            "scores": list(self.scores),
            "required_total": self.required_total,
        }
        if self.hand is not None:
            out["hand"] = [CARD_NAMES[c] for c in self.hand]
        out.update(
            {
                "bids": list(self.bids),
                "tricks_won": list(self.tricks_won),
                "tricks": [t.to_dict() for t in self.tricks],
                "turn": self.turn,
                "legal": legal,
                "values": None if self.values is None else list(self.values),
                "can_redeal": self.can_redeal,
                "winner": self.winner,
            }
        )
        return out


def view_for(state: GameState, seat: int | None) -> View:
    """What ``seat`` (0..3), or a spectator (``None``), may know now."""
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        raise ValueError(f"{seat!r} is not a seat (0 to 3) or None for a spectator")
    if state.phase is Phase.DEAL:
        raise ValueError("no view between hands: deal the next hand first")
    over = state.phase is Phase.OVER
    turn = None if over else state.turn
    legal: tuple[int, ...] | None = None
    values: tuple[int | None, ...] | None = None
    if seat is not None and seat == turn:
        if state.phase is Phase.BID:
            bids = [a - BID_BASE for a in state.legal_actions()]
            legal = tuple(bids)
            values = tuple(state.value_of_bid(seat, b) for b in bids)
        else:
            legal = tuple(state.legal_actions())
    b = state.bids
    return View(
        rules=state.settings.to_dict(),
        seat=seat,
        hand_index=state.hand_index,
        dealer=state.dealer,
        phase=state.phase.label,
        scores=(state.scores[0], state.scores[1], state.scores[2], state.scores[3]),
        required_total=state.required,
        hand=None if seat is None else tuple(cards_of(state.hand(seat))),
        bids=tuple(None if x == NO_BID else x for x in b),  # type: ignore[arg-type]
        tricks_won=(
            state.tricks_won[0],
            state.tricks_won[1],
            state.tricks_won[2],
            state.tricks_won[3],
        ),
        tricks=tuple(TrickView(ld, tuple(cs), w) for ld, cs, w in state.tricks()),
        turn=turn,
        legal=legal,
        values=values,
        can_redeal=seat is not None and state.can_redeal(seat),
        winner=state.winner,
    )


def state_from_view(view: View, hands: Sequence[CardMask]) -> GameState:
    """A full game state at the position of ``view``, with ``hands`` (every
    seat's *unplayed* cards) filling in what the view hides. This is how a
    search bot builds a determinization: it samples the hidden cards,
    consistent with the view, and searches the resulting state. Earlier
    hands are not known and the new state's history is empty.

    Raises ``ValueError`` if ``hands`` contradict the view."""
    if view.phase not in ("bid", "play"):
        raise ValueError("a position is only rebuilt during bidding or play")
    if len(hands) != 4:
        raise ValueError("hands must give the unplayed cards of all four seats")
    if view.hand is not None and view.seat is not None and hands[view.seat] != mask_of(view.hand):
        raise ValueError("hands disagree with the view's own hand")
    played = [0, 0, 0, 0]
    order: list[Card] = []
    for trick in view.tricks:
        seat = trick.leader
        for c in trick.cards:
            played[seat] |= 1 << c
            order.append(c)
            seat = next_seat(seat)
    dealt = [hands[s] | played[s] for s in range(4)]
    settings = Settings.from_dict(view.rules)
    state = GameState(settings, first_dealer=view.dealer)
    state.scores = list(view.scores)
    state.hand_index = view.hand_index
    state.required = view.required_total
    state.deal(dealt)
    state.required = view.required_total
    for bidder in bidding_order(view.dealer):
        b = view.bids[bidder]
        if b is None:
            break
        state.bid(b)
    for c in order:
        state.play(c)
    return state


def with_hands(state: GameState, hands: Sequence[CardMask]) -> GameState:
    """A copy of ``state`` (bidding or play) in which the seats' unplayed
    cards are ``hands``; the cards already played stay where they are. For
    a state built by :func:`state_from_view`, the same state as
    ``state_from_view(view, hands)``, without replaying the hand: a search
    builds one state per decision and sets each sampled deal into it.

    Raises ``ValueError`` unless ``hands`` are the same unplayed cards, in
    the same numbers by seat, shared out differently."""
    if state.phase not in (Phase.BID, Phase.PLAY):
        raise ValueError("hands are only set into a hand in progress")
    old = state.hands
    if len(hands) != 4:
        raise ValueError("hands must give the unplayed cards of all four seats")
    union = 0
    for s in range(4):
        h = hands[s]
        if h & union or h.bit_count() != old[s].bit_count():
            raise ValueError("hands must share out the same unplayed cards, as many by seat")
        union |= h
    if union != old[0] | old[1] | old[2] | old[3]:
        raise ValueError("hands must share out the same unplayed cards, as many by seat")
    new = state.clone()
    core = new._core_state()
    new._core_restore((tuple(hands), *core[1:]))
    d = state.dealt
    new.dealt = (
        d[0] ^ old[0] | hands[0],
        d[1] ^ old[1] | hands[1],
        d[2] ^ old[2] | hands[2],
        d[3] ^ old[3] | hands[3],
    )
    return new
