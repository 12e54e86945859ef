"""Tricks (docs/rules.md, "Play"): who wins one, what may be played to one.

Hearts are always trumps: the highest heart in a trick wins it; with no heart
in it, the highest card of the suit led wins; any other card is a discard
and wins nothing. A seat must follow the suit led when it can, and may play
any card when it cannot (so not following shows a void in the suit led).

This module is the one place outside the play cores where those rules are
written, and it uses the cores' own strength table, so its answers are the
cores' answers. The tables (:data:`TRICK_STRENGTH`, :data:`SHOWN_VOID`) are
for the bots' innermost loops, where a function call costs too much.

>>> from .cards import cards_str, mask_of, parse_card
>>> trick = [parse_card(x) for x in ("KS", "AS", "2H", "QS")]
>>> trick_winner(trick, leader=1)
3
>>> winning_index(trick[:2])
1
>>> hand = mask_of(parse_card(x) for x in ("3S", "4S", "AH", "2C"))
>>> cards_str(legal_plays(hand, trick[:1])), cards_str(legal_plays(hand, []))
('3S 4S', '2C AH 3S 4S')
>>> cards_str(beaters(parse_card("QS"), Suit.SPADES) & ~HEARTS_MASK)
'KS AS'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from ._pycore import TRICK_STRENGTH
from .cards import DECK_SIZE, HEARTS_MASK, SUIT_MASKS, Card, CardMask, Suit
from .seats import next_seat

__all__ = [
    "BEATERS",
    "SHOWN_VOID",
    "TRICK_STRENGTH",
    "Trick",
    "beaters",
    "legal_plays",
    "trick_winner",
    "winning_index",
]

_SUIT_OF: Final = tuple(c // 13 for c in range(DECK_SIZE))
_ABOVE: Final = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(DECK_SIZE))

SHOWN_VOID: Final[tuple[tuple[CardMask, ...], ...]] = tuple(
    tuple(0 if _SUIT_OF[c] == _SUIT_OF[lead] else SUIT_MASKS[_SUIT_OF[lead]] for c in range(52))
    for lead in range(DECK_SIZE)
)
"""``SHOWN_VOID[lead][c]``: the suit (a mask) a seat shows it no longer holds
by playing card ``c`` to a trick led with card ``lead``: the suit led when
``c`` does not follow it, else 0."""


class Trick(NamedTuple):
    """A complete trick: who led it, its four cards in play order, who won it."""

    leader: int
    cards: tuple[Card, Card, Card, Card]
    winner: int


def winning_index(cards: Sequence[Card]) -> int:
    """Which card (an index into ``cards``) wins a trick so far: ``cards`` is
    a non-empty trick, complete or not, in play order."""
    strength = TRICK_STRENGTH[_SUIT_OF[cards[0]]]
    w = 0
    best = strength[cards[0]]
    for i in range(1, len(cards)):
        s = strength[cards[i]]
        if s > best:
            w, best = i, s
    return w


def trick_winner(cards: Sequence[Card], leader: int) -> int:
    """The seat that wins the trick ``cards`` (four cards in play order, the
    first played by ``leader``); for fewer cards, the seat winning it so far.

    >>> from .cards import parse_card
    >>> trick_winner([parse_card(x) for x in ("2C", "AC", "KC", "3D")], leader=2)
    3
    >>> trick_winner([parse_card(x) for x in ("2C", "AC", "2H", "AD")], leader=0)
    2
    """
    if len(cards) == 4:
        # Unrolled: the solver calls this at every trick it searches.
        strength = TRICK_STRENGTH[_SUIT_OF[cards[0]]]
        w = 0
        best = strength[cards[0]]
        s = strength[cards[1]]
        if s > best:
            w, best = 1, s
        s = strength[cards[2]]
        if s > best:
            w, best = 2, s
        if strength[cards[3]] > best:
            w = 3
        return (leader + w) & 3
    if not cards or len(cards) > 4:
        raise ValueError(f"a trick has 1 to 4 cards, not {len(cards)}")
    return next_seat(leader, winning_index(cards))


def legal_plays(hand: CardMask, trick: Sequence[Card]) -> CardMask:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played
    to it so far): those of the suit led if the hand holds any, else all."""
    if trick:
        follow = hand & SUIT_MASKS[_SUIT_OF[trick[0]]]
        if follow:
            return follow
    return hand


def beaters(c: Card, led: Suit | int) -> CardMask:
    """Every card that would beat ``c`` in a trick whose suit led is ``led``:
    a higher heart beats a heart; any heart or a higher card of the suit led
    beats a card of the suit led; a discard is beaten by all of those."""
    s = _SUIT_OF[c]
    if s == Suit.HEARTS:
        return _ABOVE[c]
    if s == led:
        return _ABOVE[c] | HEARTS_MASK
    return SUIT_MASKS[led] | HEARTS_MASK


BEATERS: Final[tuple[tuple[CardMask, ...], ...]] = tuple(
    tuple(beaters(c, led) for c in range(DECK_SIZE)) for led in range(4)
)
"""``BEATERS[led][c]`` is ``beaters(c, led)`` without a call."""
