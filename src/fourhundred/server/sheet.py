"""The score sheet's line for a finished hand: the ``hand_over`` event, made
from the engine's summary of the hand and the hands where a seat asked for a
hint (the sheet's mark)."""

from __future__ import annotations

from collections.abc import Collection

from fourhundred.engine import CARD_NAMES, HandSummary

from . import events as ev

__all__ = ["hand_over"]


def hand_over(h: HandSummary, hinted: Collection[tuple[int, int]] = ()) -> ev.HandOver:
    """The score sheet's line for a finished hand (``hinted``: the table's
    (hand, seat) pairs where a seat asked for a hint)."""
    trick = h.last_trick()
    last = None
    if trick is not None:
        last = ev.LastTrick(trick.leader, tuple(CARD_NAMES[c] for c in trick.cards), trick.winner)
    return ev.HandOver(
        hand_index=h.hand_index,
        dealer=h.dealer,
        bids=tuple(h.bids_by_seat),
        tricks=tuple(h.tricks),
        deltas=tuple(h.deltas),
        scores=tuple(h.scores),
        thrown_in=h.thrown_in,
        redeal_request=h.redeal_request,
        last_trick=last,
        hinted=tuple(seat for seat in range(4) if (h.hand_index, seat) in hinted),
    )
