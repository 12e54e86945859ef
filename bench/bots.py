"""Bot speed: rollouts per second and decisions per second (medians of
repeated runs), on positions from heuristic self-play.

    .venv/bin/python bench/bots.py [--repeats 5]
    .venv/bin/python bench/bots.py --levels [--budget-ms 500] [--seconds 20]

Prints one line per figure. ``--levels``: the bot pool's capacity instead,
decisions per second per core (one process, as a pool worker runs) of each
level for people at the server's budget (``fourhundred serve
--bot-budget-ms``). The machine's other load counts: quote the
medians with the machine they ran on (docs/bots.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fourhundred.bots import LEVELS, Bot, ExpertBot, make_bot, make_level
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.rollout import fast_rollout
from fourhundred.bots.sampling import sample_hands
from fourhundred.bots.search import SearchBot, rollout
from fourhundred.engine import GameState, Phase, View, deal_masks, state_from_view, view_for


def positions(n_deals: int, seed: int = 1) -> tuple[list[View], list[View]]:
    """Bid views and play views (the seat to act) from heuristic self-play."""
    rng = random.Random(seed)
    bot = make_bot("heuristic")
    bids: list[View] = []
    plays: list[View] = []
    while len(plays) < n_deals * 40:
        s = GameState(first_dealer=rng.randrange(4))
        s.deal(deal_masks(rng))
        while s.phase in (Phase.BID, Phase.PLAY):
            v = view_for(s, s.turn)
            (bids if s.phase is Phase.BID else plays).append(v)
            s.apply(bot.choose(v))
    return bids, plays


def rollouts_per_second(plays: list[View], seconds: float, fast: bool = False) -> float:
    """Sampled deal + heuristic rollout to the end of the hand, per second
    (``fast``: the rollout in C, the very same cards)."""
    roll = fast_rollout if fast and fast_rollout is not None else rollout
    rng = random.Random(2)
    done = 0
    t0 = time.perf_counter()
    i = 0
    while time.perf_counter() - t0 < seconds:
        v = plays[i % len(plays)]
        i += 1
        k = Knowledge.from_view(v)
        st = state_from_view(v, sample_hands(k, rng))
        roll(st, k.gone, list(k.voids))
        done += 1
    return done / (time.perf_counter() - t0)


def _rate(bot: Bot, views: list[View], seconds: float) -> float:
    """Decisions a second ``bot`` makes over ``views`` for ``seconds``; closes it."""
    done = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        bot.choose(views[done % len(views)])
        done += 1
    rate = done / (time.perf_counter() - t0)
    bot.close()
    return rate


def decisions_per_second(name: str, views: list[View], seconds: float, **kw: int) -> float:
    if name == "search":
        bot: Bot = SearchBot(seed=1, **kw)
    elif name == "expert":
        bot = ExpertBot(seed=1, **kw)
    else:
        bot = make_bot(name, seed=1)
    return _rate(bot, views, seconds)


def level_rate(level: str, views: list[View], seconds: float, budget_ms: int) -> float:
    """Decisions a second of ``level`` in one process (a bot pool's worker:
    the expert searches in that process only)."""
    bot = (
        ExpertBot(seed=1, budget_ms=budget_ms, workers=1)
        if LEVELS[level].bot == "expert"
        else make_level(level, seed=1, budget_ms=budget_ms)
    )
    return _rate(bot, views, seconds)


def levels(views: list[View], repeats: int, seconds: float, budget_ms: int) -> None:
    """The bot pool's capacity per core, by level, at ``budget_ms``."""
    for level in LEVELS:
        xs = [level_rate(level, views, seconds, budget_ms) for _ in range(repeats)]
        print(
            f"{level} decisions/s per core at --bot-budget-ms {budget_ms}: "
            f"median {statistics.median(xs):,.1f} (runs: "
            + ", ".join(f"{x:,.1f}" for x in xs)
            + ")"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    ap.add_argument("--levels", action="store_true", help="the bot pool's capacity by level")
    ap.add_argument("--budget-ms", type=int, default=500, help="the server's bot budget")
    args = ap.parse_args()
    bids, plays = positions(30)
    views = bids + plays
    random.Random(3).shuffle(views)
    if args.levels:
        levels(views, args.repeats, args.seconds, args.budget_ms)
        return
    rows: list[tuple[str, list[float]]] = [
        ("rollouts/s (1 process: sample a deal, play it out)", []),
        ("rollouts/s, the rollout in C (the same, the expert's fast path)", []),
        ("heuristic decisions/s", []),
        ("random decisions/s", []),
        ("search decisions/s at --budget-ms 50 (both cores)", []),
        ("expert decisions/s at --budget-ms 50, one process (a bot pool's worker)", []),
    ]
    for _ in range(args.repeats):
        rows[0][1].append(rollouts_per_second(plays, args.seconds))
        rows[1][1].append(rollouts_per_second(plays, args.seconds, fast=True))
        rows[2][1].append(decisions_per_second("heuristic", views, args.seconds))
        rows[3][1].append(decisions_per_second("random", views, args.seconds))
        rows[4][1].append(decisions_per_second("search", views, args.seconds, budget_ms=50))
        rows[5][1].append(
            decisions_per_second("expert", views, args.seconds, budget_ms=50, workers=1)
        )
    for label, xs in rows:
        print(
            f"{label}: median {statistics.median(xs):,.0f} (runs: "
            + ", ".join(f"{x:,.0f}" for x in xs)
            + ")"
        )
    ratio = statistics.median(c / p for p, c in zip(rows[0][1], rows[1][1], strict=True))
    print(f"rollouts in C over Python, by run: median ratio {ratio:.2f}")
    heur = statistics.median(rows[2][1])
    print(f"heuristic: {1e6 / heur:.1f} us per decision (median)")


if __name__ == "__main__":
    main()
