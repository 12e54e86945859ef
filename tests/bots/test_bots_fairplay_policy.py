"""The detector's second statistic (bots/fairplay/policy.py): cards that
follow the partner's hand the way a player told it would play them.

A heuristic colluder (the cheat the first statistic cannot see: it gains
few points) is flagged by it within a few deals; an honest heuristic at the
same table is not; the statistic is repeatable, judges only real choices,
and a pair is flagged when either statistic reaches its threshold."""

from __future__ import annotations

import pytest

from fourhundred.bots import HeuristicBot
from fourhundred.bots.fairplay import Evidence, ScoreOptions, seat_scores
from fourhundred.bots.fairplay.colluders import HeuristicColluder
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.policy import PolicyModel, policy_evidence, told_card
from fourhundred.bots.fairplay.scorer import (
    DRIFT_ALLOWANCE,
    FLAG_DEALS,
    FLAG_Z,
    MIN_DECISIONS,
    POLICY_FLAG_Z,
    flagged,
    play_decisions,
    policy_by_hand,
    thresholds_at,
)
from fourhundred.bots.knowledge import Knowledge
from fourhundred.engine import GameRecord

MODEL = PolicyModel(batch=12)
OPTIONS = ScoreOptions(seed=3, policy=MODEL)


@pytest.fixture(scope="module")
def colluded_games() -> list[GameRecord]:
    """Sixteen deals: heuristic colluders (every decision) at seats 0 and 2,
    honest heuristics at 1 and 3."""
    seats = [
        HeuristicColluder(seed=1, rate=1.0),
        HeuristicBot(seed=2),
        HeuristicColluder(seed=3, rate=1.0),
        HeuristicBot(seed=4),
    ]
    return play_deals(seats, deals=16, seed=21)


def test_a_heuristic_colluder_is_flagged_by_the_second_statistic_alone(
    colluded_games: list[GameRecord],
) -> None:
    hands = [h for g in colluded_games for h in policy_by_hand(g, OPTIONS)]
    scores = seat_scores(hands)
    cheats, honest = scores[0].pair, scores[1].pair
    assert cheats.policy_decisions >= MIN_DECISIONS
    assert cheats.policy_z >= 3.0, cheats.policy_z
    assert honest.policy_z < cheats.policy_z - 2.0
    assert scores[0].flagged and not scores[1].flagged
    # Only the second statistic was computed: the first has nothing.
    assert cheats.decisions == 0 and cheats.z == 0.0


def test_the_colluder_plays_the_told_card(colluded_games: list[GameRecord]) -> None:
    """What the statistic models is what a heuristic told the hand does."""
    checked = 0
    for d in play_decisions(colluded_games[0]):
        if d.seat in (0, 2):
            bot = HeuristicColluder(seed=9, rate=1.0)
            bot.peek(d.partner_hand)
            assert bot.choose(d.view) == told_card(Knowledge.from_view(d.view), d.partner_hand)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("weighting", ["own", "flat", "score"])
def test_the_evidence_is_repeatable_and_judges_only_choices(
    colluded_games: list[GameRecord], weighting: str
) -> None:
    model = PolicyModel(batch=12, weighting=weighting)
    d = next(iter(play_decisions(colluded_games[0])))
    a = policy_evidence(d.view, d.partner_hand, d.card, 5, model)
    assert a is not None
    assert a == policy_evidence(d.view, d.partner_hand, d.card, 5, model)
    assert policy_evidence(d.view, 0, d.card, 5, model) is None
    for d in play_decisions(colluded_games[0]):
        # the told card of the real hand scores at least as high as any other
        k = Knowledge.from_view(d.view)
        told = told_card(k, d.partner_hand)
        lt = policy_evidence(d.view, d.partner_hand, told, 5, model)
        other = next(c for c in d.view.legal or () if c != told)
        lo = policy_evidence(d.view, d.partner_hand, other, 5, model)
        if lt is not None and lo is not None:
            assert lt >= lo - 1e-9


def test_the_score_weighting_also_finds_the_heuristic_colluder(
    colluded_games: list[GameRecord],
) -> None:
    """The other weighting (measured against the flat one in
    bench/fairplay_weights.py) is a working statistic too."""
    options = ScoreOptions(seed=3, policy=PolicyModel(batch=12, weighting="score"))
    hands = [h for g in colluded_games for h in policy_by_hand(g, options)]
    scores = seat_scores(hands)
    assert scores[0].pair.policy_z >= 2.0, scores[0].pair.policy_z
    assert scores[1].pair.policy_z < scores[0].pair.policy_z - 2.0


