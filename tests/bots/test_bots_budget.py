"""Budgets through the protocol: a protocol bot thinks for a share of the
host's budget that scales with it, learns its own overhead and how much of
its allotment it uses, and answers within the budget at small and large
budgets (checked by the faults the host records, never by the clock)."""

from __future__ import annotations

import io
import json
import sys

import pytest

from fourhundred.bots.base import Bot
from fourhundred.bots.budget import BudgetKeeper
from fourhundred.bots.external import ExternalBot
from fourhundred.bots.guest import serve
from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.engine import Action, GameState, Phase, View, view_for


def test_margin_scales_with_the_budget_not_a_fixed_amount() -> None:
    k = BudgetKeeper()
    small, large = k.allot(10), k.allot(500)
    assert 5 <= small < 10
    assert 400 <= large < 500
    assert k.margin_ms(500) > k.margin_ms(50) > k.margin_ms(10) > 0


def test_measured_overhead_widens_the_margin() -> None:
    k = BudgetKeeper()
    before = k.allot(100)
    for _ in range(3):
        k.record(allotted_ms=before, think_ms=1.0, total_ms=21.0)  # 20 ms outside the bot
    assert k.overhead_ms == pytest.approx(20.0)
    assert k.allot(100) <= before - 19


@pytest.mark.parametrize("budget", [10, 20, 50, 200, 500, 2000])
def test_a_search_like_bot_converges_inside_the_budget(budget: int) -> None:
    """A bot that, like the search, plans 75% of its budget less 3 ms: the
    allotments it gets make it think for most of the host's budget and never
    past the budget less the overhead."""
    k = BudgetKeeper()
    thinks = []
    for _ in range(20):
        allotted = k.allot(budget)
        think = max(1.0, 0.75 * allotted - 3.0)
        thinks.append(think)
        k.record(allotted_ms=allotted, think_ms=think, total_ms=think + 0.5)
    assert all(t + 0.5 <= budget for t in thinks)
    if budget >= 50:
        assert thinks[-1] >= 0.7 * budget  # uses the budget, not 1 ms of it


class _Recorder(Bot):
    """Plays like the heuristic and remembers the budget it was given."""

    name = "recorder"

    def __init__(self) -> None:
        super().__init__()
        self.given: list[int | None] = []
        self._h = HeuristicBot()

    def choose(self, view: View) -> Action:
        self.given.append(self.budget_ms)
        return self._h.choose(view)


def test_guest_gives_its_bot_a_share_of_each_host_budget() -> None:
    s = GameState(first_dealer=0)
    s.deal_random(seed=3)
    v = view_for(s, 1).to_dict()
    budgets = [10, 50, 500]
    lines = [json.dumps({"type": "hello", "protocol": "fourhundred-bot/1"})]
    lines += [
        json.dumps({"type": "act", "id": i, "view": v, "budget_ms": b})
        for i, b in enumerate(budgets, 1)
    ]
    bot = _Recorder()
    serve(bot, "recorder", io.StringIO("\n".join(lines) + "\n"), io.StringIO(), io.StringIO())
    given = [g for g in bot.given if g is not None]
    assert len(given) == 3
    for g, b in zip(given, budgets, strict=True):
        assert 0.5 * b <= g < b  # a margin, and far from the old fixed 60 ms


@pytest.mark.slow
@pytest.mark.parametrize("budget", [15, 40, 400])
def test_search_through_the_protocol_answers_within_its_budget(budget: int) -> None:
    """``python -m fourhundred.bots.guest search`` driven by the host side:
    every answer is legal and in time at small and large budgets."""
    bot = ExternalBot(f"{sys.executable} -m fourhundred.bots.guest search", budget_ms=budget)
    try:
        s = GameState(first_dealer=0)
        s.deal_random(seed=5)
        others = HeuristicBot()
        turns = 0
        deals = 1
        while turns < 6 and s.phase is not Phase.OVER:
            if s.phase is Phase.DEAL:
                # The bids fell short and the hand is dealt again: which
                # bid a 15 ms search makes depends on the machine's speed.
                deals += 1
                s.deal_random(seed=5 + deals)
                continue
            v = view_for(s, s.turn)
            if s.turn == 1:
                a = bot.choose(v)
                turns += 1
            else:
                a = others.choose(v)
            s.apply(a)
        assert turns == 6
        assert bot.replaced is None
        faults = bot.drain_faults()
        # Every answer legal and well formed; lateness (over budget + 200 ms)
        # only as a rare hiccup of a machine shared with other test runs
        # (the decision times themselves are measured in docs/bots.md).
        assert [f for f in faults if "no answer within" not in f] == []
        assert len(faults) <= 1
    finally:
        bot.close()
