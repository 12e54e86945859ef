"""The expert's bidder: the learned chance of each trick count, then the bid
that is worth most for the team in this game.

:func:`make_chances` reads the trick model (:mod:`.model`) for the seat's
hand, its place in the bidding and the bids before it: ``p[b]``, the chance
of taking at least ``b`` tricks. :func:`model_bid` hands those chances to
the heuristic's valuation of bids (:func:`.heuristic.bid_from_distribution`),
which knows the real bid values of the view, the target and the partner rule
(a bid that wins the game is worth the game, a failure from a low score that
stops the partner from winning costs more), the required total (the dealer
may throw the hand in) and the 13 bid; where the game is far from its end,
only points count.
"""

from __future__ import annotations

from fourhundred.engine import View

from .heuristic import bid_from_distribution
from .knowledge import Knowledge
from .model import TrickModel, knowledge_features, shipped_model

__all__ = ["chance_of_making", "make_chances", "model_bid"]


def make_chances(k: Knowledge, model: TrickModel | None = None) -> list[float]:
    """``p[b]`` (b = 0..13) for the seat of ``k`` at its bid."""
    m = shipped_model() if model is None else model
    return m.p_make(knowledge_features(k))


def model_bid(k: Knowledge, legal: tuple[int, ...], model: TrickModel | None = None) -> int:
    """The bid of highest value for the team under the learned chances."""
    return bid_from_distribution(k, legal, make_chances(k, model))


def chance_of_making(view: View, bid: int, model: TrickModel | None = None) -> float:
    """The chance that the seat of ``view`` (at its bid: ``view.bids`` has
    only the earlier bids) takes at least ``bid`` tricks."""
    return make_chances(Knowledge.from_view(view), model)[max(0, min(13, bid))]
