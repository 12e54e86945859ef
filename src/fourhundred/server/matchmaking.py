"""The Ranked queue: four players of similar rating, the range widening the
longer they wait; teams split so that the predicted chances are even.

:func:`find_matches` is pure (entries and a time in, groups out); the
:class:`Matchmaker` runs it every half second and makes the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .ratings import conservative

__all__ = ["QueueEntry", "allowed_range", "find_matches"]

BASE_RANGE: Final = 2.0
"""Largest spread of conservative ratings (mu - 3 sigma) accepted at once."""
WIDEN_PER_S: Final = 0.5
"""How fast the accepted spread grows while the oldest player waits."""


@dataclass(frozen=True, slots=True)
class QueueEntry:
    user_id: str
    name: str
    mu: float
    sigma: float
    joined: float
    """Monotonic seconds when the player joined the queue."""

    @property
    def score(self) -> float:
        return conservative((self.mu, self.sigma))


def allowed_range(waited_s: float) -> float:
    """The rating spread accepted after waiting ``waited_s`` seconds.

    >>> allowed_range(0), allowed_range(20)
    (2.0, 12.0)
    """
    return BASE_RANGE + WIDEN_PER_S * max(0.0, waited_s)


def find_matches(entries: Sequence[QueueEntry], now: float) -> list[tuple[QueueEntry, ...]]:
    """Groups of four to seat now. The player who has waited longest goes
    first, with the three closest in rating, if their spread is within the
    range that player's wait allows; then the next, and so on.

    >>> e = [QueueEntry(str(i), str(i), 25 + i / 2, 1.0, 0.0) for i in (0, 1, 2, 30, 3)]
    >>> [[x.user_id for x in g] for g in find_matches(e, now=0.0)]
    [['0', '1', '2', '3']]
    """
    pool = sorted(entries, key=lambda e: (e.joined, e.user_id))
    groups: list[tuple[QueueEntry, ...]] = []
    while len(pool) >= 4:
        made = False
        for anchor in pool:
            others = sorted(
                (e for e in pool if e is not anchor),
                key=lambda e: (abs(e.score - anchor.score), e.joined),
            )[:3]
            group = (anchor, *others)
            scores = [e.score for e in group]
            if max(scores) - min(scores) <= allowed_range(now - anchor.joined):
                groups.append(group)
                pool = [e for e in pool if e not in group]
                made = True
                break
        if not made:
            break
    return groups
