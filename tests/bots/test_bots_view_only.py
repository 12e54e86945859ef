"""A bot's decision depends only on its seat's view: the same view and seed
with different hidden cards elsewhere gives the same action, for every bot."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from fourhundred.bots import Bot, ExpertBot, make_bot
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.sampling import sample_hands
from fourhundred.bots.search import SearchBot
from fourhundred.engine import GameState, Phase, state_from_view, view_for

POSITIONS = [(seed, n) for seed in range(6) for n in (0, 2, 4, 9, 23, 40)]


@pytest.mark.parametrize(
    "name", ["random", "heuristic", "search", "expert", "cmd-example", "cmd-guest"]
)
def test_same_view_same_action(
    name: str,
    advance: Callable[..., GameState],
    example_bot: str,
    guest_bot: Callable[[str], str],
) -> None:
    def fresh(seed: int) -> Bot:
        if name == "search":
            return SearchBot(seed=seed, iterations=6, workers=1)
        if name == "expert":
            return ExpertBot(seed=seed, iterations=6, workers=1)
        if name == "cmd-example":
            return make_bot(example_bot, seed=seed)
        if name == "cmd-guest":
            return make_bot(guest_bot("heuristic"), seed=seed)
        return make_bot(name, seed=seed)

    # Two instances with the same seed see the same views in the same order
    # (one from the real deal, one from another deal of the hidden cards).
    a_bot, b_bot = fresh(1), fresh(1)
    checked = 0
    try:
        for seed, n in POSITIONS:
            s = advance(seed, n)
            if s.phase not in (Phase.BID, Phase.PLAY):
                continue
            seat = s.turn
            view = view_for(s, seat)
            # Another deal of the hidden cards, consistent with this view.
            other = sample_hands(Knowledge.from_view(view), random.Random(seed + 99))
            t = state_from_view(view, other)
            assert view_for(t, seat) == view
            if all(s.hand(x) == other[x] for x in range(4)):
                continue  # the sampler happened to deal the same cards
            a = a_bot.choose(view_for(s, seat))
            b = b_bot.choose(view_for(t, seat))
            assert a == b, (name, seed, n)
            assert a in s.legal_actions()
            checked += 1
    finally:
        a_bot.close()
        b_bot.close()
    assert checked >= 20
