"""The search's worker processes: one shared pool per size, started once
and reused by every search bot of this process (they die with it), and how
many processes a search bot uses by default."""

from __future__ import annotations

import atexit
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from fourhundred import env

from ._proc import die_with_parent

__all__ = ["default_workers", "worker_pool"]

_POOLS: dict[int, ProcessPoolExecutor] = {}


def _warm() -> int:
    return os.getpid()


def worker_pool(extra: int) -> ProcessPoolExecutor:
    """A shared pool of ``extra`` worker processes (one per spare core)."""
    pool = _POOLS.get(extra)
    if pool is None:
        pool = ProcessPoolExecutor(
            max_workers=extra,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with_parent,
        )
        for f in [pool.submit(_warm) for _ in range(extra)]:
            f.result()
        _POOLS[extra] = pool
    return pool


@atexit.register
def _shutdown_pools() -> None:
    for pool in _POOLS.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _POOLS.clear()


def default_workers() -> int:
    """Processes a search bot uses by default: one per core; but a bot made
    inside a worker process (a host's own bot pool, like the server's)
    searches in that process only, since the host already spreads its bots
    over the cores. ``FOURHUNDRED_BOT_WORKERS`` overrides both."""
    wanted = env.bot_workers()
    if wanted is not None:
        return wanted
    if multiprocessing.parent_process() is not None:
        return 1
    return os.cpu_count() or 1
