"""Where a bot's points over another come from, hand by hand: duplicate
pairs as the arena plays them, each seat's cards compared between the
table where bot A holds them and the one where bot B does.

    .venv/bin/python bench/expert_where.py [A B] [--pairs N] [--budget-ms MS]
        [--seed S] [--max-minutes M] [--out FILE] [--summary-only]

A pair's margin (A's team points less B's, per deal, as the arena counts
it) is the sum over the four seats of what the seat scored when A held
its cards less what it scored when B did, halved. The summary splits that
sum by how the two bids of the same cards compare: the same bid (what
the play of all four seats made of it), A's bid higher, A's lower; and
the same bids by outcome (made at A's table only, at B's only) and by
the bid (all, 2 to 3, 4, 5 and more: seat-hands, points, how often each
table made it and took more tricks than bid). Each
part is a mean per deal over the counted pairs with its standard error,
so the parts add up to the arena's margin (a 13 bid that decides the game,
which the arena counts as twice the game bonus, is the residual). Every
counted pair is appended to ``--out`` (one JSON line: the bids, tricks and
points by seat at each table), so a run resumes, and ``--summary-only``
works the figures out again from the file.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from fourhundred.bots import make_bot
from fourhundred.bots.arena import play_pair
from fourhundred.engine import preset, team_of

PARTS = ("same bid", "A bid higher", "A bid lower", "residual (13 bids)")
SAME = ("same bid, made at A's table only", "same bid, made at B's table only")


def seat_rows(tables: tuple[Any, ...]) -> list[dict[str, Any]]:
    """By seat: A's and B's bid, tricks and points with the seat's cards
    (A holds seats 0 and 2 at the first table, 1 and 3 at the second)."""
    rows = []
    for s in range(4):
        at_a, at_b = (tables[0], tables[1]) if team_of(s) == 0 else (tables[1], tables[0])
        rows.append(
            {
                "bid": [at_a.bids_by_seat[s], at_b.bids_by_seat[s]],
                "tricks": [at_a.tricks[s], at_b.tricks[s]],
                "points": [at_a.deltas[s], at_b.deltas[s]],
            }
        )
    return rows


def parts(pair: dict[str, Any]) -> dict[str, float]:
    """A pair's margin split by how the bids of the same cards compare."""
    out = dict.fromkeys(PARTS + SAME, 0.0)
    for r in pair["seats"]:
        (ba, bb), (ta, tb), (pa, pb) = r["bid"], r["tricks"], r["points"]
        diff = (pa - pb) / 2
        key = "same bid" if ba == bb else "A bid higher" if (ba or 0) > (bb or 0) else "A bid lower"
        out[key] += diff
        if ba == bb and ba is not None:
            if ta >= ba > tb:
                out[SAME[0]] += diff
            elif tb >= ba > ta:
                out[SAME[1]] += diff
    out["residual (13 bids)"] = pair["margin"] - sum(out[k] for k in PARTS[:3])
    return out


LEVELS = ((2, 12), (2, 3), (4, 4), (5, 12))
"""The bids the same-bid part is split by."""


def by_level(pairs: list[dict[str, Any]]) -> None:
    """The same-bid part by the bid: its seat-hands, its points per deal
    (standard error) and how often each table made it."""
    n = len(pairs)
    for lo, hi in LEVELS:
        per_pair = [0.0] * n
        hands = made_a = made_b = over_a = over_b = 0
        for i, p in enumerate(pairs):
            for r in p["seats"]:
                (ba, bb), (ta, tb), (pa, pb) = r["bid"], r["tricks"], r["points"]
                if ba is None or ba != bb or not lo <= ba <= hi:
                    continue
                per_pair[i] += (pa - pb) / 2
                hands += 1
                made_a += ta >= ba
                made_b += tb >= bb
                over_a += ta > ba
                over_b += tb > bb
        if hands:
            se = statistics.stdev(per_pair) / math.sqrt(n)
            print(
                f"  same bid {lo}-{hi}: {hands} seat-hands, {statistics.mean(per_pair):+.3f}"
                f" ({se:.3f}), made {made_a / hands:.1%} at A's table, {made_b / hands:.1%} at B's;"
                f" overtricks {over_a / hands:.1%}, {over_b / hands:.1%}"
            )


def summarise(pairs: list[dict[str, Any]]) -> None:
    """Each part's mean per deal and standard error, and the bids' shape."""
    n = len(pairs)
    if n < 2:
        print(f"{n} counted pairs: too few to summarise")
        return
    split = [parts(p) for p in pairs]
    margins = [p["margin"] for p in pairs]
    se = statistics.stdev(margins) / math.sqrt(n)
    print(f"{n} counted pairs; margin per deal {statistics.mean(margins):+.3f} ({se:.3f})")
    for key in PARTS + SAME:
        xs = [s[key] for s in split]
        print(f"  {key:36} {statistics.mean(xs):+.3f} ({statistics.stdev(xs) / math.sqrt(n):.3f})")
    by_level(pairs)
    seats = [r for p in pairs for r in p["seats"] if None not in r["bid"]]
    same = sum(r["bid"][0] == r["bid"][1] for r in seats)
    print(f"seat-hands with both bids: {len(seats)}; the same bid {same / len(seats):.1%}")
    for i, who in enumerate("AB"):
        bids = [r["bid"][i] for r in seats]
        made = sum(r["tricks"][i] >= r["bid"][i] for r in seats)
        print(f"  {who}: mean bid {statistics.mean(bids):.3f}, made {made / len(seats):.1%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("a", nargs="?", default="expert")
    ap.add_argument("b", nargs="?", default="search")
    ap.add_argument("--pairs", type=int, default=300)
    ap.add_argument("--budget-ms", type=int, default=50)
    ap.add_argument("--seed", type=int, default=81)
    ap.add_argument("--max-minutes", type=float, default=None)
    ap.add_argument("--out", type=Path, default=Path("build/expert-where.jsonl"))
    ap.add_argument("--summary-only", action="store_true")
    args = ap.parse_args()
    console = Console(stderr=True)
    pairs = [json.loads(x) for x in args.out.read_text().splitlines()] if args.out.exists() else []
    done = {p["index"] for p in pairs}
    if not args.summary_only:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        a = [make_bot(args.a, seed=args.seed * 7 + k, budget_ms=args.budget_ms) for k in (1, 2)]
        b = [make_bot(args.b, seed=args.seed * 7 + k, budget_ms=args.budget_ms) for k in (3, 4)]
        settings = preset("standard")
        t0 = time.monotonic()
        try:
            for i in range(10 * args.pairs):
                counted = len(pairs)
                minutes = (time.monotonic() - t0) / 60
                if counted >= args.pairs or (args.max_minutes and minutes > args.max_minutes):
                    break
                if i in done:
                    continue
                r = play_pair(i, args.seed, a, b, settings)
                if r.margin is None:
                    continue
                pair = {"index": i, "margin": r.margin, "seats": seat_rows(r.tables)}
                pairs.append(pair)
                with args.out.open("a") as f:
                    f.write(json.dumps(pair) + "\n")
                mean = statistics.mean(p["margin"] for p in pairs)
                console.print(f"{len(pairs)}/{args.pairs} counted, {mean:+.2f}, {minutes:.1f} min")
        finally:
            for bot in a + b:
                bot.close()
    print(f"{args.a} over {args.b}, {args.budget_ms} ms, seed {args.seed}")
    summarise(pairs)


if __name__ == "__main__":
    main()
