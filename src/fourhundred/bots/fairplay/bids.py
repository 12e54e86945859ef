"""Bids judged like cards: each bid a seat made with a choice is valued
with the partner's real hand and with partner hands inferred from the
seat's own view, and the same choice model gives its evidence.

A bid is valued by the search's simulation of whole hands
(:func:`..search.evaluate` on the bid view: the later bidders bid as the
heuristic would, everyone plays the heuristic, each bid scored by the 400
objective for the bidder's team). The options valued are the bids near
the heuristic's (one below to two above, as the search considers) and the
bid made. With the partner's hand known the deals give the partner its
real 13 cards (:class:`.worlds.PartnerFixed`); the inferred partner hands
are the partner's part of deals drawn from the bidder's view by the
search's own sampler (counts, and the bids made before, each weighed by
how well the hand fits it), each valued on the same number of deals, so
that for an honest bidder the real hand is one more draw of the inferred
ones and the evidence averages zero (docs/fair-play.md, "Bids").
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fourhundred.engine import (
    BID_BASE,
    GameRecord,
    View,
    moves,
    partner_of,
    view_for,
)

from ..heuristic import heuristic_bid
from ..knowledge import Knowledge
from ..sampling import sample_hands
from ..search import Limits, evaluate
from ..tally import Tally
from .choice import (
    Judged,
    SearchRule,
    argmax_log_probs,
    judged,
    pick_log_probs,
    verdict,
)
from .worlds import PartnerFixed

if TYPE_CHECKING:
    from .options import ScoreOptions

__all__ = [
    "BidDecision",
    "bid_candidates",
    "bid_decisions",
    "bid_tallies",
    "bid_value_sets",
    "bid_values",
    "judge_bid",
]


@dataclass(frozen=True, slots=True)
class BidDecision:
    """A bid made with a choice, and what the detector needs of it."""

    hand: int
    index: int
    """The bid's place in the hand's bidding (0 to 3)."""
    seat: int
    view: View
    partner_hand: int
    bid: int


def bid_decisions(record: GameRecord | dict[str, Any]) -> Iterator[BidDecision]:
    """Every bid of ``record`` made from two or more legal bids, with the
    bidder's view and the partner's 13 cards. Raises ``RecordError`` for a
    bad record."""
    for m in moves(record):
        state = m.state
        if m.kind == "bid" and len(state.legal_bids()) > 1:
            seat = state.turn
            partner = state.hand(partner_of(seat))
            yield BidDecision(m.hand, m.index, seat, view_for(state, seat), partner, m.action)


def bid_candidates(view: View, bid: int) -> tuple[int, ...]:
    """The bids valued: the legal ones from one below the heuristic's to
    two above (never 13, which decides the game and is not simulated), and
    ``bid``. A function of the view and the bid only, never of the
    partner's hand."""
    k = Knowledge.from_view(view)
    legal = tuple(k.legal or ())
    h = heuristic_bid(k, legal)
    near = {b for b in legal if h - 1 <= b <= h + 2 and b != 13}
    return tuple(sorted(near | {bid}))


def bid_tally(view: View, partner_hand: int, seed: int, limits: Limits) -> Tally:
    """The team value of each bid of ``limits.bids`` (keyed by bid, not
    action) in the bid view ``view`` on each of ``limits.max_deals``
    simulated hands that give the partner ``partner_hand`` (on the fast
    path if ``limits.fast``: the same values, sooner)."""
    limits = dataclasses.replace(limits, sampler=PartnerFixed(partner_hand, limits.fast))
    tally = evaluate(view, seed, limits)
    return Tally({a - BID_BASE: vs for a, vs in tally.values.items()}, tally.deals, tally.weights)


def bid_values(view: View, partner_hand: int, seed: int, limits: Limits) -> dict[int, float]:
    """Mean team value of each bid of ``limits.bids`` (:func:`bid_tally`)."""
    tally = bid_tally(view, partner_hand, seed, limits)
    return {b: tally.mean(b) for b in tally.values}


def bid_tallies(
    view: View, partner_hand: int, bid: int, options: ScoreOptions, seed: int
) -> list[Tally] | None:
    """What :func:`judge_bid` weighs: the bids valued deal by deal with the
    partner's real hand, then with each inferred one; ``None`` when not
    judged (a bid of 13, or fewer than two bids to value)."""
    if bid == 13 or not partner_hand:
        return None
    cands = bid_candidates(view, bid)
    if len(cands) < 2:
        return None
    k = Knowledge.from_view(view)
    rng = random.Random(seed)
    partner = partner_of(k.seat)
    limits = Limits(max_deals=options.bid_deals, bids=cands, fast=options.fast)
    real = bid_tally(view, partner_hand, seed, limits)
    inferred = [
        bid_tally(view, sample_hands(k, rng, fast=options.fast)[partner], seed, limits)
        for _ in range(options.bid_refs)
    ]
    return [real, *inferred]


def bid_value_sets(
    view: View, partner_hand: int, bid: int, options: ScoreOptions, seed: int
) -> tuple[dict[int, float], list[dict[int, float]]] | None:
    """The mean values of :func:`bid_tallies`' tallies: with the partner's
    real hand and with each inferred one."""
    tallies = bid_tallies(view, partner_hand, bid, options, seed)
    return None if tallies is None else _means(tallies)


def _means(tallies: list[Tally]) -> tuple[dict[int, float], list[dict[int, float]]]:
    """Each bid's mean of the first tally (the real hand's) and of the rest."""
    real, *inferred = ({b: t.mean(b) for b in t.values} for t in tallies)
    return real, inferred


def judge_bid(
    view: View, partner_hand: int, bid: int, options: ScoreOptions, seed: int
) -> Judged | None:
    """The evidence of bidding ``bid`` in ``view`` when the partner holds
    ``partner_hand``; ``None`` when not judged (see :func:`bid_tallies`).
    The choice model is ``options.bid_model``: the softmax of
    ``bid_beta`` per point, the cards' argmax over resampled deals, or the
    search's rule on resampled deals (the heuristic's bid its prior)."""
    tallies = bid_tallies(view, partner_hand, bid, options, seed)
    if tallies is None:
        return None
    real, inferred = _means(tallies)
    if options.bid_model == "softmax":
        return judged(real, inferred, bid, options.bid_beta, options.mix_rate)
    if options.bid_model == "pick":
        k = Knowledge.from_view(view)
        prior = heuristic_bid(k, tuple(k.legal or ()))
        model = pick_log_probs(
            tallies, SearchRule(prior, options.pick_z), options.argmax_draws, options.eps, seed
        )
    else:
        model = argmax_log_probs(tallies, options.argmax_draws, options.eps, seed)
    return verdict(real, inferred, bid, model, options.mix_rate)
