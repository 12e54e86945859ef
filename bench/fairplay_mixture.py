"""The first statistic as the likelihood ratio against a cheat on a share
of decisions: a screen of the rate, on games of its own
(docs/fair-play.md, "The mixture (session 27)").

    .venv/bin/python bench/fairplay_mixture.py [--rounds R] [--from-round R]
        [--deals D] [--rates 1 0.5 0.25 0.1] [--workers W] [--max-minutes M]
        [--out FILE] [--summary-only] [--card-deals N] [--argmax-size N]
        [--against OTHER ...] [--powers A ...] [--model argmax|pick]

The first statistic's evidence of a decision is ``log p_real - mean_j
log p_j``: the log ratio of the chance of the option chosen under the
choice model given the partner's real hand and given inferred ones. That
is the likelihood ratio against a player told the hand on *every*
decision. A colluder who is told it on a quarter of them plays by its own
view on the rest, and each of those can cost the plain ratio a great deal;
the likelihood ratio against such a cheat is ``mixture_llr`` at its rate
(``bots/fairplay/choice.py``), bounded on every decision.

Each round plays four tables of ``--deals`` hands (seeds of their own,
never the measurement's): honest intermediates against honest experts,
honest noisy players against beginners, a search colluder cheating on a
quarter of its decisions against intermediates, and one cheating on half
against noisy players. Every card and bid judged is judged once, and the
chance of the option chosen given each partner hand is kept (``--out``,
one line a table, resumable; gzipped if its name ends in ``.gz``), so
every rate is worked out on the same decisions. The summary prints, per
rate, each kind of pair's mean score (self-normalised by hand, cards and
bids together, as the detector adds them), the honest pairs' mean and
standard deviation, and each colluder's separation: its mean less the
honest mean, in honest standard deviations.

The rule, fixed before the screen was run: the rate with the largest
separation for the search colluder at a quarter is the one the
measurement then runs, provided it beats rate 1 (the detector until
session 27) by at least 0.1; otherwise the detector stays at rate 1.

The same screen judges cards on more deals (``--card-deals``) with the
resamples of the choice model kept at the 16 deals the search colluder
decides on (``--argmax-size``, ``ScoreOptions.argmax_size``): the chance
of each card estimated from more deals, the player modelled the same.
``--against OTHER ...`` prints each pair's score less its score in the
files ``OTHER`` (the same tables judged by the detector). The rule, fixed before that
screen was run: a way of valuing cards goes on to be measured only if, on
the same pairs, the search colluder at a quarter gains at least 0.15 in
separation and its mean score's gain is more than twice its standard
error.

``--model pick`` judges cards and bids by the search's own rule instead
of the argmax (``ScoreOptions.card_model`` and ``bid_model``, "pick": the
chance that, on a resample of the deals valued, the heuristic's option is
kept unless another beats it deal by deal by a standard error, as the
search colluder decides; ``choice.pick_shares``). The rule, fixed before
that screen was run (session 28), is the one above for the ways of
valuing cards: the search's rule goes on to be measured only if, on the
same pairs as the detector's file (``--against``), the search colluder
at a quarter gains at least 0.15 in separation and its mean score's gain
is more than twice its standard error.

It did not pass: over the 30 rounds the search colluder at a quarter
gained 0.17 in separation but +0.117 (standard error 0.086) in mean score
on the same pairs, 1.4 standard errors. A second screen, its rule fixed
before it was run (session 28): rounds 30 to 59, tables judged by
neither, each way (``--from-round 30 --rounds 60``, the argmax into a
file of its own); the search's rule goes on to be measured only if, over
the 60 rounds of both screens, the search colluder at a quarter gains at
least 0.15 in separation and its mean score's gain on the same pairs is
more than twice its standard error, and on rounds 30 to 59 alone its gain
is above zero.

Session 30 screens the two ways that leaned the right way together:
the search's rule (``--model pick``) on cards valued on 64 deals a
partner hand and resampled at the 16 the colluder decides on
(``--card-deals 64 --argmax-size 16``; the rule's resamples take
``argmax_size`` since session 30), against the detector, on rounds 60
to 89 (tables no screen has judged; the detector's into a file of its
own). The rule, fixed before either was run: the way goes on to be
measured only if, on those 30 rounds, the search colluder at a quarter
gains at least 0.15 in separation and its mean score's gain on the same
pairs is more than twice its standard error.

The figures are of the tables of rounds ``--from-round`` to ``--rounds``
(less one) whose rounds are all done. ``--powers A ...`` prints the
figures again with the log of each chance
replaced by ``(p^A - 1) / A`` (the log is its limit at 0): a look, after
the rates, at whether a card the model thinks unlikely should weigh more
or less than the log weighs it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import statistics
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from rich.console import Console

from fourhundred.bots.fairplay import Evidence, ScoreOptions
from fourhundred.bots.fairplay.bids import bid_decisions, judge_bid
from fourhundred.bots.fairplay.choice import mixture_llr
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.measure import Table, make_team
from fourhundred.bots.fairplay.scorer import bid_seed, decision_seed, judge, play_decisions
from fourhundred.engine import team_of

SEED = 8_000_000
"""The screen's seeds: far from the measurement's (``bench/fairplay.py``)
and from session 25's screen (7,000,000)."""
KINDS = (
    ("ie", "honest:intermediate", "honest:expert"),
    ("nb", "honest:noisy", "honest:beginner"),
    ("c25", "colluder:search:0.25", "honest:intermediate"),
    ("c50", "colluder:search:0.5", "honest:noisy"),
)
KEY = "colluder:search:0.25"
"""The pair the rule chooses the rate by."""
MARGIN = 0.1
"""How much more separation than rate 1 a rate needs to be chosen."""

