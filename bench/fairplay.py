"""The collusion detector measured: colluding pairs flagged (recall) and
honest pairs flagged (false positives) after 50 deals (docs/fair-play.md).

    .venv/bin/python bench/fairplay.py [--rounds R] [--deals N] [--seed S]
        [--workers W] [--max-minutes M] [--out DIR] [--quick] [--summary-only]
        [--threshold Z] [--policy-threshold Z] [--bid-weight W] [--from-round R]
        [--add-policy FROM] [--rebid FROM] [--bid-model M] [--recard FROM]
        [--infer-batch N] [--mix-rate R] [--card-deals N] [--argmax-size N]
        [--card-model M] [--same-tables-as OTHER]

Each round plays one table (``--deals`` hands, game after game) for every
colluder (strength x rate of cheating) against an honest pair, and four
tables of honest pairs against each other (every level and the noisy
human-like bot), over ``--workers`` processes. Every finished table is
appended to ``DIR/tables.jsonl`` and the figures rewritten to
``DIR/summary.json``; a run started again with the same ``--out`` skips the
tables already there (resumable). ``--quick``: one cheap colluding and one
honest table of 2 deals, for a smoke run. ``--summary-only`` summarises the
tables already in ``DIR`` (at ``--threshold``, default ``FLAG_Z``; the
bids' evidence weighted by ``--bid-weight``, default the detector's, whatever
weight a table was scored with; only the tables of rounds ``--from-round``
on, default all). ``--add-policy FROM``: the tables of ``FROM/tables.jsonl``
(measured before the second statistic) played again from their seeds,
checked to be the same games, with the second statistic added (minutes,
not the hour of the rollouts), written to ``--out``. ``--rebid FROM``: the
same, with the bids judged again by the detector as it now is (or with
``--bid-model``) and the cards' evidence kept. ``--recard FROM``: the
same, with the cards' first statistic judged again (or with its inferred
partner hands each kept of ``--infer-batch`` deals), the bids and the
second statistic kept (about half a minute a table). ``--rebid FROM
--recard FROM`` (the same ``FROM``): both, the bids judged again and then
the cards, one table at a time. ``--mix-rate R``:
the first statistic as the likelihood ratio against a cheat on a share
``R`` of decisions (``ScoreOptions.mix_rate``; default the detector's).
``--card-deals N`` and ``--argmax-size N``: the cards valued on ``N``
deals a partner hand, and the choice model's resamples of ``N`` deals
(``ScoreOptions.deals``, ``ScoreOptions.argmax_size``). ``--card-model
M`` and ``--bid-model M``: the cards' and the bids' choice model
(``argmax``, the detector's; ``softmax``; ``pick``, the search's own rule
on resampled deals, screened in session 28). ``--same-tables-as
OTHER`` (with ``--summary-only``): only the tables also in
``OTHER/tables.jsonl`` (the same games, scored by another version of the
detector), printed and not written to ``DIR/summary.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fourhundred.bots.fairplay.measure import (
    BENCH_OPTIONS,
    Table,
    pairs_of,
    plan,
    run_table,
    summarise,
    table_round,
)
from fourhundred.bots.fairplay.rejudge import add_policy, rebid, recard
from fourhundred.bots.fairplay.scorer import FLAG_Z, POLICY_FLAG_Z, ScoreOptions

Job = tuple[Table, int | dict[str, Any], str, ScoreOptions]
"""A table, the deals to play (or its row measured before), what to do
(``play``, ``policy``: add the second statistic, ``rebid``, ``recard``)
and how."""

DEFAULT_OUT = Path(__file__).parent / "results" / "fairplay"


def _job(args: Job) -> dict[str, Any]:
    """A table played and scored, or (given its old row) the second
    statistic added to it or its bids or cards judged again."""
    table, job, what, options = args
    if isinstance(job, dict):
        for step in what.split("+"):  # "rebid+recard": the bids, then the cards
            job = {"rebid": rebid, "recard": recard, "policy": add_policy}[step](
                table, job, options
            )
        return job
    return run_table(table, job, options)


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            rows.append(json.loads(line))
    return rows


def _write_summary(out: Path, rows: list[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    found = summarise(rows, meta["threshold"], meta["bid_weight"], meta["policy_threshold"])
    summary = {**meta, **found}
    tmp = out / "summary.json.tmp"
    tmp.write_text(json.dumps(summary, indent=1) + "\n")
    tmp.replace(out / "summary.json")
    return summary


def _print(console: Console, s: dict[str, Any]) -> None:
    console.print(f"threshold z >= {s['threshold']}, {s['tables']} tables, {s['deals']} deals")
    for n, c in s["curve"].items():
        r, f = c["recall"], c["false_positives"]
        console.print(
            f"after {n:>2} deals: recall {r['flagged']}/{r['pairs']}"
            f" [{r['wilson95'][0]:.2f}, {r['wilson95'][1]:.2f}],"
            f" false positives {f['flagged']}/{f['pairs']}"
            f" [{f['wilson95'][0]:.3f}, {f['wilson95'][1]:.3f}]"
        )
    for name, c in s["each_alone"].items():
        r, f = c["recall"], c["false_positives"]
        console.print(
            f"the {name} statistic alone: recall {r['flagged']}/{r['pairs']},"
            f" false positives {f['flagged']}/{f['pairs']}"
        )
    h = s["honest_z"]
    console.print(f"honest z: mean {h['mean']:.2f}, sd {h['sd']:.2f}, max {h['max']:.2f}")
    h = s["honest_policy_z"]
    console.print(f"honest policy z: mean {h['mean']:.2f}, sd {h['sd']:.2f}, max {h['max']:.2f}")
    f = s["fitted_threshold"]
    console.print(
        f"fitted 1% threshold z >= {f['threshold']:.2f}: recall"
        f" {f['recall']['flagged']}/{f['recall']['pairs']}, false positives"
        f" {f['false_positives']['flagged']}/{f['false_positives']['pairs']}"
    )
    for spec, b in s["by_pair"].items():
        console.print(
            f"  {spec:26} flagged {b['flagged']}/{b['pairs']}  mean z {b['mean_z']:6.2f}"
            f" (cards {b.get('mean_z_cards', float('nan')):5.2f},"
            f" bids {b.get('mean_z_bids', float('nan')):5.2f};"
            f" second {b['mean_policy_z']:5.2f})"
            f"  points/deal {b['points_per_deal_vs_opponents']:+.2f}"
        )


def _print_paired(
    console: Console, rows: list[dict[str, Any]], others: list[dict[str, Any]]
) -> None:
    """Pair by pair on the same games, this run's first score after 50
    deals less the other run's, by kind of pair: mean (standard error)."""
    theirs = {(p.table, p.spec): p.at(50).z for p in pairs_of(others)}
    diffs: dict[str, list[float]] = {}
    for p in pairs_of(rows):
        if (p.table, p.spec) in theirs:
            diffs.setdefault(p.spec, []).append(p.at(50).z - theirs[p.table, p.spec])
    console.print("first score less the other run's, same pairs: mean (standard error)")
    for spec, d in sorted(diffs.items()):
        se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        console.print(f"  {spec:26} {statistics.mean(d):+.3f} ({se:.3f}) over {len(d)}")


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-minutes", type=float, default=None)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument(
        "--summary-only", action="store_true", help="only summarise the tables already played"
    )
    ap.add_argument("--threshold", type=float, default=FLAG_Z)
    ap.add_argument("--policy-threshold", type=float, default=POLICY_FLAG_Z)
    ap.add_argument("--bid-weight", type=float, default=BENCH_OPTIONS.bid_weight)
    ap.add_argument("--add-policy", type=Path, default=None, metavar="FROM")
    ap.add_argument("--rebid", type=Path, default=None, metavar="FROM")
    models = ("argmax", "softmax", "pick")
    ap.add_argument("--bid-model", choices=models, default=BENCH_OPTIONS.bid_model)
    ap.add_argument("--card-model", choices=models, default=BENCH_OPTIONS.card_model)
    ap.add_argument("--recard", type=Path, default=None, metavar="FROM")
    ap.add_argument("--infer-batch", type=int, default=BENCH_OPTIONS.infer_batch)
    ap.add_argument("--mix-rate", type=float, default=BENCH_OPTIONS.mix_rate)
    ap.add_argument("--card-deals", type=int, default=BENCH_OPTIONS.deals)
    ap.add_argument("--argmax-size", type=int, default=BENCH_OPTIONS.argmax_size)
    ap.add_argument("--from-round", type=int, default=0)
    ap.add_argument("--same-tables-as", type=Path, default=None, metavar="OTHER")
    args = ap.parse_args()
    if args.rebid and args.recard and args.rebid != args.recard:
        ap.error("--rebid and --recard together judge the same tables again: give one FROM")
    if args.same_tables_as is not None and not args.summary_only:
        ap.error("--same-tables-as only summarises: give --summary-only too")
    if args.quick and "--deals" not in sys.argv:
        args.deals = 2
    if args.quick and "--rounds" not in sys.argv:
        args.rounds = 1
    return args


