"""The heuristic bot: fast rules that know 400 (well under 1 ms a decision).

**Bidding** estimates the tricks the hand takes (honours, trump length,
ruffing chances), turns that into a probability of making each bid, and
picks the bid of highest expected value using the real bid values in the
view, the game situation (a bid that wins the game, a partner at or below
zero, opponents about to win) and the required total (the dealer keeps a
good hand in play and throws a bad one in).

**Play** counts cards (the cards gone, which card is the top one left in each
suit), infers voids from failures to follow, and reads all four bids: it
takes tricks while it needs them, helps a partner who is short, denies an
opponent who still needs tricks, does not take its partner's tricks when
that hurts, and manages trumps (draws them with the top hearts, ruffs with
the cheapest heart that holds, keeps hearts when they are not needed).

:func:`choose_card` works on plain masks so that the search bot's rollouts
use the very same policy on its sampled deals.
"""

from __future__ import annotations

import math
from typing import Final

from fourhundred.engine import (
    BEATERS,
    BID_BASE,
    REDEAL,
    SEAT_AFTER,
    Action,
    View,
    bid_value,
    partner_of,
    team_of,
)
from fourhundred.engine.scoring import qualifies

from .base import Bot
from .knowledge import (
    ABOVE,
    FULL,
    HEARTS,
    NON_HEARTS,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Knowledge,
    low_card,
    top_card,
    winner_index,
)

__all__ = [
    "GAME_BONUS",
    "HeuristicBot",
    "bid_from_distribution",
    "choose_card",
    "estimate_tricks",
    "trick_distribution",
]

GAME_BONUS: Final = 30
"""What winning (or losing) the game is worth, in points, when a decision
can decide it. Large enough to dominate a single bid's value."""

_SIDE: Final = (0, 1, 3)
_SQRT2: Final = math.sqrt(2.0)


# --------------------------------------------------------------- bidding


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
    hr = h >> 26  # heart ranks as bits 0..12
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
    spare = max(0, nh - 2)
    for s in _SIDE:
        m = (hand >> (13 * s)) & 0x1FFF
        n = m.bit_count()
        if n == 0:
            e += 0.6 * min(spare, 2)
            spare = max(0, spare - 2)
            continue
        if n == 1:
            if spare:
                e += 0.4
                spare -= 1
        elif n == 2 and spare:
            e += 0.15
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
    st = k.settings
    seat = k.seat
    partner = partner_of(seat)
    scores = k.scores
    target = st.target
    floor = 1 if st.partner_rule == "positive" else 0
    my_score = scores[seat]
    p_score = scores[partner]
    n_bid = sum(1 for b in k.bids if b)
    last = n_bid == 3
    others = sum(k.bids)

    # What the other bids already made mean for us if the hand is played:
    # the partner's expected gain counts for us, the opponents' against us,
    # and a bid that would win the game counts for much more. Whether a bid
    # wins the game is the engine's rule (``qualifies``), asked of ``after``:
    # the scores with one seat's bid made.
    after = list(scores)
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
    best_bid = legal[0]
    best_eu = -1e9
    team = team_of(seat)
    won_already = qualifies(st, scores, team)
    for b in legal:
        if b == 13:
            p = p_make[13]
            eu = (2 * p - 1) * 2 * GAME_BONUS
            if p < 0.9:
                continue
        else:
            v = _value(k, b)
            p = p_make[b]
            win_bonus = 0.0
            after[seat] = my_score + v
            if not won_already and qualifies(st, after, team):
                win_bonus = GAME_BONUS
            # Failing from a low score can leave the partner unable to win.
            fail_cost = float(v)
            if p_score >= target - 5 and my_score - v < floor <= my_score:
                fail_cost += 0.3 * GAME_BONUS
            eu = p * (v + win_bonus) - (1 - p) * fail_cost
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


# ------------------------------------------------------------------ play


def _threat(c: int, led: int, later: tuple[int, ...], outstanding: int, voids: list[int]) -> bool:
    """Whether an opponent still to play in this trick may beat card ``c``."""
    if not later:
        return False
    led_mask = SUIT_MASKS[led]
    few_left = (outstanding & led_mask).bit_count() <= 1
    above = BEATERS[led][c]
    for t in later:
        beat = above & outstanding & ~voids[t]
        # A seat that may still hold the suit led must follow it, so it can
        # beat c only with a card of that suit; one that may be out of it
        # can play any card that beats c.
        if beat & led_mask or (beat and (voids[t] & led_mask or few_left)):
            return True
    return False


