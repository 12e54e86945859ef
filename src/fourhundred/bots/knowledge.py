"""What a seat can work out from its view: cards gone, voids shown, needs.

Everything here is a function of one seat's :class:`~fourhundred.engine.View`
(never of hidden state), so every bot built on it sees only what its seat
sees. Cards are ints 0..51 and sets of cards are 52-bit masks, as in the
engine; the small tables below make the bots' inner loops cheap.

>>> from fourhundred.engine import parse_card
>>> top_card(SUIT_MASKS[2]) == parse_card("AH")
True
>>> beaters(parse_card("KS"), 3) == (1 << parse_card("AS")) | HEARTS
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fourhundred.engine import (
    HEARTS_MASK,
    SHOWN_VOID,
    SUIT_MASKS,
    View,
    beaters,
    bid_value,
    mask_of,
    next_seat,
    preset,
)
from fourhundred.engine import winning_index as winner_index
from fourhundred.engine.settings import Settings

__all__ = [
    "ABOVE",
    "BELOW",
    "FULL",
    "HEARTS",
    "SUIT_MASKS",
    "Knowledge",
    "beaters",
    "low_card",
    "top_card",
    "winner_index",
]

# The trick rules (``beaters``, ``winner_index``) and the card masks are the
# engine's, re-exported here under the names the bots have always used.
HEARTS: Final = HEARTS_MASK
NON_HEARTS: Final = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[3]
FULL: Final = (1 << 52) - 1
ABOVE: Final[tuple[int, ...]] = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
"""``ABOVE[c]``: the cards of ``c``'s suit that outrank it."""
BELOW: Final[tuple[int, ...]] = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
"""``BELOW[c]``: the cards of ``c``'s suit that it outranks."""
_NEXT: Final = tuple(next_seat(s) for s in range(4))
"""``_NEXT[seat]``: the engine's ``next_seat``, looked up (per card played)."""
SIDE_SUITS: Final = (0, 1, 3)
"""The suits other than hearts (the trumps)."""
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))


def top_card(mask: int) -> int:
    """The highest card of a non-empty mask (in deck order, so within a
    suit the highest rank)."""
    return mask.bit_length() - 1


def low_card(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


@dataclass(slots=True)
class Knowledge:
    """One seat's picture of the hand, derived from its view alone."""

    settings: Settings
    seat: int
    hand: int
    """This seat's unplayed cards (mask)."""
    gone: int
    """Every card played in this hand, the trick in progress included."""
    voids: list[int]
    """By seat: the union of the suits that seat has shown out of."""
    trick: list[int]
    leader: int
    """The seat that led (or will lead) the trick in progress."""
    bids: list[int]
    """By seat; 0 for a seat that has not bid yet."""
    won: list[int]
    tricks_left: int
    scores: list[int]
    dealer: int
    required: int
    values: list[int]
    """By seat, the value of the bid it made (0 before bidding; 13 bids
    count as a large value since they decide the game)."""
    played_by: list[int]
    """By seat, the cards it has played in this hand (mask)."""
    legal: tuple[int, ...] | None = None
    """``view.legal``: bids or cards, for the seat to act."""

    @classmethod
    def from_view(cls, view: View) -> Knowledge:
        """Everything the bots use, from one seat's view."""
        if view.seat is None or view.hand is None:
            raise ValueError("a bot needs a seat's view, not a spectator's")
        try:
            settings = Settings.from_dict(view.rules)
        except ValueError:  # unreadable rules: play by the standard ones
            settings = preset("standard")
        gone = 0
        played_by = [0, 0, 0, 0]
        voids = [0, 0, 0, 0]
        trick: list[int] = []
        leader = next_seat(view.dealer)
        n_done = 0
        for t in view.tricks:
            seat = t.leader
            shown = SHOWN_VOID[t.cards[0]] if t.cards else ()
            for c in t.cards:
                gone |= 1 << c
                played_by[seat] |= 1 << c
                if shown[c]:
                    voids[seat] |= shown[c]
                seat = _NEXT[seat]
            if t.winner is None:
                trick = list(t.cards)
                leader = t.leader
            else:
                n_done += 1
                leader = t.winner
        bids = [0 if b is None else b for b in view.bids]
        values = [0, 0, 0, 0]
        for s in range(4):
            b = bids[s]
            if b == 13:
                values[s] = 60
            elif b:
                values[s] = bid_value(settings, b, view.scores[s])
        return cls(
            settings=settings,
            seat=view.seat,
            hand=mask_of(view.hand),
            gone=gone,
            voids=voids,
            trick=trick,
            leader=leader,
            bids=bids,
            won=list(view.tricks_won),
            tricks_left=13 - n_done,
            scores=list(view.scores),
            dealer=view.dealer,
            required=view.required_total,
            values=values,
            played_by=played_by,
            legal=view.legal,
        )

    def left(self, seat: int) -> int:
        """How many cards ``seat`` still holds."""
        return 13 - self.played_by[seat].bit_count()

    @property
    def unknown(self) -> int:
        """The cards this seat cannot see: the others' unplayed cards."""
        return FULL ^ self.gone ^ self.hand
