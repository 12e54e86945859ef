"""Helpers for the server tests: a real ``fourhundred serve`` process on a
free port, fresh databases (SQLite files, PostgreSQL databases), and a
player client speaking the WebSocket protocol with ``websockets`` and the
HTTP API with ``httpx``.

This module gathers them under one name for the tests that import them
from here; each lives in a module of its own, next to this one:

- ``fh_server_clock.py``: :class:`FakeClock`.
- ``fh_server_dbs.py``: :class:`Databases`, :func:`pg_available`.
- ``fh_server_process.py``: :class:`Server`, :class:`StrictServer`,
  :func:`free_port`, :data:`OPEN_LIMITS`.
- ``fh_server_player.py``: :class:`Player`.
- ``fh_server_play.py``: what a player sees (:func:`cards_played`,
  :func:`hand_index`, :func:`is_over`, :func:`saw`), the strategy
  (:func:`choose`, :func:`timeout_card`) and the loops (:func:`play_turns`,
  :func:`caught_up`).
- ``fh_server_leaks.py``: :func:`check_no_leaks`.
"""

from __future__ import annotations

from fh_server_clock import FakeClock
from fh_server_dbs import PG_ADMIN_URL, Databases, pg_available
from fh_server_leaks import CARD_RE, check_no_leaks
from fh_server_play import (
    RANKS,
    SUITS,
    card_key,
    cards_played,
    caught_up,
    choose,
    hand_index,
    is_over,
    play_turns,
    saw,
    timeout_card,
)
from fh_server_player import Player
from fh_server_process import OPEN_LIMITS, Server, StrictServer, free_port

__all__ = [
    "CARD_RE",
    "OPEN_LIMITS",
    "PG_ADMIN_URL",
    "RANKS",
    "SUITS",
    "Databases",
    "FakeClock",
    "Player",
    "Server",
    "StrictServer",
    "card_key",
    "cards_played",
    "caught_up",
    "check_no_leaks",
    "choose",
    "free_port",
    "hand_index",
    "is_over",
    "pg_available",
    "play_turns",
    "saw",
    "timeout_card",
]
