"""What a new table is made of (:mod:`.creation` makes it; a rematch asks
for one from inside a table actor, which cannot import the factory)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .events import Player, TableKind

__all__ = ["TableSpec"]


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a new table is made of: its kind, host, rules, timer and the
    players seated from the start (``None``: an open seat)."""

    kind: TableKind
    host: str | None
    preset_name: str
    settings: dict[str, Any]
    timer: int
    seats: tuple[Player | None, ...]
    ready: tuple[bool, ...]
    bots: tuple[str | None, ...] | None = None
    """Bots seated from the start, by seat (a rematch's)."""
    table_id: str | None = None
    """The new table's id when it must not be made twice (a rematch's, derived
    from the old table's; a tournament match's, from the tournament, round
    and slot, so a director that restarts never makes a table twice); None:
    a fresh random id."""
    hints: bool = False
    """Whether players may ask for hints (a rematch keeps the table's)."""
    tournament: str | None = None
    start_by_ms: int | None = None
    """A tournament table: the tournament, and when the table closes unless
    its game has started."""
