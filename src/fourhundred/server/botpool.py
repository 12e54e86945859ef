"""Bots think outside the event loop, in a pool of processes sized to the
machine, so a bot that searches never delays another table.

Each decision gets the seat's view (from ``view_for``: a bot sees what its
seat may see, nothing more) and a time budget; an answer that is late,
illegal or missing becomes the rules' timeout action, decided by the caller.
While the pool cannot keep up (every worker busy, or a decision late in the
last 30 s) an expert plays as the heuristic (``fourhundred_bot_fallbacks``).
A player's hint is worked out here too, from that player's view.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import secrets
import time
from collections.abc import Callable
from typing import Any, Final, Protocol

from fourhundred.engine import Action, View

from .logs import get_logger
from .metrics import Metrics

__all__ = ["FALLBACK", "BotFailed", "BotRunner", "PoolBotRunner", "bot_turn"]

log = get_logger("fourhundred.bots")


class BotFailed(Exception):
    """The bot gave no usable answer in time."""


class BotRunner(Protocol):
    async def choose(self, bot: str, view: View, seed: int) -> Action:
        """The bot's action for ``view`` (its turn), or ``BotFailed``."""
        ...

    async def hint(self, view: View, seed: int) -> dict[str, Any]:
        """The expert's suggestion for ``view`` (``Hint.to_dict()``), or ``BotFailed``."""
        ...

    def fallback(self, bot: str) -> tuple[str, str | None]:
        """The bot to run now in place of ``bot``, and why it is another
        one (None: it is ``bot``)."""
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


def _hint(view: View, seed: int, budget_ms: int) -> dict[str, Any]:
    from fourhundred.bots.hints import hint

    return hint(view, budget_ms, seed=seed, workers=1).to_dict()


def _init_worker() -> None:
    from fourhundred.bots._proc import die_with_parent

    die_with_parent()  # a SIGKILLed server leaves no workers behind
    _warm()


def _warm() -> None:
    """Import the bots and load the expert's learned models once per worker,
    so the first expert decision does not pay for them (about 65 ms)."""
    import fourhundred.bots  # noqa: F401 - import once per worker, not per decision
    from fourhundred.bots.locations import shipped_locations
    from fourhundred.bots.model import shipped_model

    shipped_model()
    shipped_locations()


GRACE_S = 0.2
"""Extra time on top of the budget before a decision counts as late
(docs/bot-protocol.md, "Faults")."""
HINT_GRACE_S: Final = 3.0
"""A hint's extra time on top of the budget: besides the search it values
a bid's chance or the two best cards, and nothing moves while it is late
(the player's own turn clock runs meanwhile)."""
FALLBACK: Final = {"expert": "heuristic"}
"""The level a searching bot falls back to while the pool cannot keep up."""
BEHIND_S: Final = 30.0
"""After a late decision, the pool counts as behind for this long."""


class PoolBotRunner:
    """Bots in ``workers`` processes (``0``: one thread, for tiny machines)."""

    def __init__(self, workers: int, budget_ms: int) -> None:
        self.workers = workers
        self.budget_ms = budget_ms
        self._pool: concurrent.futures.Executor | None = None
        self.busy = 0
        """Decisions and hints asked of the pool and not yet answered."""
        self._late_at = -BEHIND_S
        """When (monotonic) a decision was last late."""

    def fallback(self, bot: str) -> tuple[str, str | None]:
        """``expert`` runs as the heuristic while every worker is busy (a new
        search would wait in the queue and miss its deadline) or a decision
        was late in the last :data:`BEHIND_S`."""
        lower = FALLBACK.get(bot)
        if lower is None:
            return bot, None
        if self.busy >= max(1, self.workers):
            return lower, "busy"
        if time.monotonic() - self._late_at < BEHIND_S:
            return lower, "late"
        return bot, None

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
        limit = self.budget_ms / 1000 + GRACE_S
        action: Action = await self._run(bot, limit, _decide, bot, view, seed, self.budget_ms)
        return action

    async def hint(self, view: View, seed: int) -> dict[str, Any]:
        limit = self.budget_ms / 1000 + HINT_GRACE_S
        found: dict[str, Any] = await self._run(None, limit, _hint, view, seed, self.budget_ms)
        return found

    async def _run(self, bot: str | None, limit: float, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the pool within ``limit`` seconds (``bot``: the
        bot deciding, whose lateness counts as the pool falling behind;
        None for a hint)."""
        loop = asyncio.get_running_loop()
        what = "hint" if bot is None else bot
        self.busy += 1
        try:
            fut = loop.run_in_executor(self._executor(), fn, *args)
            return await asyncio.wait_for(fut, limit)
        except concurrent.futures.BrokenExecutor as e:
            # A worker died (killed, out of memory): start a fresh pool.
            self._pool = None
            raise BotFailed(f"bot pool broken: {e}") from None
        except TimeoutError:
            if bot is not None:
                self._late_at = time.monotonic()
            raise BotFailed(f"bot {what!r} was late (budget {self.budget_ms} ms)") from None
        except Exception as e:
            raise BotFailed(f"bot {what!r} failed: {e!r}") from None
        finally:
            self.busy -= 1

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
    run, why = runner.fallback(bot)
    if why is not None:
        metrics.bot_fallbacks.labels(bot, run, why).inc()
        log.info("bot_fallback", bot=bot, to=run, reason=why)
    try:
        action = await runner.choose(run, view, secrets.randbits(32))
    except BotFailed as e:
        log.warning("bot_failed", bot=bot, error=str(e))
        action = None
    elapsed = loop.time() - t0
    metrics.bot_seconds.observe(elapsed)
    if elapsed < pace_s:
        await asyncio.sleep(pace_s - elapsed)
    return action
