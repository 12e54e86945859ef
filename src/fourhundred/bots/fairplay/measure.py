"""The measurement of the detector: tables of colluding and honest pairs,
their deals played and scored, and the figures (recall, false positives,
Wilson intervals) that ``bench/fairplay.py`` prints and docs/fair-play.md
quotes.

A **table** is ``deals`` hands (game after game) between two
partnerships: team ``a`` at seats 0 and 2, team ``b`` at seats 1 and 3. A
team is ``colluder:STRENGTH:RATE`` or ``honest:LEVEL``. Each table gives
two pairs to judge: a colluding table a colluding pair and its honest
opponents, an honest table two honest pairs.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from fourhundred.engine import replay, team_of

from ..base import Bot
from .colluders import COLLUDER_RATES, COLLUDER_STRENGTHS, make_colluder
from .evidence import Evidence
from .games import play_deals
from .panel import HONEST, make_honest
from .scorer import FLAG_Z, POLICY_FLAG_Z, ScoreOptions, flagged, score_parts

__all__ = [
    "BENCH_OPTIONS",
    "CURVE_DEALS",
    "Table",
    "evidence_fields",
    "evidence_of",
    "make_team",
    "pair_hands",
    "plan",
    "run_table",
    "summarise",
    "table_round",
    "weighed_fields",
    "wilson",
]

BENCH_OPTIONS: Final = ScoreOptions()
"""The detector as the bench runs it: the defaults, as the server runs it."""
CURVE_DEALS: Final = (10, 20, 30, 50)
"""Numbers of deals at which recall and false positives are reported."""
NORMAL_99: Final = 2.326
"""The one-sided 99% point of the standard normal: the fitted threshold is
the honest pairs' mean score plus this many of their standard deviations."""
HONEST_TABLES: Final = (
    ("beginner", "noisy"),
    ("intermediate", "expert"),
    ("expert", "beginner"),
    ("noisy", "intermediate"),
)


@dataclass(frozen=True, slots=True)
class Table:
    """One table of the measurement (see the module's description)."""

    id: str
    a: str
    b: str
    seed: int

    @property
    def kind(self) -> str:
        return "colluding" if self.a.startswith("colluder:") else "honest"


def plan(rounds: int, seed: int = 0, quick: bool = False) -> list[Table]:
    """The tables of a run, round by round (a cut-short run stays
    balanced): each round every colluder (strength x rate) against an
    honest pair, and the honest pairs against each other."""
    if quick:
        return [
            Table(f"q{r}-c", "colluder:search:1.0", "honest:intermediate", seed * 1000 + r)
            for r in range(rounds)
        ] + [
            Table(f"q{r}-h", "honest:beginner", "honest:noisy", seed * 1000 + 500 + r)
            for r in range(rounds)
        ]
    out: list[Table] = []
    for r in range(rounds):
        i = 0
        for strength in COLLUDER_STRENGTHS:
            for rate in COLLUDER_RATES:
                opp = HONEST[(r + i) % len(HONEST)]
                out.append(
                    Table(
                        f"r{r}-{strength}-{rate:g}",
                        f"colluder:{strength}:{rate:g}",
                        f"honest:{opp}",
                        seed * 100_000 + r * 100 + i,
                    )
                )
                i += 1
        for x, y in HONEST_TABLES:
            out.append(
                Table(f"r{r}-{x}-{y}", f"honest:{x}", f"honest:{y}", seed * 100_000 + r * 100 + i)
            )
            i += 1
    return out


def make_team(spec: str, seed: int) -> list[Bot]:
    """The two players of a team spec."""
    kind, _, rest = spec.partition(":")
    if kind == "colluder":
        strength, _, rate = rest.partition(":")
        return [make_colluder(strength, float(rate), seed + s) for s in (0, 1)]
    if kind == "honest":
        return [make_honest(rest, seed + s) for s in (0, 1)]
    raise ValueError(f"unknown team {spec!r}")


def run_table(table: Table, deals: int, options: ScoreOptions = BENCH_OPTIONS) -> dict[str, Any]:
    """Play and score one table: per played hand, each seat's evidence
    (as lists of the :class:`.evidence.Evidence` fields; ``hands`` of its
    cards and bids together as the detector adds them, ``bid_hands`` of its
    bids alone, unweighted, and the ``bid_weight`` used), and each team's
    points."""
    t0 = time.monotonic()
    a = make_team(table.a, table.seed * 10)
    b = make_team(table.b, table.seed * 10 + 5)
    games = play_deals([a[0], b[0], a[1], b[1]], deals, table.seed)
    t_play = time.monotonic() - t0
    hands: list[list[list[float]]] = []
    bid_hands: list[list[list[float]]] = []
    points = [0, 0]
    for g in games:
        state = replay(g)
        for h in state.history:
            for s in range(4):
                points[team_of(s)] += h.deltas[s]
        cards, bids = score_parts(g, options)
        for h_index, (by_c, by_b) in enumerate(zip(cards, bids, strict=True)):
            if g.hands[h_index].plays:
                hands.append(
                    [
                        evidence_fields(c + b.scaled(options.bid_weight))
                        for c, b in zip(by_c, by_b, strict=True)
                    ]
                )
                bid_hands.append([evidence_fields(b) for b in by_b])
    return {
        "id": table.id,
        "a": table.a,
        "b": table.b,
        "seed": table.seed,
        "deals": len(hands),
        "points": points,
        "play_seconds": round(t_play, 1),
        "seconds": round(time.monotonic() - t0, 1),
        "hands": hands,
        "bid_hands": bid_hands,
        "bid_weight": options.bid_weight,
        "bid_model": options.bid_model,
        "card_model": options.card_model,
        "mix_rate": options.mix_rate,
    }


