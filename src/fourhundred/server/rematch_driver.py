"""The table actor's side of a rematch: when an offer's time runs out, and
making the new table once it is due (the I/O that :mod:`.rematch` leaves
out)."""

from __future__ import annotations

import base64
import hashlib

from .clock import Clock
from .commands import Command, RematchOpen, RematchTimeout
from .logs import get_logger
from .ports import OpenTable
from .room import TableModel
from .tablespec import TableSpec

__all__ = ["RematchDriver", "rematch_id", "spec_for"]

log = get_logger("fourhundred.table")

RETRY_S = 1.0
"""After the new table could not be made, when to try again."""


def rematch_id(table_id: str) -> str:
    """The id of ``table_id``'s rematch table: fixed, so that it is made once.

    >>> rematch_id("Hk2p9QvZxA4") == rematch_id("Hk2p9QvZxA4") != rematch_id("x")
    True
    >>> len(rematch_id("Hk2p9QvZxA4"))
    11
    """
    digest = hashlib.sha256(f"rematch:{table_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:8]).decode().rstrip("=")


def spec_for(m: TableModel, bot: str) -> TableSpec:
    """The rematch of ``m``: its kind, rules and timer; each person who
    accepted in their seat (ready), a bot in every other seat (the old
    game's bot where one played, else ``bot``), or, when the accepters chose
    open seats, nobody there (a waiting room)."""
    r = m.rematch
    assert r is not None
    people = [
        s.user if r.answers[i] and s.user is not None and s.active else None
        for i, s in enumerate(m.seats)
    ]
    open_seats = r.with_bots and r.fill == "open"
    bots = [
        None if people[i] or (open_seats and s.user is not None) else (s.bot or bot)
        for i, s in enumerate(m.seats)
    ]
    ids = [u.id for u in people if u is not None]
    offerer = people[r.offered_by]
    host = m.host if m.host in ids else (offerer.id if offerer else None)
    return TableSpec(
        kind=m.kind,
        host=host,
        preset_name=m.preset,
        settings=m.settings.to_dict(),
        timer=m.timer,
        seats=tuple(people),
        ready=tuple(u is not None for u in people),
        bots=tuple(bots),
        table_id=rematch_id(m.id),
        hints=m.hints,
    )


class RematchDriver:
    """Says when a table's rematch needs the actor, and what it then does."""

    __slots__ = ("_bot", "_clock", "_not_before", "_open")

    def __init__(self, clock: Clock, open_table: OpenTable, bot: str) -> None:
        self._clock = clock
        self._open = open_table
        self._bot = bot
        self._not_before = 0.0

    def wait_s(self, m: TableModel) -> float | None:
        """Seconds until the rematch needs the actor (0: now; None: never)."""
        r = m.rematch
        if r is None or r.state not in ("open", "opening"):
            return None
        if r.state == "opening":
            return max(0.0, self._not_before - self._clock.monotonic())
        return max(0.0, (r.deadline_ms - self._clock.now_ms()) / 1000)

    async def command(self, m: TableModel) -> Command | None:
        """The server command that is due: end the offer, or (once the new
        table is made) record it. None if the table could not be made."""
        r = m.rematch
        assert r is not None
        if r.state == "open":
            return RematchTimeout()
        try:
            table, invite = await self._open(spec_for(m, self._bot))
        except Exception as e:
            log.warning("rematch_not_opened", table=m.id, error=repr(e))
            self._not_before = self._clock.monotonic() + RETRY_S
            return None
        log.info("rematch_opened", table=m.id, rematch=table)
        return RematchOpen(table=table, invite=invite)
