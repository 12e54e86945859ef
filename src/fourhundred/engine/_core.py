"""Picks the trick-play core: the C one when it is built, else pure Python.

Set ``FOURHUNDRED_PURE_PYTHON=1`` to force the pure-Python core (the tests
do, to check that both agree). Both have the interface of
:class:`fourhundred.engine._pycore.PlayCore`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from . import _pycore

PURE_PYTHON = os.environ.get("FOURHUNDRED_PURE_PYTHON", "") not in ("", "0")
COMPILED = False

if TYPE_CHECKING:
    from ._pycore import PlayCore, cards_of, deal_from_bytes, nth_card, pick_card
else:
    PlayCore = _pycore.PlayCore
    nth_card = _pycore.nth_card
    pick_card = _pycore.pick_card
    cards_of = _pycore.cards_of
    deal_from_bytes = _pycore.deal_from_bytes
    if not PURE_PYTHON:
        try:
            from . import _speedups
        except ImportError:  # not built: same behaviour, slower
            pass
        else:
            PlayCore = _speedups.PlayCore
            nth_card = _speedups.nth_card
            pick_card = _speedups.pick_card
            cards_of = _speedups.cards_of
            deal_from_bytes = _speedups.deal_from_bytes
            COMPILED = True

__all__ = [
    "COMPILED",
    "PURE_PYTHON",
    "PlayCore",
    "cards_of",
    "deal_from_bytes",
    "nth_card",
    "pick_card",
]
