"""What a search found: the value of each candidate action on each sampled
deal (:class:`Tally`), and the action it takes from them (:func:`pick`).

>>> t = Tally({1: [1.0, 2.0, 3.0], 2: [0.0, 0.5, 1.0]}, deals=3)
>>> t.mean(1), pick(t, prior=2, z=1.0)
(2.0, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

__all__ = ["Tally", "pick"]


@dataclass(slots=True)
class Tally:
    """The team value of each candidate action on each sampled deal (every
    candidate is valued on the same deals, in the same order, so values can
    be compared deal by deal)."""

    values: dict[int, list[float]] = field(default_factory=dict)
    deals: int = 0

    def add(self, action: int, value: float) -> None:
        self.values.setdefault(action, []).append(value)

    def merge(self, other: Tally) -> None:
        for a, vs in other.values.items():
            self.values.setdefault(a, []).extend(vs)
        self.deals += other.deals

    @property
    def counts(self) -> dict[int, int]:
        return {a: len(vs) for a, vs in self.values.items()}

    def mean(self, action: int) -> float:
        """The mean over the deals ``action`` was valued on (``NaN`` marks a
        deal it was left out of: see :meth:`behind`)."""
        vs = [v for v in self.values.get(action, ()) if not math.isnan(v)]
        return sum(vs) / len(vs) if vs else float("-inf")

    def edge(self, action: int, over: int, z: float, min_pairs: int = 2) -> float:
        """How much better ``action`` is than ``over``, deal by deal: the
        mean difference less ``z`` standard errors (``-inf`` with fewer than
        ``min_pairs`` deals valued for both, too few to tell)."""
        d = self._differences(action, over)
        n = len(d)
        if n < max(2, min_pairs):
            return float("-inf")
        m = sum(d) / n
        var = sum((x - m) ** 2 for x in d) / (n - 1)
        return m - z * math.sqrt(var / n)

    def behind(self, action: int, keep: int, z: float) -> bool:
        """Whether ``action`` is clearly worse than ``keep``, deal by deal
        (``keep``'s edge over it is above zero, on three deals or more).
        Such an action could only be chosen over ``keep`` by a run of luck,
        so a search may stop valuing it (its later deals are ``NaN``)."""
        return self.edge(keep, action, z, min_pairs=3) > 0

    def _differences(self, action: int, over: int) -> list[float]:
        a = self.values.get(action, [])
        b = self.values.get(over, [])
        return [x - y for x, y in zip(a, b, strict=False) if not (math.isnan(x) or math.isnan(y))]


def pick(tally: Tally, prior: int, z: float) -> int:
    """The action to take: ``prior`` (the heuristic's choice) unless another
    action beats it deal by deal by more than ``z`` standard errors; then the
    one that beats it by the most."""
    if prior not in tally.values:
        return max(tally.values, key=tally.mean, default=prior)
    best = prior
    best_edge = 0.0
    for a in sorted(tally.values):
        if a == prior:
            continue
        e = tally.edge(a, prior, z)
        if e > best_edge:
            best, best_edge = a, e
    return best