def evidence_fields(e: Evidence) -> list[float]:
    """A hand's evidence of a seat as a table's row keeps it (the inverse
    of :func:`evidence_of`)."""
    return [
        e.decisions,
        e.llr,
        e.llr_sq,
        e.gain,
        e.discriminating,
        e.agree_true,
        e.agree_ref,
        e.policy_decisions,
        e.policy,
    ]


def evidence_of(row: Sequence[float]) -> Evidence:
    """A hand's evidence of a seat from its fields (a row scored before
    the second statistic has seven, and none of it)."""
    d, llr, sq, gain, disc, at, ar, *policy = row
    pd, pol = policy or (0, 0.0)
    return Evidence(
        int(d), llr, sq, gain, int(disc), int(at), int(ar), policy_decisions=int(pd), policy=pol
    )


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion k/n.

    >>> [round(x, 3) for x in wilson(0, 60)]
    [0.0, 0.06]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass(frozen=True, slots=True)
class Pair:
    """A partnership of a measured table, its evidence after each deal."""

    table: str
    spec: str
    colluding: bool
    cumulative: list[Evidence]
    points_per_deal: float

    def at(self, deals: int) -> Evidence:
        return self.cumulative[min(deals, len(self.cumulative)) - 1]

    def is_flagged(self, deals: int, threshold: float, policy_threshold: float) -> bool:
        """Whether the pair is flagged after ``deals`` deals (at the
        thresholds for that many, :func:`.scorer.thresholds_at`)."""
        n = min(deals, len(self.cumulative))
        return flagged(self.cumulative[n - 1], threshold, policy_threshold, n)


def weighed_fields(fields: Sequence[float], weight: float) -> list[float]:
    """Evidence fields with ``l`` multiplied by ``weight`` (as ``Evidence.scaled``)."""
    out = list(fields)
    out[1] *= weight
    out[2] *= weight * weight
    return out


def _hand_rows(
    row: dict[str, Any], key: str, bid_weight: float | None = None
) -> list[list[list[float]]]:
    """A row's evidence by hand and seat: ``hands`` (cards and bids, the
    bids weighted by ``bid_weight``, default the row's own), ``bid_hands``
    (bids alone, unweighted) or ``card_hands`` (cards alone). Rows measured
    before bids were judged have no ``bid_hands``: their cards are their
    ``hands``, and they have no bids."""
    if "bid_hands" not in row:
        return [] if key == "bid_hands" else list(row["hands"])
    if key == "bid_hands":
        return list(row["bid_hands"])
    recorded = row.get("bid_weight", 1.0)
    w = recorded if bid_weight is None else bid_weight
    out = []
    for hs, bs in zip(row["hands"], row["bid_hands"], strict=True):
        seats = []
        for h, b in zip(hs, bs, strict=True):
            card = [x - y for x, y in zip(h, weighed_fields(b, recorded), strict=True)]
            if key == "hands":
                card = [x + y for x, y in zip(card, weighed_fields(b, w), strict=True)]
            seats.append(card)
        out.append(seats)
    return out


def table_round(table_id: str) -> int:
    """The round of a table id: the number after its first letter
    (``r3-search-1``: 3, the quick run's ``q2-c``: 2; none: 0).

    >>> table_round("r12-search-0.25"), table_round("q2-c"), table_round("x-1")
    (12, 2, 0)
    """
    head = table_id.split("-", 1)[0]
    return int(head[1:]) if head[1:].isdigit() else 0


def pair_hands(
    row: dict[str, Any], key: str = "hands", bid_weight: float | None = None
) -> list[tuple[int, str, list[Evidence]]]:
    """Both pairs of a table row (team, spec) with each hand's evidence of
    the pair, both partners' together and closed, by the evidence under
    ``key`` (see :func:`_hand_rows`)."""
    hands = _hand_rows(row, key, bid_weight)
    return [
        (team, spec, [(evidence_of(h[team]) + evidence_of(h[team + 2])).closed() for h in hands])
        for team, spec in ((0, row["a"]), (1, row["b"]))
    ]


