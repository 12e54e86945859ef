"""The one interface every player program implements.

A bot sees only what its seat may know: the :class:`~fourhundred.engine.View`
from ``view_for(state, seat)`` (whose ``rules`` carry the settings). It
returns one of ``view.legal`` as an engine action: ``bid_action(n)`` during
bidding, the card (an int 0..51) during play, or ``REDEAL`` when the view's
``can_redeal`` is true.
"""

from __future__ import annotations

import abc
from typing import ClassVar

from fourhundred.engine import BID_BASE, Action, View

__all__ = ["Bot", "legal_actions"]


class Bot(abc.ABC):
    """A player. ``seed`` makes its choices repeatable; ``budget_ms`` is the
    time it may think per decision (bots that do not search ignore it)."""

    name: ClassVar[str]
    uses_processes: ClassVar[bool] = False
    """True for bots that spread their thinking over worker processes of
    their own (the arena then runs their tables one at a time)."""

    def __init__(self, *, seed: int | None = None, budget_ms: int | None = None) -> None:
        self.seed = seed
        self.budget_ms = budget_ms

    @abc.abstractmethod
    def choose(self, view: View) -> Action:
        """The action to take in ``view`` (it is this seat's turn)."""

    def observe(self, view: View) -> None:  # noqa: B027 - optional hook
        """Told when a hand or the game ends (bots that learn may use it)."""

    def new_game(self) -> None:  # noqa: B027 - optional hook
        """Told before a new game starts (external bots restart if they died)."""

    def drain_faults(self) -> list[str]:
        """Faults since the last call (external bots: late, malformed,
        illegal answers, replacement by the heuristic); built-ins have none."""
        return []

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release what the bot holds (processes, pools)."""


def legal_actions(view: View) -> list[Action]:
    """``view.legal`` as engine actions (bids mapped to bid actions)."""
    if view.legal is None:
        raise ValueError("it is not this seat's turn: the view has no legal actions")
    if view.phase == "bid":
        return [BID_BASE + b for b in view.legal]
    return list(view.legal)