def main() -> None:
    args = _args()
    console = Console(stderr=True)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    log = out / "tables.jsonl"
    rows = _load(log)
    done = {r["id"] for r in rows}
    tables = [t for t in plan(args.rounds, args.seed, args.quick) if t.id not in done]
    options = dataclasses.replace(
        BENCH_OPTIONS,
        bid_model=args.bid_model,
        card_model=args.card_model,
        infer_batch=args.infer_batch,
        mix_rate=args.mix_rate,
        deals=args.card_deals,
        argmax_size=args.argmax_size,
    )
    jobs: list[Job] = [(t, args.deals, "play", options) for t in tables]
    again = args.rebid or args.recard or args.add_policy
    if again is not None:
        steps = [k for k in ("rebid", "recard") if getattr(args, k) is not None]
        what = "+".join(steps) or "policy"
        old = [r for r in _load(again / "tables.jsonl") if r["id"] not in done]
        jobs = [(Table(r["id"], r["a"], r["b"], r["seed"]), r, what, options) for r in old]
    if args.summary_only:
        jobs = []
        rows = [r for r in rows if table_round(r["id"]) >= args.from_round]
    meta = {
        "command": " ".join(["bench/fairplay.py", *sys.argv[1:]]),
        "deals_asked": args.deals,
        "threshold": args.threshold,
        "policy_threshold": args.policy_threshold,
        "bid_weight": args.bid_weight,
        "bid_model": args.bid_model,
        "card_model": args.card_model,
        "infer_batch": args.infer_batch,
        "mix_rate": args.mix_rate,
        "card_deals": args.card_deals,
        "argmax_size": args.argmax_size,
    }
    if args.same_tables_as is not None:
        others = _load(args.same_tables_as / "tables.jsonl")
        other = {r["id"] for r in others}
        rows = [r for r in rows if r["id"] in other]
        found = summarise(rows, args.threshold, args.bid_weight, args.policy_threshold)
        _print(console, {**meta, **found})
        _print_paired(console, rows, [r for r in others if r["id"] in done])
        return
    start = time.monotonic()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("tables", total=len(jobs) + len(done), completed=len(done))
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(max(1, args.workers)) as pool:
            for row in pool.imap_unordered(_job, jobs):
                rows.append(row)
                with log.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                _write_summary(out, rows, meta)
                progress.advance(task)
                again_keys = ("recard_seconds", "rebid_seconds", "policy_seconds")
                took = round(sum(row[k] for k in again_keys if k in row), 1) or row["seconds"]
                progress.console.print(f"{row['id']}: {took} s")
                minutes = (time.monotonic() - start) / 60
                if args.max_minutes is not None and minutes > args.max_minutes:
                    pool.terminate()
                    break
    summary = _write_summary(out, rows, meta) if rows else {}
    if summary:
        _print(console, summary)
        print(json.dumps({k: summary[k] for k in ("threshold", "deals", "tables", "curve")}))


if __name__ == "__main__":
    main()
