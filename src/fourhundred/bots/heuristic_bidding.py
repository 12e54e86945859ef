"""The heuristic bot's bidding: how many tricks a hand takes, and the bid
of highest expected value.

:func:`estimate_tricks` counts honours, trump length and ruffing chances;
:func:`trick_distribution` turns the estimate into a probability of making
each bid; :func:`bid_from_distribution` picks the bid of highest expected
value using the real bid values in the view, the game situation (a bid that
wins the game, a partner at or below zero, opponents about to win) and the
required total (the dealer keeps a good hand in play and throws a bad one
in). The learned bidder (:mod:`.bidder`) shares the last step.
"""

from __future__ import annotations

import math
from typing import Final

from fourhundred.engine import bid_value, partner_of, team_of
from fourhundred.engine.scoring import qualifies

from .knowledge import HEARTS, SIDE_SUITS, Knowledge

__all__ = [
    "GAME_BONUS",
    "bid_from_distribution",
    "estimate_tricks",
    "heuristic_bid",
    "trick_distribution",
]

GAME_BONUS: Final = 30
"""What winning (or losing) the game is worth, in points, when a decision
can decide it. Large enough to dominate a single bid's value."""

_SQRT2: Final = math.sqrt(2.0)

# The estimates below add up in a fixed order (each step takes the running
# total and returns it): a float sum in another order could tip a bid.


def estimate_tricks(hand: int) -> float:
    """The tricks a 13-card hand is expected to take when its holder plays
    for tricks (hearts are trumps).

    >>> from fourhundred.engine import mask_of, parse_card
    >>> strong = mask_of(parse_card(c) for c in
    ...     "AH KH QH JH TH 9H AS KS AD KD AC KC QC".split())
    >>> estimate_tricks(strong) > 10
    True
    """
    h = hand & HEARTS
    nh = h.bit_count()
    e = _trump_tricks(h >> 26, nh)
    spare = max(0, nh - 2)
    for s in SIDE_SUITS:
        m = (hand >> (13 * s)) & 0x1FFF
        n = m.bit_count()
        e, spare = _ruffs(e, n, spare)
        if n:
            e = _side_tricks(e, m, n, nh)
    return e


def _trump_tricks(hr: int, nh: int) -> float:
    """The tricks of ``nh`` hearts (ranks as bits 0..12 of ``hr``)."""
    e = 0.0
    # Trump honours, worth more with length to guard them.
    if hr & (1 << 12):
        e += 1.0
    if hr & (1 << 11):
        e += 0.85 if nh >= 2 else 0.3
    if hr & (1 << 10):
        e += 0.65 if nh >= 3 else 0.15
    if hr & (1 << 9):
        e += 0.4 if nh >= 4 else 0.05
    if nh >= 5 and hr & (1 << 8):
        e += 0.2
    # Long trumps win tricks once the others' hearts are gone.
    if nh > 3:
        e += 0.75 * (nh - 3)
    return e


def _ruffs(e: float, n: int, spare: int) -> tuple[float, int]:
    """``e`` plus the ruffs a side suit of ``n`` cards offers the ``spare``
    hearts (beyond two), and the spare hearts left."""
    if n == 0:
        e += 0.6 * min(spare, 2)
        return e, max(0, spare - 2)
    if n == 1:
        if spare:
            e += 0.4
            spare -= 1
    elif n == 2 and spare:
        e += 0.15
    return e, spare


def _side_tricks(e: float, m: int, n: int, nh: int) -> float:
    """``e`` plus the tricks of the honours and length of a side suit (its
    ``n`` > 0 ranks as bits of ``m``), beside ``nh`` hearts."""
    ace, king, queen, jack = m & 4096, m & 2048, m & 1024, m & 512
    if ace:
        e += 0.95 if n <= 5 else (0.8 if n == 6 else 0.6)
    if king:
        if n >= 2:
            e += 0.75 if ace else 0.5
            if n >= 6:
                e -= 0.15
        else:
            e += 0.15
    if queen:
        if n >= 3:
            e += 0.45 if (ace or king) else 0.3
            if ace and king:
                e += 0.15
        elif n == 2 and (ace or king):
            e += 0.15
    if jack and n >= 4 and (ace or king) and queen:
        e += 0.2
    if n >= 5:
        e += (0.25 if nh >= 4 else 0.1) * (n - 4)
    return e


