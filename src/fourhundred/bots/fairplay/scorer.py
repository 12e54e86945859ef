"""The collusion detector: a fair-play score per seat of a finished game.

For every card a seat played with a real choice (two or more distinct
cards), the cards it could play are valued twice over, by the search's
rollouts and the exact solver for the last tricks:

* with the partner's **real** unplayed cards fixed (only the opponents'
  cards are sampled): values ``v``;
* with ``refs`` partner hands **inferred** from the seat's own view (the
  expert's inference from play, :class:`..inference.PlayInference`), each
  fixed the same way: values ``u_1 .. u_refs``.

Under a choice model (:mod:`.choice`: the chance that each card is the
best of a resample of the deals valued; a softmax of ``beta`` per point
before session 22, and for bids before session 24), the evidence of the
decision is
``log p_v(card) - mean_j log p_u_j(card)``. An honest player's
card depends on their view only, and given that view the real partner hand
is one more draw of the inferred ones, so the evidence averages zero; a
colluder's cards follow the real hand (docs/fair-play.md, "The method").

A second statistic (:mod:`.policy`) asks of the same cards whether they
follow the partner's hand the way a player told it would play them; a
pair is flagged when either score reaches its threshold.

Bids are judged the same way (:mod:`.bids`: the search's simulation of
whole hands values the bids near the heuristic's and the one made), and a
hand's evidence of a seat takes its bid and its cards together.

:func:`score_game` gives each seat's evidence, its partnership's combined
score and whether that score reaches the flag threshold; the server files
a flag as a report by the system for a moderator, never as a ban.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from fourhundred.engine import (
    GameRecord,
    View,
    moves,
    partner_of,
    team_of,
    team_seats,
    view_for,
)

from ..heuristic import heuristic_card
from ..inference import PlayInference
from ..knowledge import Knowledge
from ..search import Limits, play_candidates, representative
from ..tally import Tally
from .bids import BidDecision, bid_decisions, judge_bid
from .choice import (
    Judged,
    SearchRule,
    argmax_log_probs,
    judged,
    pick_log_probs,
    verdict,
)
from .evidence import Evidence
from .options import (
    DRIFT_ALLOWANCE,
    FLAG_DEALS,
    FLAG_Z,
    MIN_DECISIONS,
    POLICY_FLAG_Z,
    ScoreOptions,
)
from .policy import policy_evidence
from .worlds import card_tally

__all__ = [
    "DRIFT_ALLOWANCE",
    "FLAG_DEALS",
    "FLAG_Z",
    "MIN_DECISIONS",
    "POLICY_FLAG_Z",
    "Judged",
    "ScoreOptions",
    "SeatScore",
    "bids_by_hand",
    "cards_by_hand",
    "flagged",
    "judge",
    "play_decisions",
    "policy_by_hand",
    "score_by_hand",
    "score_game",
    "score_parts",
    "seat_scores",
    "thresholds_at",
]


def judge(
    view: View, partner_hand: int, card: int, options: ScoreOptions, seed: int
) -> Judged | None:
    """The evidence of playing ``card`` in ``view`` when the partner holds
    ``partner_hand``; ``None`` when the decision is not judged (one
    distinct card, or a partner with nothing left to hide)."""
    tallies = card_tallies(view, partner_hand, options, seed)
    if tallies is None:
        return None
    real, refs, chosen = card_choice(tallies, view, card)
    if options.card_model == "softmax":
        return judged(real, refs, chosen, options.beta, options.mix_rate)
    if options.card_model == "pick":
        k = Knowledge.from_view(view)
        prior = representative(heuristic_card(k), real, k)
        model = pick_log_probs(
            tallies,
            SearchRule(prior, options.pick_z, options.argmax_size),
            options.argmax_draws,
            options.eps,
            seed,
        )
    else:
        model = argmax_log_probs(
            tallies, options.argmax_draws, options.eps, seed, options.argmax_size
        )
    return verdict(real, refs, chosen, model, options.mix_rate)


def card_tallies(
    view: View, partner_hand: int, options: ScoreOptions, seed: int
) -> list[Tally] | None:
    """What :func:`judge` weighs: each card's values deal by deal with the
    real partner hand, then with each inferred one; ``None`` when the
    decision is not judged."""
    k = Knowledge.from_view(view)
    cands = play_candidates(k)
    if len(cands) < 2 or not partner_hand:
        return None
    rng = random.Random(seed)
    limits = Limits(max_deals=options.deals, exact=options.exact, fast=options.fast)
    real = card_tally(view, partner_hand, seed, limits)
    infer = PlayInference(view, batch=options.infer_batch, fast=options.fast)
    partner = partner_of(k.seat)
    refs = [card_tally(view, infer(k, rng)[partner], seed, limits) for _ in range(options.refs)]
    return [real, *refs]


def card_options(
    view: View, partner_hand: int, card: int, options: ScoreOptions, seed: int
) -> tuple[dict[int, float], list[dict[int, float]], int] | None:
    """The mean values of the cards with the real partner hand and with
    each inferred one, and the card chosen as the values name it (its
    touching-card representative)."""
    tallies = card_tallies(view, partner_hand, options, seed)
    return None if tallies is None else card_choice(tallies, view, card)


def card_choice(
    tallies: Sequence[Tally], view: View, card: int
) -> tuple[dict[int, float], list[dict[int, float]], int]:
    """The mean values of :func:`card_tallies`' tallies (the real partner
    hand's, then each inferred one's) and ``card`` as the values name it
    (its touching-card representative)."""
    real, *refs = ({c: t.mean(c) for c in t.values} for t in tallies)
    return real, refs, representative(card, real, Knowledge.from_view(view))


@dataclass(frozen=True, slots=True)
class PlayDecision:
    """A card played with a choice, and what the detector needs of it."""

    hand: int
    index: int
    seat: int
    view: View
    partner_hand: int
    card: int


def play_decisions(record: GameRecord | dict[str, Any]) -> Iterator[PlayDecision]:
    """Every card of ``record`` played from two or more legal cards, with
    the player's view and the partner's unplayed cards at that moment.
    Raises ``RecordError`` for a bad record."""
    for m in moves(record):
        state = m.state
        if m.kind == "card" and len(state.legal_cards()) > 1:
            seat = state.turn
            partner = state.hand(partner_of(seat))
            yield PlayDecision(m.hand, m.index, seat, view_for(state, seat), partner, m.action)


def decision_seed(options: ScoreOptions, d: PlayDecision) -> int:
    """The seed of one decision's sampling: repeatable, and different for
    every decision of a game."""
    return (options.seed * 1_000_003 + d.hand * 1_009 + d.index) & (2**63 - 1)


def bid_seed(options: ScoreOptions, b: BidDecision) -> int:
    """The seed of one bid's sampling: repeatable, and apart from the
    cards' seeds of the same hand."""
    return (options.seed * 1_000_003 + b.hand * 1_009 + 900 + b.index) & (2**63 - 1)


