"""The second statistic of the detector: do a seat's cards follow the
partner's hidden hand the way a player told it would play them?

The first statistic (:mod:`.scorer`) asks whether the cards *gain points*
when judged with the partner's hand known. A cheat who is told the
partner's cards but plays by feel ("I'm out of clubs, I hold the ace of
spades") gains few points, and the points it gains are lost in the noise
of the rollouts. Its cards, though, follow the told hand: this statistic
asks, card by card, how much more likely the card played is under a model
of a player **told** the partner's real hand than, on average, under the
same model told the partner hands the seat could infer.

The model: the heuristic (our model of how players choose) told the
partner's cards and voids (:func:`told_card`) plays its card, or a card
touching it, with probability ``1 - eps``, else any other distinct card
alike. A decision's evidence is::

    l = log q(card | real hand) - E[log q(card | inferred hand)]

the expectation over inferred partner hands, weighted by how well the
plays so far fit them (:meth:`..inference.PlayInference.weighted`). For an
honest seat the real hand is, given the view, one more draw of the
inferred ones, so ``l`` averages zero whatever the seat's own way of
playing; a seat whose cards follow the told hand drifts above zero. The
hands' sums are self-normalised as the first statistic's are
(:class:`.evidence.Evidence`, ``policy_z``).

What it cannot see: a cheat whose use of the partner's cards is unlike
the heuristic's. docs/fair-play.md, "The second statistic", has the
figures, and says which colluder it was built to find.

>>> from fourhundred.engine import GameState, view_for
>>> import random
>>> s = GameState(rng=random.Random(3))
>>> s.deal_random(3)
>>> while s.phase.label == "bid":
...     s.apply(s.legal_actions()[-1])
>>> seat = s.turn
>>> v = view_for(s, seat)
>>> partner = s.hand((seat + 2) % 4)
>>> card = told_card(Knowledge.from_view(v), partner)
>>> l = policy_evidence(v, partner, card, seed=1, model=PolicyModel(batch=8))
>>> l is None or l >= 0.0
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from fourhundred.engine import SUIT_MASKS, View, partner_of

from ..heuristic import heuristic_card
from ..inference import PlayInference
from ..knowledge import Knowledge
from ..search import play_candidates, representative

__all__ = ["PolicyModel", "policy_evidence", "told_card"]


@dataclass(frozen=True, slots=True)
class PolicyModel:
    """The model's parameters: ``batch`` inferred partner hands per
    decision, and ``eps``, the share of cards a player plays away from the
    model's card."""

    batch: int = 24
    eps: float = 0.2


def told_card(k: Knowledge, partner_hand: int) -> int:
    """The heuristic's card for the seat of ``k`` when it is told its
    partner's unplayed cards: the partner's voids follow from its hand, and
    its cards count as out of the opponents' reach."""
    partner = partner_of(k.seat)
    voids = list(k.voids)
    for suit_mask in SUIT_MASKS:
        if not partner_hand & suit_mask:
            voids[partner] |= suit_mask
    return heuristic_card(k, gone=k.gone | partner_hand, voids=voids)


def policy_evidence(
    view: View, partner_hand: int, card: int, seed: int, model: PolicyModel
) -> float | None:
    """The evidence ``l`` of playing ``card`` in ``view`` when the partner
    holds ``partner_hand``, against ``model.batch`` inferred partner hands;
    ``None`` when the decision is not judged (one distinct card, or a
    partner with nothing left to hide)."""
    k = Knowledge.from_view(view)
    distinct = play_candidates(k)
    if len(distinct) < 2 or not partner_hand:
        return None
    keys = dict.fromkeys(distinct)
    chosen = representative(card, keys, k)
    eps = model.eps
    hit, miss = math.log(1.0 - eps), math.log(eps / (len(distinct) - 1))

    def log_q(hand: int) -> float:
        return hit if representative(told_card(k, hand), keys, k) == chosen else miss

    partner = partner_of(k.seat)
    drawn = PlayInference(view).weighted(k, random.Random(seed), model.batch)
    total = sum(w for _, w in drawn)
    if total <= 0.0:  # no drawn deal fits the plays: weigh them alike
        drawn, total = [(h, 1.0) for h, _ in drawn], float(len(drawn))
    expected = sum(w * log_q(h[partner]) for h, w in drawn) / total
    return log_q(partner_hand) - expected
