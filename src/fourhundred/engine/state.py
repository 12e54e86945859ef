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
from typing import Any, Final

from ._core import PlayCore
from .actions import BID_BASE, REDEAL, Action, is_bid, is_card
from .cards import (
    CARD_NAMES,
    DECK_SIZE,
    FACE_MASK,
    FULL_DECK,
    TIMEOUT_ORDER,
    Card,
    CardMask,
    cards_of,
    hand_str,
)
from .dealing import deal_masks
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
from .handend import close_hand, finish_hand, settle_hand
from .phase import NO_BID, Phase
from .scoring import bid_value, highest_bid, lowest_bid, required_total
from .seats import bidding_order, next_seat
from .settings import STANDARD, Settings
from .summary import HandSummary
from .tricks import Trick

__all__ = ["GameState", "HandSummary", "Phase", "deal_masks"]


_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY
_NEXT: Final = tuple(next_seat(seat) for seat in range(4))
"""``next_seat`` looked up, for the fast path (a bid, a hand's end)."""
_TIMEOUT_BITS: Final[tuple[tuple[int, Card], ...]] = tuple((1 << c, c) for c in TIMEOUT_ORDER)


class GameState(PlayCore):
    """A whole game: scores, the hand in progress and the hands before it."""

    __slots__ = (
        "_rng",
        "bids",
        "dealer",
        "dealt",
        "first_dealer",
        "hand_index",
        "history",
        "lean",
        "n_bids",
        "phase",
        "required",
        "scores",
        "settings",
        "winner",
    )

    settings: Settings
    first_dealer: int
    scores: list[int]
    """Totals before the current hand (after it, once the game is over)."""
    dealer: int
    hand_index: int
    phase: Phase
    dealt: tuple[CardMask, CardMask, CardMask, CardMask]
    bids: list[int]
    """By seat; ``NO_BID`` (0) until that seat has bid."""
    n_bids: int
    required: int
    winner: int | None
    history: list[HandSummary]
    lean: bool
    """A copy for a search (``clone(lean=True)``): its hand's end only
    settles the scores and the winner, and its game is over."""
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
        super().__init__()
        self.settings = settings
        self.first_dealer = first_dealer
        self.scores = [0, 0, 0, 0]
        self.dealer = first_dealer
        self.hand_index = 0
        self.phase = Phase.DEAL
        self.turn = next_seat(first_dealer)
        self.dealt = (0, 0, 0, 0)
        self.bids = [NO_BID] * 4
        self.n_bids = 0
        self.required = required_total(settings, self.scores)
        self.winner = None
        self.history = []
        self.lean = False
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
        self._core_start(hands)
        self.bids = [NO_BID] * 4
        self.n_bids = 0
        self.turn = _NEXT[self.dealer]
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
        return low, highest_bid(s, bids)

    def legal_bids(self) -> list[int]:
        """The bids the seat to act may make, in increasing order."""
        if self.phase is not Phase.BID and self.phase is not Phase.DEAL:
            return []
        low, high = self.bid_range()
        return list(range(low, high + 1))

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play, in deck order."""
        if self.phase is not Phase.PLAY:
            return []
        return cards_of(self.legal_mask())

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (a request for a new deal,
        which any eligible seat may make, is not listed: see
        :meth:`can_redeal`)."""
        phase = self.phase
        if phase is _PLAY:
            return cards_of(self.legal_mask())
        if phase is _BID:
            low, high = self.bid_range()
            return list(range(BID_BASE + low, BID_BASE + high + 1))
        return []

    def can_redeal(self, seat: int) -> bool:
        """Whether ``seat`` may ask for a new deal now (``no_face_card_redeal``:
        before the first bid, holding no A, K, Q or J)."""
        return (
            self.settings.no_face_card_redeal
            and self.phase is Phase.BID
            and self.n_bids == 0
            and not (self.hand(seat) & FACE_MASK)
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

    def _turn_error(self, seat: object, what: str, phase: Phase) -> IllegalAction:
        """Why ``seat`` may not take a ``phase`` action now (slow path only)."""
        if self.phase is Phase.OVER:
            return GameOver(f"{what}: the game is over")
        if self.phase is not phase:
            return WrongPhase(f"{what}: it is the {self.phase.label} phase, not {phase.label}")
        if type(seat) is not int or not 0 <= seat <= 3:
            return NotYourTurn(f"{what}: {seat!r} is not a seat")
        return NotYourTurn(f"{what}: it is seat {self.turn}'s turn, not seat {seat}'s")

    def bid(self, n: int, seat: int | None = None) -> None:
        """Bid ``n`` tricks for ``seat`` (checked)."""
        turn = self.turn
        if self.phase is not _BID or (seat is not None and (type(seat) is not int or seat != turn)):
            who = turn if seat is None else seat
            raise self._turn_error(seat, f"bid {n!r} by seat {who}", _BID)
        low, high = self.bid_range()
        if type(n) is not int or not low <= n <= high:
            raise IllegalBid(
                f"bid {n!r} by seat {turn} is not legal: seat {turn} may bid {low} to {high}"
            )
        self.bid_unchecked(n)

    def play(self, c: Card, seat: int | None = None) -> None:
        """Play card ``c`` for ``seat`` (checked)."""
        if type(c) is not int or not 0 <= c < DECK_SIZE:
            raise IllegalCard(f"{c!r} is not a card")
        turn = self.turn
        if self.phase is not _PLAY or (
            seat is not None and (type(seat) is not int or seat != turn)
        ):
            who = turn if seat is None else seat
            raise self._turn_error(seat, f"card {CARD_NAMES[c]!r} by seat {who}", _PLAY)
        if not self.legal_mask() & (1 << c):
            shown = f"card {CARD_NAMES[c]!r} by seat {turn} is not legal"
            if not self.hand(turn) & (1 << c):
                raise IllegalCard(f"{shown}: seat {turn} does not hold it")
            suit = ("clubs", "diamonds", "hearts", "spades")[self.led_suit]
            raise IllegalCard(f"{shown}: seat {turn} must follow {suit}")
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
        if self.hand(seat) & FACE_MASK:
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
            self.turn = _NEXT[seat]
            return
        if sum(self.bids) < self.required:
            self._close_hand(thrown_in=True, redeal_request=None, deltas=(0, 0, 0, 0))
            return
        self.phase = Phase.PLAY
        self.turn = _NEXT[self.dealer]

    # ---------------------------------------------------------- end of hand

    def _hand_over(self) -> None:
        # Called by the core once the hand's last trick is complete.
        finish_hand(self)

    def _close_hand(
        self,
        *,
        thrown_in: bool,
        redeal_request: int | None,
        deltas: tuple[int, ...],
    ) -> None:
        close = settle_hand if self.lean else close_hand
        close(self, thrown_in=thrown_in, redeal_request=redeal_request, deltas=deltas)

    # ------------------------------------------------------------ utilities

    def clone(self, *, lean: bool = False) -> GameState:
        """An independent copy (history shared: it is append-only).
        ``lean``: a copy for a search, cheaper to play to the end of the
        hand: the hand's end moves the scores and decides the game as
        always, but the hand is not added to the history and no next hand
        is set up: the copy's game is then ``OVER`` (``winner`` ``None``
        if no team has won). Every other rule is the same."""
        new = GameState.__new__(GameState)
        new._core_copy(self)
        new.settings = self.settings
        new.first_dealer = self.first_dealer
        new.scores = self.scores[:]
        new.dealer = self.dealer
        new.hand_index = self.hand_index
        new.phase = self.phase
        new.dealt = self.dealt
        new.bids = self.bids[:]
        new.n_bids = self.n_bids
        new.required = self.required
        new.winner = self.winner
        new.history = self.history[:]
        new.lean = lean or self.lean
        new._rng = self._rng
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # Copies and pickles go through the same path with either core.
        fields = {name: getattr(self, name) for name in GameState.__slots__}
        return (_restore_state, (fields, self._core_state()))

    def __copy__(self) -> GameState:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self.clone()

    def bids_in_order(self) -> list[int]:
        """This hand's bids so far, in bidding order."""
        return [self.bids[s] for s in bidding_order(self.dealer)[: self.n_bids]]

    def bid_of(self, seat: int) -> int | None:
        """The bid ``seat`` made in this hand, or ``None``."""
        b = self.bids[seat]
        return None if b == NO_BID else b

    def value_of_bid(self, seat: int, n: int) -> int | None:
        """What a bid of ``n`` is worth to ``seat`` in this hand (``None`` for
        13, which decides the game instead)."""
        if n == 13:
            return None
        return bid_value(self.settings, n, self.scores[seat])

    def tricks(self) -> list[tuple[int, list[Card], int | None]]:
        """This hand's tricks: (leader, cards in play order, winner or None)."""
        out: list[tuple[int, list[Card], int | None]] = []
        leader = next_seat(self.dealer)
        done = self.done_cards
        for i, winner in enumerate(self.trick_winners):
            out.append((leader, done[4 * i : 4 * i + 4], winner))
            leader = winner
        trick = self.current_trick
        if trick:
            out.append((leader, trick, None))
        return out

    def last_trick(self) -> Trick | None:
        """The last complete trick of the hand in progress or, between hands
        and once the game is over, of the hand just finished; ``None`` when
        that hand has no complete trick (a new hand before its first trick
        is complete, a thrown-in hand)."""
        if self.phase is Phase.DEAL or self.phase is Phase.OVER:
            return self.history[-1].last_trick() if self.history else None
        winners = self.trick_winners
        n = len(winners)
        if n == 0:
            return None
        done = self.done_cards
        leader = winners[-2] if n > 1 else next_seat(self.dealer)
        return Trick(leader, (done[-4], done[-3], done[-2], done[-1]), winners[-1])

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
            trick = " ".join(CARD_NAMES[c] for c in self.current_trick) or "-"
            return f"{head} trick {trick}"
        return head

    def hands_str(self) -> str:
        return " | ".join(f"{s}: {hand_str(self.hand(s))}" for s in range(4))

    def __repr__(self) -> str:
        return f"<GameState {self.line()}>"


def _restore_state(fields: dict[str, Any], core: tuple[Any, ...]) -> GameState:
    """Rebuild a pickled :class:`GameState` (see ``GameState.__reduce__``)."""
    state = GameState.__new__(GameState)
    for name, value in fields.items():
        setattr(state, name, value)
    state._core_restore(core)
    return state
