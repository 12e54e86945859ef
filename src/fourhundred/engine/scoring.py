"""Bid values, escalations and the end of the game (docs/rules.md, "Bidding",
"Scoring", "Winning"). Every value uses the scores *before* the hand.

>>> bid_value(STANDARD, 5, own_score=0)
10
>>> bid_value(preset("traditional"), 5, own_score=30)
5
>>> bid_value(preset("jawaker"), 11, own_score=0)
40
>>> lowest_bid(STANDARD, own_score=42)
4
>>> required_total(preset("jawaker"), (12, 51, 0, 3))
14
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .settings import STANDARD, Settings, preset

__all__ = [
    "CLASSIC_VALUES",
    "LEBANESE_VALUES",
    "STANDARD",
    "bid_value",
    "highest_bid",
    "lowest_bid",
    "preset",
    "qualifies",
    "required_total",
    "winning_team",
]

LEBANESE_VALUES: Final = (0, 1, 2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36)
"""Bid value by bid (index 1..12) under ``lebanese`` scoring."""
CLASSIC_VALUES: Final = (0, 1, 2, 3, 4, 5, 6, 14, 16, 18, 20, 22, 24)
"""Bid value by bid (index 1..12) under ``classic`` scoring."""

THIRTEEN: Final = 13


def bid_value(settings: Settings, bid: int, own_score: int) -> int:
    """Points a bid of 1..12 wins or loses for a player whose score before the
    hand is ``own_score``. A 13 bid decides the game instead and has no value:
    ask for it and you get ``ValueError``."""
    if not 1 <= bid <= 12:
        raise ValueError(f"a bid of {bid} has no point value (bids 1 to 12 do)")
    if settings.big_bids == "ten_40" and bid >= 10:
        return 40
    if settings.big_bids == "eleven_50" and bid >= 11:
        return 50
    if settings.scoring == "classic":
        return CLASSIC_VALUES[bid]
    if settings.five_six_face_at_30 and own_score >= 30 and bid in (5, 6):
        return bid
    return LEBANESE_VALUES[bid]


def lowest_bid(settings: Settings, own_score: int) -> int:
    """The lowest bid for a player with this score, ``escalating_min_bid``
    included (30 -> 3, 40 -> 4, 50 -> 5; never below ``min_bid``)."""
    low = settings.min_bid
    if settings.escalating_min_bid:
        if own_score >= 50:
            low = max(low, 5)
        elif own_score >= 40:
            low = max(low, 4)
        elif own_score >= 30:
            low = max(low, 3)
    return low


def highest_bid(settings: Settings, earlier_bids: Sequence[int]) -> int:
    """The highest bid a seat may make after ``earlier_bids`` (this hand's
    bids so far, in any order; 0 stands for a seat yet to bid): 12, or 13
    when ``thirteen_bid`` is on and nobody before bid 13."""
    if settings.thirteen_bid and THIRTEEN not in earlier_bids:
        return THIRTEEN
    return 12


def required_total(settings: Settings, scores: Sequence[int]) -> int:
    """The total the four bids must reach, ``escalating_total`` included
    (highest score 30 -> 12, 40 -> 13, 50 -> 14; never below ``min_total``)."""
    need = settings.min_total
    if settings.escalating_total:
        top = max(scores)
        if top >= 50:
            need = max(need, 14)
        elif top >= 40:
            need = max(need, 13)
        elif top >= 30:
            need = max(need, 12)
    return need


def qualifies(settings: Settings, scores: Sequence[int], team: int) -> bool:
    """Whether a team meets the target: one partner at ``target`` or more and
    the other passing ``partner_rule``."""
    a, b = scores[team], scores[team + 2]
    floor = 1 if settings.partner_rule == "positive" else 0
    return (a >= settings.target and b >= floor) or (b >= settings.target and a >= floor)


def winning_team(settings: Settings, scores: Sequence[int]) -> int | None:
    """The team that has won after a played hand, or ``None`` to play on.
    Both teams qualifying: the higher combined score wins; a tie plays on."""
    q0 = qualifies(settings, scores, 0)
    q1 = qualifies(settings, scores, 1)
    if q0 and q1:
        t0 = scores[0] + scores[2]
        t1 = scores[1] + scores[3]
        if t0 == t1:
            return None
        return 0 if t0 > t1 else 1
    if q0:
        return 0
    if q1:
        return 1
    return None
