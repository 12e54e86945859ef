"""Post-hand analysis: what the expert would have done, and what it cost.

For every decision of a recorded game (or of one hand), the expert (the
search with inference from play and the learned bidder)
looks at the acting seat's view, exactly as that player saw it, and values
each candidate action over the same sampled deals. For a bid it reports
what it would have bid; for a card where it prefers another one, the
expected points lost by the card played (team points, the search's own
estimate over its deals: a guide, not a verdict).

The decisions are independent, so they are spread over worker processes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from fourhundred.engine import (
    BID_BASE,
    CARD_NAMES,
    GameRecord,
    View,
    moves,
    view_for,
)

from .heuristic import HeuristicBot
from .knowledge import Knowledge
from .search import Z_SCORE, Limits, Tally, evaluate, exact_tricks_for, pick, representative

__all__ = ["AnalysisOptions", "Decision", "analyse_record", "decisions_of", "iter_analysis"]

DEFAULT_DEALS = 40
"""Sampled deals per decision (per process) unless told otherwise."""


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    """How a record is analysed: ``deals`` sampled per decision from
    ``seed``, over ``workers`` processes (0: one per core); ``expert`` off:
    the plain search's deals and the heuristic's bids as its priors."""

    deals: int = DEFAULT_DEALS
    seed: int = 0
    workers: int = 0
    expert: bool = True


@dataclass(slots=True)
class Decision:
    """One decision of a recorded hand."""

    hand: int
    seat: int
    index: int
    """The action's index in its hand (bids first, then plays)."""
    kind: str
    """``"bid"`` or ``"card"``."""
    played: int
    """The engine action taken."""
    view: View
    trick: int = 0
    values: dict[int, float] = field(default_factory=dict)
    """Mean team value per candidate action."""


def decisions_of(record: dict[str, Any], hand: int | None = None) -> list[Decision]:
    """Every bid and card of the record (of hand ``hand`` only when given),
    with the acting seat's view. Raises ``RecordError`` for a bad record."""
    out: list[Decision] = []
    for m in moves(record):
        if hand is not None and hand != m.hand:
            continue
        state = m.state
        seat = state.turn
        if m.kind == "bid":
            view = view_for(state, seat)
            out.append(Decision(m.hand, seat, m.step, "bid", BID_BASE + m.action, view))
        elif len(state.legal_cards()) > 1:
            view = view_for(state, seat)
            out.append(Decision(m.hand, seat, m.step, "card", m.action, view, trick=state.n_tricks))
    rec = GameRecord.from_dict(record)
    if hand is not None and hand >= len(rec.hands):
        raise ValueError(f"the record has {len(rec.hands)} hands (0 to {len(rec.hands) - 1})")
    return out


def _tally(args: tuple[View, int, int, int, bool]) -> Tally:
    view, seed, deals, exact, expert = args
    sampler = None
    if expert and view.phase == "play":
        from .inference import PlayInference

        sampler = PlayInference(view)
    return evaluate(view, seed, Limits(float("inf"), deals, exact, sampler))


