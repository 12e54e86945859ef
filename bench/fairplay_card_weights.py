"""The first statistic's values kept, to screen its levers on the same
games: weights by how much a partner hand changes a card, the deals and
inferred hands per decision, the softmax, and the bids.

    .venv/bin/python bench/fairplay_card_weights.py [--rounds R] [--deals D]
        [--seed S] [--workers W] [--out DIR] [--summary-only]
        [--card-deals N] [--refs N] [--bid-deals N] [--bid-refs N]
        [--beta B] [--use-refs N] [--bids-from DIR] [--bid-beta B]
        [--use-bid-refs N]

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
since are 16 and 2): give each its own ``--out``. ``--bid-deals N``
values the scored pairs' bids too (``--card-deals 0``: bids only), as
``judge_bid`` does, with ``--bid-refs`` inferred hands; the summary then
adds the bids alone and the cards and bids summed by hand as the
detector sums them. ``--bids-from DIR`` scores this run's cards with the
bids valued in another (the same seeds and rounds). ``--beta`` and
``--use-refs`` (the first N inferred hands of each card; 0, all),
``--bid-beta`` and ``--use-bid-refs`` score the stored values otherwise.
Each card also keeps the argmax model's shares (the detector's model for
cards since session 22, ``choice.argmax_shares``), scored in the column
``argmax`` with ``--eps`` of the uniform; ``cards+bids`` sums that
column's cards with the bids. Bids are judged by three models: the
softmax of ``--bid-beta`` a point (``bids``; the detector's until session
24), the argmax over resamples of all the deals valued (``bids-am``, the
detector's since) and over resamples of 16 of them (``bids-am16``);
each other model's ``cards+`` score less the softmax's is printed pair by
pair on the same games.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from fourhundred.bots.base import Bot
from fourhundred.bots.fairplay import ScoreOptions
from fourhundred.bots.fairplay.bids import bid_decisions, bid_tallies
from fourhundred.bots.fairplay.choice import (
    argmax_shares,
    judged,
    log_softmax,
    smoothed_log,
    verdict,
)
from fourhundred.bots.fairplay.colluders import make_colluder
from fourhundred.bots.fairplay.games import play_deals
from fourhundred.bots.fairplay.panel import make_honest
from fourhundred.bots.fairplay.scorer import (
    bid_seed,
    card_choice,
    card_tallies,
    decision_seed,
    play_decisions,
)
from fourhundred.engine import team_of

TABLES = (
    ("colluder:search:0.25", "intermediate", (0,)),
    ("colluder:search:0.5", "intermediate", (0,)),
    ("colluder:heuristic:0.25", "intermediate", (0,)),
    ("beginner", "noisy", (0, 1)),
    ("intermediate", "expert", (0, 1)),
)
Values = dict[int, float]
BID_PLAYER_DEALS = 16
"""The deals of the bids' second argmax column's player (the search
colluder bids on 16)."""


def _player(spec: str, seed: int) -> Bot:
    if spec.startswith("colluder:"):
        _, strength, rate = spec.split(":")
        return make_colluder(strength, float(rate), seed)
    return make_honest(spec, seed)


Job = tuple[int, int, int, int, int, int, int]


def _card_rows(records: list[Any], scored: tuple[int, ...], options: ScoreOptions) -> list[Any]:
    rows: list[list[Any]] = []
    offset = 0
    for record in records:
        for d in play_decisions(record):
            if team_of(d.seat) not in scored:
                continue
            seed = decision_seed(options, d)
            tallies = card_tallies(d.view, d.partner_hand, options, seed)
            if tallies is not None:
                real, refs, chosen = card_choice(tallies, d.view, d.card)
                shares = argmax_shares(tallies, options.argmax_draws, seed)
                rows.append([offset + d.hand, d.seat, chosen, real, refs, shares])
        offset += len(record.hands)
    return rows


def _bid_rows(records: list[Any], scored: tuple[int, ...], options: ScoreOptions) -> list[Any]:
    """Each judged bid's values, as ``judge_bid`` weighs them, and the
    argmax model's shares: resamples of all the deals valued, and of
    :data:`BID_PLAYER_DEALS` (a player who bids on that many)."""
    rows: list[list[Any]] = []
    offset = 0
    for record in records:
        for d in bid_decisions(record):
            if team_of(d.seat) not in scored:
                continue
            seed = bid_seed(options, d)
            tallies = bid_tallies(d.view, d.partner_hand, d.bid, options, seed)
            if tallies is None:
                continue
            real, *refs = ({b: t.mean(b) for b in t.values} for t in tallies)
            full = argmax_shares(tallies, options.argmax_draws, seed)
            few = argmax_shares(tallies, options.argmax_draws, seed, size=BID_PLAYER_DEALS)
            rows.append([offset + d.hand, d.seat, d.bid, real, refs, full, few])
        offset += len(record.hands)
    return rows


def table(job: Job) -> dict[str, Any]:
    """One table: its pairs' judged cards (and bids) with every value set."""
    index, seed, deals, card_deals, refs, bid_deals, bid_refs = job
    a, b, scored = TABLES[index]
    seats = [_player(a, seed), _player(b, seed + 1), _player(a, seed + 2), _player(b, seed + 3)]
    records = play_deals(seats, deals=deals, seed=seed)
    options = ScoreOptions(
        seed=seed, deals=card_deals, refs=refs, bid_deals=bid_deals, bid_refs=bid_refs
    )
    rows = _card_rows(records, scored, options) if card_deals else []
    bids = _bid_rows(records, scored, options) if bid_deals else []
    return {"id": f"{seed}-{index}", "kinds": [a, b], "scored": scored, "rows": rows, "bids": bids}


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


