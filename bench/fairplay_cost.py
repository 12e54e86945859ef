"""What the collusion detector costs the server: one core's seconds to judge
one finished game (``score_by_hand``: the bids, the cards and the second
statistic), with the detector's options, with those it had until session
32 (cards on 16 deals a partner hand, the argmax model for cards and
bids), with those of session 23 (the bids' softmax instead of the argmax
model), of session 21 (the cards' softmax too) and with those it had
before session 21 (4 deals per partner hand, worked out in Python, the
flat second statistic, the softmax), on the same games.

    .venv/bin/python bench/fairplay_cost.py [--games N] [--deals D] [--runs R] [--seed S]

Plays ``--games`` games of ``--deals`` hands of heuristic self-play (one
process, so the figures are of one core), then times each way of judging
them ``--runs`` times, interleaved. Prints the median seconds per game of
each part, the ratio of the oldest to the new and that of session 31's
way to the new (docs/fair-play.md, "Cost").
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import Progress

from fourhundred.bots import HeuristicBot
from fourhundred.bots.fairplay import ScoreOptions
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.policy import PolicyModel
from fourhundred.bots.fairplay.scorer import policy_by_hand, score_parts
from fourhundred.engine import GameRecord

S31: ScoreOptions = ScoreOptions(
    deals=16, card_model="argmax", bid_model="argmax", argmax_size=None
)
"""The detector until session 32: cards on 16 deals a partner hand, the
argmax model for cards and bids."""

WAYS: dict[str, ScoreOptions] = {
    "now": ScoreOptions(),
    "s31": S31,
    "s23": dataclasses.replace(S31, bid_model="softmax"),
    "s21": dataclasses.replace(S31, card_model="softmax", bid_model="softmax"),
    "before": ScoreOptions(
        deals=4,
        fast=False,
        policy=PolicyModel(weighting="flat"),
        card_model="softmax",
        bid_model="softmax",
        argmax_size=None,
    ),
}


def _without_bids(options: ScoreOptions) -> ScoreOptions:
    return dataclasses.replace(options, bids=False)


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    console = Console(stderr=True)
    # each "game" is ``--deals`` hands, game after game (a game to 41 can
    # end sooner), judged record by record
    games = [
        play_deals([HeuristicBot(seed=args.seed + 4 * i + s) for s in range(4)], args.deals, i)
        for i in range(args.games)
    ]
    parts: dict[str, Callable[[list[GameRecord], ScoreOptions], object]] = {
        "bids": lambda gs, o: [score_parts(g, o) for g in gs],
        "cards": lambda gs, o: [score_parts(g, _without_bids(o)) for g in gs],
        "second": lambda gs, o: [policy_by_hand(g, o) for g in gs],
    }
    took: dict[tuple[str, str], list[float]] = {}
    with Progress(console=console) as progress:
        task = progress.add_task("judging", total=args.runs * len(WAYS) * len(parts) * len(games))
        for _ in range(args.runs):
            for way, options in WAYS.items():
                for part, fn in parts.items():
                    for g in games:
                        t = _timed(lambda g=g, fn=fn, options=options: fn(g, options))
                        took.setdefault((way, part), []).append(t)
                        progress.advance(task)
    med = {k: statistics.median(v) for k, v in took.items()}
    # "bids" timed bids and cards together: the bids alone are the difference.
    for way in WAYS:
        med[(way, "bids")] -= med[(way, "cards")]
    print(f"{args.games} x {args.deals} hands, {args.runs} runs; median s of one core a game")
    print(f"{'part':<8}" + "".join(f"{w:>10}" for w in WAYS) + f"{'ratio':>8}{'s31/now':>9}")
    rows = {part: [med[(w, part)] for w in WAYS] for part in parts}
    rows["total"] = [sum(med[(w, p)] for p in parts) for w in WAYS]
    for part, secs in rows.items():
        ratios = f"{secs[-1] / secs[0]:>8.1f}{secs[1] / secs[0]:>9.2f}"
        print(f"{part:<8}" + "".join(f"{t:>9.1f}s" for t in secs) + ratios)


if __name__ == "__main__":
    main()
