"""The state of a game of 400 and the one place it changes.

A :class:`GameState` moves through four phases: ``DEAL`` (waiting for the
cards of the next hand: a chance node, filled by :meth:`GameState.deal`),
``BID``, ``PLAY`` and ``OVER``. The checked path is :meth:`GameState.apply`
(and :meth:`bid`, :meth:`play`, :meth:`request_redeal`), which raises an
:class:`~fourhundred.engine.errors.IllegalAction` subclass quoting the input
and the reason, and changes nothing when it does.

The **fast path** for bots and simulations is :meth:`legal_mask`,
:meth:`bid_range`, :meth:`play_unchecked` and :meth:`bid_unchecked`: they
skip every check, so a wrong input corrupts the state. Use them only with
actions taken from the legal set.

>>> s = GameState(first_dealer=3)
>>> s.deal_random(seed=7)
>>> s.phase, s.turn, s.legal_bids()
(<Phase.BID: 1>, 0, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
>>> s.bid(1)
Traceback (most recent call last):
...
fourhundred.engine.errors.IllegalBid: bid 1 by seat 0 is not legal: seat 0 may bid 2 to 12
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from .actions import BID_BASE, REDEAL, Action, action_str, is_bid, is_card
from .cards import (
    CARD_NAMES,
    DECK_SIZE,
    FACE_MASK,
    FULL_DECK,
    SUIT_LETTERS,
    SUIT_MASKS,
    TIMEOUT_ORDER,
    Card,
    CardMask,
    cards_of,
    hand_str,
)
from .errors import (
    GameOver,
    IllegalAction,
    IllegalBid,
    IllegalCard,
    IllegalRedeal,
    InvalidDeal,
    NotYourTurn,
    WrongPhase,
)
from .scoring import lowest_bid, required_total, value_table, winning_team
from .settings import STANDARD, Settings

__all__ = ["GameState", "HandSummary", "Phase", "deal_masks"]


class Phase(IntEnum):
    DEAL = 0
    """Waiting for the cards of the next hand."""
    BID = 1
    PLAY = 2
    OVER = 3

    @property
    def label(self) -> str:
        return self.name.lower()


NO_BID: Final = 0
"""Marks a seat that has not bid yet in the internal bid list."""

# _STRENGTH[led_suit][card]: how strongly a card claims a trick led in that
# suit: any heart beats the led suit, which beats a discard (-1).
_STRENGTH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        (100 + c % 13) if c // 13 == 2 else (c % 13 if c // 13 == led else -1)
        for c in range(DECK_SIZE)
    )
    for led in range(4)
)
_SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(DECK_SIZE))
_TIMEOUT_BITS: Final[tuple[tuple[int, Card], ...]] = tuple((1 << c, c) for c in TIMEOUT_ORDER)


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One finished hand (played, thrown in, or redealt on request)."""

    index: int
    dealer: int
    deal: tuple[CardMask, CardMask, CardMask, CardMask]
    redeal_request: int | None
    bids: tuple[int, ...]
    """In bidding order: the seat after the dealer first."""
    plays: tuple[Card, ...]
    thrown_in: bool
    tricks: tuple[int, int, int, int]
    deltas: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    """Totals after the hand."""


