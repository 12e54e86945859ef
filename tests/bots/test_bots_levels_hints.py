"""The bot side of levels, hints and streamed analysis: levels by name with
stated mistake rates, a hint with its one-line reason, and a game's analysis
hand by hand."""

from __future__ import annotations

import pytest

from fourhundred.bots import LEVELS, BeginnerBot, ExpertBot, HeuristicBot, make_level
from fourhundred.bots.analysis import AnalysisOptions, analyse_record, iter_analysis
from fourhundred.bots.hints import hint
from fourhundred.bots.levels import BEGINNER_BID_MISTAKES, BEGINNER_CARD_MISTAKES
from fourhundred.engine import BID_BASE, GameState, Phase, record_from_state, view_for


def test_levels_by_name() -> None:
    assert list(LEVELS) == ["beginner", "intermediate", "expert"]
    kinds = {"beginner": BeginnerBot, "intermediate": HeuristicBot, "expert": ExpertBot}
    for name, cls in kinds.items():
        bot = make_level(name, seed=1, budget_ms=20)
        try:
            assert type(bot) is cls
            assert LEVELS[name].label.endswith("bot")
        finally:
            bot.close()
    with pytest.raises(ValueError, match="beginner, intermediate, expert"):
        make_level("grandmaster")


def test_beginner_mistakes_happen_at_the_stated_rates() -> None:
    good = HeuristicBot()
    beginner = BeginnerBot(seed=3)
    bids = over = cards = off = 0
    for seed in range(400):
        s = GameState(first_dealer=seed % 4)
        s.deal_random(seed=seed)
        while s.phase in (Phase.BID, Phase.PLAY) and s.n_tricks < 4:
            v = view_for(s, s.turn)
            a, b = good.choose(v), beginner.choose(v)
            assert b in s.legal_actions()
            if len(v.legal or ()) > 1:
                if s.phase is Phase.BID:
                    bids += 1
                    over += b > a
                    assert b >= a  # a beginner's bidding mistake is an overbid
                else:
                    cards += 1
                    off += b != a
            s.apply(a)
    assert abs(over / bids - BEGINNER_BID_MISTAKES) < 0.08
    assert abs(off / cards - BEGINNER_CARD_MISTAKES) < 0.05


def _position(seed: int, tricks: int) -> GameState:
    h = HeuristicBot()
    s = GameState(first_dealer=0)
    s.deal_random(seed=seed)
    while s.phase is Phase.BID or (s.phase is Phase.PLAY and s.n_tricks < tricks):
        s.apply(h.choose(view_for(s, s.turn)))
    return s


def test_hint_for_a_bid_gives_the_chance_of_making_it() -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=8)
    v = view_for(s, s.turn)
    h = hint(v, 30, seed=1, workers=1)
    assert h.action in s.legal_actions()
    assert h.chance is not None and 0.0 <= h.chance <= 1.0
    assert h.reason == f"bid {h.action - BID_BASE}: {h.chance:.0%} chance of making it"


def test_hint_for_a_card_compares_the_two_best_choices() -> None:
    for seed in range(10):
        s = _position(seed, 2)
        if s.phase is not Phase.PLAY or len(s.legal_cards()) < 3:
            continue
        h = hint(view_for(s, s.turn), 60, seed=1, workers=1)
        assert h.action in s.legal_actions()
        if h.values:
            assert h.values[0][0] == h.text
            assert "expected points; next best" in h.reason
            return
    pytest.fail("no position with a real choice")


def test_hint_needs_the_seat_to_act() -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=8)
    with pytest.raises(ValueError, match="whose turn"):
        hint(view_for(s, None), 10)


def test_analysis_streams_hand_by_hand_as_the_whole_analysis_says() -> None:
    h = HeuristicBot()
    s = GameState(first_dealer=0)
    seed = 1
    while len(s.history) < 2:
        if s.phase is Phase.DEAL:
            s.deal_random(seed=seed)
            seed += 1
        s.apply(h.choose(view_for(s, s.turn)))
    record = record_from_state(s).to_dict()
    streamed = list(iter_analysis(record, AnalysisOptions(deals=3, workers=1)))
    whole = analyse_record(record, AnalysisOptions(deals=3, workers=1))["hands"]
    assert streamed == whole
    assert [x["hand"] for x in streamed] == sorted({x["hand"] for x in whole})
    for hand in streamed:
        for seat in hand["seats"]:
            assert 0.0 <= seat["chance"] <= 1.0
