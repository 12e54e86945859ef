"""Copies of the game state: copy, deepcopy, pickle and clone give an equal
state that plays on like the original and shares nothing with it."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from fh_game_states import finished, playing

from fourhundred.engine import GameOver, GameState, parse_card, view_for


@pytest.mark.parametrize(
    "how",
    [copy.copy, copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_copies_and_pickles_are_equal_and_independent(how: Callable[[GameState], Any]) -> None:
    s = playing()
    s.play(parse_card("AC"))
    s.play(parse_card("3C"))
    c = how(s)
    assert isinstance(c, GameState)
    assert c.line() == s.line()
    assert c.hands == s.hands
    assert c.plays == s.plays
    assert c.history == s.history
    assert c.legal_actions() == s.legal_actions()
    assert view_for(c, 2) == view_for(s, 2)
    c.play(c.legal_cards()[0])
    assert len(s.current_trick) == 2, "playing on the copy changed the original"
    # The copy plays on exactly like the original.
    s.play(c.current_trick[-1])
    assert c.line() == s.line()


def test_a_finished_game_pickles() -> None:
    s = finished()
    c = pickle.loads(pickle.dumps(s))
    assert c.line() == s.line()
    assert c.winner == 0
    with pytest.raises(GameOver):
        c.bid(2)


def test_clone_is_independent() -> None:
    s = playing()
    s.play(parse_card("AC"))
    c = s.clone()
    assert c.line() == s.line()
    assert c.hands == s.hands
    c.play(c.legal_cards()[0])
    assert c.line() != s.line()
    assert len(s.current_trick) == 1
    assert s.hand(1) != c.hand(1)
    c.scores[0] = 99
    assert s.scores[0] == 0
