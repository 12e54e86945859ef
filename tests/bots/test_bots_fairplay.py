"""The collusion detector (bots/fairplay): deals with the partner's hand
fixed, the evidence of single decisions (cards and bids), colluders that
use the partner's hand on bids too, and colluders kept apart from the
playable bots."""

from __future__ import annotations

import dataclasses
import random

import pytest

from fourhundred.bots import BOTS, LEVELS, HeuristicBot
from fourhundred.bots import search as search_module
from fourhundred.bots.fairplay import Evidence, ScoreOptions, score_by_hand, seat_scores
from fourhundred.bots.fairplay.bids import bid_candidates, bid_decisions, bid_values, judge_bid
from fourhundred.bots.fairplay.colluders import (
    HeuristicColluder,
    SearchColluder,
    cheat_bid,
    make_colluder,
    promoted,
)
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.panel import HONEST, NoisyBot, make_honest
from fourhundred.bots.fairplay.scorer import (
    PlayDecision,
    decision_seed,
    judge,
    play_decisions,
    score_parts,
)
from fourhundred.bots.fairplay.worlds import PartnerFixed, card_values
from fourhundred.bots.heuristic import heuristic_bid
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.search import Limits, evaluate
from fourhundred.engine import (
    BID_BASE,
    GameRecord,
    GameState,
    Phase,
    View,
    partner_of,
    replay,
    view_for,
)

OPTIONS = ScoreOptions(deals=8, refs=2, seed=3)


@pytest.fixture(scope="module")
def heuristic_game() -> list[GameRecord]:
    return play_deals([HeuristicBot() for _ in range(4)], deals=2, seed=11)


def test_partner_fixed_deals_give_the_partner_its_hand(
    heuristic_game: list[GameRecord],
) -> None:
    decisions = list(play_decisions(heuristic_game[0]))[::7]
    assert decisions
    rng = random.Random(1)
    for d in decisions:
        k = Knowledge.from_view(d.view)
        for _ in range(5):
            hands = PartnerFixed(d.partner_hand)(k, rng)
            assert hands[k.seat] == k.hand
            assert hands[partner_of(k.seat)] == d.partner_hand
            assert hands[0] | hands[1] | hands[2] | hands[3] == k.unknown | k.hand
            for s in range(4):
                assert hands[s].bit_count() == k.left(s)
                assert not hands[s] & k.voids[s] or s == partner_of(k.seat)


def test_partner_fixed_deals_in_c_are_the_same_deals_from_the_same_draws(
    heuristic_game: list[GameRecord],
) -> None:
    """The detector's deals are dealt in C on the fast path (session 31):
    deal after deal from one generator they must be Python's deals, and
    leave the generator where Python does, or the 600 tables measured
    before would not be the same."""
    decisions = list(play_decisions(heuristic_game[0]))[::4]
    bids = list(bid_decisions(heuristic_game[0]))
    assert len(decisions) >= 8 and bids
    for i, d in enumerate([*decisions, *bids]):
        k = Knowledge.from_view(d.view)
        slow, fast = random.Random(i), random.Random(i)
        for _ in range(6):
            want = PartnerFixed(d.partner_hand)(k, slow)
            assert PartnerFixed(d.partner_hand, fast=True)(k, fast) == want
        assert fast.getstate() == slow.getstate()


def test_the_fast_path_values_cards_and_bids_as_python_does(
    heuristic_game: list[GameRecord],
) -> None:
    """The detector values on the fast path by default; the C rollouts and
    solver must give exactly the Python twins' values, or the figures
    measured before would not hold."""
    decisions = list(play_decisions(heuristic_game[0]))[::5]
    assert len(decisions) >= 8
    for i, d in enumerate(decisions):
        fast = card_values(d.view, d.partner_hand, i, Limits(max_deals=6, fast=True))
        assert fast == card_values(d.view, d.partner_hand, i, Limits(max_deals=6))
    bids = [b for b in bid_decisions(heuristic_game[0]) if len(b.view.legal or ()) > 1]
    assert len(bids) >= 3
    for i, b in enumerate(bids):
        cands = bid_candidates(b.view, b.bid)
        fast = bid_values(b.view, b.partner_hand, i, Limits(max_deals=6, bids=cands, fast=True))
        assert fast == bid_values(b.view, b.partner_hand, i, Limits(max_deals=6, bids=cands))


def test_a_card_is_judged_alike_on_the_fast_path_and_in_python(
    heuristic_game: list[GameRecord],
) -> None:
    """Since session 25 the inferred partner hands are also weighed on the
    fast path (the likelihood in C): the same hands, so each judged card's
    evidence is the same as with everything in Python."""
    decisions = [d for d in play_decisions(heuristic_game[0]) if d.view.tricks][::6]
    assert len(decisions) >= 6
    fast, slow = (dataclasses.replace(OPTIONS, fast=f, infer_batch=16) for f in (True, False))
    judged = 0
    for d in decisions:
        a = judge(d.view, d.partner_hand, d.card, fast, decision_seed(fast, d))
        b = judge(d.view, d.partner_hand, d.card, slow, decision_seed(slow, d))
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a.llr == pytest.approx(b.llr, abs=1e-12)
            judged += 1
    assert judged >= 4


