"""What a tournament table refuses: its seats are the director's.

A tournament's director seats both teams (team A at seats 0 and 2, team B at
1 and 3) with nobody ready; the game starts when all four are ready. Nobody
sits down, leaves before the game (a team not ready in time forfeits),
configures, adds a bot or offers a rematch there. A player who leaves a
game under way is replaced by a bot as at any table, and the match counts.
"""

from __future__ import annotations

from . import protocol as p
from .errors import CommandError
from .ports import TableDeps
from .room import TableModel

__all__ = ["expiry_s", "fixed_seats"]

_REFUSED = (p.Sit, p.Move, p.AddBot, p.Remove, p.Configure, p.Rematch, p.RematchBots)


def fixed_seats(m: TableModel, cmd: object) -> None:
    """Raise ``not_allowed`` when ``cmd`` would change a tournament table's seats."""
    if m.kind != "tournament":
        return
    if isinstance(cmd, _REFUSED) or (isinstance(cmd, p.Leave) and m.status == "waiting"):
        raise CommandError(
            "not_allowed",
            "a tournament table's seats are set by its tournament: this cannot change",
        )


def expiry_s(m: TableModel, idle: bool, idle_s: float, deps: TableDeps) -> float | None:
    """Seconds until a waiting room is closed (None: it is not waiting to
    close). A tournament table closes at its start-by time, watched or not;
    another table once nobody has had it open for ``waiting_expiry_s``."""
    if m.status != "waiting":
        return None
    if m.start_by_ms is not None:
        return (m.start_by_ms - deps.clock.now_ms()) / 1000
    return deps.config.waiting_expiry_s - idle_s if idle else None
