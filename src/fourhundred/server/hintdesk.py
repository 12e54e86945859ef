"""A table's hints, worked out off the event loop: the asker's view (the
engine's ``view_for`` of that seat, nothing more) goes to the bot pool,
whose expert thinks for the server's bot budget; the answer (or an
``unavailable`` error) goes to the asker's socket alone. The table actor
has judged and logged the ask before (:mod:`.hinting`).

One position costs the pool one hint: asking again at the same version
gets the same answer (waiting for it if it is still being worked out), so
a player pressing the button cannot keep the bots' workers busy."""

from __future__ import annotations

import asyncio
import secrets

from fourhundred.engine import View, view_for

from . import frames
from .botpool import BotFailed, BotRunner
from .logs import get_logger
from .metrics import Metrics
from .ports import Watcher
from .room import TableModel

__all__ = ["HintDesk"]

log = get_logger("fourhundred.hints")

Asker = tuple[Watcher, int | str]
"""A socket and its ``hint`` command's id."""


class HintDesk:
    """Hints being worked out at one table, by (seat, version)."""

    def __init__(self, table: str, runner: BotRunner, metrics: Metrics) -> None:
        self.table = table
        self.runner = runner
        self.metrics = metrics
        self._waiting: dict[tuple[int, int], list[Asker]] = {}
        self._last: tuple[tuple[int, int], frames.HintFrame | None] | None = None
        """The last position answered (None: no hint could be worked out)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def answer(self, w: Watcher, cmd_id: int | str, m: TableModel, seat: int) -> None:
        """Send ``seat`` (the asker's, its turn) the hint for the table now."""
        assert m.game is not None
        key = (seat, m.version)
        if self._last is not None and self._last[0] == key:
            self._send(w, cmd_id, self._last[1])
            return
        if key in self._waiting:
            self._waiting[key].append((w, cmd_id))
            return
        self._waiting[key] = [(w, cmd_id)]
        task = asyncio.create_task(self._work(key, view_for(m.game, seat)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _work(self, key: tuple[int, int], view: View) -> None:
        frame: frames.HintFrame | None = None
        try:
            found = await self.runner.hint(view, secrets.randbits(32))
        except BotFailed as e:
            log.warning("hint_failed", table=self.table, error=str(e))
            self.metrics.hints.labels("failed").inc()
        else:
            self.metrics.hints.labels("given").inc()
            frame = frames.HintFrame(
                id=0,
                table=self.table,
                version=key[1],
                seat=key[0],
                action=str(found["action"]),
                reason=str(found["reason"]),
                chance=found.get("chance"),
                values=[(str(a), float(v)) for a, v in found.get("values", ())],
            )
        self._last = (key, frame)
        for w, cmd_id in self._waiting.pop(key, []):
            self._send(w, cmd_id, frame)

    @staticmethod
    def _send(w: Watcher, cmd_id: int | str, frame: frames.HintFrame | None) -> None:
        if frame is None:
            error = frames.error(cmd_id, "unavailable", "no hint could be worked out in time")
            w.send(frames.encode(error))
        else:
            frame.id = cmd_id
            w.send(frames.encode(frame))

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
