"""System tournaments: recurring tournaments the server schedules itself,
read from ``--tournaments-file`` (docs/tournaments.md, "System
tournaments").

Whenever no open tournament of an entry's name made by the server exists,
the next occurrence is created. In a cluster one process schedules at a
time (the holder of the ``tourney-schedule`` lease).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from ..errors import CommandError
from ..logs import get_logger
from .commands import Create
from .decide import scheduled
from .directors import Directors

__all__ = ["SystemEntry", "load_schedule", "next_start", "schedule_once"]

log = get_logger("fourhundred.tournament")

SCHEDULE_LEASE = "tourney-schedule"

HourMinute = Annotated[str, msgspec.Meta(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]


class SystemEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    name: str
    at: HourMinute
    """``HH:MM``, UTC."""
    format: Literal["knockout", "swiss"]
    max_teams: int
    rounds: int | None = None
    weekday: Annotated[int, msgspec.Meta(ge=0, le=6)] | None = None
    """0 Monday .. 6 Sunday; None: every day."""
    preset: str = "standard"
    settings: dict[str, Any] = msgspec.field(default_factory=dict)
    timer: int = 30

    def command(self, start_ms: int) -> Create:
        return Create(
            name=self.name,
            format=self.format,
            max_teams=self.max_teams,
            start_ms=start_ms,
            rounds=self.rounds,
            public=True,
            preset=self.preset,
            settings=self.settings,
            timer=self.timer,
        )


def next_start(entry: SystemEntry, now_ms: int) -> int:
    """The entry's next start after ``now_ms``.

    >>> e = SystemEntry("Daily", "20:00", "knockout", 16)
    >>> t0 = int(dt.datetime(2026, 1, 5, 21, 0, tzinfo=dt.UTC).timestamp() * 1000)
    >>> dt.datetime.fromtimestamp(next_start(e, t0) / 1000, dt.UTC).isoformat()
    '2026-01-06T20:00:00+00:00'
    """
    hour, minute = (int(x) for x in entry.at.split(":"))
    now = dt.datetime.fromtimestamp(now_ms / 1000, dt.UTC)
    day = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    while day <= now or (entry.weekday is not None and day.weekday() != entry.weekday):
        day += dt.timedelta(days=1)
    return int(day.timestamp() * 1000)


def load_schedule(path: Path, now_ms: int) -> list[SystemEntry]:
    """The entries of a tournaments file; ``ValueError`` naming the entry
    (by position and name) and its problem."""
    try:
        entries = msgspec.json.decode(path.read_bytes(), type=list[SystemEntry])
    except (OSError, msgspec.DecodeError) as e:
        raise ValueError(f"{path}: {e}") from None
    for i, entry in enumerate(entries):
        try:
            scheduled(entry.command(next_start(entry, now_ms)), now_ms)
        except CommandError as e:
            raise ValueError(f"{path}: entry {i} ({entry.name!r}): {e.message}") from None
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: two entries have the same name")
    return entries


async def schedule_once(directors: Directors, entries: Sequence[SystemEntry]) -> int:
    """Create the next occurrence of each entry with none open; returns how
    many were created."""
    if not entries or not await directors.leases.acquire(SCHEDULE_LEASE):
        return 0
    open_ = await directors.store.tournaments.listed(("open",), limit=10_000)
    waiting = {r.name for r in open_ if r.organiser is None}
    made = 0
    for entry in entries:
        if entry.name in waiting:
            continue
        start = next_start(entry, directors.clock.now_ms())
        await directors.create(None, entry.command(start), invite=False)
        log.info("system_tournament_scheduled", name=entry.name, start_ms=start)
        made += 1
    return made
