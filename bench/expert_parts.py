"""What each part of the expert adds: the arena between a variant of the
expert and the search, duplicate pairs, at a budget.

    .venv/bin/python bench/expert_parts.py VARIANT [--pairs N] [--budget-ms MS]
        [--seed S] [--max-minutes M] [--against BOT_OR_VARIANT]

VARIANT: ``no-inference`` (the learned bidder and the location model's
deals, whatever the budget), ``bidder-only`` (the learned bidder, the
search's own deals: the expert as shipped before the location model),
``locations-only`` (the location model's deals, the heuristic's bid as the
prior), ``no-learned-bids`` (the expert's deals at the budget: the
inference from 250 ms, else the location model), ``full`` (the learned
bidder and the inference, whatever the budget) or ``cheap-inference`` (the
same, the inference judging only the plays of the last two tricks) or
``z-half`` (``no-inference`` leaving the heuristic's choice for an action
that beats it by half a standard error, not one), ``unpruned`` (the expert
as shipped before the pruning of session 14) or ``pruned`` (the same,
no longer playing out the cards that fall clearly behind: their deals go to
the others; the expert as shipped in session 14), ``fast`` (the same on the
fast path: the expert as shipped since session 15), ``exact4`` (the same,
solving exactly from four tricks left, not three, at any budget),
``fast-uniform`` (the same with the search's uniform deals, not the
location model's), ``fast-unpruned`` (the same playing out every card) or
``fast-uniform-unpruned`` (both: the search on the fast path with the
learned bidder, the expert as shipped since session 16) or
``fast-nofit-unpruned`` (the location model's deals not weighed again by
the bids' fit, every card played out) or ``fast-inference`` (the expert as
shipped since session 16 with the inference from play at any budget, on
the fast path since session 17) or ``fast-inference-weighed`` (the same,
every deal drawn kept and weighed by the square root of its likelihood
instead of resampling) or ``fast-seen`` (the expert as shipped since
session 16, its rollouts played by seats that know which suits the others
hold in the deal: ``SearchOptions(seen=1)``) or ``fast-seen-hands`` (the
same, seats that also see the others' cards where they ask whether a card
can be beaten or is sure to win: ``seen=2``, the expert as shipped since
session 18) or ``fast-seen-all`` (the same, seats that also read their
top cards from the opponents' cards, for their discards, the hearts they
cash and the honours they lead away from: ``seen=3``) or ``exact4-seen``
(the expert as shipped since session 18, solving exactly from four tricks
left instead of three) or ``exact5-seen`` (the same from five tricks left,
with the C solver of session 20) or ``seen-inference-weighed`` (the expert
as shipped since session 18 with the inference from play at any budget,
every deal weighed by the square root of its likelihood, as
``fast-inference-weighed`` was measured without the seeing rollouts) or
``seen-team`` (the expert as shipped since session 18, its rollouts' seats
that lead for a partner who needs tricks leading low into a side suit
whose top card the partner surely holds: ``seen=4``; session 29's trial,
its rule fixed before it ran: head to head against ``fast-seen-hands``,
the expert as shipped, at 50 ms, seed 82, 35 minutes; the expert takes it
only if the 95% interval is above zero) or ``bid-calib-own`` (the expert
as shipped since session 18, its learned bidder's chances calibrated on
the expert's own bids against the search instead of heuristic
self-play: ``(a, c, d)`` as ``bench/expert_calibration.py
bench/results/bots/expert-where-50ms-seed81.jsonl --seed 81`` fits it;
session 29's trial, its rule fixed before it ran: head to head against
``fast-seen-hands``, at 50 ms, seed 83, 35 minutes; taken only if the
95% interval is above zero) or ``seen-team-exact4`` (the two trials
that leaned the expert's way on top of the expert as shipped, together:
``seen=4`` (+0.24 [-0.09, +0.56]) and exact play from four tricks left,
now by the C solver (+0.22 [-0.09, +0.54] with the Python one); session
30's trial, its rule fixed before it ran: head to head against
``fast-seen-hands``, at 50 ms, seed 85, 35 minutes; taken only if the
95% interval is above zero).
``--budget-factor F`` gives the variant F times the budget (what more
time, so more deals, is worth to it; the report names it ``-xF``).
``--against`` plays it against another variant instead of the search (two
variants that differ in one part show what that part adds with less noise:
most of their decisions are the same). Every variant before ``pruned`` plays
without the pruning, and every one before ``fast`` off the fast path, as
they did when their figures in docs/bots.md were measured. Prints the arena's JSON report.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any

from fourhundred.bots import BOTS
from fourhundred.bots.arena import ArenaConfig, run_arena
from fourhundred.bots.expert import ExpertBot, ExpertOptions
from fourhundred.engine import preset

# Each variant names the parts it was measured with (the expert's defaults
# have changed since: ExpertOptions).
_OLD = ExpertOptions(locations=True, prune=False, fast=False, seen=0)
VARIANTS: dict[str, ExpertOptions] = {
    "no-inference": replace(_OLD, inference=False),
    "bidder-only": replace(_OLD, inference=False, locations=False),
    "locations-only": replace(_OLD, inference=False, learned_bids=False),
    "no-learned-bids": replace(_OLD, learned_bids=False),
    "full": replace(_OLD, inference=True),
    "cheap-inference": replace(_OLD, inference=True, inference_window=2),
    "z-half": replace(_OLD, inference=False, z=0.5),
    "unpruned": _OLD,
    "pruned": replace(_OLD, prune=True),
    "fast": ExpertOptions(locations=True, prune=True, seen=0),
    "exact4": ExpertOptions(locations=True, prune=True, exact=4, seen=0),
    "fast-uniform": ExpertOptions(locations=False, prune=True, seen=0),
    "fast-unpruned": ExpertOptions(locations=True, prune=False, seen=0),
    "fast-uniform-unpruned": ExpertOptions(locations=False, prune=False, seen=0),
    "fast-nofit-unpruned": ExpertOptions(locations=True, locations_fit=False, prune=False, seen=0),
    "fast-inference": ExpertOptions(locations=False, prune=False, inference=True, seen=0),
    "fast-inference-weighed": ExpertOptions(
        locations=False, prune=False, inference=True, inference_power=0.5, seen=0
    ),
    "fast-seen": ExpertOptions(locations=False, prune=False, seen=1),
    "fast-seen-hands": ExpertOptions(locations=False, prune=False, seen=2),
    "fast-seen-all": ExpertOptions(locations=False, prune=False, seen=3),
    "exact4-seen": ExpertOptions(locations=False, prune=False, seen=2, exact=4),
    "exact5-seen": ExpertOptions(locations=False, prune=False, seen=2, exact=5),
    "seen-inference-weighed": ExpertOptions(
        locations=False, prune=False, inference=True, inference_power=0.5, seen=2
    ),
    "seen-team": ExpertOptions(locations=False, prune=False, seen=4),
    "seen-team-exact4": ExpertOptions(locations=False, prune=False, seen=4, exact=4),
    "bid-calib-own": ExpertOptions(
        locations=False, prune=False, seen=2, bid_calib=(0.6575, 0.0471, 2.3679)
    ),
}


def _variant(name: str, options: ExpertOptions, factor: float = 1.0) -> type[ExpertBot]:
    class Variant(ExpertBot):
        def __init__(self, **kw: Any) -> None:
            if factor != 1.0 and kw.get("budget_ms") is not None:
                kw["budget_ms"] = round(kw["budget_ms"] * factor)
            super().__init__(**kw, options=options)

    Variant.name = f"expert-{name}" + (f"-x{factor:g}" if factor != 1.0 else "")
    return Variant


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", choices=sorted(VARIANTS))
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--budget-ms", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-minutes", type=float, default=None)
    ap.add_argument(
        "--against",
        default="search",
        help="the opponent: a built-in bot or another VARIANT (default: search)",
    )
    ap.add_argument(
        "--budget-factor",
        type=float,
        default=1.0,
        help="VARIANT thinks this many times the budget (default 1)",
    )
    args = ap.parse_args()
    cls = _variant(args.variant, VARIANTS[args.variant], args.budget_factor)
    name = cls.name
    BOTS[name] = cls
    against = args.against
    if against in VARIANTS:
        against = f"expert-{args.against}"
        BOTS[against] = _variant(args.against, VARIANTS[args.against])
    elif against not in BOTS:
        ap.error(f"--against: {against!r} is neither a bot nor a variant")
    duplicate_arena(name, against, args)


def duplicate_arena(a: str, b: str, args: argparse.Namespace) -> None:
    """Bot ``a`` against bot ``b`` in duplicate pairs (standard rules; the
    ``--pairs``, ``--budget-ms``, ``--seed`` and ``--max-minutes`` of
    ``args``), progress on standard error, the report's JSON printed."""
    cfg = ArenaConfig(
        a=a,
        b=b,
        pairs=args.pairs,
        games=0,
        settings=preset("standard"),
        budget_ms=args.budget_ms,
        seed=args.seed,
        max_seconds=None if args.max_minutes is None else args.max_minutes * 60,
    )

    def progress(report: Any, kind: str) -> None:
        d = report.to_dict()
        print(f"{d['pairs_counted']} counted: {d['mean_points_per_deal']:+.2f}", file=sys.stderr)

    print(json.dumps(run_arena(cfg, progress).to_dict()))


if __name__ == "__main__":
    main()
