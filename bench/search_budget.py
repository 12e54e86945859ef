"""What more thinking time is worth: the search given FACTOR times the
budget against the search at the budget, duplicate pairs.

    .venv/bin/python bench/search_budget.py [--factor F] [--budget-ms MS]
        [--pairs N] [--seed S] [--max-minutes M] [--phase all|bid|play] [--fast]

At a small budget the search's strength is its number of sampled deals
(docs/bots.md); this measures how many points per deal ten times the deals
(and, from 250 ms, one more trick solved exactly) add, a yardstick for what
any cleverer bot at the small budget is asked to gain over the search.
``--phase bid`` (or ``play``) gives the extra time to that phase's
decisions only, to see where the points come from. ``--fast`` puts bot A
on the fast path (``SearchOptions(fast=True)``: rollouts and deals in C,
about nine times the deals at 50 ms); with ``--factor 1`` that is the
search with more deals and nothing else changed.
Prints the arena's JSON report (bot A is the slower search).
"""

from __future__ import annotations

import argparse
from typing import Any

from expert_parts import duplicate_arena  # bench/ is the script's own folder
from fourhundred.bots import BOTS
from fourhundred.bots.search import SearchBot, SearchOptions
from fourhundred.engine import Action, View


def _slower(factor: float, phase: str, fast: bool) -> type[SearchBot]:
    class Slower(SearchBot):
        deciding = ""

        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw, options=SearchOptions(fast=fast))

        def choose(self, view: View) -> Action:
            self.deciding = view.phase
            return super().choose(view)

        @property
        def budget(self) -> int:
            if phase not in ("all", self.deciding):
                return super().budget
            return max(1, round(super().budget * factor))

    Slower.name = (
        f"search-x{factor:g}" + ("" if phase == "all" else f"-{phase}") + ("-fast" if fast else "")
    )
    return Slower


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--factor", type=float, default=10.0)
    ap.add_argument("--budget-ms", type=int, default=50)
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-minutes", type=float, default=None)
    ap.add_argument("--phase", choices=("all", "bid", "play"), default="all")
    ap.add_argument("--fast", action="store_true", help="bot A on the fast path")
    args = ap.parse_args()
    slower = _slower(args.factor, args.phase, args.fast)
    BOTS[slower.name] = slower
    duplicate_arena(slower.name, "search", args)


if __name__ == "__main__":
    main()
