"""What a decision needs from outside its table, gathered from the store:
the ratings of the people seated (kept, since nobody seated here plays a
rated game elsewhere meanwhile), and for ``sit`` whether the person sits at
another table and how the room will show them."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Collection
from typing import Final

from . import protocol as p
from .clock import Clock
from .commands import Command, Facts, Person, Server
from .events import Player
from .ports import TableLog
from .ratings import display
from .room import TableModel

__all__ = ["FactSource"]

_RNG: Final = secrets.SystemRandom()
"""Deals and first dealers: never reproducible from a seed."""


class FactSource:
    __slots__ = ("_bot", "_bots", "_clock", "_known", "_log", "_plain", "_sub", "ratings")

    def __init__(
        self, log: TableLog, bot: str, bots: Collection[str], clock: Clock, substitute: str
    ) -> None:
        self._log = log
        self._sub = substitute
        self._clock = clock
        self._bot = bot
        self._bots = bots
        self.ratings: dict[str, tuple[float, float]] = {}
        """(mu, sigma) of the people seated, fetched when first needed."""
        self._known: set[str] = set()
        """Users already looked up (with a rating, or not in the store)."""
        self._plain = Facts(
            rng=_RNG, bot=bot, bots=bots, ratings=self.ratings, substitute=substitute
        )
        """The facts of every command but ``sit`` (the ratings dict is live)."""

    async def facts(self, m: TableModel, who: Person | Server, cmd: Command) -> Facts:
        if m.status == "playing":
            missing = set(m.user_ids()) - self._known
            if missing:
                users = await self._log.get_users(missing)
                self.ratings.update({u.id: (u.mu, u.sigma) for u in users.values()})
                self._known |= missing  # absent from the store: never rated
        if isinstance(cmd, p.Rematch):
            return dataclasses.replace(self._plain, now_ms=self._clock.now_ms())
        if isinstance(cmd, p.Reclaim) and isinstance(who, Person):
            # Taking a seat back, like sitting, needs no seat at another
            # unfinished table (the substitute's seat here is not active).
            elsewhere = await self._log.seated_table(who.user_id)
            return dataclasses.replace(self._plain, elsewhere=elsewhere)
        if not isinstance(cmd, p.Sit) or not isinstance(who, Person):
            return self._plain
        elsewhere = await self._log.seated_table(who.user_id)
        u = (await self._log.get_users([who.user_id])).get(who.user_id)
        guest = u is None or u.guest
        rating = None if u is None or u.guest else display(u.mu)
        if u is not None:
            self.ratings[u.id] = (u.mu, u.sigma)
            self._known.add(u.id)
        return Facts(
            rng=_RNG,
            bot=self._bot,
            bots=self._bots,
            ratings=self.ratings,
            sitter=Player(id=who.user_id, name=who.name, guest=guest, rating=rating),
            elsewhere=elsewhere,
            substitute=self._sub,
        )
