"""A learned model of how many tricks a hand takes (numpy only at play time).

Given a 13-card hand, its seat's place in the bidding and the bids made
before it, :class:`TrickModel` gives the probability of each trick count
0..13 for that player, so the bidder can read the chance of making any bid.
It is a small network (one hidden layer) trained on self-play by
``fourhundred train`` (:mod:`.train`); the shipped weights live in
``bots/weights/tricks.npz`` and :func:`shipped_model` loads them once.

>>> from fourhundred.engine import mask_of, parse_card
>>> hand = mask_of(parse_card(c) for c in
...     "AH KH QH JH TH 9H AS KS AD KD AC KC QC".split())
>>> x = features(hand, position=0, partner_bid=0, opponent_bids=(0, 0))
>>> x.shape == (N_FEATURES,)
True
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from fourhundred.engine import bidding_order, next_seat, partner_of

from .heuristic import estimate_tricks
from .knowledge import HEARTS, SUIT_MASKS, Knowledge

__all__ = [
    "N_CLASSES",
    "N_FEATURES",
    "SHIPPED",
    "TrickModel",
    "calibrated",
    "features",
    "knowledge_features",
    "shipped_model",
]

N_CLASSES: Final = 14
"""Trick counts 0..13."""
SHIPPED: Final = Path(__file__).parent / "weights" / "tricks.npz"
_SIDE: Final = (0, 1, 3)
_HEART_TOP: Final = 6
"""Heart honours encoded one by one (A down to 9)."""
_SIDE_TOP: Final = 5
"""Side-suit honours encoded one by one (A down to T)."""

Array = npt.NDArray[np.float32]


def features(
    hand: int, *, position: int, partner_bid: int, opponent_bids: tuple[int, int]
) -> Array:
    """The model's input: the hand (heart honours one by one, heart length,
    each side suit, longest first, by length and honours), the heuristic's
    own trick estimate, the place in the bidding (0 = first) and the bids
    already made (0 for a seat that has not bid; a 13 counts as 13)."""
    out: list[float] = []
    hr = (hand & HEARTS) >> 26
    for r in range(12, 12 - _HEART_TOP, -1):
        out.append(float(hr >> r & 1))
    nh = hr.bit_count()
    out += [nh / 13.0, max(0, nh - 3) / 5.0]
    sides = sorted(
        ((hand & SUIT_MASKS[s]) >> (13 * s) for s in _SIDE), key=lambda m: -m.bit_count()
    )
    for m in sides:
        n = m.bit_count()
        out += [n / 13.0, float(n == 0), float(n == 1), float(n == 2)]
        for r in range(12, 12 - _SIDE_TOP, -1):
            out.append(float(m >> r & 1))
    out.append(estimate_tricks(hand) / 6.0)
    out += [float(position == p) for p in range(4)]
    o = sorted(opponent_bids)
    out += [partner_bid / 6.0, o[0] / 6.0, o[1] / 6.0, float(partner_bid == 0 and position >= 2)]
    return np.asarray(out, dtype=np.float32)


N_FEATURES: Final = len(features(0, position=0, partner_bid=0, opponent_bids=(0, 0)))


def knowledge_features(k: Knowledge, hand: int | None = None) -> Array:
    """:func:`features` for the seat of ``k`` at its bid (or for ``hand``,
    its whole 13 cards, once the play has begun)."""
    seat = k.seat
    order = bidding_order(k.dealer)
    position = order.index(seat)
    earlier = set(order[:position])
    bid = [k.bids[s] if s in earlier else 0 for s in range(4)]
    return features(
        k.hand if hand is None else hand,
        position=position,
        partner_bid=bid[partner_of(seat)],
        opponent_bids=(bid[next_seat(seat)], bid[next_seat(seat, -1)]),
    )


class TrickModel:
    """One hidden layer (ReLU) and a softmax over 0..13 tricks; then, for the
    chance of making a bid, a calibration ``calib = (a, c, d)``:
    ``sigmoid(a * logit(p) + c + d * bid / 13)``. The network gives the trick
    count of the hand as it was played after the bid it made; a player who
    bids ``b`` plays to make ``b``, which the calibration (fitted on
    self-play after the network) puts back in."""

    def __init__(
        self, w1: Array, b1: Array, w2: Array, b2: Array, calib: Array | None = None
    ) -> None:
        if w1.shape[0] != N_FEATURES or w2.shape[1] != N_CLASSES:
            raise ValueError(
                f"weights of shape {w1.shape} / {w2.shape} do not fit "
                f"{N_FEATURES} features and {N_CLASSES} classes"
            )
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.calib = np.asarray([1.0, 0.0, 0.0] if calib is None else calib, dtype=np.float64)

    @classmethod
    def load(cls, path: Path) -> TrickModel:
        with np.load(path) as z:
            w1, b1, w2, b2 = (z[n].astype(np.float32) for n in ("w1", "b1", "w2", "b2"))
            calib = z["calib"] if "calib" in z.files else None
            return cls(w1, b1, w2, b2, calib)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, calib=self.calib)

    def probabilities(self, x: Array) -> Array:
        """Rows of ``x`` (or one feature vector) to trick-count
        probabilities."""
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        z = h @ self.w2 + self.b2
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z)
        out: Array = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
        return out

    def p_tricks(self, x: Array) -> Array:
        """``p[b]``: the network's chance of taking at least ``b`` tricks
        (b = 0..13), for one feature vector (before the calibration)."""
        p = self.probabilities(x)
        out: Array = np.minimum(np.cumsum(p[::-1])[::-1], 1.0)
        return out

    def p_make(self, x: Array) -> list[float]:
        """``p[b]``: the chance of making a bid of ``b`` (b = 0..13), for one
        feature vector (the calibrated chance; ``p[0]`` is 1)."""
        return [
            1.0,
            *(float(v) for v in calibrated(self.p_tricks(x)[1:], np.arange(1, 14), self.calib)),
        ]

    def recalibrated(self, calib: npt.ArrayLike) -> TrickModel:
        """The same network with another calibration ``(a, c, d)``."""
        return TrickModel(self.w1, self.b1, self.w2, self.b2, np.asarray(calib))

    @property
    def size(self) -> int:
        """Number of parameters."""
        return sum(int(a.size) for a in (self.w1, self.b1, self.w2, self.b2))


def calibrated(
    p: npt.ArrayLike, bid: npt.ArrayLike, calib: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """``sigmoid(a * logit(p) + c + d * bid / 13)`` for ``calib = (a, c, d)``."""
    a, c, d = np.asarray(calib, dtype=np.float64)
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-6, 1 - 1e-6)
    z = a * np.log(q / (1 - q)) + c + d * np.asarray(bid, dtype=np.float64) / 13.0
    out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-z))
    return out


@lru_cache(maxsize=1)
def shipped_model() -> TrickModel:
    """The weights shipped with the package (trained by ``fourhundred
    train``; see docs/bots.md for the run)."""
    return TrickModel.load(SHIPPED)
