"""The learned bidder's chances set against how often bot A's bids were
made in its own play: a calibration fitted on them, and the bids it would
change.

    .venv/bin/python bench/expert_calibration.py FILE --seed S [--min-bid B]

FILE is what ``bench/expert_where.py`` wrote for pairs of bot A (the
expert) against bot B with seed ``S``: each pair's bids and tricks by seat
at both tables. The deals are dealt again from the seed (the arena's
``pair_deal``) and the bidding of each table replayed, so every bid A made
is seen from its seat as it was made. The bidder's calibration
``(a, c, d)`` (``model.TrickModel``) is fitted on A's bids as the shipped
one was fitted on heuristic self-play (``train.fit_calibration``); the
script prints the shipped and the fitted triples, the mean chance each
gives A's bids by bid against how often they were made, and for how many
of A's bid positions the learned bid (``bidder.model_bid``) would change
under the fitted triple, by the two bids. ``--min-bid`` fits on the bids
of at least that many tricks only (2 fits on all).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from fourhundred.bots.arena import pair_deal
from fourhundred.bots.bidder import make_chances, model_bid
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.model import TrickModel, knowledge_features, shipped_model
from fourhundred.bots.train import fit_calibration
from fourhundred.engine import GameState, bidding_order, preset, required_total, team_of, view_for

LEVELS = ((2, 2), (3, 3), (4, 4), (5, 12))


def a_bids(pair: dict[str, Any], seed: int) -> list[tuple[Knowledge, tuple[int, ...], int, bool]]:
    """A's bids of one pair, each with its seat's knowledge when it bid, the
    legal bids, the bid and whether it was made (13 bids left out)."""
    settings = preset("standard")
    dealer, scores, deal = pair_deal(pair["index"], seed, settings)
    out = []
    for table in (0, 1):
        state = GameState(settings, first_dealer=dealer)
        state.scores = scores[:]
        state.required = required_total(settings, scores)
        state.deal(deal)
        for s in bidding_order(dealer):
            row = pair["seats"][s]
            a_holds = (team_of(s) == 0) == (table == 0)
            i = 0 if a_holds else 1
            bid, tricks = row["bid"][i], row["tricks"][i]
            if bid is None:
                break
            if a_holds and bid != 13:
                k = Knowledge.from_view(view_for(state, s))
                out.append((k, tuple(state.legal_bids()), bid, tricks >= bid))
            state.bid(bid, s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--min-bid", type=int, default=2)
    args = ap.parse_args()
    rows = []
    for line in args.file.read_text().splitlines():
        rows += a_bids(json.loads(line), args.seed)
    fit_rows = [r for r in rows if r[2] >= args.min_bid]
    shipped = shipped_model()
    calib = fit_calibration(
        shipped,
        [knowledge_features(k) for k, _, _, _ in fit_rows],
        [b for _, _, b, _ in fit_rows],
        [float(m) for _, _, _, m in fit_rows],
    )
    refit = shipped.recalibrated(calib)
    print(f"{len(rows)} bids of A ({len(fit_rows)} fitted, bids of {args.min_bid} or more)")
    print("shipped (a, c, d):", ", ".join(f"{v:.4f}" for v in shipped.calib))
    print("fitted  (a, c, d):", ", ".join(f"{v:.4f}" for v in calib))
    for lo, hi in LEVELS:
        sel = [r for r in rows if lo <= r[2] <= hi]
        if not sel:
            continue
        made = sum(m for _, _, _, m in sel) / len(sel)
        print(
            f"  bids {lo}-{hi}: {len(sel)}, made {made:.3f}, "
            f"shipped chance {_mean_chance(sel, shipped):.3f}, "
            f"fitted {_mean_chance(sel, refit):.3f}"
        )
    moves = Counter((model_bid(k, legal), model_bid(k, legal, refit)) for k, legal, _, _ in rows)
    same = sum(n for (x, y), n in moves.items() if x == y)
    print(f"the learned bid under the fitted calibration: the same on {same} of {len(rows)}")
    for (x, y), n in sorted(moves.items()):
        if x != y:
            print(f"  {x} -> {y}: {n}")


def _mean_chance(rows: list[tuple[Knowledge, tuple[int, ...], int, bool]], m: TrickModel) -> float:
    return float(np.mean([make_chances(k, m)[b] for k, _, b, _ in rows]))


if __name__ == "__main__":
    main()
