"""The C allocator under the server process.

glibc's malloc gives every thread that allocates its own arena (the SQLite
driver runs one thread per connection) and keeps freed pages resident until
it is asked to give them back. A server of thousands of small sockets and
tables pays for both in resident memory, not in memory it uses: two arenas
and a trim now and then keep the two close (``bench/load.py`` at 500 tables:
docs/performance.md, "Memory per table").

Elsewhere (musl, macOS) these are no-ops. ``MALLOC_ARENA_MAX`` in the
environment is left to win.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import sys
from functools import cache
from typing import Final

from fourhundred import env

__all__ = ["ARENAS", "TRIM_EVERY_S", "limit_arenas", "trim", "trim_forever"]

ARENAS: Final = 2
"""malloc arenas for the whole process (glibc's default: 8 per core)."""
TRIM_EVERY_S: Final = 10.0
"""How often free pages go back to the system (one trim: about a
millisecond for a few hundred MiB, measured in bench/load.py's runs)."""

_M_ARENA_MAX: Final = -8
"""mallopt's parameter number for the arena limit (malloc.h)."""


@cache
def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
    except OSError:
        return None
    # glibc only: musl and the others have no such symbol.
    return libc if hasattr(libc, "gnu_get_libc_version") else None


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Cap malloc's arenas (before the server starts its threads); False
    when not glibc or the environment already says."""
    libc = _glibc()
    if libc is None or env.malloc_arenas_given():
        return False
    return bool(libc.mallopt(_M_ARENA_MAX, arenas))


def trim() -> bool:
    """Give free pages back to the system; True if any went."""
    libc = _glibc()
    return bool(libc is not None and libc.malloc_trim(0))


async def trim_forever(every_s: float = TRIM_EVERY_S) -> None:
    """Trim every ``every_s`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every_s)
        trim()
