"""The detector's third choice model (bots/fairplay/choice.py
``pick_shares``, ``ScoreOptions`` ``card_model``/``bid_model`` "pick"): the
chance that the search's own rule (:func:`fourhundred.bots.tally.pick`)
takes each option on a resample of the deals valued."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fourhundred.bots import HeuristicBot
from fourhundred.bots.fairplay import ScoreOptions
from fourhundred.bots.fairplay.bids import bid_decisions, bid_tallies, bid_value_sets, judge_bid
from fourhundred.bots.fairplay.choice import (
    SearchRule,
    argmax_shares,
    pick_log_probs,
    pick_shares,
    verdict,
)
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.scorer import card_options, card_tallies, judge, play_decisions
from fourhundred.bots.heuristic import heuristic_bid, heuristic_card
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.search import representative
from fourhundred.bots.tally import Tally, pick

SCREEN = Path(__file__).resolve().parents[2] / "bench" / "fairplay_mixture.py"


def _by_the_rule(t: Tally, rule: SearchRule, draws: int, seed: int) -> dict[int, float]:
    """The shares worked out the slow way: the same resamples as
    ``pick_shares`` draws (of ``rule.size`` deals, or as many as valued),
    each made a tally and given to the search's own ``pick``."""
    picks = np.random.default_rng(seed).random((draws, rule.size or t.deals))
    cum = np.arange(1, t.deals + 1) / t.deals
    idx = np.minimum(np.searchsorted(cum, picks), t.deals - 1)
    counts = dict.fromkeys(t.values, 0)
    for row in idx:
        resampled = Tally({c: [vs[i] for i in row] for c, vs in t.values.items()}, len(row))
        counts[pick(resampled, rule.prior, rule.z)] += 1
    return {c: n / draws for c, n in counts.items()}


