"""Evidence of collusion, added up over decisions, hands, games and seats.

Each judged decision gives one number ``l``: how much more likely the card
played is under a choice model that knows the partner's real hand than,
on average, under the same model given partner hands drawn from what the
player could infer (docs/fair-play.md, "The method"). For an honest player
the real hand is, given their view, just one more draw from that
inference, so ``l`` averages zero; a player who sees the partner's cards
plays towards them and ``l`` drifts above zero.

The decisions of one hand share a deal, so their ``l`` are not
independent: the score is self-normalised **by hand**,
``sum(L_h) / sqrt(sum(L_h**2))`` where ``L_h`` is a hand's total (for a
seat, or for a partnership: both partners' decisions of the hand), about
standard normal for an honest player whatever the number of hands.
:meth:`Evidence.closed` turns one hand's evidence into such a term.

>>> hand = Evidence()
>>> hand.add(0.5, gain=1.0, discriminating=True, agrees_true=True, agrees_ref=False)
>>> hand.add(-0.1, gain=0.0, discriminating=False, agrees_true=False, agrees_ref=False)
>>> two = hand.closed() + hand.closed()
>>> round(two.z, 3), two.decisions, two.discriminating
(1.414, 4, 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

__all__ = ["Evidence"]


@dataclass(slots=True)
class Evidence:
    """Sums over judged decisions (a seat's, a partnership's, over hands
    and games)."""

    decisions: int = 0
    """Decisions judged (card plays with more than one distinct card, bids
    with more than one legal bid)."""
    llr: float = 0.0
    """Sum of the log-likelihood ratios ``l``."""
    llr_sq: float = 0.0
    """Sum of their squares."""
    gain: float = 0.0
    """Sum of the points the chosen cards gain when judged with the
    partner's hand known rather than with only the player's own view
    (regret under the inferred partner hands minus regret under the real
    one)."""
    discriminating: int = 0
    """Decisions where the best card with the partner's real hand differs
    from the best card with the inferred ones."""
    agree_true: int = 0
    """Of those, the ones where the player chose the real hand's best."""
    agree_ref: int = 0
    """Of those, the ones where the player chose the inferred hands' best."""
    hand_sq: float = 0.0
    """Sum over closed hands of the square of the hand's ``llr`` (the
    score's scale)."""
    policy_decisions: int = 0
    """Cards judged by the second statistic (:mod:`.policy`)."""
    policy: float = 0.0
    """Sum of their evidence (``l`` of :func:`.policy.policy_evidence`)."""
    policy_hand_sq: float = 0.0
    """Sum over closed hands of the square of the hand's ``policy``."""

    def add(
        self,
        llr: float,
        *,
        gain: float,
        discriminating: bool,
        agrees_true: bool,
        agrees_ref: bool,
    ) -> None:
        """Count one judged decision."""
        self.decisions += 1
        self.llr += llr
        self.llr_sq += llr * llr
        self.gain += gain
        if discriminating:
            self.discriminating += 1
            self.agree_true += agrees_true
            self.agree_ref += agrees_ref

    def add_policy(self, llr: float) -> None:
        """Count one card judged by the second statistic."""
        self.policy_decisions += 1
        self.policy += llr

    def closed(self) -> Evidence:
        """This evidence as one hand's term of the scores (its decisions
        taken together)."""
        return replace(self, hand_sq=self.llr * self.llr, policy_hand_sq=self.policy * self.policy)

    def scaled(self, weight: float) -> Evidence:
        """This evidence with every ``l`` multiplied by ``weight`` (how the
        bids' evidence enters a hand's, see ``ScoreOptions.bid_weight``)."""
        w2 = weight * weight
        return replace(
            self, llr=self.llr * weight, llr_sq=self.llr_sq * w2, hand_sq=self.hand_sq * w2
        )

    def __add__(self, other: Evidence) -> Evidence:
        return Evidence(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def z(self) -> float:
        """The fair-play score: about N(0, 1) for an honest player, large
        and positive for one who plays towards the partner's hidden cards
        (0 with no evidence)."""
        if self.hand_sq <= 0.0:
            return 0.0
        return self.llr / math.sqrt(self.hand_sq)

    @property
    def policy_z(self) -> float:
        """The second statistic's score (:mod:`.policy`), self-normalised by
        hand as :attr:`z` is: about N(0, 1) for an honest player, large and
        positive for one whose cards follow the partner's hidden hand the
        way a player told it would play them."""
        if self.policy_hand_sq <= 0.0:
            return 0.0
        return self.policy / math.sqrt(self.policy_hand_sq)

    @property
    def mean_gain(self) -> float:
        """Points gained per judged decision (see :attr:`gain`)."""
        return self.gain / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["z"] = self.z
        out["policy_z"] = self.policy_z
        out["mean_gain"] = self.mean_gain
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evidence:
        # Sums kept before the second statistic have none of its fields.
        return cls(**{f.name: data.get(f.name, 0) for f in fields(cls)})
