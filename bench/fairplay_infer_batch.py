"""The inferred partner hands of the first statistic, each kept of more
deals: a screen on the same games (docs/fair-play.md, "The inferred
partner hands kept of 48 deals (session 25)").

    .venv/bin/python bench/fairplay_infer_batch.py [--rounds R] [--from-round R]
        [--deals D] [--batches 12 48] [--workers W] [--out FILE] [--summary-only]

The first statistic compares a card's chance with the partner's real hand
to its chance with partner hands inferred from the seat's own view, each
the one kept, by the likelihood of the plays so far, of ``infer_batch``
deals drawn from the view (sampling-importance-resampling). The more deals
a hand is kept of, the nearer it is to a draw of the hands the plays
allow, which is what the null asks of it (docs/fair-play.md, "Cards").

Each round plays three tables of ``--deals`` hands (seeds of their own,
never the measurement's): honest intermediates against honest experts,
honest noisy players against beginners, and a search colluder cheating on
a quarter of its decisions against intermediates. Every card judged is
judged once with each of ``--batches`` (cards only, the values with the
real hand the same both ways), and each pair's score (self-normalised by
hand) is kept per batch in ``--out`` (one line a table, resumable by
round). The summary prints, per kind of pair, the mean score with each
batch and the last batch's score less the first's, pair by pair on the
same games, with its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from rich.console import Console

from fourhundred.bots.fairplay import ScoreOptions
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.measure import Table, make_team
from fourhundred.bots.fairplay.scorer import decision_seed, judge, play_decisions
from fourhundred.engine import team_of

SEED = 7_000_000
"""The screen's seeds: far from the measurement's (``bench/fairplay.py``)."""
KINDS = (
    ("ie", "honest:intermediate", "honest:expert"),
    ("nb", "honest:noisy", "honest:beginner"),
    ("c", "colluder:search:0.25", "honest:intermediate"),
)

Job = tuple[Table, int, tuple[int, ...]]


def tables(first: int, rounds: int) -> list[Table]:
    return [
        Table(f"s{r}-{name}", a, b, SEED + r * 100 + i)
        for r in range(first, rounds)
        for i, (name, a, b) in enumerate(KINDS)
    ]


def run(job: Job) -> dict[str, Any]:
    """A table's cards judged with each batch: per team and batch, each
    hand's sum of ``l``."""
    table, deals, batches = job
    a = make_team(table.a, table.seed * 10)
    b = make_team(table.b, table.seed * 10 + 5)
    games = play_deals([a[0], b[0], a[1], b[1]], deals, table.seed)
    res: dict[str, dict[int, float]] = {}
    offset = 0
    for g in games:
        for d in play_decisions(g):
            for batch in batches:
                options = ScoreOptions(infer_batch=batch, bids=False)
                j = judge(d.view, d.partner_hand, d.card, options, decision_seed(options, d))
                if j is None:
                    continue
                sums = res.setdefault(f"{team_of(d.seat)}|{batch}", {})
                sums[offset + d.hand] = sums.get(offset + d.hand, 0.0) + j.llr
        offset += len(g.hands)
    return {"id": table.id, "a": table.a, "b": table.b, "res": res}


def _z(xs: list[float]) -> float:
    sq = sum(x * x for x in xs)
    return sum(xs) / math.sqrt(sq) if sq > 0 else 0.0


def summarise(rows: list[dict[str, Any]], batches: tuple[int, ...]) -> None:
    first, last = batches[0], batches[-1]
    scores: dict[str, dict[int, list[float]]] = {}
    for r in rows:
        for team, spec in ((0, r["a"]), (1, r["b"])):
            for batch in batches:
                hands = r["res"].get(f"{team}|{batch}", {})
                scores.setdefault(spec, {}).setdefault(batch, []).append(_z(list(hands.values())))
    print(f"{len(rows)} tables; the first statistic's cards, mean score by batch")
    head = "".join(f"{b:>8}" for b in batches)
    print(f"{'pair':<24}{'pairs':>6}{head}   {last} less {first} (standard error)")
    for spec, by in sorted(scores.items()):
        d = [y - x for x, y in zip(by[first], by[last], strict=True)]
        se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        means = "".join(f"{statistics.mean(by[b]):>8.2f}" for b in batches)
        print(f"{spec:<24}{len(d):>6}{means}   {statistics.mean(d):+.3f} ({se:.3f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--from-round", type=int, default=0)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--batches", type=int, nargs="+", default=[12, 48])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("build/infer-batch.jsonl"))
    ap.add_argument("--summary-only", action="store_true")
    args = ap.parse_args()
    batches = tuple(args.batches)
    console = Console(stderr=True)
    rows = [json.loads(x) for x in args.out.read_text().splitlines()] if args.out.exists() else []
    done = {r["id"] for r in rows}
    todo = [t for t in tables(args.from_round, args.rounds) if t.id not in done]
    if args.summary_only:
        todo = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with Pool(max(1, args.workers)) as pool, args.out.open("a") as f:
        for i, row in enumerate(pool.imap_unordered(run, [(t, args.deals, batches) for t in todo])):
            rows.append(row)
            f.write(json.dumps(row) + "\n")
            f.flush()
            console.print(f"{i + 1}/{len(todo)} {row['id']} {time.monotonic() - t0:.0f} s")
    summarise(rows, batches)


if __name__ == "__main__":
    main()
