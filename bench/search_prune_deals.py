"""How many more deals an option gives the search: the same positions
searched at a budget with and without it, in one process, the deals each
search got (medians over the positions and over repeated runs, the two
interleaved so that both see the same machine).

    .venv/bin/python bench/search_prune_deals.py
        [--option prune|fast|search-fast|inference|inference-weighed|seen]
        [--positions N]
        [--budget-ms MS] [--runs R]

``prune`` (the default): the search with and without
``SearchOptions(prune=True)``. ``fast``: the expert (the location model's
deals) with and without its fast path, ``ExpertOptions(fast=...)``
(rollouts, the deals and the bids' fit in C, each deal set into one rebuilt
state, lean copies), both unpruned so that every deal plays out every card.
``search-fast``: the search with and without ``SearchOptions(fast=True)``
(its own uniform deals). ``inference``: the expert with the inference
from play on the fast path, ``ExpertOptions(inference=True)``, and the
expert as shipped (its inference off below 250 ms): what the inference
costs in deals (a ratio below 1); ``inference-weighed``: the same with
every deal drawn kept and weighed (``inference_power=0.5``). ``seen``:
the expert as shipped (its rollouts' seats see the deal, ``seen=2``) and
the same with rollouts that see only what was shown (``seen=0``): what
seeing costs in deals.

The positions are of heuristic self-play, in the first nine tricks (from
three tricks left the solver takes over and nothing is pruned), with at
least two distinct cards to choose from.
"""

from __future__ import annotations

import argparse
import random
import statistics

from fourhundred.bots.expert import ExpertBot, ExpertOptions
from fourhundred.bots.heuristic import HeuristicBot
from fourhundred.bots.knowledge import Knowledge
from fourhundred.bots.search import SearchBot, SearchOptions, play_candidates
from fourhundred.engine import GameState, Phase, View, deal_masks, preset, view_for


def positions(n: int, seed: int) -> list[View]:
    h = HeuristicBot()
    out: list[View] = []
    rng = random.Random(seed)
    while len(out) < n:
        s = GameState(preset("standard"), first_dealer=rng.randrange(4))
        s.deal(deal_masks(rng))
        cards = rng.randrange(4, 36)
        while s.phase is Phase.BID or (s.phase is Phase.PLAY and cards > 0):
            if s.phase is Phase.PLAY:
                cards -= 1
            s.apply(h.choose(view_for(s, s.turn)))
        if s.phase is not Phase.PLAY or s.n_tricks > 9:
            continue
        v = view_for(s, s.turn)
        if len(play_candidates(Knowledge.from_view(v))) >= 2:
            out.append(v)
    return out


def _bot(option: str, on: bool, seed: int, budget_ms: int) -> SearchBot:
    if option == "search-fast":
        return SearchBot(seed=seed, budget_ms=budget_ms, workers=1, options=SearchOptions(fast=on))
    if option in ("inference", "inference-weighed"):
        power = 0.5 if option == "inference-weighed" else None
        opts = ExpertOptions(inference=True, inference_power=power) if on else ExpertOptions()
        return ExpertBot(seed=seed, budget_ms=budget_ms, workers=1, options=opts)
    if option == "seen":
        opts = ExpertOptions() if on else ExpertOptions(seen=0)
        return ExpertBot(seed=seed, budget_ms=budget_ms, workers=1, options=opts)
    if option == "fast":
        return ExpertBot(
            seed=seed,
            budget_ms=budget_ms,
            workers=1,
            options=ExpertOptions(locations=True, prune=False, fast=on),
        )
    return SearchBot(seed=seed, budget_ms=budget_ms, workers=1, options=SearchOptions(prune=on))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--option",
        choices=("prune", "fast", "search-fast", "inference", "inference-weighed", "seen"),
        default="prune",
    )
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--budget-ms", type=int, default=50)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    views = positions(args.positions, args.seed)
    ratios: list[float] = []
    for run in range(args.runs):
        deals: dict[bool, list[int]] = {False: [], True: []}
        for i, v in enumerate(views):
            for on in (False, True) if (i + run) % 2 else (True, False):
                bot = _bot(args.option, on, i, args.budget_ms)
                bot.choose(v)
                assert bot.last is not None
                deals[on].append(bot.last.deals)
        plain, with_it = statistics.median(deals[False]), statistics.median(deals[True])
        ratio = statistics.median(p / q for p, q in zip(deals[True], deals[False], strict=True))
        ratios.append(ratio)
        print(
            f"run {run + 1}: median deals {plain:g} without, {with_it:g} with {args.option};"
            f" median ratio by position {ratio:.2f}"
        )
    print(f"median ratio over {args.runs} runs: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