def deal_masks(rng: random.Random) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    """Shuffle a deck with ``rng`` and deal 13 cards to each seat."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    out = []
    for s in range(4):
        m = 0
        for c in deck[13 * s : 13 * s + 13]:
            m |= 1 << c
        out.append(m)
    return (out[0], out[1], out[2], out[3])


class GameState:
    """A whole game: scores, the hand in progress and the hands before it."""

    __slots__ = (
        "_led",
        "_rng",
        "_trick",
        "_values",
        "bids",
        "dealer",
        "dealt",
        "first_dealer",
        "hand_index",
        "hands",
        "history",
        "n_bids",
        "phase",
        "plays",
        "required",
        "scores",
        "settings",
        "thirteen_bidder",
        "trick_leaders",
        "trick_winners",
        "tricks_won",
        "turn",
        "winner",
    )

    settings: Settings
    first_dealer: int
    scores: list[int]
    """Totals before the current hand (after it, once the game is over)."""
    dealer: int
    hand_index: int
    phase: Phase
    turn: int
    hands: list[CardMask]
    """Each seat's unplayed cards."""
    dealt: tuple[CardMask, CardMask, CardMask, CardMask]
    bids: list[int]
    """By seat; ``NO_BID`` (0) until that seat has bid."""
    n_bids: int
    required: int
    plays: list[Card]
    trick_leaders: list[int]
    trick_winners: list[int]
    tricks_won: list[int]
    thirteen_bidder: int
    """The seat that bid 13 in this hand, or -1."""
    winner: int | None
    history: list[HandSummary]
    _trick: list[Card]
    _led: int
    _values: list[tuple[int, ...]]
    _rng: random.Random | None

    def __init__(
        self,
        settings: Settings = STANDARD,
        first_dealer: int | None = None,
        *,
        rng: random.Random | None = None,
    ) -> None:
        """A new game in the ``DEAL`` phase. ``rng`` is used for the first
        dealer when none is given and by :meth:`deal_random`; without it they
        use ``secrets``."""
        if first_dealer is None:
            first_dealer = rng.randrange(4) if rng is not None else secrets.randbelow(4)
        if type(first_dealer) is not int or not 0 <= first_dealer <= 3:
            raise ValueError(f"first_dealer must be a seat 0-3, not {first_dealer!r}")
        self.settings = settings
        self.first_dealer = first_dealer
        self.scores = [0, 0, 0, 0]
        self.dealer = first_dealer
        self.hand_index = 0
        self.phase = Phase.DEAL
        self.turn = (first_dealer + 1) & 3
        self.hands = [0, 0, 0, 0]
        self.dealt = (0, 0, 0, 0)
        self.bids = [NO_BID] * 4
        self.n_bids = 0
        self.required = required_total(settings, self.scores)
        self.plays = []
        self.trick_leaders = []
        self.trick_winners = []
        self.tricks_won = [0, 0, 0, 0]
        self.thirteen_bidder = -1
        self.winner = None
        self.history = []
        self._trick = []
        self._led = 0
        self._values = []
        self._rng = rng

    # ------------------------------------------------------------------ deal

    def deal(self, hands: Sequence[CardMask]) -> None:
        """Start the next hand with these cards (one mask per seat)."""
        if self.phase is not Phase.DEAL:
            raise WrongPhase(f"cannot deal during the {self.phase.label} phase")
        if (
            len(hands) != 4
            or any(type(h) is not int or h.bit_count() != 13 for h in hands)
            or (hands[0] | hands[1] | hands[2] | hands[3]) != FULL_DECK
        ):
            raise InvalidDeal("the deal is not 52 distinct cards, 13 to each seat")
        self._start_hand((hands[0], hands[1], hands[2], hands[3]))

    def deal_random(self, seed: int | None = None) -> None:
        """Deal the next hand from a shuffled deck: from ``random.Random(seed)``
        when a seed is given, else from the game's ``rng``, else from
        ``secrets`` (the default for real games)."""
        if self.phase is not Phase.DEAL:
            raise WrongPhase(f"cannot deal during the {self.phase.label} phase")
        if seed is not None:
            rng: random.Random = random.Random(seed)
        elif self._rng is not None:
            rng = self._rng
        else:
            rng = secrets.SystemRandom()
        self._start_hand(deal_masks(rng))

    def _start_hand(self, hands: tuple[CardMask, CardMask, CardMask, CardMask]) -> None:
        self.dealt = hands
        self.hands = list(hands)
        self.bids = [NO_BID] * 4
        self.n_bids = 0
        self.plays = []
        self.trick_leaders = []
        self.trick_winners = []
        self.tricks_won = [0, 0, 0, 0]
        self.thirteen_bidder = -1
        self._trick = []
        self.turn = (self.dealer + 1) & 3
        self.required = required_total(self.settings, self.scores)
        self._values = [value_table(self.settings, sc) for sc in self.scores]
        self.phase = Phase.BID

    # ----------------------------------------------------------- legal sets

    def bid_range(self) -> tuple[int, int]:
        """The lowest and highest legal bid for the seat to act (fast path;
        also valid in the ``DEAL`` phase, for the first bid of the next hand)."""
        seat = self.turn
        s = self.settings
        low = lowest_bid(s, self.scores[seat])
        bids = self.bids
        if s.five_to_run and seat == self.dealer and max(bids) < 5:
            low = max(low, 5)
        high = 13 if s.thirteen_bid and self.thirteen_bidder < 0 else 12
        return low, high

    def legal_bids(self) -> list[int]:
        """The bids the seat to act may make, in increasing order."""
        if self.phase is not Phase.BID and self.phase is not Phase.DEAL:
            return []
        low, high = self.bid_range()
        return list(range(low, high + 1))

    def legal_mask(self) -> CardMask:
        """The cards the seat to act may play, as a mask (fast path; play
        phase only)."""
        h = self.hands[self.turn]
        if self._trick:
            f = h & SUIT_MASKS[self._led]
            if f:
                return f
        return h

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play, in deck order."""
        if self.phase is not Phase.PLAY:
            return []
        return cards_of(self.legal_mask())

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (a request for a new deal,
        which any eligible seat may make, is not listed: see
        :meth:`can_redeal`)."""
        if self.phase is Phase.BID:
            low, high = self.bid_range()
            return list(range(BID_BASE + low, BID_BASE + high + 1))
        if self.phase is Phase.PLAY:
            return cards_of(self.legal_mask())
        return []

    def can_redeal(self, seat: int) -> bool:
        """Whether ``seat`` may ask for a new deal now (``no_face_card_redeal``:
        before the first bid, holding no A, K, Q or J)."""
        return (
            self.settings.no_face_card_redeal
            and self.phase is Phase.BID
            and self.n_bids == 0
            and not (self.hands[seat] & FACE_MASK)
        )

    def timeout_action(self) -> Action:
        """What the server does for the seat to act when its timer runs out:
        the smallest legal bid, or the lowest-ranked legal card (a non-heart
        before a heart, then clubs, diamonds, spades)."""
        if self.phase is Phase.BID:
            return BID_BASE + self.bid_range()[0]
        if self.phase is Phase.PLAY:
            legal = self.legal_mask()
            for bit, c in _TIMEOUT_BITS:
                if legal & bit:
                    return c
        raise WrongPhase(f"no timeout action during the {self.phase.label} phase")

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def current_trick(self) -> list[Card]:
        """The cards of the trick in progress, in the order played."""
        return list(self._trick)

    # ---------------------------------------------------------- checked path

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Take ``action`` for ``seat`` (the seat to act when ``None``).
        Raises an ``IllegalAction`` subclass, changing nothing, when the rules
        do not allow it."""
        if type(action) is not int:
            raise IllegalAction(f"{action!r} is not an action")
        if action == REDEAL:
            self.request_redeal(self.turn if seat is None else seat)
        elif is_bid(action):
            self.bid(action - BID_BASE, seat)
        elif is_card(action):
            self.play(action, seat)
        else:
            raise IllegalAction(f"{action!r} is not an action")

    def _check_turn(self, seat: int | None, what: str, phase: Phase) -> int:
        if self.phase is Phase.OVER:
            raise GameOver(f"{what}: the game is over")
        if self.phase is not phase:
            raise WrongPhase(f"{what}: it is the {self.phase.label} phase, not {phase.label}")
        if seat is None:
            return self.turn
        if type(seat) is not int or not 0 <= seat <= 3:
            raise NotYourTurn(f"{what}: {seat!r} is not a seat")
        if seat != self.turn:
            raise NotYourTurn(f"{what}: it is seat {self.turn}'s turn, not seat {seat}'s")
        return seat

    def bid(self, n: int, seat: int | None = None) -> None:
        """Bid ``n`` tricks for ``seat`` (checked)."""
        shown = f"bid {n!r} by seat {self.turn if seat is None else seat}"
        seat = self._check_turn(seat, shown, Phase.BID)
        low, high = self.bid_range()
        if type(n) is not int or not low <= n <= high:
            raise IllegalBid(f"{shown} is not legal: seat {seat} may bid {low} to {high}")
        self.bid_unchecked(n)

    def play(self, c: Card, seat: int | None = None) -> None:
        """Play card ``c`` for ``seat`` (checked)."""
        if type(c) is not int or not 0 <= c < DECK_SIZE:
            raise IllegalCard(f"{c!r} is not a card")
        shown = f"card {CARD_NAMES[c]!r} by seat {self.turn if seat is None else seat}"
        seat = self._check_turn(seat, shown, Phase.PLAY)
        bit = 1 << c
        if not self.hands[seat] & bit:
            raise IllegalCard(f"{shown} is not legal: seat {seat} does not hold it")
        if not self.legal_mask() & bit:
            suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[
                SUIT_LETTERS[self._led]
            ]
            raise IllegalCard(f"{shown} is not legal: seat {seat} must follow {suit}")
        self.play_unchecked(c)

    def request_redeal(self, seat: int) -> None:
        """``seat`` asks for a new deal under ``no_face_card_redeal`` (checked):
        the hand is thrown in and the same dealer deals again."""
        if self.phase is Phase.OVER:
            raise GameOver(f"redeal request by seat {seat}: the game is over")
        if type(seat) is not int or not 0 <= seat <= 3:
            raise IllegalRedeal(f"redeal request by {seat!r}: not a seat")
        if not self.settings.no_face_card_redeal:
            raise IllegalRedeal(
                f"redeal request by seat {seat} not allowed: no_face_card_redeal is off"
            )
        if self.phase is not Phase.BID or self.n_bids:
            raise IllegalRedeal(
                f"redeal request by seat {seat} not allowed: only before the first bid"
            )
        if self.hands[seat] & FACE_MASK:
            raise IllegalRedeal(
                f"redeal request by seat {seat} not allowed: the hand holds an A, K, Q or J"
            )
        self._close_hand(thrown_in=True, redeal_request=seat, deltas=(0, 0, 0, 0))

    # ------------------------------------------------------------- fast path

    def bid_unchecked(self, n: int) -> None:
        """Bid ``n`` for the seat to act. Fast path: no checks."""
        seat = self.turn
        self.bids[seat] = n
        if n == 13:
            self.thirteen_bidder = seat
        self.n_bids += 1
        if self.n_bids < 4:
            self.turn = (seat + 1) & 3
            return
        if sum(self.bids) < self.required:
            self._close_hand(thrown_in=True, redeal_request=None, deltas=(0, 0, 0, 0))
            return
        self.phase = Phase.PLAY
        lead = (self.dealer + 1) & 3
        self.turn = lead
        self.trick_leaders.append(lead)

    def play_unchecked(self, c: Card) -> None:
        """Play card ``c`` for the seat to act. Fast path: no checks."""
        seat = self.turn
        self.hands[seat] ^= 1 << c
        self.plays.append(c)
        trick = self._trick
        trick.append(c)
        if len(trick) == 1:
            self._led = _SUIT_OF[c]
            self.turn = (seat + 1) & 3
            return
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        strength = _STRENGTH[self._led]
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
        self.trick_winners.append(winner)
        self.tricks_won[winner] += 1
        self._trick = []
        bidder = self.thirteen_bidder
        if bidder >= 0 and winner != bidder:
            self._end_thirteen(won=False)
        elif len(self.trick_winners) == 13:
            if bidder >= 0:
                self._end_thirteen(won=True)
            else:
                self._score_hand()
        else:
            self.turn = winner
            self.trick_leaders.append(winner)

    # ---------------------------------------------------------- end of hand

    def _score_hand(self) -> None:
        bids, won, values = self.bids, self.tricks_won, self._values
        deltas = tuple(
            values[s][bids[s]] if won[s] >= bids[s] else -values[s][bids[s]] for s in range(4)
        )
        self._close_hand(
            thrown_in=False,
            redeal_request=None,
            deltas=(deltas[0], deltas[1], deltas[2], deltas[3]),
        )

    def _end_thirteen(self, *, won: bool) -> None:
        team = self.thirteen_bidder & 1
        self._close_hand(
            thrown_in=False, redeal_request=None, deltas=(0, 0, 0, 0), winner=team if won else 1 - team
        )

    def _close_hand(
        self,
        *,
        thrown_in: bool,
        redeal_request: int | None,
        deltas: tuple[int, int, int, int],
        winner: int | None = None,
    ) -> None:
        sc = self.scores
        for s in range(4):
            sc[s] += deltas[s]
        d = self.dealer
        self.history.append(
            HandSummary(
                index=self.hand_index,
                dealer=d,
                deal=self.dealt,
                redeal_request=redeal_request,
                bids=tuple(self.bids[(d + 1 + i) & 3] for i in range(self.n_bids)),
                plays=tuple(self.plays),
                thrown_in=thrown_in,
                tricks=(
                    self.tricks_won[0],
                    self.tricks_won[1],
                    self.tricks_won[2],
                    self.tricks_won[3],
                ),
                deltas=deltas,
                scores=(sc[0], sc[1], sc[2], sc[3]),
            )
        )
        if winner is None and not thrown_in:
            winner = winning_team(self.settings, sc)
        if winner is not None:
            self.winner = winner
            self.phase = Phase.OVER
            return
        self.hand_index += 1
        if redeal_request is None:
            self.dealer = (d + 1) & 3
        self.phase = Phase.DEAL
        self.turn = (self.dealer + 1) & 3
        # The next hand's required total and first bid depend only on the
        # scores, so they are known before its deal (game-record.md, `next`).
        self.bids = [NO_BID] * 4
        self.n_bids = 0
        self.thirteen_bidder = -1
        self.required = required_total(self.settings, sc)

    # ------------------------------------------------------------ utilities

    def clone(self) -> GameState:
        """An independent copy (history shared: it is append-only)."""
        new = GameState.__new__(GameState)
        new.settings = self.settings
        new.first_dealer = self.first_dealer
        new.scores = self.scores[:]
        new.dealer = self.dealer
        new.hand_index = self.hand_index
        new.phase = self.phase
        new.turn = self.turn
        new.hands = self.hands[:]
        new.dealt = self.dealt
        new.bids = self.bids[:]
        new.n_bids = self.n_bids
        new.required = self.required
        new.plays = self.plays[:]
        new.trick_leaders = self.trick_leaders[:]
        new.trick_winners = self.trick_winners[:]
        new.tricks_won = self.tricks_won[:]
        new.thirteen_bidder = self.thirteen_bidder
        new.winner = self.winner
        new.history = self.history[:]
        new._trick = self._trick[:]
        new._led = self._led
        new._values = self._values
        new._rng = self._rng
        return new

    def bids_in_order(self) -> list[int]:
        """This hand's bids so far, in bidding order."""
        d = self.dealer
        return [self.bids[(d + 1 + i) & 3] for i in range(self.n_bids)]

    def bid_of(self, seat: int) -> int | None:
        """The bid ``seat`` made in this hand, or ``None``."""
        b = self.bids[seat]
        return None if b == NO_BID else b

    def value_of_bid(self, seat: int, n: int) -> int | None:
        """What a bid of ``n`` is worth to ``seat`` in this hand (``None`` for
        13, which decides the game instead)."""
        if n == 13:
            return None
        if self._values:
            return self._values[seat][n]
        return value_table(self.settings, self.scores[seat])[n]

    def tricks(self) -> list[tuple[int, list[Card], int | None]]:
        """This hand's tricks: (leader, cards in play order, winner or None)."""
        out: list[tuple[int, list[Card], int | None]] = []
        for i, leader in enumerate(self.trick_leaders):
            cards = self.plays[4 * i : 4 * i + 4]
            winner = self.trick_winners[i] if i < len(self.trick_winners) else None
            out.append((leader, cards, winner))
        return out

    def action_count(self) -> int:
        """Actions taken in this hand: bids then plays (game-record.md)."""
        return self.n_bids + len(self.plays)

    def line(self) -> str:
        """A one-line summary of the state, for logs and golden files."""
        bids = " ".join("-" if b == NO_BID else str(b) for b in self.bids)
        head = (
            f"hand {self.hand_index} dealer {self.dealer} {self.phase.label}"
            f" turn {self.turn if self.phase is not Phase.OVER else '-'}"
            f" scores {' '.join(map(str, self.scores))} need {self.required}"
            f" bids {bids} won {' '.join(map(str, self.tricks_won))}"
        )
        if self.phase is Phase.OVER:
            return f"{head} winner team {self.winner}"
        if self.phase is Phase.PLAY:
            trick = " ".join(CARD_NAMES[c] for c in self._trick) or "-"
            return f"{head} trick {trick}"
        return head

    def hands_str(self) -> str:
        return " | ".join(f"{s}: {hand_str(self.hands[s])}" for s in range(4))

    def __repr__(self) -> str:
        return f"<GameState {self.line()}>"

    def describe_action(self, action: Action) -> str:
        return action_str(action)
