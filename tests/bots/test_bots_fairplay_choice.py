"""The detector's choice models (bots/fairplay/choice.py): the softmax and
the argmax over resampled deals, and the options that pick between them."""

from __future__ import annotations

import math

import pytest

from fourhundred.bots import HeuristicBot
from fourhundred.bots.fairplay import ScoreOptions
from fourhundred.bots.fairplay.bids import bid_decisions, bid_tallies, bid_value_sets, judge_bid
from fourhundred.bots.fairplay.choice import (
    argmax_log_probs,
    argmax_shares,
    judged,
    log_softmax,
    verdict,
)
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.scorer import card_options, card_tallies, judge, play_decisions
from fourhundred.bots.tally import Tally


def _probs(lp: dict[int, float]) -> dict[int, float]:
    return {c: math.exp(v) for c, v in lp.items()}


def test_an_option_best_on_every_deal_gets_all_but_the_uniform_share() -> None:
    t = Tally({1: [3.0, 5.0, 4.0, 6.0], 2: [0.0, 1.0, 0.5, 2.0], 3: [-1.0] * 4}, deals=4)
    (lp,) = argmax_log_probs([t], draws=100, eps=0.03, seed=1)
    p = _probs(lp)
    assert p[1] == pytest.approx(0.97 + 0.01)
    assert p[2] == pytest.approx(0.01) and p[3] == pytest.approx(0.01)
    assert sum(p.values()) == pytest.approx(1.0)


def test_a_close_call_shares_the_chance_by_how_often_each_comes_out_best() -> None:
    # Card 1 is better on three deals of four, card 2 on average: card 1 is
    # the best of a resample only when it leaves the fourth deal out, which
    # four draws do with chance (3/4)^4.
    t = Tally({1: [2.0, 2.0, 2.0, -6.0], 2: [0.0, 0.0, 0.0, 4.0]}, deals=4)
    p = _probs(argmax_log_probs([t], draws=4000, eps=0.01, seed=2)[0])
    assert p[1] == pytest.approx(0.99 * 0.75**4 + 0.005, abs=0.02)
    assert p[1] + p[2] == pytest.approx(1.0)


def test_equal_options_share_their_chance() -> None:
    t = Tally({5: [1.0, 2.0, 3.0], 7: [1.0, 2.0, 3.0], 9: [0.0, 0.0, 0.0]}, deals=3)
    p = _probs(argmax_log_probs([t], draws=200, eps=0.01, seed=3)[0])
    assert p[5] == pytest.approx(p[7])
    assert p[5] == pytest.approx(0.99 / 2 + 0.01 / 3)


def test_each_tally_is_modelled_alike_whatever_the_others() -> None:
    """The null needs the model to be one function applied to the real
    hand's values and to each inferred hand's: the same draws for all, and
    no tally's chances depending on another's."""
    a = Tally({1: [1.0, 0.0, 2.0, -1.0], 2: [0.5, 0.5, 0.5, 0.5]}, deals=4)
    b = Tally({1: [0.0, 0.0, 0.0, 0.0], 2: [1.0, -1.0, 1.0, -1.0]}, deals=4)
    first = argmax_log_probs([a, b], draws=300, eps=0.01, seed=4)
    swapped = argmax_log_probs([b, a], draws=300, eps=0.01, seed=4)
    alone = argmax_log_probs([a], draws=300, eps=0.01, seed=4)
    assert first[0] == swapped[1] == alone[0]
    assert first[1] == swapped[0]
    assert argmax_log_probs([a], draws=300, eps=0.01, seed=4) == alone  # repeatable


def test_weighted_deals_are_drawn_by_their_weight() -> None:
    t = Tally({1: [9.0, 0.0], 2: [0.0, 1.0]}, deals=2, weights=[0.0, 1.0])
    p = _probs(argmax_log_probs([t], draws=100, eps=0.02, seed=5)[0])
    assert p[2] == pytest.approx(0.99)


def test_a_resample_of_fewer_deals_is_less_sure() -> None:
    # 12 of 16 deals favour option 1: a resample of all 16 names it best far
    # more often than one of 4 (a player who looks at fewer deals).
    t = Tally({1: [1.0] * 12 + [-1.0] * 4, 2: [0.0] * 16}, deals=16)
    full = argmax_shares([t], draws=400, seed=2)[0]
    few = argmax_shares([t], draws=400, seed=2, size=4)[0]
    assert full[1] > few[1] > 0.5
    assert sum(few.values()) == pytest.approx(1.0)