def _discriminating(game: list[GameRecord], limit: int) -> list[tuple[PlayDecision, int, int]]:
    """Positions where the partner's real hand changes the best card:
    (decision, the best card with it, the best card from the view only)."""
    out = []
    for d in play_decisions(game[0]):
        real = card_values(d.view, d.partner_hand, 5, Limits(max_deals=24, exact=3))
        if len(real) < 2:
            continue
        own = evaluate(d.view, 5, Limits(max_deals=24, exact=3))
        best_real = max(real, key=real.__getitem__)
        best_own = max(own.values, key=own.mean)
        if best_real != best_own:
            out.append((d, best_real, best_own))
        if len(out) == limit:
            break
    return out


def test_a_colluders_cards_score_higher_than_an_honest_players(
    heuristic_game: list[GameRecord],
) -> None:
    positions = _discriminating(heuristic_game, limit=8)
    assert len(positions) >= 5
    cheat = Evidence()
    honest = Evidence()
    for i, (d, best_real, best_own) in enumerate(positions):
        for card, who in ((best_real, "cheat"), (best_own, "honest")):
            j = judge(d.view, d.partner_hand, card, OPTIONS, seed=100 + i)
            assert j is not None
            one = Evidence()
            one.add(
                j.llr,
                gain=j.gain,
                discriminating=j.discriminating,
                agrees_true=j.agrees_true,
                agrees_ref=j.agrees_ref,
            )
            if who == "cheat":
                cheat = cheat + one.closed()
            else:
                honest = honest + one.closed()
    assert cheat.llr > honest.llr
    assert cheat.gain > honest.gain
    assert cheat.z > 0 > honest.z


def test_judging_is_repeatable(heuristic_game: list[GameRecord]) -> None:
    d = next(iter(play_decisions(heuristic_game[0])))
    a = judge(d.view, d.partner_hand, d.card, OPTIONS, seed=9)
    b = judge(d.view, d.partner_hand, d.card, OPTIONS, seed=9)
    assert a == b


def test_a_forced_card_or_an_empty_partner_is_not_judged(
    heuristic_game: list[GameRecord],
) -> None:
    d = next(iter(play_decisions(heuristic_game[0])))
    assert judge(d.view, 0, d.card, OPTIONS, seed=1) is None


def test_play_decisions_cover_every_choice_of_the_record(
    heuristic_game: list[GameRecord],
) -> None:
    ds = list(play_decisions(heuristic_game[0]))
    assert ds
    for d in ds:
        assert d.view.seat == d.seat
        assert d.view.legal is not None and len(d.view.legal) > 1
        assert d.card in d.view.legal
        assert d.partner_hand.bit_count() >= 1


def test_a_cheating_search_colluder_is_flagged_on_a_few_deals() -> None:
    seats = [
        make_colluder("search", 1.0, 1),
        make_honest("intermediate", 2),
        make_colluder("search", 1.0, 3),
        make_honest("intermediate", 4),
    ]
    games = play_deals(seats, deals=3, seed=5)
    hands = [h for g in games for h in score_by_hand(g, OPTIONS)]
    scores = seat_scores(hands, threshold=1.5)
    assert scores[0].pair_z > scores[1].pair_z
    assert scores[0].pair.decisions >= 40


def test_colluders_are_not_playable_bots() -> None:
    names = {cls.name for cls in BOTS.values()} | set(BOTS) | set(LEVELS)
    for cls in (HeuristicColluder, SearchColluder):
        assert cls.name not in names
        assert cls not in BOTS.values()


def test_play_deals_counts_played_hands_and_keeps_the_records() -> None:
    seen: list[int] = []
    games = play_deals([NoisyBot(seed=s) for s in range(4)], deals=3, seed=2, progress=seen.append)
    assert seen == [1, 2, 3]
    played = 0
    for g in games:
        replay(g)
        played += sum(1 for h in g.hands if h.plays)
    assert played == 3


@pytest.mark.parametrize("name", HONEST)
def test_the_honest_panel_plays_legal_games(name: str) -> None:
    games = play_deals([make_honest(name, seed=s) for s in range(4)], deals=1, seed=4)
    for g in games:
        replay(g)


# ------------------------------------------------------------------ bids


def test_bid_decisions_cover_every_bid_with_a_choice(heuristic_game: list[GameRecord]) -> None:
    ds = list(bid_decisions(heuristic_game[0]))
    played = [h for h in heuristic_game[0].hands if h.plays]
    assert len(ds) >= 4 * len(played) - len(played)  # a forced bid or two at most
    for d in ds:
        assert d.view.phase == "bid" and d.view.seat == d.seat
        assert d.view.legal is not None and d.bid in d.view.legal and len(d.view.legal) > 1
        assert d.partner_hand.bit_count() == 13