def analyse_record(
    record: dict[str, Any],
    options: AnalysisOptions | None = None,
    *,
    hand: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of a record (or of its hand ``hand``) as a JSON-ready
    object (see docs/bots.md): per hand and seat, the bid made, the expert's
    chance of making it and the bid it prefers, and each card where it would
    have played otherwise, with the expected points lost. ``progress`` is
    told (decisions done, decisions) as the decisions are valued."""
    options = options or AnalysisOptions()
    ds = decisions_of(record, hand)
    results: list[Tally] = []
    for r in _tallies(ds, options):
        results.append(r)
        if progress:
            progress(len(results), len(ds))
    return _summarise(ds, results, options)


def iter_analysis(
    record: dict[str, Any], options: AnalysisOptions | None = None
) -> Iterator[dict[str, Any]]:
    """The analysis of each hand of ``record`` in turn (one element of
    :func:`analyse_record`'s ``hands``), yielded as soon as that hand's
    decisions are valued, so a replay can show the first hands while the
    others are worked out. Raises ``RecordError`` for a bad record."""
    options = options or AnalysisOptions()
    ds = decisions_of(record)
    done: list[Decision] = []
    tallies: list[Tally] = []
    for d, tally in zip(ds, _tallies(ds, options), strict=True):
        if done and d.hand != done[0].hand:
            yield from _summarise(done, tallies, options)["hands"]
            done, tallies = [], []
        done.append(d)
        tallies.append(tally)
    if done:
        yield from _summarise(done, tallies, options)["hands"]


def _tallies(ds: list[Decision], options: AnalysisOptions) -> Iterator[Tally]:
    """The tally of each decision, in order, over the options' processes."""
    exact = exact_tricks_for(2000)
    seed, deals, expert = options.seed, options.deals, options.expert
    jobs = [(d.view, seed * 1_000_003 + i, deals, exact, expert) for i, d in enumerate(ds)]
    n_workers = options.workers or (os.cpu_count() or 1)
    if n_workers > 1 and len(jobs) > 1:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(n_workers) as pool:
            yield from pool.imap(_tally, jobs, chunksize=1)
    else:
        for job in jobs:
            yield _tally(job)


def _summarise(
    ds: list[Decision], results: list[Tally], options: AnalysisOptions
) -> dict[str, Any]:
    hands: dict[int, dict[int, dict[str, Any]]] = {}
    heuristic = HeuristicBot()
    for d, tally in zip(ds, results, strict=True):
        d.values = {a: tally.mean(a) for a in tally.values}
        seats = hands.setdefault(d.hand, {})
        entry = seats.setdefault(
            d.seat, {"seat": d.seat, "bid": None, "search_bid": None, "cards": [], "lost": 0.0}
        )
        # What the search bot itself would do: the heuristic's choice unless
        # its deals show something better by more than their noise.
        prior = heuristic.choose(d.view)
        if d.kind == "bid":
            _judge_bid(entry, d, tally, prior, options.expert)
        else:
            _judge_card(entry, d, tally, prior)
    out_hands = []
    for h_index in sorted(hands):
        seats_out = []
        for s in sorted(hands[h_index]):
            e = hands[h_index][s]
            e["lost"] = round(e["lost"], 2)
            seats_out.append(e)
        out_hands.append({"hand": h_index, "seats": seats_out})
    return {"deals_per_decision": options.deals, "hands": out_hands}


def _judge_bid(entry: dict[str, Any], d: Decision, tally: Tally, prior: int, expert: bool) -> None:
    """Fill ``entry`` with the bid of ``d``: the expert's chance of making
    it, the bid the search keeps (from ``prior``) and what the bid cost."""
    vals = d.values
    entry["bid"] = d.played - BID_BASE
    if expert:
        from .bidder import chance_of_making, model_bid

        entry["chance"] = round(chance_of_making(d.view, entry["bid"]), 3)
        if d.view.legal is not None and prior >= BID_BASE:
            heuristic_prior = prior
            prior = BID_BASE + model_bid(Knowledge.from_view(d.view), d.view.legal)
            if prior not in vals and vals:
                prior = heuristic_prior
    if not vals:
        entry["search_bid"] = entry["bid"]
        return
    best = pick(tally, prior, Z_SCORE)
    entry["search_bid"] = best - BID_BASE
    entry["bid_values"] = {str(a - BID_BASE): round(v, 2) for a, v in sorted(vals.items())}
    if d.played in vals and best != d.played:
        lost = max(0.0, vals[best] - vals[d.played])
        entry["bid_lost"] = round(lost, 2)
        entry["lost"] += lost


def _judge_card(entry: dict[str, Any], d: Decision, tally: Tally, prior: int) -> None:
    """Add the card of ``d`` to ``entry`` if the search prefers another
    (from ``prior``), with the expected points it lost."""
    vals = d.values
    if not vals:
        return
    k = Knowledge.from_view(d.view)
    best = pick(tally, representative(prior, vals, k), Z_SCORE)
    rep = representative(d.played, vals, k)
    if rep == best or rep not in vals:
        return
    lost = vals[best] - vals[rep]
    if lost <= 0:
        return
    entry["cards"].append(
        {
            "trick": d.trick,
            "played": CARD_NAMES[d.played],
            "search": CARD_NAMES[best],
            "lost": round(lost, 2),
        }
    )
    entry["lost"] += lost
