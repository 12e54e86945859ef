"""A learned model of where each unseen card lies, and deals drawn by it.

The search draws the hidden cards uniformly among the deals that respect
the counts, the voids and (by rejection) how well each bidder's hand fits
its bid. The cards each player chose to play say more: a seat that led the
king of a suit rarely holds its ace; one that ducked under its partner's
ten holds little above it. :class:`LocationModel` reads a seat's view (its
hand, every card played with who played it, who led it and who won with it,
the voids, the bids, the cards left) and gives, for each hidden card, the
chance that each of the other three seats holds it: a small network (one
hidden layer) trained on heuristic self-play by ``fourhundred train
--model locations`` (:mod:`.train_locations`), after Solinas et al. (2019)
for Skat. The shipped weights are ``bots/weights/locations.npz``.

:class:`LocationSampler` deals with those chances: each card goes to a seat
with probability in proportion to the seat's free places times the model's
chance divided by the seat's share of the hidden cards, so a model that
knows nothing (chances in proportion to the cards left) gives the uniform
deal; the bids' fit then accepts or rejects the deal as in
:mod:`.sampling`. The model is evaluated once per decision, in the process
that decides; the workers only deal.

>>> from fourhundred.engine import GameState, view_for
>>> s = GameState(first_dealer=0)
>>> s.deal_random(seed=3)
>>> x, elig = view_features(view_for(s, 1))
>>> x.shape == (N_FEATURES,), elig.shape == (52, 3)
(True, True)
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from fourhundred.engine import SHOWN_VOID, SUIT_MASKS, View, next_seat

from .knowledge import Knowledge
from .sampling import bid_likelihood, draw_args, sample_hands
from .speedups import fast_draw

__all__ = [
    "N_FEATURES",
    "PLACE",
    "SHIPPED",
    "LocationModel",
    "LocationSampler",
    "TrickRow",
    "features",
    "shipped_locations",
    "view_features",
]

Array = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]
TrickRow = tuple[int, Sequence[int], int | None]
"""One trick as the features read it: its leader, its cards, its winner
(``None`` while it is in progress)."""

SHIPPED: Final = Path(__file__).parent / "weights" / "locations.npz"
_PLANES: Final = 3
"""Per other seat: the cards it played, those it led, those it won with."""
_SEATS: Final = 52 + 3 * _PLANES * 52
_VOIDS: Final = _SEATS
_BIDS: Final = _VOIDS + 12
_LEFT: Final = _BIDS + 6
_DONE: Final = _LEFT + 3
N_FEATURES: Final = _DONE + 1
_NEXT: Final = tuple(next_seat(s) for s in range(4))
PLACE: Final = tuple(
    tuple(next(r for r in range(4) if next_seat(seat, r) == s) for s in range(4))
    for seat in range(4)
)
"""``PLACE[seat][s]``: how many places after ``seat`` seat ``s`` plays (0
for ``seat`` itself, 2 for its partner)."""
_TRIES: Final = 48
"""Deals drawn per accepted deal at most (the bids' fit rejects some)."""


def features(
    seat: int, hand: int, tricks: Sequence[TrickRow], bids: Sequence[int]
) -> tuple[Array, Mask]:
    """The model's input for ``seat`` holding ``hand`` (its unplayed cards)
    after ``tricks``, with ``bids`` by seat (0: none), and which of the
    other seats (1, 2, 3 after it) may hold each card: the card is hidden
    from ``seat``, the other seat has cards left and has not shown out of
    the suit. Other seats are numbered from ``seat``, so the partner is
    always the second."""
    x = np.zeros(N_FEATURES, np.float32)
    x[[c for c in range(52) if hand >> c & 1]] = 1.0
    played = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]
    done = 0
    for leader, cards, winner in tricks:
        s = leader
        shown = SHOWN_VOID[cards[0]] if cards else ()
        for i, c in enumerate(cards):
            played[s] |= 1 << c
            voids[s] |= shown[c]
            r = PLACE[seat][s]
            if r:
                base = 52 + (r - 1) * _PLANES * 52
                x[base + c] = 1.0
                if i == 0:
                    x[base + 52 + c] = 1.0
                if winner == s:
                    x[base + 104 + c] = 1.0
            s = _NEXT[s]
        done += winner is not None
    gone = hand
    for p in played:
        gone |= p
    hidden = np.array([not gone >> c & 1 for c in range(52)], np.bool_)
    elig = np.zeros((52, 3), np.bool_)
    for r in (1, 2, 3):
        s = next_seat(seat, r)
        left = 13 - played[s].bit_count()
        x[_BIDS + 2 * (r - 1)] = bids[s] / 13
        x[_BIDS + 2 * (r - 1) + 1] = 1.0 if bids[s] else 0.0
        x[_LEFT + r - 1] = left / 13
        for su in range(4):
            if voids[s] & SUIT_MASKS[su]:
                x[_VOIDS + 4 * (r - 1) + su] = 1.0
            elif left:
                elig[13 * su : 13 * su + 13, r - 1] = True
    x[_DONE] = done / 13
    elig &= hidden[:, None]
    return x, elig


