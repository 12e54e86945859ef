"""The second statistic's two weightings side by side: ``flat`` (the
detector's) and ``score`` (the score test of a rare cheat), on the same
games.

    .venv/bin/python bench/fairplay_weights.py [--tables N] [--deals D]
        [--seed S] [--workers W]

Each table puts a pair of one kind at seats 0 and 2 against two honest
heuristics: heuristic colluders at 25% and 50% of their decisions, and
honest beginners, noisy players and heuristics. The games are played once
and the pair's second score computed with each weighting. Prints, per kind
and weighting, the mean score, its standard deviation and how many pairs
reach 3.0 (docs/fair-play.md, "Levers").
"""

from __future__ import annotations

import argparse
import statistics
import sys
from multiprocessing import Pool

from fourhundred.bots import HeuristicBot
from fourhundred.bots.base import Bot
from fourhundred.bots.fairplay import ScoreOptions, seat_scores
from fourhundred.bots.fairplay.colluders import HeuristicColluder
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.panel import make_honest
from fourhundred.bots.fairplay.policy import PolicyModel
from fourhundred.bots.fairplay.scorer import POLICY_FLAG_Z, policy_by_hand

KINDS = ("colluder:0.25", "colluder:0.5", "beginner", "noisy", "intermediate")
WEIGHTINGS = ("flat", "score")


def _player(kind: str, seed: int) -> Bot:
    if kind.startswith("colluder:"):
        return HeuristicColluder(seed=seed, rate=float(kind.split(":")[1]))
    return make_honest(kind, seed)


def table(job: tuple[str, int, int]) -> tuple[str, dict[str, float]]:
    """One table's pair score by weighting."""
    kind, seed, deals = job
    seats = [_player(kind, seed), HeuristicBot(seed=seed + 1)]
    seats += [_player(kind, seed + 2), HeuristicBot(seed=seed + 3)]
    games = play_deals(seats, deals=deals, seed=seed)
    out = {}
    for weighting in WEIGHTINGS:
        options = ScoreOptions(seed=seed, policy=PolicyModel(weighting=weighting))
        hands = [h for g in games for h in policy_by_hand(g, options)]
        out[weighting] = seat_scores(hands)[0].pair.policy_z
    return kind, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=8, help="tables per kind")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    jobs = [(kind, args.seed + 10 * i, args.deals) for i in range(args.tables) for kind in KINDS]
    scores: dict[str, dict[str, list[float]]] = {k: {w: [] for w in WEIGHTINGS} for k in KINDS}
    with Pool(args.workers) as pool:
        for done, (kind, by_w) in enumerate(pool.imap_unordered(table, jobs), 1):
            for w, z in by_w.items():
                scores[kind][w].append(z)
            print(f"\r{done}/{len(jobs)} tables", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.tables} tables per kind, {args.deals} deals, seed {args.seed}")
    print(f"{'pair':<16}" + "".join(f"{w + ' mean (sd)':>20}{'>= 3':>6}" for w in WEIGHTINGS))
    for kind in KINDS:
        line = f"{kind:<16}"
        for w in WEIGHTINGS:
            zs = scores[kind][w]
            hits = sum(z >= POLICY_FLAG_Z for z in zs)
            sd = statistics.stdev(zs) if len(zs) > 1 else float("nan")
            line += f"{statistics.mean(zs):>13.2f} {f'({sd:.2f})':>6}{hits:>6}"
        print(line)


if __name__ == "__main__":
    main()
