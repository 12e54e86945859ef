"""Bots think outside the event loop, in a pool of processes sized to the
machine, so a bot that searches never delays another table.

Each decision gets the seat's view (from ``view_for``: a bot sees what its
seat may see, nothing more) and a time budget; an answer that is late,
illegal or missing becomes the rules' timeout action, decided by the caller.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import secrets
from typing import Protocol

from fourhundred.engine import Action, View

from .logs import get_logger
from .metrics import Metrics

__all__ = ["BotFailed", "BotRunner", "PoolBotRunner", "bot_turn"]

log = get_logger("fourhundred.bots")


class BotFailed(Exception):
    """The bot gave no usable answer in time."""


class BotRunner(Protocol):
    async def choose(self, bot: str, view: View, seed: int) -> Action:
        """The bot's action for ``view`` (its turn), or ``BotFailed``."""
        ...

    def close(self) -> None: ...


def _decide(bot: str, view: View, seed: int, budget_ms: int) -> Action:
    # Runs in a worker process: a fresh bot per decision keeps workers
    # stateless, so any worker can serve any table.
    from fourhundred.bots import make_bot

    player = make_bot(bot, seed=seed, budget_ms=budget_ms)
    try:
        return player.choose(view)
    finally:
        player.close()


def _init_worker() -> None:
    from fourhundred.bots._proc import die_with_parent

    die_with_parent()  # a SIGKILLed server leaves no workers behind
    _warm()


def _warm() -> None:
    import fourhundred.bots  # noqa: F401 - import once per worker, not per decision


GRACE_S = 0.2
"""Extra time on top of the budget before a decision counts as late
(docs/bot-protocol.md, "Faults")."""


class PoolBotRunner:
    """Bots in ``workers`` processes (``0``: one thread, for tiny machines)."""

    def __init__(self, workers: int, budget_ms: int) -> None:
        self.workers = workers
        self.budget_ms = budget_ms
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers <= 0:
                self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bot")
            else:
                # spawn, not fork: the server process has threads and sockets.
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_init_worker,
                )
        return self._pool

    async def warm(self) -> None:
        """Start the workers now rather than on the first bot's turn."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(
            *(loop.run_in_executor(pool, _warm) for _ in range(max(1, self.workers)))
        )

    async def choose(self, bot: str, view: View, seed: int) -> Action:
        loop = asyncio.get_running_loop()
        try:
            fut = loop.run_in_executor(self._executor(), _decide, bot, view, seed, self.budget_ms)
            return await asyncio.wait_for(fut, self.budget_ms / 1000 + GRACE_S)
        except concurrent.futures.BrokenExecutor as e:
            # A worker died (killed, out of memory): start a fresh pool.
            self._pool = None
            raise BotFailed(f"bot pool broken: {e}") from None
        except TimeoutError:
            raise BotFailed(f"bot {bot!r} was late (budget {self.budget_ms} ms)") from None
        except Exception as e:
            raise BotFailed(f"bot {bot!r} failed: {e!r}") from None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


async def bot_turn(
    runner: BotRunner, bot: str, view: View, *, pace_s: float, metrics: Metrics
) -> Action | None:
    """A bot's move at a table: its choice (None when it failed; the table
    then plays the timeout action), given no sooner than ``pace_s`` after
    it was asked, so people can follow the game."""
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    action: Action | None
    try:
        action = await runner.choose(bot, view, secrets.randbits(32))
    except BotFailed as e:
        log.warning("bot_failed", bot=bot, error=str(e))
        action = None
    elapsed = loop.time() - t0
    metrics.bot_seconds.observe(elapsed)
    if elapsed < pace_s:
        await asyncio.sleep(pace_s - elapsed)
    return action
