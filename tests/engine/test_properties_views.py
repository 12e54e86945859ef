"""Properties of views and of the positions built from them, for every
setting and every legal game (Hypothesis over random settings and random
legal play): no view holds another seat's unplayed cards; state_from_view
rebuilds the same position; with_hands is that rebuilt position with other
hidden cards; and a lean copy, the searches' copy, ends its hand with the
same scores and winner as a full one."""

from __future__ import annotations

import json
import random

import pytest
from fh_random_games import VIEWERS, any_settings, choose, seeds, walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourhundred.engine import (
    CARD_NAMES,
    SUIT_MASKS,
    GameState,
    IllegalAction,
    Phase,
    Settings,
    cards_of,
    mask_of,
    state_from_view,
    view_for,
    with_hands,
)


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
