"""The first statistic's cards weighted by how much a partner hand changes
them: a trial of the lever docs/fair-play.md lists as not yet tried.

    .venv/bin/python bench/fairplay_card_weights.py [--rounds R] [--deals D]
        [--seed S] [--workers W] [--out DIR] [--summary-only]
        [--card-deals N] [--refs N]

Most judged cards carry no evidence: whichever hand the partner holds,
the values agree, and their ``l`` is the rollouts' noise. A weight that
is the same function of the real hand and of the inferred ones (symmetric
in the three value sets) keeps the null: for an honest seat the real hand
is one more draw of the inferred ones, so ``E[w l] = 0`` still. Weights:

* ``flat``: 1 (the detector's);
* ``tv``: the mean total-variation distance between the choice model's
  distributions over the cards, pair by pair of the three hands;
* ``split``: 1 where the three hands do not all name the same best card,
  0.2 where they do.

Each round plays, ``--deals`` hands each: search colluders at 25% and 50%
of their decisions and heuristic colluders at 25% (seats 0 and 2, against
two heuristics; the colluding pair is scored), beginners against noisy
players and heuristics against experts (both pairs scored). Every judged
card's values are kept in ``DIR/decisions.jsonl`` (one line a table,
resumable), so any other symmetric weight can be tried on them; the
summary prints, per kind and weight, the pairs' mean score (cards only,
self-normalised by hand), its standard deviation and the pairs at 3 or
more (of the tables of the first ``--rounds`` rounds). ``--card-deals``
and ``--refs`` value the same games' cards with other numbers of sampled
deals per partner hand and of inferred partner hands (default 4 and 2, the
detector's until session 21 and this bench's first run; the detector's
since are 16 and 2): give each its own ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from fourhundred.bots.base import Bot
from fourhundred.bots.fairplay import ScoreOptions
from fourhundred.bots.fairplay.choice import judged, log_softmax
from fourhundred.bots.fairplay.colluders import make_colluder
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.panel import make_honest
from fourhundred.bots.fairplay.scorer import card_options, decision_seed, play_decisions
from fourhundred.engine import team_of

TABLES = (
    ("colluder:search:0.25", "intermediate", (0,)),
    ("colluder:search:0.5", "intermediate", (0,)),
    ("colluder:heuristic:0.25", "intermediate", (0,)),
    ("beginner", "noisy", (0, 1)),
    ("intermediate", "expert", (0, 1)),
)
Values = dict[int, float]


def _player(spec: str, seed: int) -> Bot:
    if spec.startswith("colluder:"):
        _, strength, rate = spec.split(":")
        return make_colluder(strength, float(rate), seed)
    return make_honest(spec, seed)


def table(job: tuple[int, int, int, int, int]) -> dict[str, Any]:
    """One table: its pairs' judged cards with every value set."""
    index, seed, deals, card_deals, refs = job
    a, b, scored = TABLES[index]
    seats = [_player(a, seed), _player(b, seed + 1), _player(a, seed + 2), _player(b, seed + 3)]
    records = play_deals(seats, deals=deals, seed=seed)
    options = ScoreOptions(seed=seed, deals=card_deals, refs=refs)
    rows: list[list[Any]] = []
    offset = 0
    for record in records:
        for d in play_decisions(record):
            if team_of(d.seat) not in scored:
                continue
            got = card_options(d.view, d.partner_hand, d.card, options, decision_seed(options, d))
            if got is not None:
                real, refs, chosen = got
                rows.append([offset + d.hand, d.seat, chosen, real, refs])
        offset += len(record.hands)
    return {"id": f"{seed}-{index}", "kinds": [a, b], "scored": scored, "rows": rows}


def _tv(p: Values, q: Values) -> float:
    return 0.5 * sum(abs(p[c] - q[c]) for c in p)


def w_tv(sets: Sequence[Values], beta: float) -> float:
    probs = [{c: math.exp(lp) for c, lp in log_softmax(v, beta).items()} for v in sets]
    pairs = [(i, j) for i in range(len(probs)) for j in range(i + 1, len(probs))]
    return sum(_tv(probs[i], probs[j]) for i, j in pairs) / len(pairs)


def w_split(sets: Sequence[Values], beta: float) -> float:
    best = {max(v, key=v.__getitem__) for v in sets}
    return 1.0 if len(best) > 1 else 0.2


WEIGHTS: dict[str, Callable[[Sequence[Values], float], float]] = {
    "flat": lambda _s, _b: 1.0,
    "tv": w_tv,
    "split": w_split,
}


def pair_scores(t: dict[str, Any], beta: float) -> list[tuple[str, dict[str, float]]]:
    """(kind, score by weight) of each scored pair of a table."""
    out = []
    for team in t["scored"]:
        by_hand: dict[str, dict[int, float]] = {w: {} for w in WEIGHTS}
        for hand, seat, chosen, stored_real, stored_refs in t["rows"]:
            if team_of(seat) != team:
                continue
            real = {int(c): v for c, v in stored_real.items()}
            refs = [{int(c): v for c, v in u.items()} for u in stored_refs]
            llr = judged(real, refs, chosen, beta).llr
            for name, weight in WEIGHTS.items():
                sums = by_hand[name]
                sums[hand] = sums.get(hand, 0.0) + weight([real, *refs], beta) * llr
        z = {}
        for name, sums in by_hand.items():
            sq = sum(x * x for x in sums.values())
            z[name] = sum(sums.values()) / math.sqrt(sq) if sq > 0 else 0.0
        out.append((t["kinds"][team], z))
    return out


def summarise(tables: list[dict[str, Any]], beta: float) -> None:
    scores: dict[str, dict[str, list[float]]] = {}
    for t in tables:
        for kind, z in pair_scores(t, beta):
            for name, value in z.items():
                scores.setdefault(kind, {w: [] for w in WEIGHTS})[name].append(value)
    print(f"{len(tables)} tables; cards only; mean (sd) and pairs at 3 or more")
    print(f"{'pair':<26}" + "".join(f"{w:>22}" for w in WEIGHTS))
    for kind, by_w in sorted(scores.items()):
        line = f"{kind:<26}"
        for name in WEIGHTS:
            zs = by_w[name]
            sd = statistics.stdev(zs) if len(zs) > 1 else float("nan")
            hits = sum(z >= 3.0 for z in zs)
            line += f"{statistics.mean(zs):>9.2f} ({sd:4.2f}) {hits:>2}/{len(zs):<3}"
        print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=300)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("bench/results/fairplay/card-weights"))
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--card-deals", type=int, default=4)
    ap.add_argument("--refs", type=int, default=ScoreOptions().refs)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "decisions.jsonl"
    done = [json.loads(line) for line in path.open()] if path.exists() else []
    ids = {t["id"] for t in done}
    jobs = [
        (i, args.seed + 100 * r + 10 * i, args.deals, args.card_deals, args.refs)
        for r in range(args.rounds)
        for i in range(len(TABLES))
    ]
    planned = {f"{j[1]}-{j[0]}" for j in jobs}
    done = [t for t in done if t["id"] in planned]  # the summary: the rounds asked for
    jobs = [j for j in jobs if f"{j[1]}-{j[0]}" not in ids]
    if not args.summary_only and jobs:
        with Pool(args.workers) as pool, path.open("a") as f:
            for n, t in enumerate(pool.imap_unordered(table, jobs), 1):
                f.write(json.dumps(t) + "\n")
                f.flush()
                done.append(t)
                print(f"{n}/{len(jobs)} tables ({t['id']})", file=sys.stderr, flush=True)
    summarise(done, ScoreOptions().beta)


if __name__ == "__main__":
    main()
