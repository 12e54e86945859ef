"""The bots' C inner loops (``_speedups.c``), loaded once and handed the
engine's tables; ``None`` where they are not built (no C compiler) or when
``FOURHUNDRED_PURE_PYTHON`` is set, and then the Python twins run: the
same cards and deals, slower.

Each C function is its Python twin decision for decision
(``tests/bots/test_bots_speedups.py`` runs both and compares):
``choose_card`` and ``rollout`` (:mod:`.heuristic`, :mod:`.rollout`) and
``location_deal`` (:class:`.locations.LocationSampler`), ``uniform_deal``
(:func:`.sampling.sample_hands`) and ``estimate_tricks``
(:mod:`.heuristic_bidding`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Final

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
    "fast_estimate_tricks",
    "fast_location_deal",
    "fast_rollout",
    "fast_uniform_deal",
]


def _load() -> ModuleType | None:
    if PURE_PYTHON:
        return None
    try:
        from . import _speedups
    except ImportError:  # not built: the Python twins do the same, slower
        return None
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
    return _speedups


SPEEDUPS: Final = _load()
"""The loaded ``_speedups`` module, or ``None``."""

LocationDeal = Callable[
    [random.Random, bytes, int, int, int, list[int], list[int], list[int]], list[int] | None
]

fast_rollout: Final[Callable[[GameState, int, list[int]], None] | None] = (
    SPEEDUPS.rollout if SPEEDUPS is not None else None
)
"""``rollout.rollout`` in C, or ``None``."""
fast_location_deal: Final[LocationDeal | None] = (
    SPEEDUPS.location_deal if SPEEDUPS is not None else None
)
"""``LocationSampler._deal`` in C (see ``_speedups.c``), or ``None``."""
UniformDeal = Callable[[random.Random, int, int, int, list[int], list[int]], list[int] | None]
fast_uniform_deal: Final[UniformDeal | None] = (
    SPEEDUPS.uniform_deal if SPEEDUPS is not None else None
)
"""``sampling._deal_once`` in C (the search's deal of the hidden cards), or
``None``."""
fast_estimate_tricks: Final[Callable[[int], float] | None] = (
    SPEEDUPS.estimate_tricks if SPEEDUPS is not None else None
)
"""``heuristic_bidding.estimate_tricks`` in C, or ``None``."""
