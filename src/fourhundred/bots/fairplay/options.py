"""How hard the collusion detector looks, and the thresholds it flags a
partnership from (the options of :mod:`.scorer`; docs/fair-play.md, "The
method" and "The threshold (session 23)")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from .policy import PolicyModel

__all__ = [
    "DRIFT_ALLOWANCE",
    "FLAG_DEALS",
    "FLAG_Z",
    "MIN_DECISIONS",
    "POLICY_FLAG_Z",
    "ScoreOptions",
]

FLAG_Z: Final = 2.9
"""The partnership score from which a pair is flagged for a moderator:
about one honest pair in 530 if the score were exactly N(0, 1). It is the
lowest tenth at which normals fitted to the honest pairs' scores after 50
deals expect at most three quarters of the 1% allowed to pass either
threshold, a quarter kept for the fit's error (docs/fair-play.md, "The
threshold (session 23)"): 3.0 until session 23, 2.8 until session 32,
2.9 since, the rule applied to the 840 honest pairs of the detector's
measurement (docs/fair-play.md, "The search's rule on 64 deals a card
(session 30)")."""
POLICY_FLAG_Z: Final = 2.9
"""The same for the second statistic (:mod:`.policy`): a pair is flagged
when either score reaches its threshold. Both scores share the rule's
tenth (3.0 until session 23, 2.8 until session 32)."""
MIN_DECISIONS: Final = 40
"""A partnership is never flagged on fewer judged decisions (a
self-normalised sum of a handful of terms is not yet normal)."""
FLAG_DEALS: Final = 50
"""The deals the thresholds are set for (the issue's and the
measurement's 50); past them they rise (:func:`thresholds_at`)."""
DRIFT_ALLOWANCE: Final = 0.5
"""How far both thresholds rise for each further ``sqrt(FLAG_DEALS)``
of deals' worth of evidence. Honest pairs' scores are not centred exactly
on zero (the inference reads a partner a little less well than a partner
really plays: a mean of 0.25 after 50 deals), and such a drift grows
like the square root of the deals, so on the server, which adds up a
partnership's games for as long as it plays, a fixed threshold would in
time flag a share of regular honest partners (docs/fair-play.md, "Long
partnerships"). Twice the measured drift keeps the honest pairs'
distance to the threshold from shrinking as they play on; a colluder's
score grows like the square root of the deals times its own rate, 2.9 or
more after 50 deals, far faster than the threshold."""


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    """How hard the detector looks: ``deals`` sampled opponent deals per
    partner hand (64 since session 32, 16 before), ``refs`` inferred
    partner hands (each kept from ``infer_batch`` deals by the likelihood
    of the plays so far, weighed on the fast path with ``fast``; 48 was
    tried and found fewer colluders, docs/fair-play.md), exact solving
    from ``exact`` tricks left, seeded by ``seed``. ``card_model``: the
    cards' choice model, ``"pick"`` (the default since session 32: the
    chance that the search's own rule takes the card on a resample of the
    deals valued, the heuristic's card unless another beats it by
    ``pick_z`` standard errors, :func:`.choice.pick_shares`),
    ``"argmax"`` (sessions 22 to 31: the chance of each card being the
    best of the means over a resample, :func:`.choice.argmax_log_probs`)
    or ``"softmax"`` (of ``beta`` per point); the resampled models take
    ``argmax_draws`` resamples, mixed with ``eps`` of the uniform, each of
    ``argmax_size`` deals (16 since session 32: a player who decides on
    fewer deals than the detector values; ``None``: as many as valued).
    Bids (``bids`` on): ``bid_deals`` simulated hands per partner hand,
    ``bid_refs`` inferred partner hands, ``bid_model`` (as the cards':
    ``"pick"`` since session 32, ``"argmax"`` from session 24,
    ``"softmax"`` of ``bid_beta`` per point before), each bid's ``l``
    weighted by ``bid_weight`` in its hand's sum (1: as is; other weights
    were tried, docs/fair-play.md, "Bids"). ``fast``: values on the
    search's fast path (rollouts and the exact solver in C; the same
    values as in Python, sooner). ``mix_rate``: the share of decisions of
    the cheat the first statistic's evidence is the likelihood ratio
    against, cards and bids alike (:func:`.choice.mixture_llr`; 1, the
    plain log ratio). Why the defaults are these: docs/fair-play.md, "The
    search's rule on 64 deals a card (session 30)"."""

    deals: int = 64
    refs: int = 2
    infer_batch: int = 12
    beta: float = 0.3
    exact: int = 3
    seed: int = 0
    threshold: float = FLAG_Z
    bids: bool = True
    bid_deals: int = 32
    bid_refs: int = 3
    bid_beta: float = 0.5
    bid_weight: float = 1.0
    policy: PolicyModel = field(default_factory=PolicyModel)
    policy_threshold: float = POLICY_FLAG_Z
    fast: bool = True
    card_model: Literal["argmax", "softmax", "pick"] = "pick"
    bid_model: Literal["argmax", "softmax", "pick"] = "pick"
    argmax_draws: int = 400
    eps: float = 0.1
    mix_rate: float = 1.0
    argmax_size: int | None = 16
    pick_z: float = 1.0

    def __post_init__(self) -> None:
        for name in ("card_model", "bid_model"):
            model = getattr(self, name)
            if model not in ("argmax", "softmax", "pick"):
                raise ValueError(f"{name} is 'argmax', 'softmax' or 'pick', not {model!r}")
        if not 0.0 < self.eps <= 1.0 or self.argmax_draws < 1:
            raise ValueError("eps is in (0, 1] and argmax_draws at least 1")
        if self.argmax_size is not None and self.argmax_size < 1:
            raise ValueError("argmax_size is at least 1 (or None: as many as valued)")
        if not 0.0 < self.mix_rate <= 1.0:
            raise ValueError(f"mix_rate is in (0, 1], not {self.mix_rate}")