@pytest.mark.parametrize("seed", range(6))
def test_the_shares_are_the_search_rule_on_each_resample(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    options = [3, 7, 11, 20][: 2 + seed % 3]
    deals = 6 + 3 * seed
    # Close options, so that the rule sometimes keeps the prior and sometimes not.
    t = Tally({c: list(rng.normal(0.3 * i, 2.0, deals)) for i, c in enumerate(options)}, deals)
    for prior in options:
        for z in (0.5, 1.0):
            got = pick_shares([t], SearchRule(prior, z), draws=150, seed=seed)[0]
            want = _by_the_rule(t, SearchRule(prior, z), draws=150, seed=seed)
            assert got == pytest.approx(want, abs=1e-12)
            assert sum(got.values()) == pytest.approx(1.0)


def test_the_prior_is_kept_unless_another_option_is_clearly_better() -> None:
    # Option 2 is a little better on average, but not by a standard error on
    # most resamples: the argmax names it on most, the rule keeps the prior.
    t = Tally({1: [3.0, 3.2, 2.9, 3.1, 3.0, 3.0], 2: [3.1, 3.0, 3.1, 3.0, 3.1, 3.05]}, 6)
    assert argmax_shares([t], 400, 1)[0][1] < 0.35
    assert pick_shares([t], SearchRule(1), 400, 1)[0][1] > 0.65
    # Better on every deal by a point: taken on every resample.
    clear = Tally({1: [0.0, 1.0, 2.0, 3.0], 2: [1.0, 2.0, 3.0, 4.0]}, 4)
    assert pick_shares([clear], SearchRule(1), 100, 2)[0] == {1: 0.0, 2: 1.0}


def test_resamples_of_fewer_deals_model_a_player_who_decides_on_fewer() -> None:
    """``SearchRule.size``: the rule on resamples of that many of the deals
    valued. As many as valued is the rule as before; fewer, and an option
    a little better on average beats the prior by a standard error less
    often."""
    rng = np.random.default_rng(7)
    t = Tally({1: list(rng.normal(0.0, 1.0, 64)), 2: list(rng.normal(0.35, 1.0, 64))}, 64)
    assert pick_shares([t], SearchRule(1, size=64), 300, 5) == pick_shares(
        [t], SearchRule(1), 300, 5
    )
    many = pick_shares([t], SearchRule(1), 400, 5)[0]
    few = pick_shares([t], SearchRule(1, size=16), 400, 5)[0]
    assert few[1] > many[1] + 0.2
    # Each of the 400 resamples is the search's own rule on 16 of the deals.
    assert few == pytest.approx(_by_the_rule(t, SearchRule(1, size=16), 400, 5), abs=1e-12)
    lps = pick_log_probs([t], SearchRule(1, size=16), 400, 0.1, 5)[0]
    assert lps[1] == pytest.approx(math.log(0.9 * few[1] + 0.05))


def test_a_prior_not_among_the_options_leaves_the_argmax() -> None:
    t = Tally({1: [1.0, 0.0, 2.0], 2: [0.5, 0.5, 0.5]}, 3)
    assert pick_shares([t], SearchRule(9), 200, 3) == argmax_shares([t], 200, 3)


def test_each_tally_is_modelled_alike_whatever_the_others() -> None:
    """The null: one function of each partner hand's values, on the same
    draws (the prior is the player's own view's, the same for every hand)."""
    a = Tally({1: [1.0, 0.0, 2.0, -1.0, 1.5], 2: [0.5, 0.5, 0.5, 0.5, 0.5]}, 5)
    b = Tally({1: [0.0, 0.0, 0.0, 0.0, 0.0], 2: [1.0, -1.0, 1.0, 2.0, 1.0]}, 5)
    first = pick_log_probs([a, b], SearchRule(1), draws=300, eps=0.1, seed=4)
    swapped = pick_log_probs([b, a], SearchRule(1), draws=300, eps=0.1, seed=4)
    assert first[0] == swapped[1] == pick_log_probs([a], SearchRule(1), 300, 0.1, 4)[0]
    assert first[1] == swapped[0]
    assert all(sum(math.exp(x) for x in lp.values()) == pytest.approx(1.0) for lp in first)


@pytest.mark.parametrize("size", [None, 4])
def test_cards_are_judged_by_the_rule_with_the_heuristics_card_as_prior(size: int | None) -> None:
    # size: ScoreOptions(argmax_size=...) reaches the rule's resamples too.
    game = play_deals([HeuristicBot() for _ in range(4)], deals=1, seed=17)
    options = ScoreOptions(deals=8, refs=2, seed=1, card_model="pick", argmax_size=size)
    seen = kept = 0
    for i, d in enumerate(list(play_decisions(game[0]))[:12]):
        tallies = card_tallies(d.view, d.partner_hand, options, seed=i)
        j = judge(d.view, d.partner_hand, d.card, options, seed=i)
        if tallies is None:
            assert j is None
            continue
        seen += 1
        got = card_options(d.view, d.partner_hand, d.card, options, seed=i)
        assert got is not None and j is not None
        real, refs, chosen = got
        k = Knowledge.from_view(d.view)
        prior = representative(heuristic_card(k), real, k)
        rule = SearchRule(prior, size=size)
        model = pick_log_probs(tallies, rule, options.argmax_draws, options.eps, i)
        assert j == verdict(real, refs, chosen, model)
        kept += chosen == prior  # a heuristic player plays its own card
    assert seen >= 5 and kept == seen


def test_bids_are_judged_by_the_rule_with_the_heuristics_bid_as_prior() -> None:
    game = play_deals([HeuristicBot() for _ in range(4)], deals=2, seed=8)
    options = ScoreOptions(bid_deals=6, bid_refs=2, seed=1, bid_model="pick")
    seen = 0
    for i, b in enumerate(list(bid_decisions(game[0]))[:8]):
        tallies = bid_tallies(b.view, b.partner_hand, b.bid, options, seed=i)
        a = judge_bid(b.view, b.partner_hand, b.bid, options, seed=i)
        if tallies is None:
            assert a is None
            continue
        seen += 1
        sets = bid_value_sets(b.view, b.partner_hand, b.bid, options, seed=i)
        assert sets is not None
        k = Knowledge.from_view(b.view)
        prior = heuristic_bid(k, tuple(k.legal or ()))
        model = pick_log_probs(tallies, SearchRule(prior), options.argmax_draws, options.eps, i)
        assert a == verdict(*sets, b.bid, model)
    assert seen >= 4


def test_the_mixture_screen_judges_by_the_search_rule_when_asked(tmp_path: Path) -> None:
    """``--model pick``: the same tables and decisions as the argmax's (the
    same games, the same values), each decision's chances by the search's
    rule instead, so some differ."""
    bench = SCREEN
    rows = {}
    for model in ("argmax", "pick"):
        out = tmp_path / f"{model}.jsonl"
        args = ["--rounds", "1", "--deals", "1", "--workers", "1", "--model", model]
        subprocess.run(
            [sys.executable, str(bench), *args, "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        rows[model] = [json.loads(x) for x in out.read_text().splitlines()]
    pairs = list(zip(rows["argmax"], rows["pick"], strict=True))
    assert all(a["id"] == p["id"] for a, p in pairs)
    decisions = [
        (d, e) for a, p in pairs for d, e in zip(a["decisions"], p["decisions"], strict=True)
    ]
    assert all(d[:2] == e[:2] and len(d) == len(e) for d, e in decisions)
    assert any(d[2:] != e[2:] for d, e in decisions)
