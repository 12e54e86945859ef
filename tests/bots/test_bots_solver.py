"""The exact solver agrees with a plain minimax over the engine itself, in
C and in Python (``tests/bots/test_bots_solver_c.py``: the two agree on
deeper positions too)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from fourhundred.bots.solver import Scorer, distinct_cards, solve_root
from fourhundred.engine import GameState, Phase, cards_of, preset, team_of


def _brute(state: GameState, team: int, base: list[int]) -> float:
    """Minimax by the engine's own rules (clone + play), no pruning."""
    legal = state.legal_mask()
    maxing = team_of(state.turn) == team
    best = None
    for c in cards_of(legal):
        s = state.clone()
        s.play_unchecked(c)
        v = _brute(s, team, base) if s.phase is Phase.PLAY else _final(s, team, base)
        if best is None or (v > best if maxing else v < best):
            best = v
    assert best is not None
    return best


def _final(s: GameState, team: int, base: list[int]) -> float:
    from fourhundred.bots.heuristic import GAME_BONUS

    d = [s.scores[i] - base[i] for i in range(4)]
    v = float(d[team] + d[team + 2] - d[1 - team] - d[3 - team])
    if s.winner is not None:
        bonus = 2 * GAME_BONUS if not any(d) else GAME_BONUS
        v += bonus if s.winner == team else -bonus
    return v


@pytest.mark.parametrize("fast", [True, False], ids=["c", "python"])
def test_solver_matches_minimax(advance: Callable[..., GameState], fast: bool) -> None:
    checked = 0
    for seed in range(60):
        # Three tricks left (or a little less), from random play.
        s = advance(seed, 4 + 40 + seed % 3)
        if s.phase is not Phase.PLAY:
            continue  # the random bids threw this deal in
        if seed % 2:
            s.scores = [38, 5, 20, -3]  # a game-deciding hand for team 0
        team = team_of(s.turn)
        base = list(s.scores)
        sc = Scorer.from_state(s, team)
        vals = solve_root(s.hands, s.current_trick, s.turn, s.tricks_won, sc, fast=fast)
        assert sorted(vals) == cards_of(s.legal_mask())
        for c, v in vals.items():
            t = s.clone()
            t.play_unchecked(c)
            want = _brute(t, team, base) if t.phase is Phase.PLAY else _final(t, team, base)
            assert v == want, (seed, c)
        checked += 1
        if checked == 15:
            break
    assert checked == 15


def test_thirteen_bid_is_solved_as_game_win_or_loss() -> None:
    st = preset("traditional")
    s = GameState(st, first_dealer=3)
    # Seat 0 holds every heart: bidding 13 it wins each trick it leads.
    from fourhundred.engine import HEARTS_MASK, SUIT_MASKS

    hands = [HEARTS_MASK, SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[3]]
    s.deal(hands)
    s.bid(13)
    for _ in range(3):
        s.bid(2)
    while s.n_tricks < 10:
        s.play_unchecked(s.timeout_action())
    vals = solve_root(s.hands, s.current_trick, s.turn, s.tricks_won, Scorer.from_state(s, 0))
    assert set(vals.values()) == {60.0}


def test_distinct_cards_keeps_one_of_touching_cards() -> None:
    from fourhundred.engine import mask_of, parse_card

    hand = mask_of(parse_card(c) for c in ["KS", "QS", "9S", "2H"])
    in_play = hand | mask_of(parse_card(c) for c in ["JS", "AS", "3H"])
    # KS and QS touch; 9S is apart (JS is still out); 2H is the only heart.
    got = distinct_cards(hand, hand, in_play)
    assert got == [parse_card("KS"), parse_card("9S"), parse_card("2H")]


def test_search_keeps_the_heuristic_choice_unless_the_deals_say_otherwise() -> None:
    from fourhundred.bots.search import Tally, pick

    t = Tally()
    # Card 5 looks better on average, but only by noise against card 3.
    for v3, v5 in [(1, 3), (2, 0), (0, 3), (3, 1)]:
        t.add(3, v3)
        t.add(5, v5)
    assert pick(t, 3, 1.0) == 3
    # Card 7 beats card 3 on every deal: taken.
    for v in (3, 4, 2, 5):
        t.add(7, v)
    assert pick(t, 3, 1.0) == 7


