"""What a decision needs from outside its table, gathered from the store:
the ratings of the people seated (kept, since nobody seated here plays a
rated game elsewhere meanwhile), and for ``sit`` whether the person sits at
another table and how the room will show them."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import Final

from . import protocol as p
from .commands import Command, Facts, Person, Server
from .events import Player
from .ports import TableLog
from .ratings import display
from .room import TableModel

__all__ = ["FactSource"]

_RNG: Final = secrets.SystemRandom()
"""Deals and first dealers: never reproducible from a seed."""


class FactSource:
    __slots__ = ("_bot", "_bots", "_log", "ratings")

    def __init__(self, log: TableLog, bot: str, bots: Collection[str]) -> None:
        self._log = log
        self._bot = bot
        self._bots = bots
        self.ratings: dict[str, tuple[float, float]] = {}
        """(mu, sigma) of the people seated, fetched when first needed."""

    async def facts(self, m: TableModel, who: Person | Server, cmd: Command) -> Facts:
        sitter = elsewhere = None
        if isinstance(cmd, p.Sit) and isinstance(who, Person):
            elsewhere = await self._log.seated_table(who.user_id)
            u = (await self._log.get_users([who.user_id])).get(who.user_id)
            guest = u is None or u.guest
            rating = None if u is None or u.guest else display(u.mu)
            sitter = Player(id=who.user_id, name=who.name, guest=guest, rating=rating)
            if u is not None:
                self.ratings[u.id] = (u.mu, u.sigma)
        if m.status == "playing":
            missing = set(m.user_ids()) - self.ratings.keys()
            if missing:
                users = await self._log.get_users(missing)
                self.ratings.update({u.id: (u.mu, u.sigma) for u in users.values()})
        return Facts(
            rng=_RNG,
            bot=self._bot,
            bots=self._bots,
            ratings=self.ratings,
            sitter=sitter,
            elsewhere=elsewhere,
        )
