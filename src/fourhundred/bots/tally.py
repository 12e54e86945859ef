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
    be compared deal by deal). ``weights``, when given, is each deal's
    weight (an importance weight: the deals then stand for a distribution
    other than the one they were drawn from), and means and standard errors
    are weighted; empty, every deal counts alike."""

    values: dict[int, list[float]] = field(default_factory=dict)
    deals: int = 0
    weights: list[float] = field(default_factory=list)

    def add(self, action: int, value: float) -> None:
        self.values.setdefault(action, []).append(value)

    def merge(self, other: Tally) -> None:
        if self.weights or other.weights:
            self.weights = (self.weights or [1.0] * self.deals) + (
                other.weights or [1.0] * other.deals
            )
        for a, vs in other.values.items():
            self.values.setdefault(a, []).extend(vs)
        self.deals += other.deals

    @property
    def counts(self) -> dict[int, int]:
        return {a: len(vs) for a, vs in self.values.items()}

    def mean(self, action: int) -> float:
        """The mean over the deals ``action`` was valued on (``NaN`` marks a
        deal it was left out of: see :meth:`behind`)."""
        if self.weights:
            pairs = [
                (v, w)
                for v, w in zip(self.values.get(action, ()), self.weights, strict=False)
                if not math.isnan(v)
            ]
            total = sum(w for _, w in pairs)
            return sum(v * w for v, w in pairs) / total if total > 0 else float("-inf")
        vs = [v for v in self.values.get(action, ()) if not math.isnan(v)]
        return sum(vs) / len(vs) if vs else float("-inf")

    def edge(self, action: int, over: int, z: float, min_pairs: int = 2) -> float:
        """How much better ``action`` is than ``over``, deal by deal: the
        mean difference less ``z`` standard errors (``-inf`` with fewer than
        ``min_pairs`` deals valued for both, too few to tell)."""
        if self.weights:
            return self._weighted_edge(action, over, z, min_pairs)
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

    def _weighted_edge(self, action: int, over: int, z: float, min_pairs: int) -> float:
        """:meth:`edge` over weighted deals: the self-normalised weighted
        mean difference, its standard error from the weights (the effective
        number of deals, ``(sum w)^2 / sum w^2``, must reach ``min_pairs``
        and 2)."""
        a = self.values.get(action, [])
        b = self.values.get(over, [])
        d = [
            (x - y, w)
            for x, y, w in zip(a, b, self.weights, strict=False)
            if not (math.isnan(x) or math.isnan(y))
        ]
        total = sum(w for _, w in d)
        squares = sum(w * w for _, w in d)
        if total <= 0 or total * total < max(2, min_pairs) * squares:
            return float("-inf")
        m = sum(x * w for x, w in d) / total
        var = sum(w * w * (x - m) ** 2 for x, w in d) / (total * total)
        return m - z * math.sqrt(var)

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