def _discard(hand: int, legal: int, outstanding: int, need_me: int, help_partner: bool) -> int:
    """A card to throw away when not trying to win the trick."""
    side = legal & NON_HEARTS
    if not side:
        return low_card(legal)
    has_hearts = bool(hand & HEARTS)
    best = -1
    best_score = 1000.0
    m = side
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        s = SUIT_OF[c]
        n = (hand & SUIT_MASKS[s]).bit_count()
        top = not (outstanding & ABOVE[c])
        if help_partner:
            # Throw our own winners so they cannot steal the partner's tricks.
            score = -RANK_OF[c] - (5.0 if top else 0.0)
        else:
            score = RANK_OF[c] + (10.0 if top and need_me else 0.0)
            if n == 1 and has_hearts:
                score -= 3.0
            if RANK_OF[c] >= 10 and n == 2 and not top:
                score += 2.0  # keep the guard of a K or Q
        if score < best_score:
            best_score = score
            best = c
    return best


def choose_card(  # noqa: PLR0917 - positional on the rollouts' hot path
    seat: int,
    hand: int,
    legal: int,
    trick: list[int],
    gone: int,
    voids: list[int],
    bids: list[int],
    won: list[int],
    values: list[int],
    tricks_left: int,
) -> int:
    """The heuristic's card for ``seat``. ``legal`` is a non-empty mask of
    legal cards, ``trick`` the cards played to this trick so far, ``gone``
    every card played this hand (trick included), ``voids`` by seat the
    suits shown out of, ``bids`` / ``won`` / ``values`` by seat."""
    if not legal & (legal - 1):
        return low_card(legal)
    # Seats from the engine's table, not its functions: the search bot's
    # rollouts call this for every card.
    around = SEAT_AFTER[seat]
    partner = around[2]
    need = [0, 0, 0, 0]
    for s in range(4):
        n = bids[s] - won[s]
        if 0 < n <= tricks_left:
            need[s] = n
    need_me = need[seat]
    need_p = need[partner]
    o1 = around[1]
    o2 = around[3]
    opp_need = need[o1] or need[o2]
    outstanding = FULL ^ gone ^ hand
    n = len(trick)
    if n == 0:
        return _lead(seat, hand, legal, outstanding, voids, need, need_me, need_p, opp_need)

    led = SUIT_OF[trick[0]]
    wi = winner_index(trick)
    best = trick[wi]
    wseat = around[wi - n]  # the leader is n seats back
    later_opps = ((o1,), (o1,), ())[n - 1]
    mine_win = legal & BEATERS[led][best]
    following = bool(legal & SUIT_MASKS[led])

    def lose() -> int:
        if following:
            return low_card(legal)
        return _discard(hand, legal, outstanding, need_me, need_p > 0 and need_me == 0)

    def cheapest_safe() -> int:
        m = mine_win
        while m:
            low = m & -m
            c = low.bit_length() - 1
            if not _threat(c, led, later_opps, outstanding, voids):
                return c
            m ^= low
        return -1

    if not mine_win:
        return lose()

    if wseat == partner:
        partner_safe = not _threat(best, led, later_opps, outstanding, voids)
        if partner_safe:
            if need_me and not need_p:
                c = cheapest_safe()
                if c >= 0:
                    return c
            return lose()
        if need_me or need_p or opp_need:
            c = cheapest_safe()
            if c >= 0 and (need_me or not need_p or following):
                return c
        return lose()

    # An opponent is winning (or partner still to play after us).
    deny = need[wseat] > 0 or any(need[t] for t in later_opps)
    want = need_me > 0 or deny
    partner_later = n == 1
    if not want and need_p and partner_later:
        return lose()  # let the partner try for it
    if not want:
        return lose()
    c = cheapest_safe()
    if c >= 0:
        if not need_me and need_p and partner_later and following:
            # Our winner would only deny; leave room for the partner's.
            pass
        return c
    if partner_later:
        return lose()  # second hand low: the partner plays last
    if need_me and following:
        return top_card(mine_win)  # the best chance there is
    if need_me and mine_win & HEARTS:
        return top_card(mine_win & HEARTS) if later_opps else low_card(mine_win)
    return lose()


