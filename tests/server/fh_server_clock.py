"""A fake clock for the in-process tests of the server's parts: it moves
only when a test tells it to."""

from __future__ import annotations


class FakeClock:
    """A clock that moves only when told to (in-process tests of the
    server's parts)."""

    def __init__(self) -> None:
        self.ms = 1_800_000_000_000
        self.mono = 1000.0

    def now_ms(self) -> int:
        return self.ms

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)
        self.mono += seconds
