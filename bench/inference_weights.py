"""How sharp the inference from play's weights are, and how well its model
of a player fits the search: on play decisions of heuristic self-play
after a few tricks,

* the effective share of drawn deals the weights keep,
  ``(sum w)^2 / sum w^2 / n`` for ``w = likelihood ** power``, and where the
  real deal's likelihood ranks among the drawn deals' (medians over the
  positions);
* how often the search at a budget plays the heuristic's card or one
  touching it (the model's ``1 - NOISE`` plus its share of the rest).

    .venv/bin/python bench/inference_weights.py [--positions N] [--deals D]
        [--budget-ms MS] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics

from fourhundred.bots.heuristic import HeuristicBot, heuristic_card
from fourhundred.bots.inference import PlayInference, _same_card
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.search import SearchBot
from fourhundred.engine import GameState, Phase, View, deal_masks, preset, view_for


def positions(n: int, seed: int) -> list[tuple[GameState, View]]:
    """Play decisions with a choice, after one to eleven tricks' worth of
    cards of heuristic self-play, with the state they were seen from."""
    rng = random.Random(seed)
    h = HeuristicBot()
    out: list[tuple[GameState, View]] = []
    while len(out) < n:
        s = GameState(preset("standard"), first_dealer=rng.randrange(4))
        s.deal(deal_masks(rng))
        while s.phase is Phase.BID:
            s.apply(h.choose(view_for(s, s.turn)))
        for _ in range(rng.randrange(4, 45)):
            if s.phase is not Phase.PLAY:
                break
            s.apply(h.choose(view_for(s, s.turn)))
        if s.phase is Phase.PLAY and len(s.legal_cards()) > 1:
            out.append((s, view_for(s, s.turn)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--budget-ms", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    views = positions(args.positions, args.seed)
    likelihoods: list[tuple[list[float], float]] = []
    for i, (state, view) in enumerate(views):
        k = Knowledge.from_view(view)
        inf = PlayInference(view, fast=True)
        drawn = [w for _, w in inf.weighted(k, random.Random(i), args.deals)]
        likelihoods.append((drawn, inf.likelihood(k, list(state.hands))))
    for power in (1.0, 0.5, 0.3):
        ess, rank = [], []
        for drawn, real in likelihoods:
            ws = [w**power for w in drawn]
            ess.append(sum(ws) ** 2 / sum(w * w for w in ws) / len(ws))
            rank.append(sum(1 for w in drawn if w < real) / len(drawn))
        q = statistics.quantiles(ess, n=4)
        print(
            f"power {power:g}: effective share of {args.deals} deals, median "
            f"{statistics.median(ess):.2f} (quartiles {q[0]:.2f}, {q[2]:.2f}); "
            f"the real deal's percentile, median {statistics.median(rank):.2f}"
        )
    bot = SearchBot(seed=args.seed, budget_ms=args.budget_ms, workers=1)
    same = 0
    for _state, view in views:
        k = Knowledge.from_view(view)
        card = bot.choose(view)
        same += _same_card(heuristic_card(k), int(card), k.hand, k.gone, list(k.trick))
    print(
        f"the search at {args.budget_ms} ms plays the heuristic's card (or one touching it) "
        f"in {same} of {len(views)} decisions ({same / len(views):.1%})"
    )


if __name__ == "__main__":
    main()
