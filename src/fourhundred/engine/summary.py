"""The summary of a finished hand, as :attr:`GameState.history` keeps it.

Bids are given two ways, because both are needed: ``bids`` in bidding order
(what a game record stores) and ``bids_by_seat`` (what a score sheet shows),
so no caller has to map one onto the other.

>>> from .state import GameState
>>> s = GameState(first_dealer=3)
>>> s.deal_random(seed=7)
>>> for n in (4, 3, 3, 3): s.bid(n)
>>> while s.phase.label == "play": s.play(s.timeout_action())
>>> h = s.history[0]
>>> h.bids, h.bids_by_seat, len(h.trick_winners)
((4, 3, 3, 3), (4, 3, 3, 3), 13)
>>> h.last_trick().winner == h.trick_winners[-1]
True
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card, CardMask
from .seats import bidding_order
from .tricks import Trick

__all__ = ["HandSummary"]


class HandSummary(NamedTuple):
    """One finished hand (played, thrown in, or redealt on request)."""

    hand_index: int
    dealer: int
    deal: tuple[CardMask, CardMask, CardMask, CardMask]
    redeal_request: int | None
    bids: tuple[int, ...]
    """In bidding order: the seat after the dealer first."""
    plays: tuple[Card, ...]
    thrown_in: bool
    tricks: tuple[int, ...]
    """Tricks won, by seat."""
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    """Totals after the hand."""
    bids_by_seat: tuple[int | None, int | None, int | None, int | None]
    """The same bids by seat; ``None`` for a seat that did not bid."""
    trick_winners: tuple[int, ...]
    """The seat that won each complete trick, in order."""

    def last_trick(self) -> Trick | None:
        """The hand's last complete trick, or ``None`` if none was played."""
        n = len(self.trick_winners)
        if n == 0:
            return None
        leader = self.trick_winners[-2] if n > 1 else bidding_order(self.dealer)[0]
        p = self.plays
        cards = (p[4 * n - 4], p[4 * n - 3], p[4 * n - 2], p[4 * n - 1])
        return Trick(leader, cards, self.trick_winners[-1])
