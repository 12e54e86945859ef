"""The view at every moment (engine/steps.py): between hands it is the hand
just ended; a record's steps are the engine's own views."""

from __future__ import annotations

import random

import pytest

from fourhundred.engine import GameState, Phase, preset, record_from_state, view_for
from fourhundred.engine.steps import hand_line, replay_steps, view_at


def _random_game(seed: int) -> GameState:
    rng = random.Random(seed)
    state = GameState(preset("traditional").replace(target=21), first_dealer=seed % 4, rng=rng)
    while state.phase is not Phase.OVER:
        if state.phase is Phase.DEAL:
            state.deal_random()
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_between_hands_the_view_is_the_hand_just_ended(seed: int) -> None:
    rng = random.Random(seed)
    state = GameState(preset("standard"), first_dealer=0, rng=rng)
    seen = 0
    while state.phase is not Phase.OVER and seen < 4:
        if state.phase is Phase.DEAL:
            state.deal_random()
        before = view_for(state, 0)
        state.apply(rng.choice(state.legal_actions()))
        if state.phase is not Phase.DEAL:
            assert view_at(state, 2) == view_for(state, 2)
            continue
        seen += 1
        h = state.history[-1]
        line = hand_line(h)
        for seat in (None, 0, 1, 2, 3):
            v = view_at(state, seat)
            assert (v.phase, v.turn, v.legal, v.values, v.can_redeal) == (
                "deal",
                None,
                None,
                None,
                False,
            )
            assert v.hand_index == h.hand_index == before.hand_index
            assert v.dealer == before.dealer and v.required_total == before.required_total
            assert list(v.bids) == line["bids"] and list(v.tricks_won) == line["tricks"]
            assert list(v.scores) == line["scores"]
            assert (v.hand is None) == (seat is None)
        v = view_at(state, 0)
        played = [c for t in v.tricks for c in t.cards]
        assert played == list(h.plays)
        if h.plays:
            # The card that ended the hand completes the last trick on the table.
            assert len(v.tricks) == 13 and all(t.winner is not None for t in v.tricks)
            assert v.hand == ()
            assert [t.leader for t in v.tricks[1:]] == [t.winner for t in v.tricks[:-1]]
        else:
            assert v.tricks == () and v.hand == before.hand


@pytest.mark.parametrize("seed", range(3))
def test_replay_steps_are_the_views_after_each_action(seed: int) -> None:
    state = _random_game(seed)
    record = record_from_state(state).to_dict()
    hands = replay_steps(record)
    assert [h.line for h in hands] == [hand_line(h) for h in state.history]
    for h, summary in zip(hands, state.history, strict=True):
        assert h.steps[0].action is None and h.steps[0].view.phase == "bid"
        assert len(h.steps) == 1 + len(summary.bids) + len(summary.plays) + (
            summary.redeal_request is not None
        )
        for step in h.steps:
            d = step.to_dict()
            assert "hand" not in d["view"]
            assert (
                sum(map(len, d["hands"])) + sum(len(t["cards"]) for t in d["view"]["tricks"]) == 52
            )
    assert hands[-1].steps[-1].view == view_for(state, None)
