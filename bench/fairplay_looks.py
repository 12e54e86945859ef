"""How often the server's fair-play check flags a partnership that plays
game after game: its evidence is added up over every game the two play
together and looked at after each one ("Reports" in docs/fair-play.md), so
an honest pair has more than one chance to pass a threshold, and a
colluding pair more than 50 deals to be found.

    .venv/bin/python bench/fairplay_looks.py [--out DIR] [--careers N] [--hands H]
        [--games 1,5,10,20,50] [--threshold Z] [--fixed] [--from-round R] [--seed S]

Careers are built from the hands a measurement recorded (``DIR/tables.jsonl``
of ``bench/fairplay.py``; each hand's evidence of a partnership, bids, cards
and the second statistic together): a career of one kind of pair (an honest
level, a colluder at one strength and rate) is a run of games of ``--hands``
hands each, every hand drawn with replacement from all the hands the
measurement recorded of that kind. After each game the career's sums are
flagged or not by the detector's own rule (``flagged``, at ``--threshold``
for the first score, the detector's threshold by default, both thresholds
rising past 50 deals as the server's do; ``--fixed``: not rising).
``--from-round R``: only the tables of rounds R and later. Prints, for
each number of games, the share of careers flagged after exactly that many
games (one look, as the measurement does after 50 deals) and the share
flagged after any game up to it (a look after every game, as the server
does).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from fourhundred.bots.fairplay import Evidence
from fourhundred.bots.fairplay.measure import pair_hands, table_round
from fourhundred.bots.fairplay.scorer import FLAG_Z, POLICY_FLAG_Z, flagged

FIELDS = ("decisions", "llr", "hand_sq", "policy_decisions", "policy", "policy_hand_sq")


def hands_by_kind(rows: list[dict[str, object]]) -> dict[str, np.ndarray]:
    """Each kind of pair's hands: one row of :data:`FIELDS` per hand of a
    partnership (both partners' evidence of the hand, closed)."""
    out: dict[str, list[list[float]]] = defaultdict(list)
    for row in rows:
        for _team, spec, hands in pair_hands(row):
            out[spec].extend([float(getattr(e, f)) for f in FIELDS] for e in hands)
    return {k: np.array(v) for k, v in out.items()}


def careers(
    pool: np.ndarray, n: int, games: int, hands: int, rng: np.random.Generator
) -> np.ndarray:
    """``n`` careers of ``games`` games: the sums of :data:`FIELDS` after
    each game, shape (n, games, fields)."""
    draw = rng.integers(0, len(pool), size=(n, games * hands))
    per_game = pool[draw].reshape(n, games, hands, len(FIELDS)).sum(axis=2)
    return np.cumsum(per_game, axis=1)


def flags(sums: np.ndarray, threshold: float, hands: int, fixed: bool) -> np.ndarray:
    """Whether each career is flagged after each game, by :func:`flagged`
    (at thresholds that rise with the deals, unless ``fixed``)."""
    n, games, _ = sums.shape
    out = np.zeros((n, games), dtype=bool)
    for i in range(n):
        for g in range(games):
            d, llr, sq, pd, pol, psq = sums[i, g]
            e = Evidence(
                decisions=int(d),
                llr=float(llr),
                hand_sq=float(sq),
                policy_decisions=int(pd),
                policy=float(pol),
                policy_hand_sq=float(psq),
            )
            deals = None if fixed else (g + 1) * hands
            out[i, g] = flagged(e, threshold, POLICY_FLAG_Z, deals)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("bench/results/fairplay/v7-pick64"))
    ap.add_argument("--careers", type=int, default=2000)
    ap.add_argument("--hands", type=int, default=10, help="hands a game")
    ap.add_argument("--games", default="1,5,10,20,50")
    ap.add_argument("--threshold", type=float, default=FLAG_Z)
    ap.add_argument("--fixed", action="store_true", help="thresholds that do not rise")
    ap.add_argument("--from-round", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    looks = sorted({int(g) for g in args.games.split(",")})
    lines = (args.out / "tables.jsonl").read_text().splitlines()
    rows = [r for r in map(json.loads, lines) if table_round(r["id"]) >= args.from_round]
    pools = hands_by_kind(rows)
    rng = np.random.default_rng(args.seed)
    console = Console(width=150)
    table = Table(
        title=(
            f"{args.out}: {len(rows)} tables; careers of games of {args.hands} hands, "
            f"first score from {args.threshold}, second from {POLICY_FLAG_Z}"
            + (", fixed" if args.fixed else ", rising past 50 deals")
        )
    )
    table.add_column("pair", no_wrap=True, min_width=24)
    table.add_column("hands")
    for g in looks:
        table.add_column(f"{g} games: once / every game", justify="right")
    with console.status("drawing careers") as status:
        for kind in sorted(pools, key=lambda k: (k.startswith("colluder"), k)):
            status.update(f"drawing careers: {kind}")
            pool = pools[kind]
            sums = careers(pool, args.careers, looks[-1], args.hands, rng)
            hit = flags(sums, args.threshold, args.hands, args.fixed)
            ever = np.maximum.accumulate(hit, axis=1)
            cells = [f"{hit[:, g - 1].mean():.2%} / {ever[:, g - 1].mean():.2%}" for g in looks]
            table.add_row(kind, str(len(pool)), *cells)
    console.print(table)


if __name__ == "__main__":
    main()
