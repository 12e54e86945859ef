"""Properties of the rules that hold for every setting and every legal game
(Hypothesis over random settings, including every preset, and random legal
play): cards are conserved, hands have 13 tricks, the legal set is never
empty while the game goes on, scores move only by bid values, records
round-trip, views keep secrets, and the checked path refuses what is not
legal without changing anything."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    PRESETS,
    REDEAL,
    SUIT_MASKS,
    GameOver,
    GameState,
    IllegalAction,
    IllegalBid,
    IllegalCard,
    IllegalRedeal,
    NotYourTurn,
    Phase,
    Settings,
    WrongPhase,
    bid_value,
    cards_of,
    lowest_bid,
    mask_of,
    record_from_state,
    replay,
    required_total,
    result_of,
    state_from_view,
    trick_winner,
    view_for,
    winning_team,
    with_hands,
)

FULL = (1 << 52) - 1

random_settings = st.builds(
    Settings,
    target=st.one_of(st.integers(11, 200), st.sampled_from([11, 15, 21, 31, 41])),
    min_bid=st.integers(1, 4),
    escalating_min_bid=st.booleans(),
    min_total=st.integers(9, 13),
    escalating_total=st.booleans(),
    scoring=st.sampled_from(["lebanese", "classic"]),
    five_six_face_at_30=st.booleans(),
    big_bids=st.sampled_from(["none", "ten_40", "eleven_50"]),
    thirteen_bid=st.booleans(),
    partner_rule=st.sampled_from(["positive", "non_negative"]),
    five_to_run=st.booleans(),
    no_face_card_redeal=st.booleans(),
)
any_settings = st.one_of(st.sampled_from(list(PRESETS.values())), random_settings)
seeds = st.integers(0, 2**32 - 1)

PROPS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# ------------------------------------------------------------ random games


def choose(state: GameState, rng: random.Random) -> int:
    """A legal action, biased the way players bid (mostly low, sometimes
    high, now and then 13 or a request for a new deal) so that games end
    and every rule gets exercised."""
    if state.phase is Phase.BID:
        if state.n_bids == 0:
            askers = [s for s in range(4) if state.can_redeal(s)]
            if askers and rng.random() < 0.5:
                return REDEAL  # the caller applies it for rng.choice(askers)
        bids = state.legal_bids()
        r = rng.random()
        if 13 in bids and r < 0.03:
            n = 13
        elif r < 0.6:
            n = bids[0]
        elif r < 0.9:
            n = min(bids[0] + rng.randrange(4), bids[-1])
        else:
            n = rng.choice(bids)
        return BID_BASE + n
    return rng.choice(state.legal_actions())


def walk(
    settings_: Settings,
    seed: int,
    max_hands: int,
    on_state: Callable[[GameState], None] | None = None,
) -> Iterator[GameState]:
    """Play a random legal game; yield the state before every action (and
    once at the end). ``on_state`` may inspect each state first."""
    rng = random.Random(seed)
    state = GameState(settings_, first_dealer=rng.randrange(4), rng=rng)
    while True:
        if state.phase is Phase.DEAL:
            if state.hand_index >= max_hands:
                yield state
                return
            state.deal_random()
        if on_state is not None:
            on_state(state)
        yield state
        if state.phase is Phase.OVER:
            return
        action = choose(state, rng)
        if action == REDEAL:
            state.apply(REDEAL, rng.choice([s for s in range(4) if state.can_redeal(s)]))
        else:
            state.apply(action)


def state_at(settings_: Settings, seed: int, max_hands: int, stop: int | None = None) -> GameState:
    """The state of a random game after ``stop`` actions (or at its end)."""
    last: GameState | None = None
    for i, state in enumerate(walk(settings_, seed, max_hands)):
        last = state
        if i == stop:
            break
    assert last is not None
    return last


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


VIEWERS = (None, 0, 1, 2, 3)


def check_views(state: GameState) -> None:
    if state.phase is Phase.DEAL:
        return
    hands = state.hands
    for viewer in VIEWERS:
        view = view_for(state, viewer)
        data = view.to_dict()
        text = json.dumps(data)
        shown = set(data.get("hand", []))
        for t in data["tricks"]:
            shown |= set(t["cards"])
        for seat in range(4):
            if seat == viewer:
                continue
            secret = {CARD_NAMES[c] for c in cards_of(hands[seat])}
            leaked = secret & shown
            assert not leaked, f"view of {viewer} shows seat {seat}'s {leaked}"
            # Not anywhere else in the message either (legal, values...).
            for name in secret:
                assert f'"{name}"' not in text, f"view of {viewer} holds seat {seat}'s {name}"
        if viewer is None:
            assert "hand" not in data
        else:
            assert data["hand"] == [CARD_NAMES[c] for c in cards_of(hands[viewer])]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds)
def test_no_view_holds_another_seats_unplayed_cards(settings_: Settings, seed: int) -> None:
    for _ in walk(settings_, seed, max_hands=3, on_state=check_views):
        pass


WEIRD_ACTIONS: tuple[Any, ...] = (True, False, 3.0, "3", None, -1, 52, 67, 1000)


def expected_error(state: GameState, action: int) -> type[IllegalAction]:
    """The error class the checked path must raise for a non-legal action."""
    if not 0 <= action <= REDEAL or action == BID_BASE:
        return IllegalAction
    if state.phase is Phase.OVER:
        return GameOver
    if action == REDEAL:
        return IllegalRedeal
    is_bid = action > BID_BASE
    if state.phase is Phase.DEAL:
        return WrongPhase
    if state.phase is Phase.BID:
        return IllegalBid if is_bid else WrongPhase
    return WrongPhase if is_bid else IllegalCard


def snapshot(state: GameState) -> tuple[Any, ...]:
    views = (
        ()
        if state.phase is Phase.DEAL
        else tuple(json.dumps(view_for(state, v).to_dict()) for v in VIEWERS)
    )
    return (state.line(), state.hands, state.plays, len(state.history), views)


def check_refusals(state: GameState) -> None:
    before = snapshot(state)
    legal = set(state.legal_actions())
    for action in (*range(-1, 68), *WEIRD_ACTIONS):
        if type(action) is int and action in legal:
            continue
        if action == REDEAL and type(action) is int and state.can_redeal(state.turn):
            continue  # allowed, though not listed in legal_actions
        check_refused(state, action)
    if state.phase in (Phase.BID, Phase.PLAY):
        check_out_of_turn(state, next(iter(legal)))
        # And every legal action is accepted (on a copy).
        line = state.line()
        for action in legal:
            copy = state.clone()
            copy.apply(action)
            assert state.line() == line, "a clone shares state with the original"
    assert snapshot(state) == before


def check_refused(state: GameState, action: Any) -> None:
    """``action`` is refused with the error its cause names, and the state
    does not change."""
    line = state.line()
    try:
        state.apply(action)
    except IllegalAction as e:
        if type(action) is int:
            assert type(e) is expected_error(state, action), (action, e)
        else:
            assert type(e) is IllegalAction, (action, e)
            assert repr(action) in str(e)
    else:
        raise AssertionError(f"{action!r} was accepted in {line}")
    assert state.line() == line, f"refusing {action!r} changed the state"


def check_out_of_turn(state: GameState, action: int) -> None:
    """A legal ``action`` by any seat but the one to act is out of turn."""
    line = state.line()
    for seat in range(4):
        if seat != state.turn:
            try:
                state.apply(action, seat)
            except NotYourTurn as e:
                assert f"seat {state.turn}'s turn" in str(e)
            else:
                raise AssertionError(f"seat {seat} acted out of turn in {line}")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds)
def test_checked_apply_refuses_every_non_legal_action(settings_: Settings, seed: int) -> None:
    last = None
    for state in walk(settings_, seed, max_hands=2, on_state=check_refusals):
        last = state
    assert last is not None
    check_refusals(last)  # also in the DEAL or OVER phase at the end


def check_rebuild(state: GameState) -> None:
    if state.phase not in (Phase.BID, Phase.PLAY):
        return
    for viewer in VIEWERS:
        view = view_for(state, viewer)
        rebuilt = state_from_view(view, state.hands)
        assert view_for(rebuilt, viewer) == view
        assert rebuilt.line() == state.line()
        for other in VIEWERS:
            assert view_for(rebuilt, other) == view_for(state, other)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds, stride=st.integers(1, 9))
def test_state_from_view_rebuilds_the_same_position(
    settings_: Settings, seed: int, stride: int
) -> None:
    for i, state in enumerate(walk(settings_, seed, max_hands=4)):
        if i % stride == 0:
            check_rebuild(state)


def _reshared(state: GameState, seat: int, rng: random.Random) -> list[int]:
    """The others' unplayed cards shared out again, suit by suit, as many of
    each suit to each seat as it holds (so every play so far stays legal)."""
    hands = [0, 0, 0, 0]
    hands[seat] = state.hand(seat)
    others = [s for s in range(4) if s != seat]
    for suit in SUIT_MASKS:
        pool = [c for s in others for c in cards_of(state.hand(s) & suit)]
        rng.shuffle(pool)
        for s in others:
            n = (state.hand(s) & suit).bit_count()
            hands[s] |= mask_of(pool[:n])
            pool = pool[n:]
    return hands


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds, stride=st.integers(1, 9))
def test_with_hands_is_the_rebuilt_state_with_other_hidden_cards(
    settings_: Settings, seed: int, stride: int
) -> None:
    rng = random.Random(seed)
    for i, state in enumerate(walk(settings_, seed, max_hands=3)):
        if i % stride or state.phase not in (Phase.BID, Phase.PLAY):
            continue
        seat = state.turn
        view = view_for(state, seat)
        template = state_from_view(view, state.hands)
        hands = _reshared(state, seat, rng)
        got, want = with_hands(template, hands), state_from_view(view, hands)
        assert got._core_state() == want._core_state()
        assert got.dealt == want.dealt
        assert got.line() == want.line()
        while got.phase in (Phase.BID, Phase.PLAY):  # and they play on alike
            action = want.timeout_action()
            got.apply(action)
            want.apply(action)
        assert got.history[-1:] == want.history[-1:]
        assert template.hands == state.hands  # the template is left as it was


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_=any_settings, seed=seeds, stride=st.integers(1, 9))
def test_a_lean_copy_ends_its_hand_with_the_same_scores_and_winner(
    settings_: Settings, seed: int, stride: int
) -> None:
    """``clone(lean=True)``, the searches' copies: played to the end of the
    hand with the same cards as a full copy, the scores and the winner are
    the same; the hand is not kept and the copy's game is over."""
    rng = random.Random(seed)
    for i, state in enumerate(walk(settings_, seed, max_hands=3)):
        if i % stride or state.phase not in (Phase.BID, Phase.PLAY):
            continue
        full, lean = state.clone(), state.clone(lean=True)
        while full.phase in (Phase.BID, Phase.PLAY) and full.hand_index == state.hand_index:
            action = choose(full, rng)
            full.apply(action)
            lean.apply(action)
            assert lean.line() == full.line() or lean.phase is Phase.OVER
        assert lean.scores == full.scores
        assert lean.phase is Phase.OVER
        assert lean.winner == (full.winner if full.phase is Phase.OVER else None)
        assert len(lean.history) == len(state.history)
        assert not state.lean and lean.clone().lean
        with pytest.raises(IllegalAction):
            lean.deal_random(seed=1)


def test_with_hands_refuses_hands_that_are_not_the_same_cards() -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=1)
    h = list(s.hands)
    with pytest.raises(ValueError, match="same unplayed cards"):
        with_hands(s, [h[1], h[0] | h[2], 0, h[3]])  # the counts differ
    with pytest.raises(ValueError, match="same unplayed cards"):
        with_hands(s, [h[0], h[0], h[2], h[3]])  # a card twice
    with pytest.raises(ValueError, match="all four seats"):
        with_hands(s, h[:3])
    assert with_hands(s, [h[1], h[0], h[2], h[3]]).hands == [h[1], h[0], h[2], h[3]]


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
