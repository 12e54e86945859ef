"""Every environment variable the package reads, read here and nowhere else.

The bots, the store, the server and the command line ask this module; it
imports nothing from the package, so any layer may use it and the layers
still import one way. The engine is the one exception: it may not import
anything outside ``fourhundred.engine``, so ``engine/_core.py`` reads
:data:`PURE_PYTHON` itself (the name is listed here so that every variable
is in one table).

- ``FOURHUNDRED_DATABASE_URL``, else ``DATABASE_URL``: the database of
  ``serve`` and ``db`` when ``--database-url`` is not given.
- ``FOURHUNDRED_DATA``: the store's folder for its default SQLite file
  (``./data``).
- ``FOURHUNDRED_REDIS_URL``, ``FOURHUNDRED_REDIS_PREFIX``,
  ``FOURHUNDRED_LEASE_MS``, ``FOURHUNDRED_NODE``: ``serve``'s
  ``--redis-url``, ``--redis-prefix``, ``--lease-ms`` and ``--node`` when
  those are not given.
- ``FOURHUNDRED_TEST_TIMER_SCALE``: test-only, ``serve`` multiplies every
  turn timer by it.
- ``FOURHUNDRED_BOT_WORKERS``: processes per search bot (default: one per
  core).
- ``FOURHUNDRED_PURE_PYTHON``: ``1`` makes the engine use its pure-Python
  trick-play core.
- ``MALLOC_ARENA_MAX``: glibc's own; when it is set, ``serve`` leaves
  malloc's arenas to it instead of capping them at two.

Each reader takes an optional mapping in place of ``os.environ`` (for
tests). Unset and blank are the same: ``None``. A value that is set but
unusable raises :class:`BadEnvironment`, whose message names the variable
and quotes the value.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

__all__ = [
    "BOT_WORKERS",
    "DATABASE_URL",
    "DATABASE_URL_FALLBACK",
    "DATA_DIR",
    "LEASE_MS",
    "NODE",
    "PURE_PYTHON",
    "REDIS_PREFIX",
    "REDIS_URL",
    "TIMER_SCALE",
    "BadEnvironment",
    "bot_workers",
    "data_dir",
    "database_url",
    "lease_ms",
    "node",
    "redis_prefix",
    "redis_url",
    "timer_scale",
]

DATABASE_URL: Final = "FOURHUNDRED_DATABASE_URL"
DATABASE_URL_FALLBACK: Final = "DATABASE_URL"
"""The usual name on hosting platforms; used when ``DATABASE_URL`` is unset."""
DATA_DIR: Final = "FOURHUNDRED_DATA"
REDIS_URL: Final = "FOURHUNDRED_REDIS_URL"
REDIS_PREFIX: Final = "FOURHUNDRED_REDIS_PREFIX"
LEASE_MS: Final = "FOURHUNDRED_LEASE_MS"
NODE: Final = "FOURHUNDRED_NODE"
TIMER_SCALE: Final = "FOURHUNDRED_TEST_TIMER_SCALE"
"""Test-only: multiplies every turn timer (0.02 turns 30 s into 0.6 s). Read
once when the server starts; no request can change it, and the timer values
players see and choose stay 15..90 s."""
BOT_WORKERS: Final = "FOURHUNDRED_BOT_WORKERS"
PURE_PYTHON: Final = "FOURHUNDRED_PURE_PYTHON"
"""Read by ``engine/_core.py`` itself (the engine imports nothing outside it)."""
MALLOC_ARENA_MAX: Final = "MALLOC_ARENA_MAX"
"""glibc's own: when it is set, the server leaves malloc's arenas to it
(``server/allocator.py``)."""


class BadEnvironment(ValueError):
    """An environment variable holds a value that cannot be used."""


def _get(name: str, environ: Mapping[str, str] | None) -> str | None:
    """The value of ``name``, stripped; ``None`` when unset or blank.

    >>> _get("X", {"X": "  a  "}), _get("X", {"X": " "}), _get("X", {})
    ('a', None, None)
    """
    raw = (os.environ if environ is None else environ).get(name, "").strip()
    return raw or None


def database_url(environ: Mapping[str, str] | None = None) -> str | None:
    """``$FOURHUNDRED_DATABASE_URL``, else ``$DATABASE_URL``, else ``None``
    (the default SQLite file).

    >>> database_url({"DATABASE_URL": "postgres://db/a", "FOURHUNDRED_DATABASE_URL": ""})
    'postgres://db/a'
    >>> database_url({"DATABASE_URL": "postgres://db/a", "FOURHUNDRED_DATABASE_URL": "sqlite://"})
    'sqlite://'
    """
    return _get(DATABASE_URL, environ) or _get(DATABASE_URL_FALLBACK, environ)


def data_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """``$FOURHUNDRED_DATA`` as a path, else ``None`` (the caller's default)."""
    value = _get(DATA_DIR, environ)
    return None if value is None else Path(value)


def redis_url(environ: Mapping[str, str] | None = None) -> str | None:
    """``$FOURHUNDRED_REDIS_URL``: the scale-out is off when it is ``None``."""
    return _get(REDIS_URL, environ)


def redis_prefix(environ: Mapping[str, str] | None = None) -> str | None:
    """``$FOURHUNDRED_REDIS_PREFIX``, else ``None`` (the server's default)."""
    return _get(REDIS_PREFIX, environ)


def node(environ: Mapping[str, str] | None = None) -> str | None:
    """``$FOURHUNDRED_NODE``, else ``None`` (a random name)."""
    return _get(NODE, environ)


def _int(name: str, environ: Mapping[str, str] | None) -> int | None:
    value = _get(name, environ)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise BadEnvironment(f"{name}={value!r} is not a whole number") from None


def lease_ms(environ: Mapping[str, str] | None = None) -> int | None:
    """``$FOURHUNDRED_LEASE_MS`` as an int, else ``None`` (the range is the
    command's to check, as for ``--lease-ms``).

    >>> lease_ms({"FOURHUNDRED_LEASE_MS": "2500"})
    2500
    >>> lease_ms({"FOURHUNDRED_LEASE_MS": "2.5s"})
    Traceback (most recent call last):
    ...
    fourhundred.env.BadEnvironment: FOURHUNDRED_LEASE_MS='2.5s' is not a whole number
    """
    return _int(LEASE_MS, environ)


def timer_scale(environ: Mapping[str, str] | None = None) -> float:
    """``$FOURHUNDRED_TEST_TIMER_SCALE``, in (0, 1]; 1.0 when unset.

    >>> timer_scale({}), timer_scale({"FOURHUNDRED_TEST_TIMER_SCALE": "0.02"})
    (1.0, 0.02)
    >>> timer_scale({"FOURHUNDRED_TEST_TIMER_SCALE": "2"})
    Traceback (most recent call last):
    ...
    fourhundred.env.BadEnvironment: FOURHUNDRED_TEST_TIMER_SCALE='2' must be in (0, 1]
    """
    raw = _get(TIMER_SCALE, environ)
    if raw is None:
        return 1.0
    try:
        value = float(raw)
    except ValueError:
        raise BadEnvironment(f"{TIMER_SCALE}={raw!r} is not a number") from None
    if not 0.0 < value <= 1.0:
        raise BadEnvironment(f"{TIMER_SCALE}={raw!r} must be in (0, 1]")
    return value


def malloc_arenas_given(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``$MALLOC_ARENA_MAX`` is set (glibc reads it itself).

    >>> malloc_arenas_given({"MALLOC_ARENA_MAX": "4"}), malloc_arenas_given({})
    (True, False)
    """
    return _get(MALLOC_ARENA_MAX, environ) is not None


def bot_workers(environ: Mapping[str, str] | None = None) -> int | None:
    """``$FOURHUNDRED_BOT_WORKERS`` when it is a positive whole number, else
    ``None``. Anything else is ignored rather than refused: the search bot
    also runs inside worker processes, where an error would cost a game.

    >>> bot_workers({"FOURHUNDRED_BOT_WORKERS": "3"}), bot_workers({"FOURHUNDRED_BOT_WORKERS": "0"})
    (3, None)
    """
    value = _get(BOT_WORKERS, environ)
    if value is None or not value.isdigit() or int(value) <= 0:
        return None
    return int(value)
