"""The exact solver in C against the Python one: the time to solve a
position (every distinct card of the seat to act, exactly), by tricks
left, medians over the positions and over repeated runs (the two solvers
interleaved, so both see the same machine), and the ratio.

    .venv/bin/python bench/solver.py [--positions N] [--runs R] [--max-left T]
        [--python-up-to T] [--seed S]

The positions are of heuristic self-play (the heuristic's bids), played at
random to the tricks left and 0 to 3 cards of the next trick, no 13 bid.
Python is timed up to ``--python-up-to`` tricks left (beyond, a position
takes it seconds). Each position has one scorer for all its solves, as the
search keeps one for all the deals of a decision.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.bots.solver import Scorer, solve_root
from fourhundred.bots.speedups import fast_solve
from fourhundred.engine import GameState, Phase, deal_masks, preset, team_of, view_for


def position(rng: random.Random, tricks_left: int) -> GameState | None:
    s = GameState(preset("standard"), first_dealer=rng.randrange(4))
    s.deal(deal_masks(rng))
    h = HeuristicBot()
    while s.phase is Phase.BID:
        s.apply(h.choose(view_for(s, s.turn)))
    target = 52 - 4 * tricks_left + rng.randrange(4)
    while s.phase is Phase.PLAY and s.n_tricks * 4 + len(s.current_trick) < target:
        s.play_unchecked(rng.choice([c for c in range(52) if s.legal_mask() >> c & 1]))
    return s if s.phase is Phase.PLAY and 13 not in s.bids else None


def timed(s: GameState, sc: Scorer, fast: bool) -> float:
    t = time.perf_counter()
    solve_root(s.hands, s.current_trick, s.turn, s.tricks_won, sc, fast=fast)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--max-left", type=int, default=6)
    ap.add_argument("--python-up-to", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if fast_solve is None:
        raise SystemExit("the C solver is not built: run `make install` (it needs a C compiler)")
    rng = random.Random(args.seed)
    table = Table("tricks left", "positions", "C (ms, median)", "Python (ms, median)", "ratio")
    with Progress(console=Console(stderr=True)) as progress:
        task = progress.add_task("solving", total=args.max_left)
        for left in range(1, args.max_left + 1):
            states: list[GameState] = []
            while len(states) < args.positions:
                s = position(rng, left)
                if s is not None:
                    states.append(s)
            py = left <= args.python_up_to
            # One scorer a position, as the search keeps one for the deals
            # of a decision (its outcomes worked out once).
            scorers = [Scorer.from_state(s, team_of(s.turn)) for s in states]
            for sc in scorers:
                sc.outcomes()
            c_runs: list[float] = []
            py_runs: list[float] = []
            for _ in range(args.runs):
                c_runs.append(statistics.median(map(timed, states, scorers, [True] * len(states))))
                if py:
                    py_runs.append(
                        statistics.median(map(timed, states, scorers, [False] * len(states)))
                    )
            c_ms = 1000 * statistics.median(c_runs)
            py_ms = 1000 * statistics.median(py_runs) if py else None
            table.add_row(
                str(left),
                str(len(states)),
                f"{c_ms:.3f}",
                "-" if py_ms is None else f"{py_ms:.3f}",
                "-" if py_ms is None else f"{py_ms / c_ms:.1f}",
            )
            progress.advance(task)
    Console().print(table)


if __name__ == "__main__":
    main()