@dataclass(frozen=True)
class Scoring:
    """How stored values are scored: softmax ``beta`` per point and the
    first ``refs`` inferred hands of each card (0: all kept); the same of
    bids (``bid_beta``, ``bid_refs``); ``eps``, the argmax's uniform share."""

    beta: float = ScoreOptions().beta
    refs: int = 0
    bid_beta: float = ScoreOptions().bid_beta
    bid_refs: int = 0
    eps: float = ScoreOptions().eps


def _keys(d: dict[str, float]) -> Values:
    return {int(c): v for c, v in d.items()}


def _llr(row: list[Any], beta: float, use: int) -> tuple[float, list[Values]]:
    """The softmax's ``l`` of a stored decision, and its value sets."""
    chosen, stored_real, stored_refs = row[2:5]
    real = _keys(stored_real)
    refs = [_keys(u) for u in (stored_refs[:use] if use else stored_refs)]
    return judged(real, refs, chosen, beta).llr, [real, *refs]


def _argmax_llr(row: list[Any], use: int, eps: float) -> float:
    """The argmax model's ``l`` of a stored decision (the detector's since
    session 22), from its stored shares."""
    chosen, stored_real, stored_refs, shares = row[2:6]
    n = 1 + (min(use, len(stored_refs)) if use else len(stored_refs))
    real, *refs = (_keys(v) for v in [stored_real, *stored_refs][:n])
    model = [smoothed_log(_keys(s), eps) for s in shares[:n]]
    return verdict(real, refs, chosen, model).llr


def _bid_llrs(row: list[Any], how: Scoring) -> dict[str, float]:
    """A stored bid's ``l`` by model: ``bids`` (the softmax), and where the
    shares were kept ``bids-am`` (the argmax over resamples of all the
    deals valued) and ``bids-am16`` (of 16 of them)."""
    out = {"bids": _llr(row, how.bid_beta, how.bid_refs)[0]}
    if len(row) > 5:  # scored as a card's stored shares are, one set of shares at a time
        out["bids-am"] = _argmax_llr(row[:6], how.bid_refs, how.eps)
        out["bids-am16"] = _argmax_llr([*row[:5], row[6]], how.bid_refs, how.eps)
    return out


def _z(sums: dict[int, float]) -> float:
    sq = sum(x * x for x in sums.values())
    return sum(sums.values()) / math.sqrt(sq) if sq > 0 else 0.0


