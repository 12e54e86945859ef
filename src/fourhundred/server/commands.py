"""Who may act at a table, and what they may ask: the commands ``decide``
judges, and the facts it needs from outside the table.

People send the client's table messages (:mod:`.protocol`); the server
itself sends :class:`TurnTimeout`, :class:`BotMove`, :class:`Expire`, :class:`Start`,
:class:`RematchTimeout` and :class:`RematchOpen`.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final

from fourhundred.engine import Action

from . import protocol as p
from .events import Player
from .results import Ratings

__all__ = [
    "SERVER",
    "BotMove",
    "Command",
    "Expire",
    "Facts",
    "Person",
    "PersonCommand",
    "RematchOpen",
    "RematchTimeout",
    "Server",
    "Start",
    "TurnTimeout",
]


@dataclass(frozen=True, slots=True)
class Person:
    """A connected person (a player or a spectator)."""

    user_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Server:
    """The server acting on its own: the turn timer, a bot, an expiry."""


SERVER: Final = Server()


@dataclass(frozen=True, slots=True)
class TurnTimeout:
    """The turn timer ran out: the server plays for the seat to act."""


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's choice for the seat to act (None: it failed to choose)."""

    action: Action | None


@dataclass(frozen=True, slots=True)
class Expire:
    """Nobody has had this waiting room open for the expiry time."""


@dataclass(frozen=True, slots=True)
class Start:
    """The table's actor started: a table created full (Ranked) begins."""


@dataclass(frozen=True, slots=True)
class RematchTimeout:
    """The rematch offer's deadline passed."""


@dataclass(frozen=True, slots=True)
class RematchOpen:
    """The rematch's table was made: record it."""

    table: str
    invite: str | None


PersonCommand = (
    p.Sit
    | p.Leave
    | p.Ready
    | p.Configure
    | p.Move
    | p.AddBot
    | p.Remove
    | p.Bid
    | p.Play
    | p.Redeal
    | p.Hint
    | p.Reclaim
    | p.Rematch
    | p.RematchBots
)
Command = PersonCommand | TurnTimeout | BotMove | Expire | Start | RematchTimeout | RematchOpen


@dataclass(frozen=True, slots=True)
class Facts:
    """What a decision needs from outside the table."""

    rng: random.Random
    """Deals and the first dealer (``secrets.SystemRandom`` when serving)."""
    bot: str
    """The server's bot: what a host's ``add_bot`` seats without a level."""
    bots: Collection[str]
    """Every bot a host may add."""
    ratings: Ratings = field(default_factory=dict)
    """(mu, sigma) of the people seated (and of a person sitting down)."""
    sitter: Player | None = None
    """For ``sit``: the person as the room will show them."""
    elsewhere: str | None = None
    """For ``sit``: the table the person already sits at, if any."""
    now_ms: int = 0
    """For ``rematch``: the wall clock (the offer's deadline)."""
    substitute: str = "expert"
    """The bot that stands in for a player who left or timed out."""