def view_features(view: View) -> tuple[Array, Mask]:
    """:func:`features` of a seat's view."""
    if view.seat is None or view.hand is None:
        raise ValueError("the location model needs a seat's view")
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    rows = [(t.leader, t.cards, t.winner) for t in view.tricks]
    return features(view.seat, hand, rows, [b or 0 for b in view.bids])


class LocationModel:
    """``input -> relu(hidden) -> 52 x 3 scores``, a softmax over the seats
    that may hold each card."""

    def __init__(self, w1: Array, b1: Array, w2: Array, b2: Array) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2

    @classmethod
    def load(cls, path: Path) -> LocationModel:
        with np.load(path) as z:
            return cls(z["w1"], z["b1"], z["w2"], z["b2"])

    def save(self, path: Path) -> None:
        np.savez_compressed(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)

    @property
    def size(self) -> int:
        """Number of weights."""
        return sum(a.size for a in (self.w1, self.b1, self.w2, self.b2))

    def probabilities(self, x: Array, elig: Mask) -> Array:
        """Batched: ``x`` (n, features), ``elig`` (n, 52, 3) -> the chance
        of each seat holding each card (0 where it may not; rows of cards
        nobody may hold are 0)."""
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        z = (h @ self.w2 + self.b2).reshape(-1, 52, 3)
        z = np.where(elig, z, np.float32(-1e9))
        z -= z.max(axis=-1, keepdims=True)
        p = np.exp(z) * elig
        total = p.sum(axis=-1, keepdims=True)
        return np.asarray(p / np.where(total > 0, total, 1.0), np.float32)


@lru_cache(maxsize=1)
def shipped_locations() -> LocationModel:
    """The model shipped in the package (loaded once)."""
    return LocationModel.load(SHIPPED)


@dataclass(frozen=True, slots=True)
class LocationSampler:
    """Deals of the hidden cards drawn with the model's chances (see the
    module's description); pickled to the search's workers."""

    chances: tuple[tuple[float, float, float], ...]
    """By card: the chance of each other seat (1, 2, 3 after the view's)."""
    packed: bytes = b""
    """``chances`` as packed doubles, for the C deal (:mod:`.speedups`)."""
    fast: bool = True
    """Deal in C where it is built (the same deals from the same draws)."""
    fit: bool = True
    """Keep each deal by how well the bidders' hands fit their bids, as the
    search's sampler does; off leaves the bids to the model, which has read
    them too (for measuring whether they count twice)."""

    @classmethod
    def for_view(
        cls, view: View, model: LocationModel | None = None, *, fast: bool = True, fit: bool = True
    ) -> LocationSampler:
        x, elig = view_features(view)
        p = (model or shipped_locations()).probabilities(x[None], elig[None])[0]
        chances = tuple((float(a), float(b), float(c)) for a, b, c in p.tolist())
        packed = array("d", [x for row in chances for x in row]).tobytes()
        return cls(chances, packed, fast, fit)

    def __call__(self, k: Knowledge, rng: random.Random) -> list[int]:
        others = tuple(s for s in range(4) if s != k.seat)
        bidders = [s for s in others if k.bids[s]] if self.fit else []
        if self.fast and self.packed and fast_draw is not None:
            # The loop below, in C.
            rel = [PLACE[k.seat][s] - 1 for s in range(4)]
            kept = fast_draw(rng, self.packed, *draw_args(k, bidders, rel), _TRIES)[0]
            return kept if kept is not None else sample_hands(k, rng, fast=True)
        for _ in range(_TRIES):
            hands = self._deal(k, rng, others)
            if hands is None:
                break
            w = 1.0
            for s in bidders:
                w *= bid_likelihood(k, s, hands[s] | k.played_by[s])
            if rng.random() < w:
                return hands
        return sample_hands(k, rng, fast=self.fast)

    def _deal(self, k: Knowledge, rng: random.Random, others: tuple[int, ...]) -> list[int] | None:
        hands = [0, 0, 0, 0]
        hands[k.seat] = k.hand
        cap = [0, 0, 0, 0]
        share = [0.0, 0.0, 0.0, 0.0]
        for s in others:
            cap[s] = k.left(s)
            share[s] = 1.0 / max(1, cap[s])
        rel = [PLACE[k.seat][s] - 1 for s in range(4)]
        chances = self.chances
        unknown = k.unknown
        elig = [[s for s in others if not k.voids[s] & SUIT_MASKS[su]] for su in range(4)]
        # The most constrained suits first, as the uniform sampler does.
        for su in sorted(range(4), key=lambda su: len(elig[su])):
            seats = elig[su]
            cards = [c for c in range(13 * su, 13 * su + 13) if unknown >> c & 1]
            rng.shuffle(cards)
            for c in cards:
                p = chances[c]
                total = 0.0
                for s in seats:
                    total += cap[s] * share[s] * p[rel[s]] + 1e-9 * cap[s]
                if total <= 0.0:
                    return None
                r = rng.random() * total
                for s in seats:
                    r -= cap[s] * share[s] * p[rel[s]] + 1e-9 * cap[s]
                    if r < 0.0 and cap[s]:
                        break
                else:
                    s = next(x for x in reversed(seats) if cap[x])
                hands[s] |= 1 << c
                cap[s] -= 1
        return hands