Job = tuple[Table, int, ScoreOptions]


def tables(first: int, rounds: int) -> list[Table]:
    return [
        Table(f"m{r}-{name}", a, b, SEED + r * 100 + i)
        for r in range(first, rounds)
        for i, (name, a, b) in enumerate(KINDS)
    ]


def run(job: Job) -> dict[str, Any]:
    """A table's cards and bids judged once: per decision, the team, the
    hand (counted across the table's games) and the log chance of the
    option chosen given each partner hand (the real one first)."""
    table, deals, options = job
    t0 = time.monotonic()
    a = make_team(table.a, table.seed * 10)
    b = make_team(table.b, table.seed * 10 + 5)
    games = play_deals([a[0], b[0], a[1], b[1]], deals, table.seed)
    rows: list[list[float]] = []
    offset = 0
    for g in games:
        for d in play_decisions(g):
            j = judge(d.view, d.partner_hand, d.card, options, decision_seed(options, d))
            if j is not None:
                rows.append([team_of(d.seat), offset + d.hand, *j.chosen_log_probs])
        for bd in bid_decisions(g):
            jb = judge_bid(bd.view, bd.partner_hand, bd.bid, options, bid_seed(options, bd))
            if jb is not None:
                rows.append([team_of(bd.seat), offset + bd.hand, *jb.chosen_log_probs])
        offset += len(g.hands)
    return {
        "id": table.id,
        "a": table.a,
        "b": table.b,
        "seconds": round(time.monotonic() - t0, 1),
        "decisions": rows,
    }


Transform = Callable[[Sequence[float]], float]
"""A decision's evidence from the log chances of the option chosen (the
real partner hand's first)."""


def at_rate(rate: float) -> Transform:
    return lambda lps: mixture_llr(lps, rate)


def box_cox(power: float) -> Transform:
    """``h(p) = (p^power - 1) / power`` in place of ``log p`` (its limit at
    0): one function of each partner hand, so the null holds as for the
    log; below 0 a card the model thinks unlikely weighs more, above 0
    less."""

    def evidence(lps: Sequence[float]) -> float:
        h = [(math.exp(power * lp) - 1.0) / power for lp in lps]
        return h[0] - sum(h[1:]) / (len(h) - 1)

    return evidence


def pair_z(decisions: list[list[float]], team: int, evidence: Transform) -> float:
    """A team's score: its hands' sums of the ``evidence``, self-normalised
    by the detector's own :class:`Evidence`."""
    by_hand: dict[int, float] = {}
    for d in decisions:
        if int(d[0]) == team:
            h = int(d[1])
            by_hand[h] = by_hand.get(h, 0.0) + evidence(d[2:])
    return sum((Evidence(llr=x).closed() for x in by_hand.values()), Evidence()).z


def scores(rows: list[dict[str, Any]], evidence: Transform) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for r in rows:
        for team, spec in ((0, r["a"]), (1, r["b"])):
            out.setdefault(spec, []).append(pair_z(r["decisions"], team, evidence))
    return out


def separations(rows: list[dict[str, Any]], evidence: Transform) -> dict[str, float]:
    """Each pair's mean score, the honest pairs' mean and standard
    deviation, and each colluder's separation, by ``evidence``."""
    by = scores(rows, evidence)
    honest = [z for spec, zs in by.items() if spec.startswith("honest:") for z in zs]
    mean_h, sd_h = statistics.mean(honest), statistics.stdev(honest)
    out = {f"mean {spec}": statistics.mean(zs) for spec, zs in sorted(by.items())}
    out["honest mean"], out["honest sd"] = mean_h, sd_h
    for spec, zs in sorted(by.items()):
        if spec.startswith("colluder:"):
            out[f"separation {spec}"] = (statistics.mean(zs) - mean_h) / sd_h
    return out


