"""Game records (docs/game-record.md): load, validate, replay, save.

A record is the settings, the first dealer and, for each hand, the deal and
every action in order; it is what is stored, exported, replayed and used as a
test fixture. This module works on the decoded JSON value (dicts, lists,
strings, ints); turning text into that value is the caller's job.

Every fault is a :class:`~fourhundred.engine.errors.RecordError` whose
``str()`` is the one line of docs/game-record.md, ``hand H action A: reason``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import (
    CARD_NAMES,
    FULL_DECK,
    CardMask,
    card_from_name,
    cards_of,
    is_card_name,
)
from .errors import FourHundredError, IllegalAction, RecordError
from .settings import Settings
from .state import GameState, Phase

__all__ = [
    "RECORD_FORMAT",
    "GameRecord",
    "HandRecord",
    "Move",
    "moves",
    "record_from_state",
    "replay",
    "replay_result",
]

RECORD_FORMAT: Final = "fourhundred-record/1"
_RECORD_KEYS: Final = frozenset({"format", "rules", "first_dealer", "hands"})
_HAND_KEYS: Final = frozenset({"dealer", "deal", "redeal_request", "bids", "plays"})
_HAND_REQUIRED: Final = frozenset({"dealer", "deal", "bids", "plays"})


@dataclass(frozen=True, slots=True)
class HandRecord:
    dealer: int
    deal: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
    redeal_request: int | None
    bids: tuple[Any, ...]
    plays: tuple[Any, ...]
    """Bids and plays as found in the JSON (checked when replayed)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "deal": [list(d) for d in self.deal],
            "redeal_request": self.redeal_request,
            "bids": list(self.bids),
            "plays": list(self.plays),
        }


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A parsed record. Structure is checked by :meth:`from_dict`; the rules
    are checked by :func:`replay`."""

    settings: Settings
    rules: dict[str, Any]
    """The ``rules`` object as written (kept so a record saves as it came)."""
    first_dealer: int
    hands: tuple[HandRecord, ...]

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        unknown = sorted(k for k in data if k not in _RECORD_KEYS)
        if unknown:
            raise RecordError(f"unknown keys {unknown}")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"format must be {RECORD_FORMAT!r}, not {data.get('format')!r}")
        if "rules" not in data:
            raise RecordError('the record has no rules (give at least {"preset": NAME})')
        rules = data["rules"]
        try:
            settings = Settings.from_dict(rules)
        except FourHundredError as e:
            raise RecordError(str(e)) from None
        first = data.get("first_dealer")
        if type(first) is not int or not 0 <= first <= 3:
            raise RecordError("first_dealer must be a seat 0-3")
        hands_raw = data.get("hands")
        if not isinstance(hands_raw, list):
            raise RecordError("hands must be a list")
        hands = tuple(_parse_hand(h, i) for i, h in enumerate(hands_raw))
        return cls(settings, dict(rules), first, hands)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "rules": dict(self.rules),
            "first_dealer": self.first_dealer,
            "hands": [h.to_dict() for h in self.hands],
        }


def _parse_hand(raw: object, index: int) -> HandRecord:
    def bad(why: str = "unknown or malformed hand") -> RecordError:
        return RecordError(why, index)

    if not isinstance(raw, Mapping):
        raise bad()
    keys = set(raw)
    if not keys <= _HAND_KEYS or not keys >= _HAND_REQUIRED:
        raise bad()
    dealer = raw["dealer"]
    deal = raw["deal"]
    bids = raw["bids"]
    plays = raw["plays"]
    redeal = raw.get("redeal_request")
    if type(dealer) is not int or not isinstance(bids, list) or not isinstance(plays, list):
        raise bad()
    if redeal is not None and type(redeal) is not int:
        raise bad()
    if not isinstance(deal, list) or len(deal) != 4 or not all(isinstance(d, list) for d in deal):
        raise bad("the deal is not 52 distinct cards, 13 to each seat")
    cards = tuple(tuple(d) for d in deal)
    return HandRecord(
        dealer=dealer,
        deal=(cards[0], cards[1], cards[2], cards[3]),
        redeal_request=redeal,
        bids=tuple(bids),
        plays=tuple(plays),
    )


def _deal_masks(hand: HandRecord, index: int) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    masks = []
    for seat_cards in hand.deal:
        m = 0
        for name in seat_cards:
            if not is_card_name(name):
                raise RecordError("the deal is not 52 distinct cards, 13 to each seat", index)
            m |= 1 << card_from_name(name)
        if len(seat_cards) != 13 or m.bit_count() != 13:
            raise RecordError("the deal is not 52 distinct cards, 13 to each seat", index)
        masks.append(m)
    if masks[0] | masks[1] | masks[2] | masks[3] != FULL_DECK:
        raise RecordError("the deal is not 52 distinct cards, 13 to each seat", index)
    return (masks[0], masks[1], masks[2], masks[3])


def replay(record: GameRecord | object) -> GameState:
    """Re-play a record through the checked engine and return the final state.
    Raises :class:`RecordError` at the first fault."""
    rec = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    state = GameState(rec.settings, rec.first_dealer)
    last = len(rec.hands) - 1
    for i, hand in enumerate(rec.hands):
        if state.phase is Phase.OVER:
            raise RecordError("the game was already over before this hand", i)
        if hand.dealer != state.dealer:
            raise RecordError(f"dealer should be seat {state.dealer}", i)
        state.deal(_deal_masks(hand, i))
        if hand.redeal_request is not None:
            _replay_redeal(state, hand, i)
            continue
        _replay_bids(state, hand, i)
        if state.phase is Phase.BID:
            if hand.plays:
                raise RecordError("a card is played before the bidding is complete", i, 4)
            if i != last:
                raise RecordError("hand is missing bids", i, len(hand.bids))
            continue
        _replay_plays(state, hand, i)
        if state.phase is Phase.PLAY and i != last:
            raise RecordError("hand is missing plays", i, 4 + len(hand.plays))
    return state


@dataclass(frozen=True, slots=True)
class Move:
    """One bid or card of a record, with the game as it was just before it
    (``state``: the walk's one state, valid until the next move)."""

    hand: int
    index: int
    """Its place among the hand's bids, or among its cards (from 0)."""
    step: int
    """Its place among all the hand's actions: the bids, then the cards."""
    kind: str
    """``"bid"`` or ``"card"``."""
    action: int
    """The bid, or the card."""
    state: GameState


def moves(record: GameRecord | object) -> Iterator[Move]:
    """Every bid and card of ``record`` in order, each with the state before
    it. The record is checked first (:func:`replay`); a redealt hand has no
    moves.

    >>> from fourhundred.engine.settings import Settings
    >>> s = GameState(Settings(), first_dealer=0)
    >>> s.deal([0x1FFF << (13 * i) for i in range(4)])
    >>> s.bid(2)
    >>> [(m.kind, m.action) for m in moves(record_from_state(s))]
    [('bid', 2)]
    """
    rec = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    replay(rec)
    state = GameState(rec.settings, rec.first_dealer)
    for i, hand in enumerate(rec.hands):
        state.deal(_deal_masks(hand, i))
        if hand.redeal_request is not None:
            state.request_redeal(hand.redeal_request)
            continue
        for a, b in enumerate(hand.bids):
            yield Move(i, a, a, "bid", b, state)
            state.bid(b)
        for a, name in enumerate(hand.plays):
            c = card_from_name(name)
            yield Move(i, a, len(hand.bids) + a, "card", c, state)
            state.play(c)


def _replay_redeal(state: GameState, hand: HandRecord, i: int) -> None:
    seat = hand.redeal_request
    assert seat is not None
    # A redeal hand holds nothing else; whether the seat may ask is the
    # engine's rule (`can_redeal`), not the record's.
    if hand.bids or hand.plays or not 0 <= seat <= 3 or not state.can_redeal(seat):
        raise RecordError("redeal request not allowed", i)
    state.request_redeal(seat)


def _replay_bids(state: GameState, hand: HandRecord, i: int) -> None:
    for a, b in enumerate(hand.bids):
        if state.phase is not Phase.BID:
            raise RecordError("the hand has more than four bids", i, a)
        try:
            state.bid(b)
        except IllegalAction:
            raise RecordError(f"bid {b!r} by seat {state.turn} is not legal", i, a) from None


def _replay_plays(state: GameState, hand: HandRecord, i: int) -> None:
    thrown_in = state.phase is not Phase.PLAY
    for k, c in enumerate(hand.plays):
        a = 4 + k
        if thrown_in:
            raise RecordError("thrown-in hand has plays", i, a)
        if state.phase is not Phase.PLAY or state.hand_index != i:
            raise RecordError("the hand is already over", i, a)
        seat = state.turn
        if not is_card_name(c):
            raise RecordError(f"card {c!r} by seat {seat} is not legal", i, a)
        try:
            state.play(card_from_name(c))
        except IllegalAction:
            raise RecordError(f"card {c!r} by seat {seat} is not legal", i, a) from None


def replay_result(record: GameRecord | object) -> dict[str, Any]:
    """The object ``fourhundred replay`` prints for a record (docs/game-record.md,
    "The result of a replay")."""
    state = replay(record)
    return result_of(state)


def result_of(state: GameState) -> dict[str, Any]:
    """The replay result of a game state: every hand, the totals, the winner
    and what comes next."""
    hands: list[dict[str, Any]] = [
        {
            "thrown_in": h.thrown_in,
            "tricks": list(h.tricks),
            "deltas": list(h.deltas),
            "scores": list(h.scores),
        }
        for h in state.history
    ]
    if state.phase in (Phase.BID, Phase.PLAY):
        hands.append(
            {
                "thrown_in": False,
                "tricks": list(state.tricks_won),
                "deltas": [0, 0, 0, 0],
                "scores": list(state.scores),
            }
        )
    nxt: dict[str, Any] | None
    if state.phase is Phase.OVER:
        nxt = None
    else:
        if state.phase is Phase.PLAY:
            legal: list[Any] = [CARD_NAMES[c] for c in state.legal_cards()]
            timeout: Any = CARD_NAMES[state.timeout_action()]
        else:
            legal = state.legal_bids()
            timeout = legal[0]
        nxt = {
            "hand": state.hand_index,
            "seat": state.turn,
            "phase": "play" if state.phase is Phase.PLAY else "bid",
            "legal": legal,
            "timeout_action": timeout,
        }
    return {
        "hands": hands,
        "scores": list(state.scores),
        "winner": state.winner,
        "next": nxt,
    }


def record_from_state(state: GameState, rules: Mapping[str, Any] | None = None) -> GameRecord:
    """The record of a game so far: every finished hand and the one in
    progress (a hand waiting for its deal is not listed)."""
    hands = [
        HandRecord(
            dealer=h.dealer,
            deal=_names(h.deal),
            redeal_request=h.redeal_request,
            bids=h.bids,
            plays=tuple(CARD_NAMES[c] for c in h.plays),
        )
        for h in state.history
    ]
    if state.phase in (Phase.BID, Phase.PLAY):
        hands.append(
            HandRecord(
                dealer=state.dealer,
                deal=_names(state.dealt),
                redeal_request=None,
                bids=tuple(state.bids_in_order()),
                plays=tuple(CARD_NAMES[c] for c in state.plays),
            )
        )
    return GameRecord(
        settings=state.settings,
        rules=dict(rules) if rules is not None else state.settings.to_compact_dict(),
        first_dealer=state.first_dealer,
        hands=tuple(hands),
    )


def _names(
    deal: tuple[CardMask, CardMask, CardMask, CardMask],
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    d = [tuple(CARD_NAMES[c] for c in cards_of(m)) for m in deal]
    return (d[0], d[1], d[2], d[3])
