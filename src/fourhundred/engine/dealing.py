"""Dealing: 13 cards to each seat, every deal equally likely."""

from __future__ import annotations

import random

from ._core import deal_from_bytes
from .cards import CardMask

__all__ = ["deal_masks"]


def deal_masks(rng: random.Random) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    """Deal 13 cards to each seat from ``rng`` (a ``secrets.SystemRandom``
    for real games). Every deal is exactly equally likely."""
    while True:
        hands = deal_from_bytes(rng.randbytes(256))
        if hands is not None:
            return hands
