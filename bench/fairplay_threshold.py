"""The thresholds' rule (docs/fair-play.md, "The threshold (session 23)"),
applied to a measured run's honest pairs: normals fitted to their two
scores after 50 deals, the share of honest pairs each pair of thresholds
is expected to flag (either score at its threshold; the two scores taken
as independent, as they about are), and the rule's choice: the lowest
tenth, the same for both, at which at most three quarters of the 1%
allowed is expected (a quarter kept for the fit's error).

    .venv/bin/python bench/fairplay_threshold.py [--out DIR] [--deals 50]
        [--from-round R] [--to-round R]

Only honest pairs are read: the rule never looks at recall.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

from fourhundred.bots.fairplay.measure import pairs_of, table_round

ALLOWED = 0.01
"""The target's share of honest pairs that may be flagged."""
KEPT = 0.75
"""The share of it the fitted normals may use."""
TENTHS = [round(2.5 + 0.1 * i, 1) for i in range(8)]


def _tail(t: float, mean: float, sd: float) -> float:
    """P(X >= t) for X ~ N(mean, sd)."""
    return 0.5 * math.erfc((t - mean) / (sd * math.sqrt(2.0)))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("bench/results/fairplay/v7-pick64"))
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--from-round", type=int, default=0)
    ap.add_argument("--to-round", type=int, default=10**9)
    args = ap.parse_args()
    rows = [
        json.loads(line)
        for line in (args.out / "tables.jsonl").read_text().splitlines()
        if line.strip()
    ]
    rows = [r for r in rows if args.from_round <= table_round(r["id"]) <= args.to_round]
    honest = [p.at(args.deals) for p in pairs_of(rows) if not p.colluding]
    first = [e.z for e in honest]
    second = [e.policy_z for e in honest]
    m1, s1 = statistics.mean(first), statistics.stdev(first)
    m2, s2 = statistics.mean(second), statistics.stdev(second)
    r = statistics.correlation(first, second)
    print(f"{len(rows)} tables, {len(honest)} honest pairs after {args.deals} deals")
    print(f"first score: mean {m1:.2f}, sd {s1:.2f}; second: mean {m2:.2f}, sd {s2:.2f};")
    print(f"correlation {r:.2f}")
    print("expected share of honest pairs flagged (rows: first threshold; columns: second)")
    print("first \\ second " + "".join(f"{t:>8}" for t in TENTHS))
    chosen = None
    for t1 in TENTHS:
        cells = []
        for t2 in TENTHS:
            either = 1.0 - (1.0 - _tail(t1, m1, s1)) * (1.0 - _tail(t2, m2, s2))
            cells.append(f"{100 * either:7.2f}%")
            if t1 == t2 and chosen is None and either <= KEPT * ALLOWED:
                chosen = (t1, either)
        print(f"{t1:>15}" + "".join(f"{c:>8}" for c in cells))
    if chosen is None:
        print(f"no tenth up to {TENTHS[-1]} keeps within {100 * KEPT * ALLOWED:.2f}%")
    else:
        t, either = chosen
        print(f"the rule: both at {t} (expected {100 * either:.2f}%)")
        seen = sum(e.z >= t or e.policy_z >= t for e in honest)
        print(f"honest pairs at either threshold there: {seen} of {len(honest)}")


if __name__ == "__main__":
    main()