def _lead(  # noqa: PLR0917 - positional on the rollouts' hot path
    seat: int,
    hand: int,
    legal: int,
    outstanding: int,
    voids: list[int],
    need: list[int],
    need_me: int,
    need_p: int,
    opp_need: int,
) -> int:
    around = SEAT_AFTER[seat]
    partner = around[2]
    o1 = around[1]
    o2 = around[3]
    my_h = hand & HEARTS
    out_h = outstanding & HEARTS
    opp_may_ruff = [
        bool(outstanding & HEARTS & ~voids[o1]),
        bool(outstanding & HEARTS & ~voids[o2]),
    ]

    def sure_side(s: int) -> int:
        """Our top card of side suit ``s`` if no one can beat it, else -1."""
        mine = hand & SUIT_MASKS[s]
        if not mine:
            return -1
        t = mine.bit_length() - 1
        if outstanding & ABOVE[t]:
            return -1
        left = (outstanding & SUIT_MASKS[s]).bit_count()
        for i, o in enumerate((o1, o2)):
            if opp_may_ruff[i] and (voids[o] & SUIT_MASKS[s] or left <= 1):
                return -1
        return t

    if need_me or (opp_need and not need_p):
        # Cash top hearts while the opponents may still hold hearts.
        if my_h and out_h and top_card(my_h) > top_card(out_h):
            return top_card(my_h)
        best = -1
        best_left = -1
        for s in _SIDE:
            t = sure_side(s)
            if t >= 0:
                left = (outstanding & SUIT_MASKS[s]).bit_count()
                if left > best_left:
                    best, best_left = t, left
        if best >= 0:
            return best
        if not my_h and need_me:
            pass
        elif my_h and not out_h and need_me:
            return top_card(my_h)  # only our hearts are left: they all win
    if need_p:
        # Lead a suit the partner is void in (and may ruff), that the
        # opponents can follow.
        for s in _SIDE:
            mine = hand & SUIT_MASKS[s]
            if (
                mine
                and voids[partner] & SUIT_MASKS[s]
                and outstanding & HEARTS & ~voids[partner]
                and not (voids[o1] & SUIT_MASKS[s])
                and not (voids[o2] & SUIT_MASKS[s])
            ):
                return low_card(mine)
    # Otherwise lead low, from a suit where the lead costs least: a short
    # suit (to ruff later) when we hold hearts and need tricks, else the
    # longest suit; never away from an unguarded honour if avoidable.
    best = -1
    best_score = -1e9
    side = legal & NON_HEARTS
    for s in _SIDE:
        mine = side & SUIT_MASKS[s]
        if not mine:
            continue
        n = mine.bit_count()
        low = low_card(mine)
        top = top_card(mine)
        score = float(n)
        if need_me and my_h and n <= 2:
            score += 3.0 - n
        if RANK_OF[top] >= 10 and outstanding & ABOVE[top] and n <= 3:
            score -= 2.5  # leading away from a K or Q
        for o in (o1, o2):
            if voids[o] & SUIT_MASKS[s] and outstanding & HEARTS & ~voids[o] and need[o]:
                score -= 4.0  # would hand an opponent a ruff
        score -= RANK_OF[low] * 0.2
        if score > best_score:
            best_score, best = score, low
    if best >= 0:
        return best
    # Only hearts: the top one if it is the best left, else the lowest.
    if my_h and (not out_h or top_card(my_h) > top_card(out_h)) and (need_me or opp_need):
        return top_card(my_h)
    return low_card(legal)


# ------------------------------------------------------------------ bot


class HeuristicBot(Bot):
    """Fast rules: evaluation-based bids, card-counting play. Deterministic
    (the seed is accepted for the common interface)."""

    name = "heuristic"

    def choose(self, view: View) -> Action:
        if view.legal is None:
            raise ValueError("it is not this seat's turn: the view has no legal actions")
        k = Knowledge.from_view(view)
        if view.phase == "bid":
            if view.can_redeal and estimate_tricks(k.hand) < 1.5:
                return REDEAL
            return BID_BASE + heuristic_bid(k, view.legal)
        legal = 0
        for c in view.legal:
            legal |= 1 << c
        return choose_card(
            k.seat,
            k.hand,
            legal,
            k.trick,
            k.gone,
            k.voids,
            k.bids,
            k.won,
            k.values,
            k.tricks_left,
        )