def summarise(rows: list[dict[str, Any]], rates: list[float]) -> float:
    """Print the figures by rate; return the rate the rule chooses."""
    by_rate = {rate: separations(rows, at_rate(rate)) for rate in rates}
    print(f"{len(rows)} tables, {sum(len(r['decisions']) for r in rows)} decisions judged")
    head = "".join(f"{r:>9g}" for r in rates)
    print(f"{'rate':<38}{head}")
    for key in by_rate[rates[0]]:
        print(f"{key:<38}" + "".join(f"{by_rate[r][key]:>9.3f}" for r in rates))
    sep = f"separation {KEY}"
    base = by_rate[1.0][sep] if 1.0 in by_rate else float("-inf")
    best = max(rates, key=lambda r: by_rate[r][sep])
    chosen = best if by_rate[best][sep] >= base + MARGIN else 1.0
    print(f"the rule's choice: rate {chosen:g} (largest separation of {KEY} at {best:g})")
    return chosen


def summarise_powers(rows: list[dict[str, Any]], powers: list[float]) -> None:
    """The same figures with ``log p`` replaced by :func:`box_cox` of each
    power (the log, power 0, first)."""
    cols = {0.0: separations(rows, at_rate(1.0))}
    cols.update({a: separations(rows, box_cox(a)) for a in powers if a != 0.0})
    print(f"{'power (0: the log)':<38}" + "".join(f"{a:>9g}" for a in cols))
    for key in cols[0.0]:
        print(f"{key:<38}" + "".join(f"{c[key]:>9.3f}" for c in cols.values()))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--from-round", type=int, default=0)
    ap.add_argument("--deals", type=int, default=25)
    ap.add_argument("--rates", type=float, nargs="+", default=[1.0, 0.5, 0.25, 0.1])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-minutes", type=float, default=None)
    ap.add_argument("--out", type=Path, default=Path("build/mixture.jsonl"))
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--card-deals", type=int, default=ScoreOptions().deals)
    ap.add_argument("--argmax-size", type=int, default=None)
    ap.add_argument("--against", type=Path, nargs="+", default=None, metavar="OTHER")
    ap.add_argument("--powers", type=float, nargs="*", default=[])
    ap.add_argument("--model", choices=("argmax", "pick"), default="argmax")
    args = ap.parse_args()
    rows = read_rows(args.out) if args.out.exists() else []
    done = {r["id"] for r in rows}
    todo = (
        []
        if args.summary_only
        else [t for t in tables(args.from_round, args.rounds) if t.id not in done]
    )
    if todo:  # a summary alone leaves the file as it was
        judge_tables(todo, args, rows)
    wanted = {t.id for t in tables(args.from_round, args.rounds)}
    whole = complete_rounds([r for r in rows if r["id"] in wanted])
    if whole:
        summarise(whole, args.rates)
    if whole and args.powers:
        summarise_powers(whole, args.powers)
    if whole and args.against is not None:
        others = [r for path in args.against for r in read_rows(path)]
        paired(whole, others)


def judge_tables(todo: list[Table], args: argparse.Namespace, rows: list[dict[str, Any]]) -> None:
    """Judge the tables ``todo`` on ``args.workers`` processes, each
    appended to ``args.out`` and ``rows`` as it is done."""
    console = Console(stderr=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    opener = gzip.open if args.out.suffix == ".gz" else open
    options = ScoreOptions(
        deals=args.card_deals,
        argmax_size=args.argmax_size,
        card_model=args.model,
        bid_model=args.model,
    )
    with Pool(max(1, args.workers)) as pool, opener(args.out, "at") as f:
        for i, row in enumerate(pool.imap(run, [(t, args.deals, options) for t in todo])):
            rows.append(row)
            f.write(json.dumps(row) + "\n")
            f.flush()
            minutes = (time.monotonic() - t0) / 60
            console.print(f"{i + 1}/{len(todo)} {row['id']} {row['seconds']} s, {minutes:.1f} min")
            if args.max_minutes is not None and minutes > args.max_minutes:
                console.print("[yellow]time is up; run again to resume[/]")
                pool.terminate()
                break


def paired(rows: list[dict[str, Any]], others: list[dict[str, Any]]) -> None:
    """Each pair's score (rate 1) less its score in ``others`` (the same
    tables judged another way), by kind of pair: mean (standard error)."""
    theirs = {r["id"]: r for r in others}
    diffs: dict[str, list[float]] = {}
    for r in rows:
        if r["id"] not in theirs:
            continue
        for team, spec in ((0, r["a"]), (1, r["b"])):
            mine = pair_z(r["decisions"], team, at_rate(1.0))
            other = pair_z(theirs[r["id"]]["decisions"], team, at_rate(1.0))
            diffs.setdefault(spec, []).append(mine - other)
    print("score (rate 1) less the other file's, same pairs: mean (standard error)")
    for spec, d in sorted(diffs.items()):
        se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        print(f"  {spec:26} {statistics.mean(d):+.3f} ({se:.3f}) over {len(d)}")


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The tables of a screen's file (gzipped if its name ends in .gz)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return [json.loads(x) for x in f if x.strip()]


def complete_rounds(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables of the rounds all of whose tables are done (a run cut
    short stays balanced)."""
    by_round: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_round.setdefault(r["id"].split("-")[0], []).append(r)
    return [r for rs in by_round.values() if len(rs) == len(KINDS) for r in rs]


if __name__ == "__main__":
    main()
