"""The trick-play core in pure Python.

:class:`PlayCore` holds the part of a game's state that changes on every card
(the four hands, the trick in progress, who won each trick) and the hot
fast path over it. ``_speedups.c`` implements the same class in C; the
engine uses that one when it is built and this one otherwise (or when the
environment sets ``FOURHUNDRED_PURE_PYTHON=1``). The tests run both and
check that they agree card for card.

Subclasses implement :meth:`_hand_over`, called once when the hand ends:
after the thirteenth trick, or after the first trick a 13-bidder loses.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Final

_DECK: Final = 52
_SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
_SUIT_OF: Final = tuple(c // 13 for c in range(_DECK))
_BIT: Final = tuple(1 << c for c in range(_DECK))
# For a uniform draw below `bound` from a 32-bit word, reject words at or
# above the largest multiple of `bound` (no modulo bias).
_LIMITS: Final = tuple((1 << 32) - ((1 << 32) % b) if b else 0 for b in range(_DECK + 1))
# TRICK_STRENGTH[led][card]: any heart beats the suit led, which beats a
# discard. The engine's `tricks` module exports this very table, so the trick
# winner it gives is the play cores' by construction.
TRICK_STRENGTH: Final = tuple(
    tuple(
        (100 + c % 13) if c // 13 == 2 else (c % 13 if c // 13 == led else -1) for c in range(_DECK)
    )
    for led in range(4)
)


class PlayCore:
    __slots__ = (
        "_done",
        "_follow",
        "_hands",
        "_trick",
        "_turn",
        "_winners",
        "_won",
        "thirteen_bidder",
    )

    def __init__(self) -> None:
        self._hands = [0, 0, 0, 0]
        self._turn = 0
        self._trick: list[int] = []
        self._follow = 0
        self._done: list[int] = []
        self._winners: list[int] = []
        self._won = [0, 0, 0, 0]
        self.thirteen_bidder = -1

    # --- state access (copies: the core's own lists never leak) ---

    @property
    def hands(self) -> list[int]:
        """Each seat's unplayed cards, as masks."""
        return self._hands[:]

    def hand(self, seat: int) -> int:
        if not 0 <= seat <= 3:
            raise ValueError(f"{seat} is not a seat (0 to 3)")
        return self._hands[seat]

    @property
    def turn(self) -> int:
        return self._turn

    @turn.setter
    def turn(self, seat: int) -> None:
        if not 0 <= seat <= 3:
            raise ValueError(f"{seat} is not a seat (0 to 3)")
        self._turn = seat

    @property
    def tricks_won(self) -> list[int]:
        return self._won[:]

    @property
    def trick_winners(self) -> list[int]:
        return self._winners[:]

    @property
    def current_trick(self) -> list[int]:
        return self._trick[:]

    @property
    def done_cards(self) -> list[int]:
        """The cards of the complete tricks, in the order played."""
        return self._done[:]

    @property
    def plays(self) -> list[int]:
        """This hand's cards in the order played."""
        return self._done + self._trick

    @property
    def n_tricks(self) -> int:
        """Complete tricks in this hand."""
        return len(self._winners)

    @property
    def led_suit(self) -> int:
        """The suit led to the trick in progress (-1 when it is empty)."""
        return _SUIT_OF[self._trick[0]] if self._trick else -1

    def _core_start(self, hands: Sequence[int]) -> None:
        """New hands; no trick played yet. The turn is left as it is."""
        self._hands = [hands[0], hands[1], hands[2], hands[3]]
        self._trick = []
        self._follow = 0
        self._done = []
        self._winners = []
        self._won = [0, 0, 0, 0]
        self.thirteen_bidder = -1

    def _core_copy(self, other: PlayCore) -> None:
        self._hands = other._hands[:]
        self._turn = other._turn
        self._trick = other._trick[:]
        self._follow = other._follow
        self._done = other._done[:]
        self._winners = other._winners[:]
        self._won = other._won[:]
        self.thirteen_bidder = other.thirteen_bidder

    def _core_state(self) -> tuple[Any, ...]:
        """Everything the core holds, as plain values (for pickling)."""
        return (
            tuple(self._hands),
            self._turn,
            tuple(self._trick),
            tuple(self._done),
            tuple(self._winners),
            tuple(self._won),
            self.thirteen_bidder,
        )

    def _core_restore(self, data: tuple[Any, ...]) -> None:
        """Set everything from :meth:`_core_state`'s value."""
        hands, turn, trick, done, winners, won, thirteen = data
        if len(hands) != 4 or len(won) != 4 or len(trick) > 3 or len(winners) > 13:
            raise ValueError("not a play-core state")
        if len(done) != 4 * len(winners) or not 0 <= turn <= 3 or not -1 <= thirteen <= 3:
            raise ValueError("not a play-core state")
        if any(not 0 <= h < 1 << _DECK for h in hands):
            raise ValueError("a card mask has bits beyond the 52 cards")
        if (
            any(not 0 <= c < _DECK for c in (*trick, *done))
            or any(not 0 <= w <= 3 for w in winners)
            or any(not 0 <= n <= 13 for n in won)
        ):
            raise ValueError("not a play-core state")
        self._hands = list(hands)
        self._turn = turn
        self._trick = list(trick)
        self._follow = _SUIT_MASKS[_SUIT_OF[trick[0]]] if trick else 0
        self._done = list(done)
        self._winners = list(winners)
        self._won = list(won)
        self.thirteen_bidder = thirteen

    # --- fast path ---

    def legal_mask(self) -> int:
        """The cards the seat to act may play (a mask). Play phase only."""
        h = self._hands[self._turn]
        if self._trick:
            f = h & self._follow
            if f:
                return f
        return h

    def play_unchecked(self, c: int) -> int:
        """Play card ``c`` for the seat to act, with no rule checks, and
        return the legal mask of the next seat to act (0 once the hand is
        over)."""
        if not 0 <= c < _DECK:
            raise ValueError(f"{c!r} is not a card")
        if len(self._done) + len(self._trick) >= _DECK:
            raise ValueError("the hand has no cards left to play")
        seat = self._turn
        hands = self._hands
        hands[seat] ^= _BIT[c]
        trick = self._trick
        trick.append(c)
        n = len(trick)
        if n < 4:
            seat = (seat + 1) & 3
            self._turn = seat
            h = hands[seat]
            if n == 1:
                f = _SUIT_MASKS[_SUIT_OF[c]]
                self._follow = f
            else:
                f = self._follow
            return (h & f) or h
        strength = TRICK_STRENGTH[_SUIT_OF[trick[0]]]
        w = 0
        best = strength[trick[0]]
        s = strength[trick[1]]
        if s > best:
            w, best = 1, s
        s = strength[trick[2]]
        if s > best:
            w, best = 2, s
        if strength[trick[3]] > best:
            w = 3
        winner = (seat + 1 + w) & 3
        self._done += trick
        self._trick = []
        winners = self._winners
        winners.append(winner)
        self._won[winner] += 1
        self._turn = winner
        bidder = self.thirteen_bidder
        if len(winners) == 13 or (bidder >= 0 and winner != bidder):
            self._hand_over()
            return 0
        return hands[winner]

    def _hand_over(self) -> None:
        raise NotImplementedError


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in deck order."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def pick_card(mask: int, r: float) -> int:
    """The card at fraction ``r`` (0 <= r < 1) of a mask's cards in deck
    order: uniformly random when ``r`` is (for random rollouts); -1 for an
    empty mask."""
    if not 0.0 <= r < 1.0:
        raise ValueError("r must be in [0, 1)")
    if not mask:
        return -1
    return nth_card(mask, int(r * mask.bit_count()))


