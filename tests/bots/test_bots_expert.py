"""The expert: inference from play weights deals by how well the others'
cards fit them, its bidder reads the learned chances, and it plays whole
hands legally from its view alone."""

from __future__ import annotations

import random

from fourhundred.bots import BOTS, make_bot
from fourhundred.bots.bidder import chance_of_making, make_chances, model_bid
from fourhundred.bots.expert import ExpertBot, ExpertOptions
from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.bots.inference import PlayInference
from fourhundred.bots.knowledge import Knowledge
from fourhundred.engine import GameState, Phase, view_for


def _heuristic_position(seed: int, tricks: int) -> GameState:
    h = HeuristicBot()
    s = GameState(first_dealer=seed % 4)
    s.deal_random(seed=seed)
    while s.phase is Phase.BID or (s.phase is Phase.PLAY and s.n_tricks < tricks):
        s.apply(h.choose(view_for(s, s.turn)))
        if s.phase is Phase.DEAL:
            s.deal_random(seed=seed + 1000)
    return s


def test_the_true_deal_of_heuristic_players_is_the_likely_one() -> None:
    """Players who play as the heuristic: on the real deal every one of their
    cards is the model's choice (likelihood 1 without noise), while deals
    drawn without inference mostly contradict some play, and with the
    model's noise the real deal is far more likely than they are on
    average."""
    ratios = []
    for seed in range(6):
        s = _heuristic_position(seed, 6)
        if s.phase is not Phase.PLAY:
            continue
        v = view_for(s, s.turn)
        k = Knowledge.from_view(v)
        true_hands = [s.hand(x) for x in range(4)]
        assert PlayInference(v, noise=0.0).likelihood(k, true_hands) == 1.0
        rng = random.Random(seed)
        drawn = [PlayInference(v, batch=1)(k, rng) for _ in range(30)]
        strict = PlayInference(v, noise=0.0)
        assert sum(strict.likelihood(k, h) for h in drawn) < len(drawn)
        inf = PlayInference(v)
        mean = sum(inf.likelihood(k, h) for h in drawn) / len(drawn)
        ratios.append(inf.likelihood(k, true_hands) / mean)
    assert len(ratios) >= 4
    assert sorted(ratios)[len(ratios) // 2] > 3.0  # the median deal


def test_inference_deals_are_consistent_with_the_view() -> None:
    s = _heuristic_position(7, 5)
    v = view_for(s, s.turn)
    k = Knowledge.from_view(v)
    inf = PlayInference(v)
    for i in range(10):
        hands = inf(k, random.Random(i))
        assert hands[k.seat] == k.hand
        assert [h.bit_count() for h in hands] == [k.left(x) for x in range(4)]
        assert sum(hands) == k.hand | k.unknown  # the hidden cards, each once
        for x in range(4):
            assert not hands[x] & k.voids[x]


def test_a_weighing_inference_gives_each_deal_its_tempered_likelihood() -> None:
    s = _heuristic_position(8, 5)
    v = view_for(s, s.turn)
    k = Knowledge.from_view(v)
    for fast in (False, True):
        inf = PlayInference(v, fast=fast, power=0.5)
        assert inf.weighs
        rng = random.Random(3)
        weights = []
        for _ in range(20):
            hands = inf(k, rng)
            weights.append(inf.last_weight)
            assert inf.last_weight == PlayInference(v).likelihood(k, hands) ** 0.5
        assert len(set(weights)) > 1  # the deals differ in how well they fit
    # Searched with it, the tally carries one weight per deal.
    bot = ExpertBot(seed=1, iterations=20, options=ExpertOptions(inference_power=0.5))
    bot.choose(v)
    assert bot.last is not None
    assert len(bot.last.weights) == bot.last.deals == 20


def test_bidder_chances_are_monotone_and_the_bid_legal() -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=9)
    v = view_for(s, s.turn)
    k = Knowledge.from_view(v)
    p = make_chances(k)
    assert abs(p[0] - 1.0) < 1e-5
    assert all(p[b] >= p[b + 1] - 1e-6 for b in range(13))
    assert v.legal is not None
    b = model_bid(k, v.legal)
    assert b in v.legal
    assert abs(chance_of_making(v, b) - p[b]) < 1e-9


def test_expert_plays_whole_hands_legally() -> None:
    assert BOTS["expert"] is ExpertBot
    bots = [ExpertBot(seed=i, iterations=4, workers=1) for i in range(2)]
    s = GameState(first_dealer=1)
    s.deal_random(seed=21)
    while s.phase in (Phase.BID, Phase.PLAY):
        a = bots[s.turn & 1].choose(view_for(s, s.turn))
        assert a in s.legal_actions()
        s.apply(a)
    assert s.history


def test_expert_by_name() -> None:
    bot = make_bot("expert", seed=1, budget_ms=20)
    try:
        s = GameState(first_dealer=0)
        s.deal_random(seed=2)
        assert bot.choose(view_for(s, s.turn)) in s.legal_actions()
    finally:
        bot.close()


def test_inference_from_play_is_used_from_its_budget() -> None:
    from fourhundred.bots.expert import INFERENCE_FROM_MS

    assert not ExpertBot(budget_ms=50, workers=1).infers
    assert ExpertBot(budget_ms=INFERENCE_FROM_MS, workers=1).infers
    assert ExpertBot(iterations=5).infers
    assert ExpertBot(budget_ms=50, workers=1, options=ExpertOptions(inference=True)).infers
    assert not ExpertBot(budget_ms=1000, workers=1, options=ExpertOptions(inference=False)).infers
