"""Post-hand analysis of finished games for the replay viewer, computed by
the bots' search (``fourhundred.bots.analysis``) in one worker process of
its own, so that it never competes with the bots at live tables, and kept
in memory once done (a game's analysis never changes)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from collections import OrderedDict
from typing import Any, Final

from .logs import get_logger

__all__ = ["Analyses"]

log = get_logger("fourhundred.analysis")

DEALS: Final = 16
"""Sampled deals per decision: a guide for a replay, not a tournament."""
KEEP: Final = 64
"""Finished analyses kept in memory."""


def _analyse(record: dict[str, Any], deals: int) -> dict[str, Any]:
    from fourhundred.bots.analysis import AnalysisOptions, analyse_record

    return analyse_record(record, AnalysisOptions(deals=deals, workers=1))


class Analyses:
    """Analyses by game id: ``get`` returns the analysis, or None while it is
    being computed (it starts the computation on the first ask)."""

    def __init__(self) -> None:
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._running: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._failed: set[str] = set()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def get(self, game_id: str, record: dict[str, Any]) -> dict[str, Any] | None:
        if game_id in self._done:
            self._done.move_to_end(game_id)
            return self._done[game_id]
        if game_id in self._failed:
            raise RuntimeError("the analysis of this game failed")
        if game_id not in self._running:
            if self._pool is None:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn")
                )
            loop = asyncio.get_running_loop()
            fut = loop.run_in_executor(self._pool, _analyse, record, DEALS)
            self._running[game_id] = fut
            fut.add_done_callback(lambda f: self._finish(game_id, f))
        return None

    def _finish(self, game_id: str, fut: asyncio.Future[dict[str, Any]]) -> None:
        self._running.pop(game_id, None)
        if fut.cancelled():
            return
        exc = fut.exception()
        if exc is not None:
            log.warning("analysis_failed", game=game_id, error=repr(exc))
            self._failed.add(game_id)
            return
        self._done[game_id] = fut.result()
        while len(self._done) > KEEP:
            self._done.popitem(last=False)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
