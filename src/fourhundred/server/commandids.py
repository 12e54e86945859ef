"""The command ids a socket has used (docs/protocol.md: ids are per socket;
a second use of a taken id is refused with ``duplicate``).

Every open socket keeps one of these, so it is kept small: integer ids (what
clients send: an increasing counter) in a fixed ring of machine integers,
string ids in a short deque beside it. Only the last ``size`` ids of each
kind are remembered.

>>> ids = RecentIds(3)
>>> [ids.take(x) for x in (1, 2, "a", 2, 3, 4, 1, 3)]
[True, True, True, False, True, True, True, False]
>>> ids.release(4); ids.take(4)
True
"""

from __future__ import annotations

from array import array
from collections import deque
from typing import Final

__all__ = ["RecentIds"]

_FREE: Final = -1
"""Marks an empty or released slot (ids are never negative)."""


class RecentIds:
    __slots__ = ("_ints", "_next", "_size", "_strs")

    def __init__(self, size: int) -> None:
        self._size = size
        self._ints = array("q")
        """Grows to ``size``, then is written round (the oldest id goes)."""
        self._next = 0
        self._strs: deque[str] | None = None

    def take(self, cmd_id: int | str) -> bool:
        """Record ``cmd_id``; False if it is already taken."""
        if isinstance(cmd_id, str):
            if self._strs is None:
                self._strs = deque(maxlen=self._size)
            if cmd_id in self._strs:
                return False
            self._strs.append(cmd_id)
            return True
        ints = self._ints
        if cmd_id in ints:
            return False
        if len(ints) < self._size:
            ints.append(cmd_id)
        else:
            ints[self._next] = cmd_id
            self._next = (self._next + 1) % self._size
        return True

    def release(self, cmd_id: int | str) -> None:
        """Free ``cmd_id`` again (its command was refused: nothing changed)."""
        if isinstance(cmd_id, str):
            if self._strs is not None and cmd_id in self._strs:
                self._strs.remove(cmd_id)
        elif cmd_id in self._ints:
            self._ints[self._ints.index(cmd_id)] = _FREE
