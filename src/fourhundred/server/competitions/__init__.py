"""Tournaments of teams of two: the pure core a director actor runs.

Events (:mod:`.events`) are the log, :mod:`.model` folds them into a
:class:`TournamentModel`, :func:`decide` turns a command into events, and
:mod:`.pairing` says who plays whom. No I/O, no asyncio, no clock.
"""

from __future__ import annotations

from .commands import SYSTEM, Actor, Command, Player, System
from .decide import decide
from .model import DoesNotFit, TournamentModel, rebuild

__all__ = [
    "SYSTEM",
    "Actor",
    "Command",
    "DoesNotFit",
    "Player",
    "System",
    "TournamentModel",
    "decide",
    "rebuild",
]
