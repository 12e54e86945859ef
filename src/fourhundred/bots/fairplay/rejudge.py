"""A measured table judged again in part: its games played again from
their seeds, checked to be the same games, and one part of the detector
computed anew, the rest of the table's evidence kept (minutes for a run
of hundreds of tables, not the hours of the cards' rollouts).

* :func:`add_policy`: the second statistic added to a table measured
  before it existed;
* :func:`rebid`: the bids judged again (another choice model for them,
  ``ScoreOptions.bid_model``), the cards' evidence kept;
* :func:`recard`: the cards' first statistic judged again (other inferred
  partner hands, ``ScoreOptions.infer_batch``, or another choice model,
  ``ScoreOptions.card_model``), the bids and the second
  statistic kept (the cards' rollouts: the slow part, about half a minute
  a table of 50 deals).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from fourhundred.engine import GameRecord, replay, team_of

from .evidence import Evidence
from .games import play_deals
from .measure import Table, evidence_fields, make_team, weighed_fields
from .scorer import ScoreOptions, bids_by_hand, cards_by_hand, policy_by_hand

__all__ = ["add_policy", "rebid", "recard"]


@lru_cache(maxsize=1)
def _played(table: Table, deals: int) -> tuple[GameRecord, ...]:
    """The table's ``deals`` played again from its seeds, kept for the next
    step of the same table (its bids then its cards judged again play
    them once: a search table's games take several seconds)."""
    a = make_team(table.a, table.seed * 10)
    b = make_team(table.b, table.seed * 10 + 5)
    return tuple(play_deals([a[0], b[0], a[1], b[1]], deals, table.seed))


def _games(table: Table, row: dict[str, Any]) -> tuple[GameRecord, ...]:
    """The table's games played again from its seeds; ``ValueError`` when
    they are not the games ``row`` measured (every team's points)."""
    games = _played(table, row["deals"])
    points = [0, 0]
    for g in games:
        for h in replay(g).history:
            for s in range(4):
                points[team_of(s)] += h.deltas[s]
    if points != row["points"]:
        raise ValueError(f"{table.id}: not the same games ({points} against {row['points']})")
    return games


def _judged_again(
    table: Table,
    row: dict[str, Any],
    judge: Callable[[GameRecord], list[list[Evidence]]],
    key: str,
) -> list[list[Evidence]]:
    """The evidence by hand and seat that ``judge`` gives of the table's
    games played again, of the hands that were played (a table keeps those
    only); ``ValueError`` when they are not the games of ``row`` (every
    team's points, and as many hands as ``row[key]``)."""
    games = _games(table, row)
    hands = [hand for g in games for h_index, hand in enumerate(judge(g)) if g.hands[h_index].plays]
    if len(hands) != len(row[key]):
        raise ValueError(f"{table.id}: not the same games ({len(hands)} hands played)")
    return hands


def add_policy(
    table: Table, row: dict[str, Any], options: ScoreOptions | None = None
) -> dict[str, Any]:
    """``row`` (a table measured before the second statistic) with it added:
    only the second statistic is computed. Raises ``ValueError`` when the
    games differ."""
    options = options or ScoreOptions()
    t0 = time.monotonic()
    hands = _judged_again(table, row, lambda g: policy_by_hand(g, options), "hands")
    out = dict(row)
    out["hands"] = [
        [[*seat[:7], e.policy_decisions, e.policy] for seat, e in zip(old, new, strict=True)]
        for old, new in zip(row["hands"], hands, strict=True)
    ]
    if "bid_hands" in row:
        out["bid_hands"] = [[[*seat[:7], 0, 0.0] for seat in hand] for hand in row["bid_hands"]]
    out["policy_seconds"] = round(time.monotonic() - t0, 1)
    return out


def _swap(total: list[float], old: list[float], new: list[float], weight: float) -> list[float]:
    """A hand's fields of cards and bids together with the bids ``old``
    replaced by ``new`` (both entered at ``weight``, :func:`.measure.weighed_fields`)."""
    return [
        t - o + n
        for t, o, n in zip(
            total, weighed_fields(old, weight), weighed_fields(new, weight), strict=False
        )
    ]


def rebid(table: Table, row: dict[str, Any], options: ScoreOptions | None = None) -> dict[str, Any]:
    """``row`` with its bids judged again by ``options`` (the bids' choice
    model, their deals and inferred hands); the cards' evidence and the
    second statistic are kept. Raises ``ValueError`` when the games
    differ."""
    options = options or ScoreOptions()
    t0 = time.monotonic()
    hands = _judged_again(table, row, lambda g: bids_by_hand(g, options), "bid_hands")
    new = [[evidence_fields(e) for e in hand] for hand in hands]
    weight = row.get("bid_weight", 1.0)
    out = dict(row)
    out["hands"] = [
        [_swap(t, o, n, weight) for t, o, n in zip(ht, ho, hn, strict=True)]
        for ht, ho, hn in zip(row["hands"], row["bid_hands"], new, strict=True)
    ]
    out["bid_hands"] = new
    out["bid_model"] = options.bid_model
    out["rebid_seconds"] = round(time.monotonic() - t0, 1)
    return out


CARD_FIELDS = 7
"""The fields of a row's evidence that the first statistic fills (the rest
are the second statistic's, :func:`.measure.evidence_fields`)."""


def _with_cards(
    total: list[float], cards: list[float], bid: list[float], weight: float
) -> list[float]:
    """A hand's fields of cards and bids together with the cards' first
    statistic ``cards`` in place of the old, the bid ``bid`` (entered at
    ``weight``) and the second statistic (the fields after
    :data:`CARD_FIELDS` of ``total``) kept."""
    kept = weighed_fields(bid, weight)[:CARD_FIELDS]
    return [c + b for c, b in zip(cards[:CARD_FIELDS], kept, strict=True)] + total[CARD_FIELDS:]


def recard(
    table: Table, row: dict[str, Any], options: ScoreOptions | None = None
) -> dict[str, Any]:
    """``row`` with its cards' first statistic judged again by ``options``;
    the bids' evidence and the second statistic are kept. Raises
    ``ValueError`` when the games differ."""
    options = options or ScoreOptions()
    t0 = time.monotonic()
    hands = _judged_again(table, row, lambda g: cards_by_hand(g, options), "hands")
    weight = row.get("bid_weight", 1.0)
    no_bids = [[0.0] * CARD_FIELDS] * 4
    bid_rows = row.get("bid_hands") or [no_bids for _ in hands]
    out = dict(row)
    out["hands"] = [
        [
            _with_cards(list(t), evidence_fields(e), list(b), weight)
            for t, e, b in zip(old, new, bids, strict=True)
        ]
        for old, new, bids in zip(row["hands"], hands, bid_rows, strict=True)
    ]
    out["infer_batch"] = options.infer_batch
    out["card_model"] = options.card_model
    out["card_deals"] = options.deals
    out["argmax_size"] = options.argmax_size
    out["recard_seconds"] = round(time.monotonic() - t0, 1)
    return out