def test_a_card_clearly_behind_the_kept_one_is_dropped_and_the_deals_stay_paired() -> None:
    import math

    from fourhundred.bots.search import PRUNE_Z, Tally, pick

    t = Tally()
    for v3, v5, v7 in [(2, 0, 1), (3, 1, 4), (1, -1, 0)]:
        t.add(3, v3)
        t.add(5, v5)
        t.add(7, v7)
    assert t.behind(5, 3, PRUNE_Z)  # two behind on every deal
    assert not t.behind(7, 3, PRUNE_Z)  # either way: kept
    assert not t.behind(3, 3, PRUNE_Z)
    # Dropped: its later deals are NaN, out of its mean and of every pair.
    for v3, v7 in [(0, 5), (1, 6)]:
        t.add(3, v3)
        t.add(5, math.nan)
        t.add(7, v7)
    assert t.mean(5) == 0.0
    assert t.edge(7, 3, 0.0) == (-1 + 1 - 1 + 5 + 5) / 5
    assert pick(t, 3, 1.0) == 7
    # Two deals are too few to judge.
    u = Tally({3: [5.0, 5.0], 5: [0.0, 0.0]}, deals=2)
    assert not u.behind(5, 3, PRUNE_Z)


def test_a_weighted_tally_weighs_its_means_and_its_standard_errors() -> None:
    import math

    from fourhundred.bots.search import Tally, pick

    plain = Tally({3: [1.0, 2.0, 0.0, 3.0], 5: [3.0, 0.0, 3.0, 1.0]}, deals=4)
    even = Tally(dict(plain.values), deals=4, weights=[2.0] * 4)
    assert even.mean(5) == plain.mean(5) == 1.75
    # Even weights: the mean difference of the plain tally, its standard
    # error from the weights, sum w^2 (d - m)^2 / (sum w)^2.
    d = [2.0, -2.0, 3.0, -2.0]
    m = sum(d) / 4
    se = math.sqrt(sum((x - m) ** 2 for x in d) / 16)
    assert math.isclose(even.edge(5, 3, 1.0), m - se)
    # All the weight on the deals where card 5 wins: taken.
    lopsided = Tally(dict(plain.values), deals=4, weights=[1.0, 1e-9, 1.0, 1e-9])
    assert math.isclose(lopsided.mean(5), 3.0, rel_tol=1e-6)
    assert pick(lopsided, 3, 1.0) == 5
    # One deal carries it all: fewer than two effective deals, no edge.
    one = Tally(dict(plain.values), deals=4, weights=[1.0, 1e-12, 1e-12, 1e-12])
    assert one.edge(5, 3, 1.0) == float("-inf")
    assert pick(one, 3, 1.0) == 3
    # Merged with an unweighted tally, whose deals then weigh 1 each.
    merged = Tally({3: [0.0], 5: [1.0]}, deals=1)
    merged.merge(lopsided)
    assert merged.weights == [1.0, 1.0, 1e-9, 1.0, 1e-9]
    assert merged.deals == 5


def test_a_pruning_search_spends_its_deals_on_the_cards_still_in_question(
    advance: Callable[..., GameState],
) -> None:
    import math

    from fourhundred.bots.heuristic import heuristic_card
    from fourhundred.bots.knowledge import Knowledge
    from fourhundred.bots.search import Limits, evaluate, play_candidates, representative
    from fourhundred.engine import view_for

    dropped = 0
    for seed in range(12):
        s = advance(seed, 4 + 8)  # the bids and two tricks
        if s.phase is not Phase.PLAY:
            continue
        v = view_for(s, s.turn)
        k = Knowledge.from_view(v)
        cands = play_candidates(k)
        if len(cands) < 3:
            continue
        keep = representative(heuristic_card(k), dict.fromkeys(cands), k)
        t = evaluate(v, seed, Limits(max_deals=40, keep=keep))
        assert t.deals == 40 and set(t.values) == set(cands)
        assert all(len(vs) == 40 for vs in t.values.values())  # paired by deal
        assert not any(math.isnan(x) for x in t.values[keep])  # the kept card: every deal
        full = evaluate(v, seed, Limits(max_deals=40))  # no card kept: none dropped
        assert not any(math.isnan(x) for vs in full.values.values() for x in vs)
        dropped += sum(1 for vs in t.values.values() if math.isnan(vs[-1]))
    assert dropped > 0


def test_touching_cards_share_one_candidate() -> None:
    from fourhundred.bots.knowledge import Knowledge
    from fourhundred.bots.search import representative
    from fourhundred.engine import parse_card, view_for

    s = GameState(first_dealer=3)
    s.deal_random(seed=12)
    k = Knowledge.from_view(view_for(s, 0))
    hand = [c for c in range(52) if k.hand >> c & 1]
    # Find two touching cards of one suit in this hand.
    pairs = [(a, b) for a, b in itertools.pairwise(hand) if b == a + 1 and a // 13 == b // 13]
    assert pairs
    low, high = pairs[0]
    cands = {high: 0.0}
    assert representative(low, cands, k) == high
    assert representative(high, cands, k) == high
    del parse_card


def test_a_search_bot_made_in_a_worker_process_stays_in_it() -> None:
    # A host's bot pool (the server's) already spreads bots over the cores.
    import concurrent.futures
    import multiprocessing

    from fourhundred.bots.search import default_workers

    assert default_workers() >= 1
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        assert pool.submit(default_workers).result(timeout=120) == 1
