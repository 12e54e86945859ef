"""What more thinking time is worth: the search given FACTOR times the
budget against the search at the budget, duplicate pairs.

    .venv/bin/python bench/search_budget.py [--factor F] [--budget-ms MS]
        [--pairs N] [--seed S] [--max-minutes M] [--phase all|bid|play]

At a small budget the search's strength is its number of sampled deals
(docs/bots.md); this measures how many points per deal ten times the deals
(and, from 250 ms, one more trick solved exactly) add, a yardstick for what
any cleverer bot at the small budget is asked to gain over the search.
``--phase bid`` (or ``play``) gives the extra time to that phase's
decisions only, to see where the points come from.
Prints the arena's JSON report (bot A is the slower search).
"""

from __future__ import annotations

import argparse

from expert_parts import duplicate_arena  # bench/ is the script's own folder
from fourhundred.bots import BOTS
from fourhundred.bots.search import SearchBot
from fourhundred.engine import Action, View


def _slower(factor: float, phase: str) -> type[SearchBot]:
    class Slower(SearchBot):
        deciding = ""

        def choose(self, view: View) -> Action:
            self.deciding = view.phase
            return super().choose(view)

        @property
        def budget(self) -> int:
            if phase not in ("all", self.deciding):
                return super().budget
            return max(1, round(super().budget * factor))

    Slower.name = f"search-x{factor:g}" + ("" if phase == "all" else f"-{phase}")
    return Slower


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--factor", type=float, default=10.0)
    ap.add_argument("--budget-ms", type=int, default=50)
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-minutes", type=float, default=None)
    ap.add_argument("--phase", choices=("all", "bid", "play"), default="all")
    args = ap.parse_args()
    slower = _slower(args.factor, args.phase)
    BOTS[slower.name] = slower
    duplicate_arena(slower.name, "search", args)


if __name__ == "__main__":
    main()
