"""The exact solver in C (``bots/_solve.c``) gives the Python solver's
values, card for card, on positions from one to six tricks left, mid-trick
or not, for either team, with scores that let the hand decide the game; it
plays by the engine's rules (its C module's, through a capsule) and refuses
bad arguments instead of misreading them."""

from __future__ import annotations

import random

import pytest

from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.bots.solver import Scorer, solve_root
from fourhundred.bots.speedups import fast_solve
from fourhundred.engine import GameState, Phase, deal_masks, preset, view_for

if fast_solve is None:  # pragma: no cover - the build has no C compiler
    pytest.skip("the C solver is not built", allow_module_level=True)

from fourhundred.bots import _speedups


def _position(rng: random.Random, tricks_left: int) -> GameState | None:
    """A deal bid by the heuristic, played at random to ``tricks_left``
    tricks left and 0 to 3 cards of the next trick."""
    s = GameState(preset(rng.choice(("standard", "traditional"))), first_dealer=rng.randrange(4))
    if rng.random() < 0.3:
        s.scores = [rng.randrange(25, 45) for _ in range(4)]  # the hand may end the game
    s.deal(deal_masks(rng))
    h = HeuristicBot()
    while s.phase is Phase.BID:
        s.apply(h.choose(view_for(s, s.turn)))
    target = 52 - 4 * tricks_left + rng.randrange(4)
    while s.phase is Phase.PLAY and s.n_tricks * 4 + len(s.current_trick) < target:
        s.play_unchecked(rng.choice([c for c in range(52) if s.legal_mask() >> c & 1]))
    return s if s.phase is Phase.PLAY and 13 not in s.bids else None


@pytest.mark.parametrize("tricks_left", [1, 2, 3, 4, 5, 6])
def test_the_c_solver_gives_the_python_solvers_values(tricks_left: int) -> None:
    rng = random.Random(tricks_left)
    checked = 0
    while checked < (40 if tricks_left < 6 else 10):
        s = _position(rng, tricks_left)
        if s is None:
            continue
        for team in (0, 1):
            args = (s.hands, s.current_trick, s.turn, s.tricks_won)
            c = solve_root(*args, Scorer.from_state(s, team), fast=True)
            py = solve_root(*args, Scorer.from_state(s, team), fast=False)
            assert c == py, (tricks_left, team, s.line())
        checked += 1


def test_the_c_solver_refuses_bad_arguments() -> None:
    hands = [1, 2, 4, 8]
    ok = ([1, 2, 4, 8], [], 0, [0] * 4, [2] * 4, [0.0] * 16, [1, 0, 1, 0])
    assert _speedups.solve(*ok) == {0: 0.0}
    with pytest.raises(TypeError):
        _speedups.solve(*ok[:6])
    with pytest.raises(ValueError, match="not a seat"):
        _speedups.solve(hands, [], 4, *ok[3:])
    with pytest.raises(ValueError, match="16 values"):
        _speedups.solve(*ok[:5], [0.0] * 15, ok[6])
    with pytest.raises(ValueError, match="bits beyond"):
        _speedups.solve([1 << 60, 2, 4, 8], *ok[1:])
    with pytest.raises(ValueError, match="at most 3 cards"):
        _speedups.solve(hands, [16, 17, 18, 19], *ok[2:])
    with pytest.raises(ValueError, match="no cards"):
        _speedups.solve([0, 2, 4, 8], *ok[1:])
