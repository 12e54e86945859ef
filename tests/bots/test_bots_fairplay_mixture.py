"""The first statistic against a cheat on a share of decisions
(bots/fairplay/choice.py ``mixture_llr``, ``ScoreOptions.mix_rate``)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourhundred.bots import HeuristicBot
from fourhundred.bots.fairplay import ScoreOptions
from fourhundred.bots.fairplay.bids import bid_decisions, judge_bid
from fourhundred.bots.fairplay.choice import mixture_llr
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.scorer import judge, play_decisions

chances = st.lists(st.floats(min_value=0.001, max_value=1.0), min_size=2, max_size=5)
rates = st.floats(min_value=0.01, max_value=1.0)


@given(chances, rates)
def test_the_evidence_averages_zero_over_which_hand_is_the_real_one(
    ps: list[float], rate: float
) -> None:
    """The null in one line: if the real partner hand is one more draw of
    the inferred ones, each hand is the real one alike, and the evidence
    over those arrangements adds up to zero, whatever the rate."""
    lps = [math.log(p) for p in ps]
    total = sum(mixture_llr(lps[i:] + lps[:i], rate) for i in range(len(lps)))
    assert total == pytest.approx(0.0, abs=1e-9)


@given(chances)
def test_at_rate_one_it_is_the_plain_log_ratio(ps: list[float]) -> None:
    lps = [math.log(p) for p in ps]
    plain = lps[0] - sum(lps[1:]) / (len(lps) - 1)
    assert mixture_llr(lps, 1.0) == pytest.approx(plain)
    assert mixture_llr(lps, 0.999999) == pytest.approx(plain, abs=1e-3)


@given(chances, st.floats(min_value=0.01, max_value=0.99))
def test_below_rate_one_a_decision_weighs_a_bounded_amount(ps: list[float], rate: float) -> None:
    """However unlikely the real hand's model makes the card (a cheat's
    honest decision), it costs at most ``log((1 + rate (k-1)) / (1 - rate))``."""
    k = len(ps)
    lps = [math.log(p) for p in ps]
    bound = math.log((1.0 + rate * (k - 1)) / (1.0 - rate))
    assert -bound - 1e-9 <= mixture_llr(lps, rate) <= bound + 1e-9


def test_the_evidence_has_the_sign_of_the_real_hands_chance_against_the_others() -> None:
    up = [math.log(0.6), math.log(0.2), math.log(0.2)]
    down = [math.log(0.1), math.log(0.5), math.log(0.4)]
    for rate in (1.0, 0.5, 0.25, 0.05):
        assert mixture_llr(up, rate) > 0 > mixture_llr(down, rate)
    # A smaller rate weighs a card against the real hand's model less.
    assert mixture_llr(down, 0.25) > mixture_llr(down, 1.0)


@pytest.mark.parametrize("rate", [0.0, -0.5, 1.5])
def test_a_rate_outside_zero_to_one_is_refused(rate: float) -> None:
    with pytest.raises(ValueError, match="rate"):
        mixture_llr([0.0, 0.0], rate)
    with pytest.raises(ValueError, match="mix_rate"):
        ScoreOptions(mix_rate=rate)


def test_cards_and_bids_are_judged_at_the_options_rate_from_the_same_chances() -> None:
    game = play_deals([HeuristicBot() for _ in range(4)], deals=1, seed=5)[0]
    plain = ScoreOptions(deals=6, refs=2, bid_deals=6, bid_refs=2, seed=1)
    mixed = ScoreOptions(deals=6, refs=2, bid_deals=6, bid_refs=2, seed=1, mix_rate=0.25)
    seen = 0
    pairs = [
        (judge(d.view, d.partner_hand, d.card, o, seed=i) for o in (plain, mixed))
        for i, d in enumerate(list(play_decisions(game))[:8])
    ] + [
        (judge_bid(b.view, b.partner_hand, b.bid, o, seed=i) for o in (plain, mixed))
        for i, b in enumerate(list(bid_decisions(game))[:4])
    ]
    for a, b in (tuple(p) for p in pairs):
        if a is None:
            assert b is None
            continue
        assert b is not None
        seen += 1
        assert a.chosen_log_probs == b.chosen_log_probs
        assert len(a.chosen_log_probs) == 3  # the real hand and 2 inferred
        assert a.llr == pytest.approx(mixture_llr(a.chosen_log_probs, 1.0))
        assert b.llr == pytest.approx(mixture_llr(b.chosen_log_probs, 0.25))
    assert seen >= 6
