"""The turn timer of one table: when the seat to act runs out of time.

It keeps two clocks of the same moment: the process's monotonic clock, to
wake the actor, and the wall clock, stored in the table's row and sent to
clients (``clock.deadline_ms``), so another process can resume the turn with
the time that was left.
"""

from __future__ import annotations

from typing import Any

from .clock import Clock
from .room import TableModel

__all__ = ["TurnClock"]


class TurnClock:
    __slots__ = ("_clock", "_due", "deadline_ms")

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._due: float | None = None
        """The monotonic time the turn runs out (None: no turn running)."""
        self.deadline_ms: int | None = None

    @property
    def running(self) -> bool:
        return self._due is not None

    def start(self, remaining_ms: int, deadline_ms: int | None = None) -> None:
        """A turn with ``remaining_ms`` left (ending at ``deadline_ms`` on
        the wall clock, when known)."""
        remaining_ms = max(0, remaining_ms)
        self._due = self._clock.monotonic() + remaining_ms / 1000
        self.deadline_ms = (
            deadline_ms if deadline_ms is not None else self._clock.now_ms() + remaining_ms
        )

    def retry_in(self, seconds: float) -> None:
        """Fire again in ``seconds`` (the store could not take the last try)."""
        self._due = self._clock.monotonic() + seconds

    def stop(self) -> None:
        self._due = None
        self.deadline_ms = None

    def pause(self) -> None:
        """Stop waking the actor, keeping the deadline the table shows."""
        self._due = None

    def follow(self, deadline_ms: int | None, now_ms: int) -> None:
        """Run towards the deadline a commit stored (None: no turn)."""
        if deadline_ms is None:
            self.stop()
        elif deadline_ms != self.deadline_ms:
            self.start(deadline_ms - now_ms, deadline_ms)

    def left(self) -> float | None:
        """Seconds until the turn runs out (0 or less: it has), or None."""
        return None if self._due is None else self._due - self._clock.monotonic()

    def shown(self, m: TableModel) -> dict[str, Any] | None:
        """``clock`` as clients see it, while a turn is running."""
        if self._due is None or not m.in_play or m.game is None:
            return None
        remaining = max(0, round((self._due - self._clock.monotonic()) * 1000))
        return {
            "seat": m.game.turn,
            "timer": m.timer,
            "remaining_ms": remaining,
            "deadline_ms": self.deadline_ms,
        }
