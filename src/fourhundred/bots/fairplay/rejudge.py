"""A measured table judged again in part: its games played again from
their seeds, checked to be the same games, and one part of the detector
computed anew, the rest of the table's evidence kept (minutes for a run
of hundreds of tables, not the hours of the cards' rollouts).

* :func:`add_policy`: the second statistic added to a table measured
  before it existed;
* :func:`rebid`: the bids judged again (another choice model for them,
  ``ScoreOptions.bid_model``), the cards' evidence kept.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from fourhundred.engine import GameRecord, replay, team_of

from .bids import bid_decisions, judge_bid
from .evidence import Evidence
from .games import play_deals
from .measure import Table, evidence_fields, make_team
from .scorer import ScoreOptions, bid_seed, policy_by_hand

__all__ = ["add_policy", "bids_by_hand", "rebid"]


def _games(table: Table, row: dict[str, Any]) -> list[GameRecord]:
    """The table's games played again from its seeds; ``ValueError`` when
    they are not the games ``row`` measured (every team's points)."""
    a = make_team(table.a, table.seed * 10)
    b = make_team(table.b, table.seed * 10 + 5)
    games = play_deals([a[0], b[0], a[1], b[1]], row["deals"], table.seed)
    points = [0, 0]
    for g in games:
        for h in replay(g).history:
            for s in range(4):
                points[team_of(s)] += h.deltas[s]
    if points != row["points"]:
        raise ValueError(f"{table.id}: not the same games ({points} against {row['points']})")
    return games


def _played(games: Sequence[GameRecord], by_game: Sequence[list[list[Evidence]]]) -> list[Any]:
    """Of each game's evidence by hand, the hands that were played (a table
    keeps those only), in order."""
    return [
        hand
        for g, hands in zip(games, by_game, strict=True)
        for h_index, hand in enumerate(hands)
        if g.hands[h_index].plays
    ]


def add_policy(
    table: Table, row: dict[str, Any], options: ScoreOptions | None = None
) -> dict[str, Any]:
    """``row`` (a table measured before the second statistic) with it added:
    only the second statistic is computed. Raises ``ValueError`` when the
    games differ."""
    options = options or ScoreOptions()
    t0 = time.monotonic()
    games = _games(table, row)
    hands = _played(games, [policy_by_hand(g, options) for g in games])
    if len(hands) != len(row["hands"]):
        raise ValueError(f"{table.id}: not the same games ({len(hands)} hands played)")
    out = dict(row)
    out["hands"] = [
        [[*seat[:7], e.policy_decisions, e.policy] for seat, e in zip(old, new, strict=True)]
        for old, new in zip(row["hands"], hands, strict=True)
    ]
    if "bid_hands" in row:
        out["bid_hands"] = [[[*seat[:7], 0, 0.0] for seat in hand] for hand in row["bid_hands"]]
    out["policy_seconds"] = round(time.monotonic() - t0, 1)
    return out


def bids_by_hand(record: GameRecord, options: ScoreOptions) -> list[list[Evidence]]:
    """Each hand's evidence by seat of the bids alone (as
    :func:`.scorer.score_parts` gives them, without judging the cards)."""
    out = [[Evidence() for _ in range(4)] for _ in record.hands]
    for b in bid_decisions(record):
        j = judge_bid(b.view, b.partner_hand, b.bid, options, bid_seed(options, b))
        if j is not None:
            out[b.hand][b.seat].add(
                j.llr,
                gain=j.gain,
                discriminating=j.discriminating,
                agrees_true=j.agrees_true,
                agrees_ref=j.agrees_ref,
            )
    return out


def _swap(total: list[float], old: list[float], new: list[float], weight: float) -> list[float]:
    """A hand's fields of cards and bids together with the bids ``old``
    replaced by ``new`` (both entered at ``weight``, as
    ``Evidence.scaled``: ``l`` times the weight, its square times its
    square)."""
    scale = [1.0, weight, weight * weight, *[1.0] * (len(total) - 3)]
    return [t - o * w + n * w for t, o, n, w in zip(total, old, new, scale, strict=False)]


def rebid(table: Table, row: dict[str, Any], options: ScoreOptions | None = None) -> dict[str, Any]:
    """``row`` with its bids judged again by ``options`` (the bids' choice
    model, their deals and inferred hands); the cards' evidence and the
    second statistic are kept. Raises ``ValueError`` when the games
    differ."""
    options = options or ScoreOptions()
    t0 = time.monotonic()
    games = _games(table, row)
    hands = _played(games, [bids_by_hand(g, options) for g in games])
    if len(hands) != len(row["bid_hands"]):
        raise ValueError(f"{table.id}: not the same games ({len(hands)} hands played)")
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
