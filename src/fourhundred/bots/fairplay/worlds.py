"""Deals of the hidden cards with the partner's hand fixed, and the value of
each card a seat could play on such deals.

The detector (:mod:`.scorer`) and the search colluder (:mod:`.colluders`)
both need the question "what is each card worth if this seat knew its
partner's hand?": the hidden cards are then only the opponents', dealt by
the search's own sampler (:func:`..sampling.sample_hands`: counts, voids,
bids) with the partner's cards taken out of the unknown and the partner
treated as holding nothing else.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from fourhundred.engine import View, partner_of

from ..knowledge import FULL, Knowledge
from ..sampling import sample_hands
from ..search import Limits, evaluate
from ..tally import Tally

__all__ = ["PartnerFixed", "card_tally", "card_values"]


@dataclass(frozen=True, slots=True)
class PartnerFixed:
    """A sampler (``sampler(k, rng)``, like ``sample_hands``) whose deals
    give the partner exactly ``partner_hand`` (its unplayed cards) and deal
    the rest of the hidden cards to the opponents; ``fast``: dealt in C
    (the same deals from the same draws, sooner: a sixth off the
    detector's cards at 16 deals, half at 64; docs/fair-play.md, "Cost")."""

    partner_hand: int
    fast: bool = False

    def __call__(self, k: Knowledge, rng: random.Random) -> list[int]:
        partner = partner_of(k.seat)
        fixed = self.partner_hand
        voids = list(k.voids)
        voids[partner] = FULL  # no hidden card goes to the partner
        bids = list(k.bids)
        bids[partner] = 0  # its hand is known: no need to weigh it by its bid
        # ``unknown`` is derived from ``gone`` and ``hand``: counting the
        # partner's cards as gone leaves only the opponents' to deal.
        narrowed = dataclasses.replace(k, gone=k.gone | fixed, voids=voids, bids=bids)
        hands = sample_hands(narrowed, rng, fast=self.fast)
        hands[partner] = fixed
        return hands


def card_tally(view: View, partner_hand: int, seed: int, limits: Limits) -> Tally:
    """The team value of each distinct legal card of ``view`` on each of
    ``limits.max_deals`` deals that give the partner ``partner_hand``
    (rollouts with the heuristic, the exact solver from ``limits.exact``
    tricks left; on the fast path if ``limits.fast``, the same values
    sooner, its deals too)."""
    sampler = PartnerFixed(partner_hand, limits.fast)
    return evaluate(view, seed, dataclasses.replace(limits, sampler=sampler))


def card_values(view: View, partner_hand: int, seed: int, limits: Limits) -> dict[int, float]:
    """Mean team value of each distinct legal card of ``view`` over the
    deals of :func:`card_tally`."""
    tally = card_tally(view, partner_hand, seed, limits)
    return {c: tally.mean(c) for c in tally.values}