def _add(e: Evidence, j: Judged) -> None:
    e.add(
        j.llr,
        gain=j.gain,
        discriminating=j.discriminating,
        agrees_true=j.agrees_true,
        agrees_ref=j.agrees_ref,
    )


def _add_card(into: list[list[Evidence]], d: PlayDecision, options: ScoreOptions) -> None:
    """Add the first statistic of the card of ``d`` to ``into[hand][seat]``."""
    j = judge(d.view, d.partner_hand, d.card, options, decision_seed(options, d))
    if j is not None:
        _add(into[d.hand][d.seat], j)


def score_parts(
    record: GameRecord | dict[str, Any], options: ScoreOptions | None = None
) -> tuple[list[list[Evidence]], list[list[Evidence]]]:
    """Each hand's evidence by seat (``out[hand][seat]``) of the cards and,
    apart, of the bids (unweighted; all empty with ``options.bids`` off)."""
    options = options or ScoreOptions()
    rec = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    cards = [[Evidence() for _ in range(4)] for _ in rec.hands]
    for d in play_decisions(rec):  # one replay of the record for both statistics
        _add_card(cards, d, options)
        _add_policy(cards, d, options)
    if not options.bids:
        return cards, [[Evidence() for _ in range(4)] for _ in rec.hands]
    return cards, bids_by_hand(rec, options)


def bids_by_hand(
    record: GameRecord | dict[str, Any], options: ScoreOptions | None = None
) -> list[list[Evidence]]:
    """Each hand's evidence by seat of the bids alone (unweighted; what
    :func:`score_parts` gives apart, without judging the cards)."""
    options = options or ScoreOptions()
    rec = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    out = [[Evidence() for _ in range(4)] for _ in rec.hands]
    for b in bid_decisions(rec):
        j = judge_bid(b.view, b.partner_hand, b.bid, options, bid_seed(options, b))
        if j is not None:
            _add(out[b.hand][b.seat], j)
    return out


def _add_policy(into: list[list[Evidence]], d: PlayDecision, options: ScoreOptions) -> None:
    """Add the second statistic of the card of ``d`` to ``into[hand][seat]``."""
    seed = decision_seed(options, d) + 17
    pl = policy_evidence(d.view, d.partner_hand, d.card, seed, options.policy)
    if pl is not None:
        into[d.hand][d.seat].add_policy(pl)


def _by_hand(
    record: GameRecord | dict[str, Any],
    options: ScoreOptions | None,
    add: Callable[[list[list[Evidence]], PlayDecision, ScoreOptions], None],
) -> list[list[Evidence]]:
    options = options or ScoreOptions()
    rec = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    out = [[Evidence() for _ in range(4)] for _ in rec.hands]
    for d in play_decisions(rec):
        add(out, d, options)
    return out


