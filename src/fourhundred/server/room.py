"""A table's whole state as a fold over its event log.

:class:`TableModel` is rebuilt by applying the stored events in order, the
same way the table actor changes it live: :meth:`TableModel.apply` is the one
place a table changes, so a table rebuilt after a restart is exactly the one
that was running. Pure: no I/O, no clock, no asyncio.

Events hold public data, except a ``deal`` (its cards) and a few private
fields listed in ``PRIVATE_FIELDS``; :func:`public_event` is what clients get.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from fourhundred.engine import (
    BID_BASE,
    REDEAL,
    GameState,
    Phase,
    Settings,
    mask_of,
    next_seat,
    parse_card,
    team_of,
)
from fourhundred.store import StoredEvent

__all__ = [
    "ACTION_KINDS",
    "KINDS",
    "PRIVATE_FIELDS",
    "Player",
    "SeatState",
    "TableModel",
    "public_event",
]

KINDS: Final = ("private", "casual", "ranked")
ACTION_KINDS: Final = frozenset({"bid", "play", "redeal"})
"""Events that are a player's (or the timer's, or a bot's) move."""

PRIVATE_FIELDS: Final[dict[str, frozenset[str]]] = {
    "deal": frozenset({"cards"}),
    "created": frozenset({"invite"}),
    "rating": frozenset({"mu", "sigma"}),
    "game_over": frozenset({"rating_updates"}),
}
"""Stored fields no client ever receives (a deal's cards above all)."""


