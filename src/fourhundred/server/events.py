"""A table's events: what happened, as immutable typed values.

A table is the fold of its event log (:mod:`.room`). Each event is a frozen
msgspec Struct tagged by ``kind``; the stored form is its fields as JSON (the
``kind`` in its own column), and its **public form** (:meth:`TableEvent.public`)
is what every client may see of it: a ``deal`` without its cards, a
``created`` without its invite, a ``rating`` or ``game_over`` without the raw
rating numbers. Nothing else decides what of an event leaves the server.

Tables written before events were typed (protocol ``fourhundred-ws/1``)
stored ``created`` with the table kind under ``kind``: :func:`from_stored`
reads both forms.

>>> ev = Deal(hand_index=0, dealer=1, cards=(("AH",), (), (), ()))
>>> ev.public()
{'kind': 'deal', 'hand_index': 0, 'dealer': 1}
>>> from_stored("bid", {"seat": 2, "bid": 4, "by": "player"})
Bid(seat=2, bid=4, by='player')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, Literal

import msgspec

__all__ = [
    "ACTION_EVENTS",
    "ROOM_EVENTS",
    "VIEW_EVENTS",
    "Bid",
    "BotAdded",
    "By",
    "Closed",
    "Configured",
    "Created",
    "Deal",
    "Event",
    "GameOver",
    "HandOver",
    "HintUsed",
    "Host",
    "LastTrick",
    "Left",
    "Moved",
    "Play",
    "Player",
    "Rating",
    "RatingChange",
    "Ready",
    "Reclaimed",
    "Redeal",
    "RematchAnswered",
    "RematchEnded",
    "RematchOffered",
    "RematchOpened",
    "RematchWithBots",
    "Removed",
    "Seated",
    "Started",
    "Substituted",
    "TableKind",
    "from_stored",
    "to_stored",
]

TableKind = Literal["private", "casual", "ranked", "tournament"]
By = Literal["player", "timeout", "bot"]
"""Who made a move: the seated person, the turn timer, or a bot."""


class Player(msgspec.Struct, frozen=True):
    """A person as a room shows them."""

    id: str
    name: str
    guest: bool
    rating: int | None


class LastTrick(msgspec.Struct, frozen=True):
    leader: int
    cards: tuple[str, ...]
    winner: int


class RatingChange(msgspec.Struct, frozen=True):
    seat: int
    user: str | None
    before: int
    after: int


_encode: Final = msgspec.json.Encoder().encode


class TableEvent(msgspec.Struct, frozen=True, tag_field="kind"):
    """The base of every event. ``PRIVATE`` names the stored fields no client
    ever receives."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset()

    def public(self) -> dict[str, Any]:
        """What a seat or a spectator may see of this event (with ``kind``)."""
        data: dict[str, Any] = msgspec.to_builtins(self)
        for name in self.PRIVATE:
            data.pop(name, None)
        return data

    def public_json(self) -> bytes:
        """:meth:`public` as JSON (an event with nothing private is encoded
        as it is: the common case, a move, costs one encoding)."""
        return _encode(self.public() if self.PRIVATE else self)


class Created(TableEvent, frozen=True, tag="created"):
    table_kind: TableKind
    host: str | None
    preset: str
    settings: dict[str, Any]
    timer: int
    invite: str | None
    seats: tuple[Player | None, ...]
    ready: tuple[bool, ...]
    bots: tuple[str | None, ...] | None = None
    """Bots seated from the start (a rematch's), by seat; absent before
    rematches existed."""
    hints: bool = False
    """Hints allowed from the start (a rematch of a table that had them)."""
    tournament: str | None = None
    """A tournament table: the tournament whose match this is."""
    start_by_ms: int | None = None
    """A tournament table: closed at this time if the game has not started
    (its director then declares the absent team's forfeit)."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"invite"})


class Seated(TableEvent, frozen=True, tag="seated"):
    seat: int
    user: Player


class Left(TableEvent, frozen=True, tag="left"):
    seat: int
    user: str


class Ready(TableEvent, frozen=True, tag="ready"):
    seat: int
    ready: bool


class Configured(TableEvent, frozen=True, tag="configured"):
    preset: str
    settings: dict[str, Any]
    timer: int
    hints: bool = False
    """Whether a seated player may ask for a hint (absent before hints)."""


class Moved(TableEvent, frozen=True, tag="moved"):
    from_: int = msgspec.field(name="from")
    to: int


class BotAdded(TableEvent, frozen=True, tag="bot_added"):
    seat: int
    bot: str


class Removed(TableEvent, frozen=True, tag="removed"):
    seat: int
    user: str | None


class Host(TableEvent, frozen=True, tag="host"):
    user: str


class Closed(TableEvent, frozen=True, tag="closed"):
    reason: Literal["left", "expired"]


class Started(TableEvent, frozen=True, tag="started"):
    first_dealer: int
    rated: bool


class Deal(TableEvent, frozen=True, tag="deal"):
    hand_index: int
    dealer: int
    cards: tuple[tuple[str, ...], ...]
    """Each seat's 13 cards: stored, never sent (a seat sees its own through
    its view)."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"cards"})


