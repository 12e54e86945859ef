"""Properties of the rules that hold for every setting and every legal game
(Hypothesis over random settings, including every preset, and random legal
play): cards are conserved, hands have 13 tricks, the legal set is never
empty while the game goes on and is the one the rules give, scores move only
by bid values, games end by the rules, and records round-trip."""

from __future__ import annotations

import json

from fh_random_games import any_settings, seeds, state_at, walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourhundred.engine import (
    BID_BASE,
    SUIT_MASKS,
    GameState,
    Phase,
    Settings,
    bid_value,
    cards_of,
    lowest_bid,
    record_from_state,
    replay,
    required_total,
    result_of,
    trick_winner,
    view_for,
    winning_team,
)

FULL = (1 << 52) - 1

PROPS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# ---------------------------------------------------------- reference rules


def reference_winner(leader: int, trick: list[int]) -> int:
    """The winner of a complete trick, by docs/rules.md, "Play", rule 3 (written
    independently of the engine)."""
    led = trick[0] // 13

    def key(c: int) -> tuple[int, int]:
        if c // 13 == 2:
            return (2, c % 13)
        if c // 13 == led:
            return (1, c % 13)
        return (0, 0)

    best = max(range(4), key=lambda i: key(trick[i]))
    return (leader + best) % 4


def reference_bids(state: GameState) -> list[int]:
    st_ = state.settings
    seat = state.turn
    low = lowest_bid(st_, state.scores[seat])
    earlier = state.bids_in_order()
    if st_.five_to_run and seat == state.dealer and all(b < 5 for b in earlier):
        low = max(low, 5)
    high = 13 if st_.thirteen_bid and 13 not in earlier else 12
    return list(range(low, high + 1))


