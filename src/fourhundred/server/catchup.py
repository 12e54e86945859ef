"""A table's recent public events, kept for clients that come back."""

from __future__ import annotations

from collections import deque

import msgspec

from fourhundred.store import StoredEvent

from . import frames
from .events import from_stored

__all__ = ["EventBuffer"]


class EventBuffer:
    """The last public events of a table, for clients that come back: a
    ``catchup`` from their last version instead of a whole ``snapshot``.

    Kept lean, since every live table holds one: the encoded events only (no
    version beside each: they are consecutive, ending at ``last``).

    >>> b = EventBuffer(2)
    >>> for v in (1, 2, 3):
    ...     b.add(v, msgspec.Raw(b'{"kind":"x"}'))
    >>> [v for v, _ in b.since(1, 3)], b.since(0, 3), b.since(3, 3)
    ([2, 3], None, [])
    """

    __slots__ = ("_events", "_last")

    def __init__(self, size: int) -> None:
        self._events: deque[bytes] = deque(maxlen=size)
        self._last = 0

    def add(self, version: int, public: msgspec.Raw) -> None:
        if version != self._last + 1:
            self._events.clear()
        self._events.append(bytes(public))
        self._last = version

    def add_stored(self, stored: StoredEvent) -> None:
        self.add(stored.version, frames.raw(from_stored(stored.kind, stored.data).public()))

    def since(self, last_version: int | None, version: int) -> list[tuple[int, msgspec.Raw]] | None:
        """The events after ``last_version`` (None: too old, or unknown)."""
        if not last_version or last_version > version:
            return None  # 0 (seen nothing) or a version the table never had
        if last_version == version:
            return []
        first = self._last - len(self._events) + 1
        if not self._events or self._last != version or first > last_version + 1:
            return None
        skip = last_version + 1 - first
        return [(first + i, msgspec.Raw(e)) for i, e in enumerate(self._events) if i >= skip]
