"""Whether the expert's chance of making a bid means what it says.

For each bid of many self-play hands, the chance the expert's bidder gave it
(:func:`.bidder.chance_of_making`, at the moment of bidding) is set against
whether it was made. Grouped by tenths of predicted chance, a calibrated
bidder's make rate in each group is close to the group's mean prediction.

>>> table = calibration_table([0.05, 0.15, 0.95, 0.92], [False, False, True, True])
>>> [(round(r.predicted, 3), r.actual, r.bids) for r in table]
[(0.05, 0.0, 1), (0.15, 0.0, 1), (0.935, 1.0, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fourhundred.engine import Settings

from .model import TrickModel, shipped_model
from .train import bid_examples, self_play_hands

__all__ = ["CalibrationRow", "calibration_table", "self_play_calibration"]


@dataclass(frozen=True, slots=True)
class CalibrationRow:
    """One tenth of predicted chance: ``[low, high)``, the bids in it, their
    mean predicted chance and the share made."""

    low: float
    high: float
    bids: int
    predicted: float
    actual: float

    @property
    def gap(self) -> float:
        """Actual make rate less the mean prediction."""
        return self.actual - self.predicted


def calibration_table(chances: Sequence[float], made: Sequence[bool]) -> list[CalibrationRow]:
    """Rows by tenth of predicted chance (empty tenths left out)."""
    bins: list[list[tuple[float, bool]]] = [[] for _ in range(10)]
    for p, m in zip(chances, made, strict=True):
        bins[min(9, int(p * 10))].append((p, m))
    rows = []
    for i, b in enumerate(bins):
        if b:
            rows.append(
                CalibrationRow(
                    i / 10,
                    (i + 1) / 10,
                    len(b),
                    sum(p for p, _ in b) / len(b),
                    sum(1 for _, m in b if m) / len(b),
                )
            )
    return rows


def self_play_calibration(
    settings: Settings,
    hands: int,
    seed: int,
    model: TrickModel | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[float], list[bool]]:
    """The bidder's chance and the outcome of every bid of ``hands`` hands of
    heuristic self-play (whole games from ``seed``)."""
    m = shipped_model() if model is None else model
    chances: list[float] = []
    made: list[bool] = []
    for i, h in enumerate(self_play_hands(settings, seed, hands)):
        for seat, bid, x in bid_examples(h):
            chances.append(m.p_make(x)[bid])
            made.append(h.tricks[seat] >= bid)
        if progress and (i + 1) % 100 == 0:
            progress(i + 1, hands)
    return chances, made
