"""The second statistic's weightings side by side, on the same games:
``flat`` (one model: the told hand's card or anything else), ``score`` (the
score test of a rare cheat) and ``own`` (a mixture: the told hand's card,
the seat's own heuristic card, or anything else).

    .venv/bin/python bench/fairplay_weights.py [--tables N] [--deals D]
        [--seed S] [--workers W] [--weightings W...]

Each table puts a pair of one kind at seats 0 and 2 against two honest
heuristics: heuristic colluders at 25% and 50% of their decisions, and
honest beginners, noisy players and heuristics. The games are played once
and the pair's second score computed with each weighting. Prints, per kind
and weighting, the mean score, its standard deviation and how many pairs
reach 3.0 (docs/fair-play.md, "Levers" and "The second statistic").
``--weightings`` names them (default ``flat score own``); ``own:T:O``
is the mixture with shares ``T`` told and ``O`` own.
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
WEIGHTINGS = ("flat", "score", "own")
"""The default weightings; ``own:T:O`` is ``own`` with shares ``T`` told
and ``O`` own (``--weightings``)."""


def _model(spec: str) -> PolicyModel:
    name, *shares = spec.split(":")
    if not shares:
        return PolicyModel(weighting=name)
    told, own = map(float, shares)
    return PolicyModel(weighting=name, told=told, own=own)


def _player(kind: str, seed: int) -> Bot:
    if kind.startswith("colluder:"):
        return HeuristicColluder(seed=seed, rate=float(kind.split(":")[1]))
    return make_honest(kind, seed)


def table(job: tuple[str, int, int, tuple[str, ...]]) -> tuple[str, dict[str, float]]:
    """One table's pair score by weighting."""
    kind, seed, deals, weightings = job
    seats = [_player(kind, seed), HeuristicBot(seed=seed + 1)]
    seats += [_player(kind, seed + 2), HeuristicBot(seed=seed + 3)]
    games = play_deals(seats, deals=deals, seed=seed)
    out = {}
    for weighting in weightings:
        options = ScoreOptions(seed=seed, policy=_model(weighting))
        hands = [h for g in games for h in policy_by_hand(g, options)]
        out[weighting] = seat_scores(hands)[0].pair.policy_z
    return kind, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=8, help="tables per kind")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--weightings", nargs="+", default=list(WEIGHTINGS))
    args = ap.parse_args()
    names = tuple(args.weightings)
    jobs = [
        (kind, args.seed + 10 * i, args.deals, names) for i in range(args.tables) for kind in KINDS
    ]
    scores: dict[str, dict[str, list[float]]] = {k: {w: [] for w in names} for k in KINDS}
    with Pool(args.workers) as pool:
        for done, (kind, by_w) in enumerate(pool.imap_unordered(table, jobs), 1):
            for w, z in by_w.items():
                scores[kind][w].append(z)
            print(f"\r{done}/{len(jobs)} tables", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.tables} tables per kind, {args.deals} deals, seed {args.seed}")
    width = {w: max(20, len(w) + 11) for w in names}
    print(f"{'pair':<16}" + "".join(f"{w + ' mean (sd)':>{width[w]}}{'>= 3':>6}" for w in names))
    for kind in KINDS:
        line = f"{kind:<16}"
        for w in names:
            zs = scores[kind][w]
            hits = sum(z >= POLICY_FLAG_Z for z in zs)
            sd = statistics.stdev(zs) if len(zs) > 1 else float("nan")
            mean = f"{statistics.mean(zs):.2f} ({sd:.2f})"
            line += f"{mean:>{width[w]}}{hits:>6}"
        print(line)


if __name__ == "__main__":
    main()
