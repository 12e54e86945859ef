"""Post-hand analysis of finished games for the replay viewer, computed by
the expert (``fourhundred.bots.analysis``) **hand by hand, in order**, in
one worker process of its own (so that it never competes with the bots at
live tables), and kept in memory once done (a game's analysis never
changes). A replay shows each hand's analysis as soon as it is ready: the
hands done so far come with every answer until the whole game is."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

from fourhundred.bots._proc import die_with_parent

from .logs import get_logger

__all__ = ["Analyses", "Progress"]

log = get_logger("fourhundred.analysis")

DEALS: Final = 16
"""Sampled deals per decision: a guide for a replay, not a tournament."""
KEEP: Final = 64
"""Finished analyses kept in memory."""


def _analyse_hand(record: dict[str, Any], hand: int, deals: int) -> list[dict[str, Any]]:
    from fourhundred.bots.analysis import AnalysisOptions, analyse_record

    # A hand redealt before any bid has no decisions: an empty list.
    found: list[dict[str, Any]] = analyse_record(
        record, AnalysisOptions(deals=deals, workers=1), hand=hand
    )["hands"]
    return found


@dataclass(slots=True)
class Progress:
    """One game's analysis so far: the hands ready (in order), how many of
    the record's hands have been worked through, and of how many."""

    total: int
    hands: list[dict[str, Any]] = field(default_factory=list)
    done: int = 0
    failed: bool = False

    @property
    def complete(self) -> bool:
        return self.done >= self.total

    def body(self) -> dict[str, Any]:
        """The answer's JSON (``fourhundred analyse --json``'s format, with
        ``hands_done`` and ``hands_total``)."""
        return {
            "deals_per_decision": DEALS,
            "hands": list(self.hands),
            "hands_done": self.done,
            "hands_total": self.total,
        }


class Analyses:
    """Analyses by game id: ``get`` returns the progress of one (starting
    the computation on the first ask)."""

    def __init__(self) -> None:
        self._done: OrderedDict[str, Progress] = OrderedDict()
        self._running: dict[str, Progress] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._failed: set[str] = set()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def get(self, game_id: str, record: dict[str, Any]) -> Progress:
        """The analysis of ``game_id`` so far. Raises ``RuntimeError`` when
        its computation failed."""
        if game_id in self._done:
            self._done.move_to_end(game_id)
            return self._done[game_id]
        if game_id in self._failed:
            raise RuntimeError("the analysis of this game failed")
        progress = self._running.get(game_id)
        if progress is None:
            progress = self._running[game_id] = Progress(total=len(record.get("hands", ())))
            task = asyncio.create_task(self._work(game_id, record, progress))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return progress

    async def _work(self, game_id: str, record: dict[str, Any], progress: Progress) -> None:
        loop = asyncio.get_running_loop()
        if self._pool is None:
            # spawn, not fork (threads and sockets here); the worker goes
            # if this process is killed.
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=die_with_parent
            )
        pool = self._pool
        try:
            for hand in range(progress.total):
                ready = await loop.run_in_executor(pool, _analyse_hand, record, hand, DEALS)
                progress.hands.extend(ready)
                progress.done = hand + 1
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("analysis_failed", game=game_id, error=repr(e))
            self._failed.add(game_id)
            return
        finally:
            self._running.pop(game_id, None)
        self._done[game_id] = progress
        while len(self._done) > KEEP:
            self._done.popitem(last=False)

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