class Bid(TableEvent, frozen=True, tag="bid"):
    seat: int
    bid: int
    by: By


class Play(TableEvent, frozen=True, tag="play"):
    seat: int
    card: str
    by: By
    trick_winner: int | None = None
    """The seat that won the trick this card completed, else None."""


class Redeal(TableEvent, frozen=True, tag="redeal"):
    seat: int


class HandOver(TableEvent, frozen=True, tag="hand_over"):
    """A finished hand: the score sheet's line (no card but the last trick,
    which everyone saw)."""

    hand_index: int
    dealer: int
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    thrown_in: bool
    redeal_request: int | None
    last_trick: LastTrick | None
    hinted: tuple[int, ...] = ()
    """The seats that asked for a hint during this hand (the score sheet's
    mark; absent before hints)."""


class HintUsed(TableEvent, frozen=True, tag="hint_used"):
    """A seated player asked what the expert would do (the first time in
    this hand: later hints in the same hand add nothing). The hint itself
    went to that player alone."""

    seat: int
    hand_index: int


class Substituted(TableEvent, frozen=True, tag="substituted"):
    seat: int
    user: str
    bot: str
    reason: Literal["timeouts", "left"]


class Reclaimed(TableEvent, frozen=True, tag="reclaimed"):
    seat: int
    user: str


class Rating(TableEvent, frozen=True, tag="rating"):
    """A Ranked leaver's loss, charged at once."""

    user: str
    before: int
    after: int
    reason: Literal["timeouts", "left"]
    mu: float
    sigma: float

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"mu", "sigma"})


class GameOver(TableEvent, frozen=True, tag="game_over"):
    winner: int | None
    scores: tuple[int, ...]
    reason: Literal["won", "abandoned"]
    rated: bool
    ratings: tuple[RatingChange, ...] | None
    updates: tuple[tuple[float, float], ...] | None = None
    """The new (mu, sigma) of each seat of a rated game (stored only)."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"updates"})


class RematchOffered(TableEvent, frozen=True, tag="rematch_offered"):
    """A seated player asked for a rematch after the game (and accepted it);
    the others may answer until ``deadline_ms`` (wall clock)."""

    seat: int
    deadline_ms: int


class RematchAnswered(TableEvent, frozen=True, tag="rematch_answered"):
    seat: int
    accept: bool


class RematchEnded(TableEvent, frozen=True, tag="rematch_ended"):
    """The offer ended without every seat accepting."""

    reason: Literal["declined", "expired"]


class RematchWithBots(TableEvent, frozen=True, tag="rematch_with_bots"):
    """An accepter chose to open the rematch without the seats that did not
    accept: bots in them (``bots``), or left open to fill (``open``)."""

    seat: int
    fill: Literal["bots", "open"] = "bots"


class RematchOpened(TableEvent, frozen=True, tag="rematch_opened"):
    """The rematch's table exists; its players are seated there."""

    table: str
    invite: str | None = None
    """A Private rematch's invite: in the old table's ``room``, never in
    the event's public form."""

    PRIVATE: ClassVar[frozenset[str]] = frozenset({"invite"})


Event = (
    Created
    | Seated
    | Left
    | Ready
    | Configured
    | Moved
    | BotAdded
    | Removed
    | Host
    | Closed
    | Started
    | Deal
    | Bid
    | Play
    | Redeal
    | HandOver
    | HintUsed
    | Substituted
    | Reclaimed
    | Rating
    | GameOver
    | RematchOffered
    | RematchAnswered
    | RematchEnded
    | RematchWithBots
    | RematchOpened
)

ACTION_EVENTS: Final = (Bid, Play, Redeal)
"""A player's (or the timer's, or a bot's) move."""
ROOM_EVENTS: Final = (
    Created,
    Seated,
    Left,
    Ready,
    Configured,
    Moved,
    BotAdded,
    Removed,
    Host,
    Closed,
    Started,
    Substituted,
    Reclaimed,
    Rating,
    GameOver,
    RematchOffered,
    RematchAnswered,
    RematchEnded,
    RematchWithBots,
    RematchOpened,
)
"""Events that change the room (what the lobby and ``room`` show); the
others (moves, deals, finished hands) leave it as it was."""


VIEW_EVENTS: Final = (Deal, Bid, Play, Redeal, Started, Closed)
"""Events that change what a seat's view shows (the others leave the game as
it was: a hand's end is already in the view of the card that ended it)."""


def to_stored(event: TableEvent) -> tuple[str, dict[str, Any]]:
    """The event's ``kind`` and its stored fields."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    return data.pop("kind"), data


def _upgrade_v1(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Stored fields as written before events were typed."""
    out = dict(data)
    if kind == "created" and "kind" in out:
        out["table_kind"] = out.pop("kind")
    return out


def from_stored(kind: str, data: Mapping[str, Any]) -> Event:
    """The event a stored row holds (either stored form). Raises
    ``ValueError`` for a row no version of the server wrote."""
    fields = _upgrade_v1(kind, data)
    fields["kind"] = kind
    try:
        event: Event = msgspec.convert(fields, Event)
    except msgspec.ValidationError as e:
        raise ValueError(f"stored {kind!r} event does not fit: {e}") from None
    return event