def test_a_records_bids_produce_evidence(heuristic_game: list[GameRecord]) -> None:
    cards, bids = score_parts(heuristic_game[0], OPTIONS)
    judged_bids = sum(e.decisions for hand in bids for e in hand)
    assert judged_bids >= 4
    # The hand's evidence adds them, weighted, to the cards' (one
    # normalisation over both).
    together = score_by_hand(heuristic_game[0], OPTIONS)
    w = OPTIONS.bid_weight
    for h_c, h_b, h in zip(cards, bids, together, strict=True):
        for c, b, e in zip(h_c, h_b, h, strict=True):
            assert e.decisions == c.decisions + b.decisions
            assert e.llr == pytest.approx(c.llr + w * b.llr)
            assert e.gain == pytest.approx(c.gain + b.gain)
    off = score_parts(heuristic_game[0], ScoreOptions(deals=4, refs=2, seed=3, bids=False))
    assert not any(e.decisions for hand in off[1] for e in hand)


def test_bid_judging_is_repeatable_and_values_the_bid_made(
    heuristic_game: list[GameRecord],
) -> None:
    d = next(iter(bid_decisions(heuristic_game[0])))
    cands = bid_candidates(d.view, d.bid)
    assert d.bid in cands and 13 not in cands
    values = bid_values(d.view, d.partner_hand, 2, Limits(max_deals=4, bids=cands))
    assert set(values) == set(cands)
    a = judge_bid(d.view, d.partner_hand, d.bid, OPTIONS, seed=7)
    assert a is not None
    assert a == judge_bid(d.view, d.partner_hand, d.bid, OPTIONS, seed=7)
    assert judge_bid(d.view, 0, d.bid, OPTIONS, seed=7) is None


def _bid_views(n: int, seed: int) -> list[tuple[View, int]]:
    """Bid views with a choice from random deals, and the partner's hand."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = GameState(rng=rng)
        s.deal_random()
        while s.phase is Phase.BID:
            seat = s.turn
            v = view_for(s, seat)
            if v.legal is not None and len(v.legal) > 1 and not v.can_redeal:
                out.append((v, s.hand(partner_of(seat))))
            s.bid(heuristic_bid(Knowledge.from_view(v), v.legal or ()))
    return out[:n]


def test_the_heuristic_colluder_bids_with_the_partners_cards() -> None:
    views = _bid_views(40, seed=3)
    changed = 0
    for v, partner in views:
        k = Knowledge.from_view(v)
        honest = heuristic_bid(k, v.legal or ())
        cheat = HeuristicColluder(seed=1, rate=1.0)
        cheat.peek(partner)
        bid = cheat.choose(v) - BID_BASE
        assert bid == cheat_bid(k, v.legal or (), partner)
        changed += bid != honest
        # Never on a bid decision at rate 0.
        fair = HeuristicColluder(seed=1, rate=0.0)
        fair.peek(partner)
        assert fair.choose(v) - BID_BASE == honest
    assert changed >= 5
    # The partner's higher cards promote one's own, never the count.
    for v, partner in views[:5]:
        hand = sum(1 << c for c in v.hand or ())
        assert promoted(hand, partner).bit_count() == 13


def test_the_search_colluder_bids_on_deals_with_the_partners_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v, partner = _bid_views(1, seed=5)[0]
    # The bid simulation deals with the sampler it is given.
    seen: list[int] = []

    class Watch(PartnerFixed):
        def __call__(self, k: Knowledge, rng: random.Random) -> list[int]:
            hands = PartnerFixed(partner)(k, rng)
            seen.append(hands[partner_of(k.seat)])
            return hands

    tally = evaluate(v, 1, Limits(max_deals=3, sampler=Watch(partner)))
    assert tally.deals == 3 and seen == [partner] * 3
    # The colluder at rate 1 searches its bid with that sampler; at rate 0
    # with the search's own.
    asked: list[Limits] = []

    def spy(view: View, seed: int, limits: Limits) -> object:
        asked.append(limits)
        return evaluate(view, seed, limits)

    monkeypatch.setattr(search_module, "evaluate", spy)
    for rate, sampler in ((1.0, PartnerFixed(partner)), (0.0, None)):
        bot = SearchColluder(seed=1, rate=rate, deals=2)
        bot.peek(partner)
        asked.clear()
        assert bot.choose(v) - BID_BASE in (v.legal or ())
        assert [lim.sampler for lim in asked] == [sampler]


def test_honest_bids_carry_no_evidence_on_average() -> None:
    """The null: an honest bid depends on the bidder's view only, so the
    real partner hand is one more draw of the inferred ones and the
    evidence of honest bids sums to about nothing (a self-normalised sum
    within the normal's range)."""
    total = Evidence()
    for i, (v, partner) in enumerate(_bid_views(40, seed=13)):
        bid = heuristic_bid(Knowledge.from_view(v), v.legal or ())
        j = judge_bid(v, partner, bid, OPTIONS, seed=i)
        if j is not None:
            one = Evidence()
            one.add(j.llr, gain=j.gain, discriminating=False, agrees_true=False, agrees_ref=False)
            total = total + one.closed()
    assert total.decisions >= 30
    assert abs(total.z) < 3.0