def pairs_of(
    rows: Iterable[dict[str, Any]], key: str = "hands", bid_weight: float | None = None
) -> list[Pair]:
    """Both pairs of every table row, their evidence added up deal by deal
    (:func:`pair_hands`)."""
    out = []
    for row in rows:
        n = max(1, row["deals"])
        for team, spec, hands in pair_hands(row, key, bid_weight):
            if not hands:
                continue
            cum = list(itertools.accumulate(hands))
            pts = (row["points"][team] - row["points"][1 - team]) / n
            out.append(Pair(row["id"], spec, spec.startswith("colluder:"), cum, pts))
    return out


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"flagged": k, "pairs": n, "rate": k / n if n else None, "wilson95": [lo, hi]}


def _sd(xs: Sequence[float]) -> float:
    if len(xs) < 2:
        return float("nan")
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def _curve(
    pairs: Sequence[Pair], deals: Sequence[int], threshold: float, policy_threshold: float
) -> dict[str, Any]:
    """Recall and false positives after each number of ``deals``."""
    col = [p for p in pairs if p.colluding]
    hon = [p for p in pairs if not p.colluding]
    out = {}
    for n in deals:
        hits = [p.is_flagged(n, threshold, policy_threshold) for p in col]
        false = [p.is_flagged(n, threshold, policy_threshold) for p in hon]
        out[str(n)] = {
            "recall": _rate(sum(hits), len(col)),
            "false_positives": _rate(sum(false), len(hon)),
        }
    return out


def summarise(
    rows: Sequence[dict[str, Any]],
    threshold: float = FLAG_Z,
    bid_weight: float | None = None,
    policy_threshold: float = POLICY_FLAG_Z,
) -> dict[str, Any]:
    """Recall (colluding pairs flagged) and false positives (honest pairs
    flagged) at ``threshold`` and ``policy_threshold``, overall and by kind
    of pair, after each of :data:`CURVE_DEALS` deals, and after all of them
    with each statistic alone; the honest scores' spread, and the threshold
    a normal fitted to them puts at 1% (``fitted_threshold``), with the
    recall and false positives it gives after all the deals. The bids'
    evidence is weighted by ``bid_weight`` (default: as each table was
    scored)."""
    pairs = pairs_of(rows, bid_weight=bid_weight)
    full = max((len(p.cumulative) for p in pairs), default=0)
    deals = (*[d for d in CURVE_DEALS if d < full], full)
    curve = _curve(pairs, deals, threshold, policy_threshold)
    alone = {
        "first": _curve(pairs, (full,), threshold, math.inf)[str(full)],
        "second": _curve(pairs, (full,), math.inf, policy_threshold)[str(full)],
    }
    parts = {key: pairs_of(rows, key) for key in ("card_hands", "bid_hands")}
    by_spec: dict[str, dict[str, Any]] = {}
    for spec in sorted({p.spec for p in pairs}):
        ps = [p for p in pairs if p.spec == spec]
        zs = [p.at(full).z for p in ps]
        by_spec[spec] = {
            **_rate(sum(p.is_flagged(full, threshold, policy_threshold) for p in ps), len(ps)),
            "z": [round(z, 2) for z in zs],
            "mean_z": sum(zs) / len(zs),
            "mean_policy_z": sum(p.at(full).policy_z for p in ps) / len(ps),
            "sd_z": _sd(zs),
            "max_z": max(zs),
            "points_per_deal_vs_opponents": sum(p.points_per_deal for p in ps) / len(ps),
            "mean_gain_per_decision": sum(p.at(full).mean_gain for p in ps) / len(ps),
        }
        for key, name in (("card_hands", "cards"), ("bid_hands", "bids")):
            part = [p.at(full) for p in parts[key] if p.spec == spec]
            if part:
                by_spec[spec][f"mean_z_{name}"] = sum(e.z for e in part) / len(part)
                by_spec[spec][f"{name}_judged"] = sum(e.decisions for e in part)
    honest_pz = [p.at(full).policy_z for p in pairs if not p.colluding]
    honest_z = [p.at(full).z for p in pairs if not p.colluding]
    colluding_z = [p.at(full).z for p in pairs if p.colluding]
    mean = sum(honest_z) / len(honest_z) if honest_z else float("nan")
    sd = _sd(honest_z)
    top = max(honest_z, default=float("nan"))
    fitted = mean + NORMAL_99 * sd
    return {
        "threshold": threshold,
        "policy_threshold": policy_threshold,
        "bid_weight": bid_weight,
        "deals": full,
        "tables": len(rows),
        "curve": curve,
        "each_alone": alone,
        "honest_policy_z": {
            "mean": sum(honest_pz) / len(honest_pz) if honest_pz else float("nan"),
            "sd": _sd(honest_pz),
            "q99": _quantile(honest_pz, 0.99),
            "max": max(honest_pz, default=float("nan")),
        },
        "by_pair": by_spec,
        "honest_z": {"mean": mean, "sd": sd, "q99": _quantile(honest_z, 0.99), "max": top},
        "recall_above_honest_max": _rate(sum(z > top for z in colluding_z), len(colluding_z)),
        "fitted_threshold": {
            "threshold": fitted,
            "recall": _rate(sum(z >= fitted for z in colluding_z), len(colluding_z)),
            "false_positives": _rate(sum(z >= fitted for z in honest_z), len(honest_z)),
        },
    }
