"""The game state through its phases and turns: a new game, one hand from the
deal to the next, the unchecked fast path against the checked one, seeded and
unseeded deals, and its utilities (bid values, repr)."""

from __future__ import annotations

import random

from fh_game_states import INTERLEAVED, bidding

from fourhundred.engine import (
    BID_BASE,
    STANDARD,
    GameState,
    Phase,
    Trick,
    card_str,
    cards_of,
    parse_card,
)

# ---------------------------------------------------------- phases and turns


def test_a_new_game_waits_for_a_deal() -> None:
    s = GameState(first_dealer=2)
    assert s.phase is Phase.DEAL
    assert s.hand_index == 0
    assert s.dealer == 2
    assert s.turn == 3
    assert s.scores == [0, 0, 0, 0]
    assert s.required == 11
    assert s.legal_actions() == []
    # The first bid of the hand is known before its deal (docs/game-record.md,
    # "The result of a replay": `next`).
    assert s.legal_bids() == list(range(2, 13))
    assert s.bid_range() == (2, 12)
    assert s.line() == (
        "hand 0 dealer 2 deal turn 3 scores 0 0 0 0 need 11 bids - - - - won 0 0 0 0"
    )


def test_one_hand_through_the_phases() -> None:
    s = bidding(dealer=3)
    assert s.phase is Phase.BID
    assert s.turn == 0
    assert s.legal_actions() == [BID_BASE + n for n in range(2, 13)]
    assert s.legal_cards() == []
    for expected_turn, n in zip((0, 1, 2, 3), (3, 4, 2, 2), strict=True):
        assert s.turn == expected_turn
        s.bid(n)
    assert s.bids_in_order() == [3, 4, 2, 2]
    assert [s.bid_of(x) for x in range(4)] == [3, 4, 2, 2]
    assert s.phase is Phase.PLAY
    assert s.turn == 0
    assert s.legal_bids() == []
    assert s.legal_cards() == cards_of(INTERLEAVED[0])
    assert s.line() == (
        "hand 0 dealer 3 play turn 0 scores 0 0 0 0 need 11 bids 3 4 2 2 won 0 0 0 0 trick -"
    )
    s.play(parse_card("AC"))
    assert s.line().endswith("trick AC")
    assert s.last_trick() is None
    # Seat 1 follows clubs: 3C 7C JC.
    assert [card_str(c) for c in s.legal_cards()] == ["3C", "7C", "JC"]
    for name in ("3C", "4C", "5C"):
        s.play(parse_card(name))
    assert s.trick_winners == [0]
    assert s.tricks_won == [1, 0, 0, 0]
    assert s.tricks() == [(0, [parse_card(x) for x in ("AC", "3C", "4C", "5C")], 0)]
    assert s.last_trick() == Trick(0, tuple(parse_card(x) for x in ("AC", "3C", "4C", "5C")), 0)
    assert s.turn == 0
    while s.phase is Phase.PLAY:
        s.play(s.legal_cards()[0])
    assert s.phase is Phase.DEAL
    assert s.hand_index == 1
    assert s.dealer == 0
    assert s.turn == 1
    h = s.history[0]
    assert h.hand_index == 0
    assert h.dealer == 3
    assert h.deal == tuple(INTERLEAVED)
    assert h.bids == (3, 4, 2, 2)
    # Dealer 3: seat 0 bid first, so by seat the order is the same.
    assert h.bids_by_seat == (3, 4, 2, 2)
    assert len(h.plays) == 52
    assert sum(h.tricks) == 13
    assert list(h.scores) == s.scores
    assert len(h.trick_winners) == 13
    assert h.trick_winners[0] == 0
    assert [h.trick_winners.count(x) for x in range(4)] == list(h.tricks)
    # Between hands the last trick is the finished hand's.
    last = s.last_trick()
    assert last is not None and last == h.last_trick()
    assert last.cards == h.plays[-4:] and last.winner == h.trick_winners[-1]
    assert last.leader == h.trick_winners[-2]
    s.deal(INTERLEAVED)
    assert s.last_trick() is None


def test_unchecked_fast_path_matches_the_checked_one() -> None:
    rng = random.Random(3)
    a = GameState(first_dealer=1)
    b = GameState(first_dealer=1)
    for hand in range(6):
        a.deal_random(seed=hand)
        b.deal_random(seed=hand)
        while a.phase is Phase.BID:
            lo, hi = b.bid_range()
            assert a.legal_bids() == list(range(lo, hi + 1))
            n = rng.randint(lo, min(hi, lo + 2))
            a.bid(n)
            b.bid_unchecked(n)
        mask = b.legal_mask() if b.phase is Phase.PLAY else 0
        while a.phase is Phase.PLAY:
            assert cards_of(mask) == a.legal_cards()
            c = rng.choice(a.legal_cards())
            a.play(c)
            mask = b.play_unchecked(c)
        assert mask == 0 or b.phase is Phase.DEAL
        assert a.line() == b.line()
        assert a.history == b.history
        if a.phase is Phase.OVER:
            break


def test_seeded_deals_repeat_and_default_deals_vary() -> None:
    a = GameState(first_dealer=0)
    b = GameState(first_dealer=0)
    a.deal_random(seed=42)
    b.deal_random(seed=42)
    assert a.dealt == b.dealt
    c = GameState(first_dealer=0)
    c.deal_random(seed=43)
    assert c.dealt != a.dealt
    # A game's rng drives the first dealer and every deal.
    g1 = GameState(rng=random.Random(9))
    g2 = GameState(rng=random.Random(9))
    g1.deal_random()
    g2.deal_random()
    assert (g1.first_dealer, g1.dealt) == (g2.first_dealer, g2.dealt)
    # Without a seed or rng the deal comes from secrets: two deals differ.
    d1 = GameState(first_dealer=0)
    d2 = GameState(first_dealer=0)
    d1.deal_random()
    d2.deal_random()
    assert d1.dealt != d2.dealt
    for d in (a.dealt, g1.dealt, d1.dealt):
        assert all(m.bit_count() == 13 for m in d)
        assert d[0] | d[1] | d[2] | d[3] == (1 << 52) - 1


def test_value_of_bid_uses_the_scores_before_the_hand() -> None:
    s = GameState(STANDARD.replace(thirteen_bid=True, five_six_face_at_30=True), first_dealer=0)
    s.scores = [0, 30, 0, 0]
    s.deal(INTERLEAVED)
    assert s.value_of_bid(0, 5) == 10
    assert s.value_of_bid(1, 5) == 5
    assert s.value_of_bid(1, 13) is None


def test_repr_shows_the_line() -> None:
    s = bidding()
    assert repr(s) == f"<GameState {s.line()}>"
    assert s.hands_str().startswith("0: C:")