def test_the_verdict_under_the_softmax_is_the_softmax_judgement() -> None:
    real = {1: 4.0, 2: 1.0, 3: -2.0}
    refs = [{1: 0.0, 2: 3.0, 3: 1.0}, {1: 2.0, 2: 2.0, 3: 0.0}]
    model = [log_softmax(v, 0.3) for v in (real, *refs)]
    assert verdict(real, refs, 1, model) == judged(real, refs, 1, 0.3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"card_model": "best"}, "card_model"),
        ({"bid_model": "best"}, "bid_model"),
        ({"eps": 0.0}, "eps"),
        ({"eps": 1.5}, "eps"),
        ({"argmax_draws": 0}, "argmax_draws"),
        ({"argmax_size": 0}, "argmax_size"),
    ],
)
def test_options_that_name_no_model_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ScoreOptions(**kwargs)  # type: ignore[arg-type]


def test_judging_cards_by_the_softmax_is_still_the_values_softmax() -> None:
    game = play_deals([HeuristicBot() for _ in range(4)], deals=1, seed=21)
    soft = ScoreOptions(deals=6, refs=2, seed=1, card_model="softmax")
    argmax = ScoreOptions(deals=6, refs=2, seed=1)
    seen = 0
    for i, d in enumerate(list(play_decisions(game[0]))[:12]):
        got = card_options(d.view, d.partner_hand, d.card, soft, seed=i)
        j = judge(d.view, d.partner_hand, d.card, soft, seed=i)
        a = judge(d.view, d.partner_hand, d.card, argmax, seed=i)
        if got is None:
            assert j is None and a is None
            continue
        seen += 1
        assert j == judged(*got, beta=soft.beta)
        assert a is not None
        # The same values, so the same gain and bests; only the model differs.
        assert (a.gain, a.discriminating, a.agrees_true) == (
            j.gain,
            j.discriminating,
            j.agrees_true,
        )
    assert seen >= 5


def test_bids_are_judged_by_either_model_on_the_same_values() -> None:
    game = play_deals([HeuristicBot() for _ in range(4)], deals=2, seed=8)
    soft = ScoreOptions(bid_deals=6, bid_refs=2, seed=1, bid_model="softmax")
    argmax = ScoreOptions(bid_deals=6, bid_refs=2, seed=1, bid_model="argmax")
    seen = 0
    for i, b in enumerate(list(bid_decisions(game[0]))[:8]):
        tallies = bid_tallies(b.view, b.partner_hand, b.bid, argmax, seed=i)
        sets = bid_value_sets(b.view, b.partner_hand, b.bid, argmax, seed=i)
        j = judge_bid(b.view, b.partner_hand, b.bid, soft, seed=i)
        a = judge_bid(b.view, b.partner_hand, b.bid, argmax, seed=i)
        if tallies is None:
            assert sets is None and j is None and a is None
            continue
        seen += 1
        assert sets is not None and len(tallies) == 3  # the real hand and 2 inferred
        assert all(t.deals == 6 and b.bid in t.values for t in tallies)
        real, refs = sets
        assert j == judged(real, refs, b.bid, soft.bid_beta)
        model = argmax_log_probs(tallies, argmax.argmax_draws, argmax.eps, i)
        assert a == verdict(real, refs, b.bid, model)
        assert a is not None and (a.gain, a.agrees_true) == (j.gain, j.agrees_true)
    assert seen >= 4


def test_fewer_deals_a_resample_make_a_flatter_player() -> None:
    """``size``: a player who decides on fewer deals than were valued is
    less sure of the best option. Option 1 leads by 2 on 3 deals of 4 and
    trails by 2.5 on the fourth: a resample of 4 deals finds it best when
    it holds at most one of the fourth kind, 0.75^4 + 4 * 0.25 * 0.75^3."""
    t = Tally({1: [2.0, 2.0, 2.0, -1.0] * 8, 2: [0.0, 0.0, 0.0, 1.5] * 8}, deals=32)
    (all_32,) = argmax_shares([t], draws=2000, seed=4)
    (of_4,) = argmax_shares([t], draws=2000, seed=4, size=4)
    assert all_32[1] > 0.99
    assert of_4[1] == pytest.approx(0.75**4 + 4 * 0.25 * 0.75**3, abs=0.03)


def test_cards_are_judged_with_the_options_resample_size() -> None:
    game = play_deals([HeuristicBot() for _ in range(4)], deals=1, seed=13)
    options = ScoreOptions(deals=8, refs=2, seed=1, argmax_size=3, card_model="argmax")
    seen = 0
    for i, d in enumerate(list(play_decisions(game[0]))[:10]):
        tallies = card_tallies(d.view, d.partner_hand, options, seed=i)
        j = judge(d.view, d.partner_hand, d.card, options, seed=i)
        if tallies is None:
            assert j is None
            continue
        seen += 1
        real, refs, chosen = card_options(d.view, d.partner_hand, d.card, options, seed=i) or (
            {},
            [],
            0,
        )
        model = argmax_log_probs(tallies, options.argmax_draws, options.eps, i, size=3)
        assert j == verdict(real, refs, chosen, model)
    assert seen >= 5