def nth_card(mask: int, k: int) -> int:
    """The ``k``-th card (from 0, in deck order) of a mask."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def deal_from_bytes(buf: bytes) -> tuple[int, int, int, int] | None:
    """Deal 13 cards to each seat by a Fisher-Yates shuffle driven by ``buf``
    (little-endian 32-bit words, rejection-sampled so every deal is exactly
    equally likely). ``None`` when ``buf`` runs out (ask again with more)."""
    words = memoryview(buf[: len(buf) // 4 * 4]).cast("I").tolist()
    if sys.byteorder != "little":  # pragma: no cover - no big-endian CI
        words = [int.from_bytes(w.to_bytes(4, "big"), "little") for w in words]
    deck = list(range(_DECK))
    pos = 0
    n = len(words)
    for i in range(_DECK - 1, 0, -1):
        bound = i + 1
        limit = _LIMITS[bound]
        while True:
            if pos >= n:
                return None
            r = words[pos]
            pos += 1
            if r < limit:
                break
        j = r % bound
        deck[i], deck[j] = deck[j], deck[i]
    bit = _BIT.__getitem__
    return (
        sum(map(bit, deck[0:13])),
        sum(map(bit, deck[13:26])),
        sum(map(bit, deck[26:39])),
        sum(map(bit, deck[39:52])),
    )