def test_the_own_weighting_finds_a_rare_cheat_better_than_the_flat_one() -> None:
    """A colluder told the hand on a quarter of its decisions plays its own
    card on the rest: the mixture model (the default) does not count those
    cards against it as the flat model does, so its score is higher, and an
    honest heuristic's is not raised."""
    seats = [
        HeuristicColluder(seed=1, rate=0.25),
        HeuristicBot(seed=2),
        HeuristicColluder(seed=3, rate=0.25),
        HeuristicBot(seed=4),
    ]
    games = play_deals(seats, deals=12, seed=23)
    z = {}
    for weighting in ("own", "flat"):
        options = ScoreOptions(seed=3, policy=PolicyModel(batch=12, weighting=weighting))
        hands = [h for g in games for h in policy_by_hand(g, options)]
        z[weighting] = [s.pair.policy_z for s in seat_scores(hands)[:2]]
    assert PolicyModel().weighting == "own"
    assert z["own"][0] > z["flat"][0] + 0.3, z
    assert z["own"][1] < z["own"][0] - 1.0, z


def _pair(*, z_terms: int = 0, policy_terms: int = 0, decisions: int = 50) -> Evidence:
    """Evidence of ``decisions`` decisions whose hands add to a first score
    of about ``sqrt(z_terms)`` and a second of ``sqrt(policy_terms)``."""
    total = Evidence(decisions=decisions, policy_decisions=decisions)
    for _ in range(z_terms):
        total = total + Evidence(llr=1.0).closed()
    for _ in range(policy_terms):
        total = total + Evidence(policy=1.0).closed()
    return total


def test_a_pair_is_flagged_when_either_statistic_reaches_its_threshold() -> None:
    assert flagged(_pair(z_terms=16))
    assert flagged(_pair(policy_terms=16))
    assert not flagged(_pair(z_terms=4, policy_terms=4))
    assert not flagged(_pair(policy_terms=16, decisions=MIN_DECISIONS - 1))
    assert not flagged(_pair(policy_terms=16), policy_threshold=5.0)


def test_the_thresholds_rise_past_fifty_deals_with_the_square_root_of_the_deals() -> None:
    # A score of 3 (9 terms) passes 2.9 after 50 deals, not 3.1 after 100.
    assert thresholds_at(None) == thresholds_at(FLAG_DEALS) == (FLAG_Z, POLICY_FLAG_Z)
    assert thresholds_at(10) == (FLAG_Z, POLICY_FLAG_Z)  # never lower before 50
    four = thresholds_at(4 * FLAG_DEALS)
    assert four == pytest.approx((FLAG_Z + DRIFT_ALLOWANCE, POLICY_FLAG_Z + DRIFT_ALLOWANCE))
    assert thresholds_at(4 * FLAG_DEALS, 2.0, 2.5) == pytest.approx((2.5, 3.0))
    assert flagged(_pair(z_terms=9), deals=FLAG_DEALS)
    assert not flagged(_pair(z_terms=9), deals=4 * FLAG_DEALS)
    assert flagged(_pair(z_terms=16), deals=4 * FLAG_DEALS)
    assert flagged(_pair(policy_terms=9), deals=FLAG_DEALS)
    assert not flagged(_pair(policy_terms=9), deals=2 * FLAG_DEALS)


def test_sums_kept_before_the_second_statistic_read_as_none_of_it() -> None:
    old = {"decisions": 3, "llr": 1.0, "llr_sq": 1.0, "gain": 0.5}
    old |= {"discriminating": 1, "agree_true": 1, "agree_ref": 0, "hand_sq": 1.0}
    e = Evidence.from_dict(old)
    assert (e.policy_decisions, e.policy, e.policy_z) == (0, 0.0, 0.0)
    assert Evidence.from_dict(e.to_dict()) == e


@pytest.mark.parametrize(
    "bad", [{"told": 0.6, "own": 0.5}, {"told": 0.0}, {"own": -0.1}, {"weighting": "mixture"}]
)
def test_a_model_that_is_not_one_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        PolicyModel(**bad)  # type: ignore[arg-type]
