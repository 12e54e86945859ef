"""How much of a host's time budget a protocol bot may think for.

A bot run as a protocol program (``fourhundred bot NAME``) is given
``budget_ms`` per decision by the host, and the host's clock also runs while
the message is read, the view parsed, the answer written and carried back.
:class:`BudgetKeeper` keeps back a margin that scales with the budget and
with the overhead it has measured, and learns how much of the time it gives
the bot the bot really uses (a search bot plans to stop before its budget),
so that the whole round trip uses most of the host's budget without going
over it.

>>> keeper = BudgetKeeper()
>>> keeper.margin_ms(50)
6.0
>>> keeper.allot(50)
44
>>> for _ in range(5):  # a bot that thinks for 0.75 of what it is given
...     keeper.record(allotted_ms=44, think_ms=33.0, total_ms=33.5)
>>> keeper.margin_ms(50), keeper.allot(50)
(5.5, 59)
"""

from __future__ import annotations

from collections import deque
from typing import Final

__all__ = ["BudgetKeeper"]

_JITTER: Final = 0.1
"""Share of the budget kept for the pipe, the host's own work and the
scheduler's jitter."""
_FLOOR_MS: Final = 1.0
"""Kept at least, whatever the budget."""
_START_OVERHEAD_MS: Final = 1.0
"""Assumed in-process overhead (parse, answer) before any is measured."""
_WINDOW: Final = 32
"""Decisions remembered for the overhead and the use ratio."""
_MIN_RATIO: Final = 2 / 3
"""A bot is never given more than 1.5 times the time it has to spend (a
search's fixed costs make its ratio lower at small budgets: the allotment
grows towards the budget from below, a step at a time)."""
_USES_TIME: Final = 0.3
"""A bot that thinks for less than this share of its allotment does not
use its budget (the heuristic): nothing is learned from it."""


class BudgetKeeper:
    """The budget to give a bot for each host budget, from what was measured.

    ``overhead``: in-process time not spent thinking (reading the view,
    writing the answer), the highest of the recent decisions. ``ratio``: how
    much of its allotment a time-using bot actually thinks for, the highest
    of the recent decisions (1.0 until measured, so the first answers are
    never late)."""

    def __init__(self) -> None:
        self._overheads: deque[float] = deque(maxlen=_WINDOW)
        self._ratios: deque[float] = deque(maxlen=_WINDOW)

    @property
    def overhead_ms(self) -> float:
        return max(self._overheads, default=_START_OVERHEAD_MS)

    @property
    def ratio(self) -> float:
        return max(_MIN_RATIO, min(1.0, max(self._ratios, default=1.0)))

    def margin_ms(self, budget_ms: int) -> float:
        """What is kept back from ``budget_ms``: the measured overhead plus a
        share of the budget for the pipe and the jitter."""
        return self.overhead_ms + max(_FLOOR_MS, _JITTER * budget_ms)

    def allot(self, budget_ms: int) -> int:
        """The ``budget_ms`` to give the bot so that its thinking, at the
        ratio it has shown, ends a margin before the host's budget."""
        think = max(1.0, budget_ms - self.margin_ms(budget_ms))
        return max(1, int(think / self.ratio))

    def record(self, *, allotted_ms: int, think_ms: float, total_ms: float) -> None:
        """One decision: the bot was given ``allotted_ms``, thought for
        ``think_ms``, and the whole message took ``total_ms`` in this
        process."""
        self._overheads.append(max(0.0, total_ms - think_ms))
        if allotted_ms > 0 and think_ms >= _USES_TIME * allotted_ms:
            self._ratios.append(think_ms / allotted_ms)