def reference_cards(state: GameState) -> list[int]:
    hand = state.hand(state.turn)
    trick = state.current_trick
    if trick:
        follow = hand & SUIT_MASKS[trick[0] // 13]
        if follow:
            return cards_of(follow)
    return cards_of(hand)


# ---------------------------------------------------------------- properties


def check_step(state: GameState) -> None:
    """Invariants that hold before every action."""
    # 52 cards: the unplayed hands plus the cards played in this hand.
    hands = state.hands
    played = state.plays
    assert sum(h.bit_count() for h in hands) + len(played) == 52
    union = 0
    for h in hands:
        assert union & h == 0
        union |= h
    for c in played:
        assert not union >> c & 1
        union |= 1 << c
    assert union == FULL
    # Each seat has played as many cards as the others, give or take the trick.
    counts = [h.bit_count() for h in hands]
    assert max(counts) - min(counts) <= 1
    # Every card played came from that seat's deal.
    for leader, cards, winner in state.tricks():
        for i, c in enumerate(cards):
            assert state.dealt[(leader + i) % 4] >> c & 1
        if winner is not None:
            assert winner == reference_winner(leader, cards)
            assert trick_winner(cards, leader) == winner
    if state.phase is Phase.OVER:
        assert state.legal_actions() == []
        assert state.winner in (0, 1)
        return
    legal = state.legal_actions()
    assert legal, "the legal set is never empty while the game goes on"
    assert state.timeout_action() in legal
    if state.phase is Phase.BID:
        assert [a - BID_BASE for a in legal] == reference_bids(state)
        assert state.timeout_action() == legal[0]
        assert state.required == required_total(state.settings, state.scores)
    else:
        assert legal == reference_cards(state)
        # The lowest rank; among equal ranks a non-heart (clubs, diamonds,
        # spades: deck order without the hearts) before the heart.
        low = min(c % 13 for c in legal)
        lowest = [c for c in legal if c % 13 == low]
        non_hearts = [c for c in lowest if c // 13 != 2]
        assert state.timeout_action() == (min(non_hearts) if non_hearts else lowest[0])


def check_hand_summary(before: list[int], state: GameState) -> None:
    """The hand that just closed scored by the rules (scores before it in
    ``before``)."""
    h = state.history[-1]
    st_ = state.settings
    bids_by_seat = {(h.dealer + 1 + i) % 4: b for i, b in enumerate(h.bids)}
    assert h.bids_by_seat == tuple(bids_by_seat.get(s) for s in range(4))
    assert len(h.trick_winners) == len(h.plays) // 4
    leader = (h.dealer + 1) % 4
    for i, w in enumerate(h.trick_winners):
        assert w == reference_winner(leader, list(h.plays[4 * i : 4 * i + 4]))
        leader = w
    assert list(h.scores) == [before[s] + h.deltas[s] for s in range(4)]
    if h.redeal_request is not None or h.thrown_in:
        assert h.plays == ()
        assert h.deltas == (0, 0, 0, 0)
        assert h.tricks == (0, 0, 0, 0)
        if h.redeal_request is None:
            assert len(h.bids) == 4
            assert sum(h.bids) < required_total(st_, before)
        else:
            assert h.bids == ()
        return
    assert len(h.bids) == 4
    assert sum(h.bids) >= required_total(st_, before)
    if 13 in h.bids:
        bidder = next(s for s, b in bids_by_seat.items() if b == 13)
        assert h.deltas == (0, 0, 0, 0), "a 13 bid decides the game, not the scores"
        assert state.phase is Phase.OVER
        if h.tricks[bidder] == 13:
            assert len(h.plays) == 52
            assert state.winner == bidder % 2
        else:
            # The hand stopped at the first trick the bidder lost.
            n = sum(h.tricks)
            assert len(h.plays) == 4 * n
            assert h.tricks[bidder] == n - 1
            assert state.winner == 1 - bidder % 2
        return
    assert sum(h.tricks) == 13, "a played hand has 13 tricks"
    assert len(h.plays) == 52
    for s in range(4):
        value = bid_value(st_, bids_by_seat[s], before[s])
        assert h.deltas[s] == (value if h.tricks[s] >= bids_by_seat[s] else -value)
    expected = winning_team(st_, h.scores)
    assert state.winner == expected
    assert (state.phase is Phase.OVER) == (expected is not None)


@PROPS
@given(settings_=any_settings, seed=seeds)
def test_random_games_keep_every_invariant(settings_: Settings, seed: int) -> None:
    hands_seen = 0
    before = [0, 0, 0, 0]
    dealer = None
    for state in walk(settings_, seed, max_hands=12, on_state=check_step):
        if len(state.history) > hands_seen:
            # A hand has just closed: check how it scored and who deals next.
            assert len(state.history) == hands_seen + 1
            h = state.history[-1]
            assert h.hand_index == hands_seen
            assert h.dealer == dealer
            check_hand_summary(before, state)
            before = list(h.scores)
            hands_seen += 1
            if state.phase is not Phase.OVER:
                expected_dealer = h.dealer if h.redeal_request is not None else (h.dealer + 1) % 4
                assert state.dealer == expected_dealer
        assert state.hand_index == hands_seen or state.phase is Phase.OVER
        assert state.scores == before
        dealer = state.dealer


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds)
def test_games_end_by_the_rules(settings_: Settings, seed: int) -> None:
    """Played to the end (low targets so that they do end), the winner is
    the team that qualified, or decided by a 13 bid."""
    settings_ = settings_.replace(target=11)
    state = state_at(settings_, seed, max_hands=80)
    if state.phase is Phase.OVER:
        last = state.history[-1]
        if 13 not in last.bids:
            assert winning_team(settings_, state.scores) == state.winner
        assert view_for(state, None).turn is None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds, stop=st.integers(0, 700))
def test_record_round_trips(settings_: Settings, seed: int, stop: int) -> None:
    """record_from_state -> to_dict -> JSON -> replay gives the same state
    line and the same result, wherever the game is stopped."""
    state = state_at(settings_, seed, max_hands=10, stop=stop)
    data = json.loads(json.dumps(record_from_state(state).to_dict()))
    again = replay(data)
    assert again.line() == state.line()
    assert result_of(again) == result_of(state)
    assert again.history == state.history
    assert record_from_state(again).to_dict() == data