def policy_by_hand(
    record: GameRecord | dict[str, Any], options: ScoreOptions | None = None
) -> list[list[Evidence]]:
    """Each hand's evidence by seat of the second statistic alone (the
    cheap part of the detector: no rollouts)."""
    return _by_hand(record, options, _add_policy)


def cards_by_hand(
    record: GameRecord | dict[str, Any], options: ScoreOptions | None = None
) -> list[list[Evidence]]:
    """Each hand's evidence by seat of the first statistic's cards alone
    (what :func:`score_parts` gives of the cards, without the second
    statistic)."""
    return _by_hand(record, options, _add_card)


def score_by_hand(
    record: GameRecord | dict[str, Any], options: ScoreOptions | None = None
) -> list[list[Evidence]]:
    """Each hand's evidence by seat (``out[hand][seat]``), its cards and
    bids together (the bids' ``l`` weighted by ``options.bid_weight``), for
    curves over the number of deals."""
    options = options or ScoreOptions()
    cards, bids = score_parts(record, options)
    w = options.bid_weight
    return [
        [c + b.scaled(w) for c, b in zip(by_c, by_b, strict=True)]
        for by_c, by_b in zip(cards, bids, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's fair-play score and its partnership's, and the flag."""

    seat: int
    evidence: Evidence
    pair: Evidence
    flagged: bool
    """The partnership's score reached the threshold on enough decisions:
    a report by the system for a moderator to review, never a ban."""

    @property
    def z(self) -> float:
        return self.evidence.z

    @property
    def pair_z(self) -> float:
        return self.pair.z

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.evidence.to_dict(),
            "pair": self.pair.to_dict(),
            "flagged": self.flagged,
        }


def thresholds_at(
    deals: int | None, threshold: float = FLAG_Z, policy_threshold: float = POLICY_FLAG_Z
) -> tuple[float, float]:
    """The two thresholds for evidence of ``deals`` deals: as given up to
    :data:`FLAG_DEALS`, then higher by :data:`DRIFT_ALLOWANCE` for each
    further ``sqrt(FLAG_DEALS)`` of deals (``None``: as given).

    >>> thresholds_at(50)
    (2.9, 2.9)
    >>> [round(t, 2) for t in thresholds_at(200)]
    [3.4, 3.4]
    """
    if deals is None or deals <= FLAG_DEALS:
        return threshold, policy_threshold
    rise = DRIFT_ALLOWANCE * (math.sqrt(deals / FLAG_DEALS) - 1.0)
    return threshold + rise, policy_threshold + rise


def flagged(
    pair: Evidence,
    threshold: float = FLAG_Z,
    policy_threshold: float = POLICY_FLAG_Z,
    deals: int | None = None,
) -> bool:
    """Whether a partnership's evidence is flagged: either score at its
    threshold, on enough decisions; for evidence of more than
    :data:`FLAG_DEALS` ``deals``, at the thresholds risen with them
    (:func:`thresholds_at`)."""
    z_at, policy_at = thresholds_at(deals, threshold, policy_threshold)
    if pair.decisions >= MIN_DECISIONS and pair.z >= z_at:
        return True
    return pair.policy_decisions >= MIN_DECISIONS and pair.policy_z >= policy_at


def seat_scores(
    hands: Sequence[Sequence[Evidence]],
    threshold: float = FLAG_Z,
    policy_threshold: float = POLICY_FLAG_Z,
) -> list[SeatScore]:
    """The four seats' scores from the evidence of each hand by seat (of
    one game, or of several one after another): a seat's score takes each
    hand's decisions of that seat together, a partnership's each hand's
    decisions of both partners (docs/fair-play.md, "The method")."""
    seats = [Evidence() for _ in range(4)]
    teams = [Evidence(), Evidence()]
    for hand in hands:
        for seat in range(4):
            seats[seat] = seats[seat] + hand[seat].closed()
        for team in (0, 1):
            a, b = team_seats(team)
            teams[team] = teams[team] + (hand[a] + hand[b]).closed()
    return [
        SeatScore(
            seat,
            seats[seat],
            teams[team_of(seat)],
            flagged(teams[team_of(seat)], threshold, policy_threshold, len(hands)),
        )
        for seat in range(4)
    ]


def score_game(
    record: GameRecord | dict[str, Any], options: ScoreOptions | None = None
) -> list[SeatScore]:
    """One game's fair-play scores: each seat's, and whether its
    partnership is flagged (docs/fair-play.md, "Reports")."""
    options = options or ScoreOptions()
    return seat_scores(score_by_hand(record, options), options.threshold, options.policy_threshold)
