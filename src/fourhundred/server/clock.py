"""Time, behind a small interface so tests and other processes can agree on it."""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["Clock", "SystemClock"]


class Clock(Protocol):
    def now_ms(self) -> int:
        """Wall-clock milliseconds since the epoch (stored and sent to clients)."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, for timers inside this process."""
        ...


class SystemClock:
    """The machine's clocks."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    def monotonic(self) -> float:
        return time.monotonic()
