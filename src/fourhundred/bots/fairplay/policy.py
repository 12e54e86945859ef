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

The model (``PolicyModel``, ``weighting="own"``, the default): a player
who plays, on a share ``told`` of the cards (0.3), the card the heuristic
(our model of how players choose) plays when told the partner's cards and
voids (:func:`told_card`); on a share ``own`` (0.5), the heuristic's card
from the seat's own view; on the rest, any distinct card alike (touching
cards count as one). Let ``a`` say whether the card played is the told
card with the partner's real hand, and ``p`` the share of inferred partner
hands (drawn from the seat's view, weighted by how well the plays so far
fit them, :meth:`..inference.PlayInference.weighted`) with which it is.
The model's chance of the card depends on the partner's hand only through
``a``, so a decision's evidence, ``log q(card | real hand) -
E[log q(card | inferred hand)]``, is::

    l = w * (a - p),  w = log(base + told) - log(base)

with ``base`` the chance of the card when it is not the told one: ``own +
rest / n`` for the seat's own card, ``rest / n`` for any other (``n``
distinct cards, ``rest = 1 - told - own``). For an honest seat the real
hand is, given the view, one more draw of the inferred ones, so ``a - p``
averages zero whatever the seat's own way of playing, and so does ``l``
for any weight ``w`` that depends only on the view and the card; a seat
whose cards follow the told hand drifts above zero. The hands' sums are
self-normalised as the first statistic's are
(:class:`.evidence.Evidence`, ``policy_z``).

Why the seat's own card: a cheat told the hand on some decisions plays its
own card on the others. The model with one mode only (``weighting="flat"``:
the told card with probability ``1 - eps``, anything else alike, ``w =
log(1 - eps) - log(eps / (n - 1))`` for every card) counted every own card
that the real hand's told card is not as heavily against the seat as a
told card counts for it; the mixture counts it lightly (with four
distinct cards, ``w`` is 0.44 for the own card and 1.95 for any other,
where the flat model's is 2.48 for every card). On the same games it
raised a colluder told the hand on a quarter of its decisions from 1.66
to 2.53 and 2.63 (two seeds, 24 tables of 30 deals each), honest pairs
unchanged (``bench/fairplay_weights.py``, docs/fair-play.md, "The second
statistic with the player's own card (session 21)").

``PolicyModel(weighting="score")`` weighs a decision instead by the score
test of a player told the hand on a small share of decisions,
``w = (q_hit - q_miss) / q(card)`` with ``q(card)`` the model's chance of
the card over the inferred hands (its ``p`` and the ``p`` of ``a - p``
from two separate halves of the drawn hands, else a weight raised by a low
estimate meets the same low estimate and honest seats drift up). It was
measured against the flat weight and did not find more
(``bench/fairplay_weights.py``, docs/fair-play.md, "Levers").

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
    decision; ``eps``, the share of cards a player plays away from the told
    card (``flat`` and ``score`` only)."""

    batch: int = 24
    eps: float = 0.2
    weighting: str = "own"
    """``own``, ``flat`` or ``score`` (see the module's description)."""
    told: float = 0.3
    """``own`` only: the share of cards played by the told hand."""
    own: float = 0.5
    """``own`` only: the share of cards played by the seat's own view."""

    def __post_init__(self) -> None:
        if not (self.told > 0.0 and self.own >= 0.0 and self.told + self.own < 1.0):
            raise ValueError("told and own are shares: told > 0, own >= 0, told + own < 1")
        if self.weighting not in ("own", "flat", "score"):
            raise ValueError(f"unknown weighting {self.weighting!r} (own, flat or score)")


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


def _share(drawn: list[tuple[list[int], float]], agrees: list[bool]) -> float:
    """The weighted share of ``drawn`` whose told card is the one played
    (the hands weighed alike when none fits the plays)."""
    total = sum(w for _, w in drawn)
    if total <= 0.0:
        return sum(agrees) / len(agrees)
    return sum(w for (_, w), a in zip(drawn, agrees, strict=True) if a) / total


def policy_evidence(
    view: View, partner_hand: int, card: int, seed: int, model: PolicyModel
) -> float | None:
    """The evidence of playing ``card`` in ``view`` when the partner holds
    ``partner_hand``, against ``model.batch`` inferred partner hands, by
    ``model.weighting``; ``None`` when the decision is not judged (one
    distinct card, or a partner with nothing left to hide)."""
    k = Knowledge.from_view(view)
    distinct = play_candidates(k)
    if len(distinct) < 2 or not partner_hand:
        return None
    keys = dict.fromkeys(distinct)
    chosen = representative(card, keys, k)

    def agrees(hand: int) -> bool:
        return representative(told_card(k, hand), keys, k) == chosen

    partner = partner_of(k.seat)
    drawn = PlayInference(view).weighted(k, random.Random(seed), model.batch)
    told = [agrees(h[partner]) for h, _ in drawn]
    real = float(agrees(partner_hand))
    hit, miss = 1.0 - model.eps, model.eps / (len(distinct) - 1)
    if model.weighting == "flat":
        return (math.log(hit) - math.log(miss)) * (real - _share(drawn, told))
    if model.weighting == "own":
        rest = (1.0 - model.told - model.own) / len(distinct)
        base = rest + (model.own if representative(heuristic_card(k), keys, k) == chosen else 0.0)
        return (math.log(base + model.told) - math.log(base)) * (real - _share(drawn, told))
    half = len(drawn) // 2
    p_weight = _share(drawn[:half], told[:half])
    q_card = hit * p_weight + miss * (1.0 - p_weight)
    return (hit - miss) / q_card * (real - _share(drawn[half:], told[half:]))
