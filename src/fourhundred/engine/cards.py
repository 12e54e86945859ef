"""Cards, suits and ranks (docs/rules.md, "Cards").

A card is a plain ``int`` from 0 to 51 in *deck order*: clubs, diamonds,
hearts, spades, each from 2 up to the ace, so ``card = suit * 13 + rank``.
A set of cards (a hand) is a 52-bit mask: bit ``c`` is set when card ``c``
is in it. Both forms are exact, hashable and fast; the text form is rank then
suit (``"AH"``, ``"TD"``, ``"2C"``).

>>> parse_card("AH")
38
>>> card_str(38)
'AH'
>>> cards_str(mask_of([parse_card("2C"), parse_card("AS")]))
'2C AS'
>>> suit_of(parse_card("QD")) is Suit.DIAMONDS
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from ._core import cards_of as _cards_of

Card = int
"""A card, 0..51 in deck order (``suit * 13 + rank``)."""

CardMask = int
"""A set of cards as a 52-bit mask (bit ``c`` set when card ``c`` is in it)."""


class Suit(IntEnum):
    """The four suits in deck order. Hearts are always trumps."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def mask(self) -> CardMask:
        """Every card of this suit."""
        return SUIT_MASKS[self]


class Rank(IntEnum):
    """Ranks from low (2) to high (ace)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]


SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "23456789TJQKA"

DECK_SIZE: Final = 52
FULL_DECK: Final[CardMask] = (1 << DECK_SIZE) - 1
SUIT_MASKS: Final[tuple[CardMask, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))
HEARTS_MASK: Final[CardMask] = SUIT_MASKS[Suit.HEARTS]
FACE_MASK: Final[CardMask] = sum(
    1 << (s * 13 + r) for s in range(4) for r in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
)
"""Every ace, king, queen and jack (for ``no_face_card_redeal``)."""

CARD_NAMES: Final[tuple[str, ...]] = tuple(
    RANK_LETTERS[c % 13] + SUIT_LETTERS[c // 13] for c in range(DECK_SIZE)
)
_BY_NAME: Final[dict[str, Card]] = {name: c for c, name in enumerate(CARD_NAMES)}

TIMEOUT_ORDER: Final[tuple[Card, ...]] = tuple(
    sorted(
        range(DECK_SIZE),
        key=lambda c: (c % 13, (0, 1, 3, 2)[c // 13]),
    )
)
"""Cards in the order the server prefers on a timeout (docs/rules.md, "When a
turn timer runs out"): lowest rank first; among equal ranks clubs, diamonds,
spades, then the heart last."""


def card(rank: Rank | int, suit: Suit | int) -> Card:
    """The card of this rank and suit.

    >>> card(Rank.ACE, Suit.HEARTS) == parse_card("AH")
    True
    """
    return int(suit) * 13 + int(rank)


def suit_of(c: Card) -> Suit:
    return Suit(c // 13)


def same_suit(a: Card, b: Card) -> bool:
    """Whether two cards are of one suit.

    >>> same_suit(parse_card("2C"), parse_card("AC")), same_suit(parse_card("2C"), parse_card("2H"))
    (True, False)
    """
    return a // 13 == b // 13


def rank_of(c: Card) -> Rank:
    return Rank(c % 13)


def card_str(c: Card) -> str:
    """The text form of a card, ``"AH"``."""
    return CARD_NAMES[c]


def parse_card(text: str) -> Card:
    """Parse a card's text form (``"AH"``, ``"td"``, ``"10D"`` for the ten).

    Raises ``ValueError`` naming the input when it is not a card.
    """
    if isinstance(text, str):
        key = text.strip().upper()
        if key.startswith("10"):
            key = "T" + key[2:]
        found = _BY_NAME.get(key)
        if found is not None:
            return found
    raise ValueError(f"{text!r} is not a card (write rank then suit, like 'AH', 'TD', '2C')")


def is_card_name(text: object) -> bool:
    """True when ``text`` is exactly a card's canonical text form."""
    return isinstance(text, str) and text in _BY_NAME


def card_from_name(text: str) -> Card:
    """The card whose canonical text form is ``text`` (strict, for records)."""
    return _BY_NAME[text]


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask holding these cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask in deck order."""
    return _cards_of(mask)


def iter_cards(mask: CardMask) -> Iterator[Card]:
    """Iterate over the cards of a mask in deck order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: CardMask) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def cards_str(mask: CardMask) -> str:
    """A mask as space-separated card names in deck order."""
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


def hand_str(mask: CardMask) -> str:
    """A hand grouped by suit, high cards first, for people and golden files.

    >>> hand_str(mask_of(parse_card(x) for x in ["AH", "2H", "KS", "3C"]))
    'C:3 D:- H:A2 S:K'
    """
    parts = []
    for s in Suit:
        ranks = [RANK_LETTERS[c % 13] for c in reversed(cards_of(mask & SUIT_MASKS[s]))]
        parts.append(f"{SUIT_LETTERS[s]}:{''.join(ranks) or '-'}")
    return " ".join(parts)
