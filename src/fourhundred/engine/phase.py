"""The phases a game moves through, and the mark of a seat yet to bid."""

from __future__ import annotations

from enum import IntEnum
from typing import Final

__all__ = ["NO_BID", "Phase"]


class Phase(IntEnum):
    DEAL = 0
    """Waiting for the cards of the next hand."""
    BID = 1
    PLAY = 2
    OVER = 3

    @property
    def label(self) -> str:
        return self.name.lower()


NO_BID: Final = 0
"""Marks a seat that has not bid yet in the internal bid list."""