def trick_distribution(expected: float, sd: float = 1.1) -> list[float]:
    """``p[b]``: the chance of taking at least ``b`` tricks (b = 0..13) when
    ``expected`` tricks are expected, from a normal approximation.

    >>> p = trick_distribution(4.0)
    >>> p[0], round(p[4], 2), p[4] > p[5]
    (1.0, 0.68, True)
    """
    out = [1.0]
    for b in range(1, 14):
        z = (b - 0.5 - expected) / sd
        out.append(0.5 * math.erfc(z / _SQRT2))
    return out


def bid_from_distribution(k: Knowledge, legal: tuple[int, ...], p_make: list[float]) -> int:
    """The bid of highest expected value given ``p_make[b]``, the chance of
    taking at least ``b`` tricks. Uses the real bid values and the game
    situation; the dealer chooses between keeping the hand in play and
    throwing it in."""
    last = sum(1 for b in k.bids if b) == 3
    others = sum(k.bids)
    # ``after``: the scores with one seat's bid made, to ask the engine's
    # rule (``qualifies``) whether that bid wins the game.
    after = list(k.scores)
    context = _context(k, after)
    won_already = qualifies(k.settings, k.scores, team_of(k.seat))
    best_bid = legal[0]
    best_eu = -1e9
    for b in legal:
        if b == 13 and p_make[13] < 0.9:
            continue
        eu = _bid_value(k, b, p_make[b], after, won_already)
        if last and others + b < k.required:
            eu = 0.0  # thrown in: nothing changes
        else:
            eu += context if last else 0.0
        # Prefer the lower bid on near ties: fewer tricks promised leaves
        # more for the partner.
        if eu > best_eu + 1e-9:
            best_eu = eu
            best_bid = b
    return best_bid


def _context(k: Knowledge, after: list[int]) -> float:
    """What the other bids already made mean for us if the hand is played:
    the partner's expected gain counts for us, the opponents' against us,
    and a bid that would win the game counts for much more. ``after`` (the
    scores) is used as scratch and left as it was."""
    st = k.settings
    seat = k.seat
    partner = partner_of(seat)
    scores = k.scores
    context = 0.0
    for s in range(4):
        b = k.bids[s]
        if not b or s == seat:
            continue
        if b == 13:
            sign = 1.0 if s == partner else -1.0
            context += sign * GAME_BONUS * 0.5
            continue
        v = k.values[s]
        gain = 0.4 * v
        after[s] = scores[s] + v
        if qualifies(st, after, team_of(s)):
            gain += 0.6 * GAME_BONUS
        after[s] = scores[s]
        context += gain if s == partner else -gain
    return context


def _bid_value(k: Knowledge, b: int, p: float, after: list[int], won_already: bool) -> float:
    """The expected value of bidding ``b``, made with chance ``p``, if the
    hand is played (``after``: the scores, this seat's entry used as
    scratch)."""
    if b == 13:
        return (2 * p - 1) * 2 * GAME_BONUS
    st = k.settings
    seat = k.seat
    my_score = k.scores[seat]
    v = _value(k, b)
    win_bonus = 0.0
    after[seat] = my_score + v
    if not won_already and qualifies(st, after, team_of(seat)):
        win_bonus = GAME_BONUS
    # Failing from a low score can leave the partner unable to win.
    floor = 1 if st.partner_rule == "positive" else 0
    fail_cost = float(v)
    if k.scores[partner_of(seat)] >= st.target - 5 and my_score - v < floor <= my_score:
        fail_cost += 0.3 * GAME_BONUS
    return p * (v + win_bonus) - (1 - p) * fail_cost


def _value(k: Knowledge, b: int) -> int:
    return bid_value(k.settings, b, k.scores[k.seat])


def heuristic_bid(k: Knowledge, legal: tuple[int, ...]) -> int:
    """The heuristic's bid for the seat of ``k``."""
    # Calibrated on heuristic self-play: the raw estimate runs a little low.
    e = estimate_tricks(k.hand) * 1.05 + 0.2
    # The first bidders cannot see the total yet; a partner's high bid
    # means fewer of the outside honours will fall our way.
    partner_bid = k.bids[partner_of(k.seat)]
    if partner_bid >= 5:
        e -= 0.2 * (partner_bid - 4)
    return bid_from_distribution(k, legal, trick_distribution(e))