def pair_scores(t: dict[str, Any], how: Scoring) -> list[tuple[str, dict[str, float]]]:
    """(kind, score by column) of each scored pair of a table: the cards
    by each weight, and where bids were valued the bids alone and the
    cards (flat) and bids together, summed by hand as the detector does."""
    out = []
    for team in t["scored"]:
        by_hand: dict[str, dict[int, float]] = {w: {} for w in WEIGHTS}
        for row in t["rows"]:
            if team_of(row[1]) == team:
                llr, sets = _llr(row, how.beta, how.refs)
                for name, weight in WEIGHTS.items():
                    sums = by_hand[name]
                    sums[row[0]] = sums.get(row[0], 0.0) + weight(sets, how.beta) * llr
                if len(row) > 5:
                    sums = by_hand.setdefault("argmax", {})
                    sums[row[0]] = sums.get(row[0], 0.0) + _argmax_llr(row, how.refs, how.eps)
        bid_cols: dict[str, dict[int, float]] = {}
        for row in t.get("bids", []):
            if team_of(row[1]) == team:
                for col, llr in _bid_llrs(row, how).items():
                    sums = bid_cols.setdefault(col, {})
                    sums[row[0]] = sums.get(row[0], 0.0) + llr
        z = {name: _z(sums) for name, sums in by_hand.items()}
        cards = by_hand.get("argmax", by_hand["flat"])
        for col, sums in bid_cols.items():
            both = dict(cards)
            for hand, llr in sums.items():
                both[hand] = both.get(hand, 0.0) + llr
            z[col], z["cards+" + col] = _z(sums), _z(both)
        out.append((t["kinds"][team], z))
    return out


def summarise(tables: list[dict[str, Any]], how: Scoring) -> None:
    scores: dict[str, dict[str, list[float]]] = {}
    for t in tables:
        for kind, z in pair_scores(t, how):
            for name, value in z.items():
                scores.setdefault(kind, {}).setdefault(name, []).append(value)
    print(f"{len(tables)} tables; {how}; mean (sd) and pairs at 3 or more")
    names = list(next(iter(scores.values()), {}))
    print(f"{'pair':<26}" + "".join(f"{w:>22}" for w in names))
    for kind, by_w in sorted(scores.items()):
        line = f"{kind:<26}"
        for name in names:
            zs = by_w[name]
            sd = statistics.stdev(zs) if len(zs) > 1 else float("nan")
            hits = sum(z >= 3.0 for z in zs)
            line += f"{statistics.mean(zs):>9.2f} ({sd:4.2f}) {hits:>2}/{len(zs):<3}"
        print(line)
    _print_paired(scores)


def _print_paired(scores: dict[str, dict[str, list[float]]]) -> None:
    """Where the bids were judged by more than one model: each other
    model's cards-and-bids score less the softmax's (``cards+bids``), pair
    by pair on the same games, its mean and standard error."""
    others = [n for n in next(iter(scores.values()), {}) if n.startswith("cards+bids-")]
    if not others:
        return
    print("paired, on the same games: the score less cards+bids, mean (standard error)")
    for kind, by_w in sorted(scores.items()):
        line = f"{kind:<26}"
        for name in others:
            d = [x - y for x, y in zip(by_w[name], by_w["cards+bids"], strict=True)]
            se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
            line += f"  {name} {statistics.mean(d):+.3f} ({se:.3f})"
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
    ap.add_argument("--bid-deals", type=int, default=0, help="value bids too (0: cards only)")
    ap.add_argument("--bid-refs", type=int, default=ScoreOptions().bid_refs)
    ap.add_argument("--beta", type=float, default=ScoreOptions().beta, help="softmax, per point")
    ap.add_argument("--use-refs", type=int, default=0, help="score with the first N (0: all)")
    ap.add_argument("--bids-from", type=Path, help="score with the bids valued in this DIR")
    ap.add_argument("--bid-beta", type=float, default=ScoreOptions().bid_beta)
    ap.add_argument("--use-bid-refs", type=int, default=0)
    ap.add_argument("--eps", type=float, default=ScoreOptions().eps, help="the argmax's uniform")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "decisions.jsonl"
    done = [json.loads(line) for line in path.open()] if path.exists() else []
    ids = {t["id"] for t in done}
    valued = (args.card_deals, args.refs, args.bid_deals, args.bid_refs)
    jobs: list[Job] = [
        (i, args.seed + 100 * r + 10 * i, args.deals, *valued)
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
    if args.bids_from:
        other = (json.loads(line) for line in (args.bids_from / "decisions.jsonl").open())
        bids = {t["id"]: t["bids"] for t in other}
        done = [{**t, "bids": bids[t["id"]]} for t in done if t["id"] in bids]
    summarise(done, Scoring(args.beta, args.use_refs, args.bid_beta, args.use_bid_refs, args.eps))


if __name__ == "__main__":
    main()
