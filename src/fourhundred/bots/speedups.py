"""The bots' C inner loops (``_speedups.c``), loaded once and handed the
engine's tables; ``None`` where they are not built (no C compiler) or when
``FOURHUNDRED_PURE_PYTHON`` is set, and then the Python twins run: the
same cards and deals, slower.

Each C function is its Python twin decision for decision
(``tests/bots/test_bots_speedups.py`` runs both and compares):
``choose_card`` and ``rollout`` (:mod:`.heuristic`, :mod:`.rollout`),
``likelihood`` (:func:`.inference.play_likelihood`), ``draw``, the deal
of the hidden cards and the bids' weighing of it
(:func:`.sampling.sample_hands` and :class:`.locations.LocationSampler`,
the loop of both), ``estimate_tricks`` (:mod:`.heuristic_bidding`,
which ``draw`` weighs with), and ``solve``, the exact solver
(:func:`.solver.solve_root`, with the engine's play rules from its own C
module).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Final, Protocol

from fourhundred.engine import (
    BEATERS,
    HEARTS_MASK,
    SEAT_AFTER,
    SHOWN_VOID,
    SUIT_MASKS,
    TRICK_STRENGTH,
    GameState,
)
from fourhundred.engine._core import PURE_PYTHON

from .knowledge import ABOVE, NON_HEARTS, SIDE_SUITS

__all__ = [
    "SPEEDUPS",
    "DrawArgs",
    "Roll",
    "fast_draw",
    "fast_likelihood",
    "fast_rollout",
    "fast_solve",
]


def _load() -> ModuleType | None:
    if PURE_PYTHON:
        return None
    try:
        from . import _speedups
    except ImportError:  # not built: the Python twins do the same, slower
        return None
    try:
        _speedups.init(
            TRICK_STRENGTH,
            BEATERS,
            SHOWN_VOID,
            SEAT_AFTER,
            ABOVE,
            SUIT_MASKS,
            HEARTS_MASK,
            NON_HEARTS,
            SIDE_SUITS,
        )
    except ImportError:  # the engine's C module (its play rules) is not built
        return None
    return _speedups


SPEEDUPS: Final = _load()
"""The loaded ``_speedups`` module, or ``None``."""


class Roll(Protocol):
    """A rollout: ``roll(state, gone, voids[, seen])`` (:func:`.rollout.rollout`)."""

    def __call__(
        self, state: GameState, gone: int, voids: list[int], seen: int = ..., /
    ) -> None: ...


fast_rollout: Final[Roll | None] = SPEEDUPS.rollout if SPEEDUPS is not None else None
"""``rollout.rollout`` in C, or ``None``."""
DrawArgs = tuple[
    int, int, int, list[int], list[int], list[int] | None, list[int], list[int], list[int]
]
"""``draw``'s arguments after ``rng`` and ``chances``, before ``tries``
(:func:`.sampling.draw_args`)."""
Draw = Callable[..., tuple[list[int] | None, int, bool, list[int] | None, float]]
fast_draw: Final[Draw | None] = SPEEDUPS.draw if SPEEDUPS is not None else None
"""The rejection loop of ``sampling.sample_hands`` and of
``LocationSampler`` in C (deals, each kept by how well the bidders' hands
fit their bids), or ``None``."""
fast_likelihood: Final[Callable[[GameState, list[int], int, float, int], float] | None] = (
    SPEEDUPS.likelihood if SPEEDUPS is not None else None
)
"""``inference.play_likelihood`` in C (it plays the cards through the
state's ``play_unchecked`` and raises ``ValueError`` at a card that is not
legal there), or ``None``."""
Solve = Callable[
    [list[int], list[int], int, list[int], list[int], list[float], list[int]], dict[int, float]
]
fast_solve: Final[Solve | None] = SPEEDUPS.solve if SPEEDUPS is not None else None
"""The exact solver in C (``solver.solve_root``'s values of the distinct
cards, for hands without a 13 bid), or ``None``."""