def public_event(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The event as clients see it: ``{"kind": ..., **public fields}``.

    >>> public_event("deal", {"hand_index": 0, "dealer": 1, "cards": [["AH"]]})
    {'kind': 'deal', 'hand_index': 0, 'dealer': 1}
    """
    hidden = PRIVATE_FIELDS.get(kind, frozenset())
    return {"kind": kind, **{k: v for k, v in data.items() if k not in hidden}}


@dataclass(frozen=True, slots=True)
class Player:
    """A person as a room shows them."""

    id: str
    name: str
    guest: bool
    rating: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "guest": self.guest, "rating": self.rating}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        return cls(d["id"], d["name"], d["guest"], d["rating"])


@dataclass(slots=True)
class SeatState:
    user: Player | None = None
    bot: str | None = None
    """The bot playing this seat: host-added (``user`` None) or a substitute."""
    substitute: bool = False
    ready: bool = False
    active: bool = True
    """False once the seated player left the game (a bot plays on)."""
    timeouts: int = 0
    """Consecutive turns the timer played for this seat."""

    @property
    def empty(self) -> bool:
        return self.user is None and self.bot is None

    @property
    def human(self) -> bool:
        return self.user is not None


class TableModel:
    """Room (seats, host, rules, timer) and game of one table."""

    def __init__(self, table_id: str, created: StoredEvent) -> None:
        if created.kind != "created" or created.version != 1:
            raise ValueError("a table's log starts with its `created` event at version 1")
        d = created.data
        self.id = table_id
        self.kind: str = d["kind"]
        self.invite: str | None = d.get("invite")
        self.created_ms = created.at_ms
        self.host: str | None = d["host"]
        self.preset: str = d["preset"]
        self.settings = Settings.from_dict(d["settings"])
        self.timer: int = d["timer"]
        self.status = "waiting"
        self.seats = [SeatState() for _ in range(4)]
        for i, p in enumerate(d["seats"]):
            if p is not None:
                self.seats[i].user = Player.from_dict(p)
                self.seats[i].ready = bool(d["ready"][i])
        self.game: GameState | None = None
        self.version = 1
        self.rated = False
        self.sheet: list[dict[str, Any]] = []
        self.charged: dict[str, tuple[int, int]] = {}
        """Ranked leavers already charged a loss: user -> (before, after)."""
        self.result: dict[str, Any] | None = None
        self.last_trick: dict[str, Any] | None = None

    def copy(self) -> TableModel:
        """An independent copy (a transaction works on one)."""
        new = TableModel.__new__(TableModel)
        new.__dict__.update(self.__dict__)
        new.seats = [replace(s) for s in self.seats]
        new.game = None if self.game is None else self.game.clone()
        new.sheet = list(self.sheet)
        new.charged = dict(self.charged)
        return new

    # ----------------------------------------------------------- queries

    def seat_of(self, user_id: str) -> int | None:
        """The seat ``user_id`` holds (as player or as the owner of a
        substitute's seat)."""
        for i, s in enumerate(self.seats):
            if s.user is not None and s.user.id == user_id:
                return i
        return None

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.empty) if self.status == "waiting" else 0

    @property
    def in_play(self) -> bool:
        return (
            self.status == "playing"
            and self.game is not None
            and self.game.phase in (Phase.BID, Phase.PLAY)
        )

    def bot_for_turn(self) -> str | None:
        """The bot that must act now, if the seat to act is a bot's."""
        if not self.in_play or self.game is None:
            return None
        return self.seats[self.game.turn].bot

    def settings_changes(self) -> dict[str, Any]:
        from fourhundred.engine import preset as get_preset

        return self.settings.differences(get_preset(self.preset))

    def seat_rows(self) -> list[tuple[int, str, bool]]:
        """(seat, user, active) for every seat a person holds."""
        return [(i, s.user.id, s.active) for i, s in enumerate(self.seats) if s.user is not None]

    def summary(self, connected: set[int] | frozenset[int], spectators: int) -> dict[str, Any]:
        """The table summary of docs/protocol.md (the lobby row and ``room``)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "preset": self.preset,
            "settings": self.settings.to_dict(),
            "changes": self.settings_changes(),
            "timer": self.timer,
            "seats": [
                {
                    "seat": i,
                    "team": team_of(i),
                    "user": None if s.user is None else s.user.to_dict(),
                    "bot": s.bot,
                    "substitute": s.substitute,
                    "ready": s.ready or (s.bot is not None and not s.substitute),
                    "connected": (s.bot is not None and s.user is None) or i in connected,
                }
                for i, s in enumerate(self.seats)
            ],
            "open_seats": self.open_seats,
            "host": self.host,
            "spectators": spectators,
            "rated": self.rated,
            "created_ms": self.created_ms,
        }

    # ------------------------------------------------------------ change

    def apply(self, ev: StoredEvent) -> None:
        """Apply the next event of the log. Raises ``ValueError`` (an engine
        ``IllegalAction`` for a move) and changes nothing the caller keeps
        if the event does not fit: callers apply to a :meth:`copy`."""
        if ev.version != self.version + 1:
            raise ValueError(f"event {ev.version} does not follow version {self.version}")
        handler = getattr(self, f"_on_{ev.kind}", None)
        if handler is None:
            raise ValueError(f"unknown event kind {ev.kind!r}")
        handler(ev.data)
        self.version = ev.version

    def _on_seated(self, d: dict[str, Any]) -> None:
        s = self.seats[d["seat"]]
        if not s.empty:
            raise ValueError(f"seat {d['seat']} is taken")
        s.user = Player.from_dict(d["user"])
        s.ready = False

    def _on_left(self, d: dict[str, Any]) -> None:
        self.seats[d["seat"]] = SeatState()

    def _on_ready(self, d: dict[str, Any]) -> None:
        self.seats[d["seat"]].ready = bool(d["ready"])

    def _on_configured(self, d: dict[str, Any]) -> None:
        self.preset = d["preset"]
        self.settings = Settings.from_dict(d["settings"])
        self.timer = d["timer"]
        for s in self.seats:
            s.ready = False

    def _on_moved(self, d: dict[str, Any]) -> None:
        a, b = d["from"], d["to"]
        self.seats[a], self.seats[b] = self.seats[b], self.seats[a]

    def _on_bot_added(self, d: dict[str, Any]) -> None:
        self.seats[d["seat"]] = SeatState(bot=d["bot"], ready=True)

    def _on_removed(self, d: dict[str, Any]) -> None:
        self.seats[d["seat"]] = SeatState()

    def _on_host(self, d: dict[str, Any]) -> None:
        self.host = d["user"]

    def _on_closed(self, d: dict[str, Any]) -> None:
        self.status = "closed"

    def _on_started(self, d: dict[str, Any]) -> None:
        self.status = "playing"
        self.rated = bool(d["rated"])
        self.game = GameState(self.settings, first_dealer=d["first_dealer"])

    def _on_deal(self, d: dict[str, Any]) -> None:
        assert self.game is not None
        self.game.deal([mask_of([parse_card(c) for c in cards]) for cards in d["cards"]])
        self.last_trick = None

    def _move(self, seat: int, by: str) -> None:
        s = self.seats[seat]
        if by == "player":
            s.timeouts = 0
        elif by == "timeout":
            s.timeouts += 1

    def _on_bid(self, d: dict[str, Any]) -> None:
        assert self.game is not None
        self.game.apply(BID_BASE + d["bid"], d["seat"])
        self._move(d["seat"], d["by"])

    def _on_play(self, d: dict[str, Any]) -> None:
        g = self.game
        assert g is not None
        leader = next_seat(g.turn, -len(g.current_trick))
        cards = [*g.current_trick]
        g.apply(parse_card(d["card"]), d["seat"])
        cards.append(parse_card(d["card"]))
        if len(cards) == 4:
            from fourhundred.engine import CARD_NAMES

            winner = g.trick_winners[-1] if g.trick_winners else None
            self.last_trick = {
                "leader": leader,
                "cards": [CARD_NAMES[c] for c in cards],
                "winner": winner,
            }
        self._move(d["seat"], d["by"])

    def _on_redeal(self, d: dict[str, Any]) -> None:
        assert self.game is not None
        self.game.apply(REDEAL, d["seat"])

    def _on_hand_over(self, d: dict[str, Any]) -> None:
        self.sheet.append(d)

    def _on_substituted(self, d: dict[str, Any]) -> None:
        s = self.seats[d["seat"]]
        s.bot = d["bot"]
        s.substitute = True
        if d["reason"] == "left":
            s.active = False
        if self.kind == "ranked":
            # A bot plays from now on: the game can no longer be rated.
            self.rated = False

    def _on_reclaimed(self, d: dict[str, Any]) -> None:
        s = self.seats[d["seat"]]
        s.bot = None
        s.substitute = False
        s.active = True
        s.timeouts = 0

    def _on_rating(self, d: dict[str, Any]) -> None:
        self.charged[d["user"]] = (d["before"], d["after"])

    def _on_game_over(self, d: dict[str, Any]) -> None:
        self.status = "over"
        self.result = d
