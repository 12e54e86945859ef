"""The heuristic bot: fast rules that know 400 (well under 1 ms a decision).

**Bidding** (:mod:`.heuristic_bidding`, its names importable from here too)
estimates the tricks the hand takes and picks the bid of highest expected
value.

**Play** counts cards (the cards gone, which card is the top one left in each
suit), infers voids from failures to follow, and reads all four bids: it
takes tricks while it needs them, helps a partner who is short, denies an
opponent who still needs tricks, does not take its partner's tricks when
that hurts, and manages trumps (draws them with the top hearts, ruffs with
the cheapest heart that holds, keeps hearts when they are not needed).

:func:`choose_card` works on plain masks so that the search bot's rollouts
use the very same policy on its sampled deals. Leading, needing tricks,
with the top heart left:

>>> from fourhundred.engine import mask_of, parse_card
>>> hand = mask_of(parse_card(c) for c in ("AH", "2C"))
>>> card = choose_card(0, hand, hand, [], 0, [0] * 4, [1, 0, 0, 0], [0] * 4, [1] * 4, 2)
>>> card == parse_card("AH")
True
"""

from __future__ import annotations

from fourhundred.engine import BEATERS, BID_BASE, REDEAL, SEAT_AFTER, Action, View, mask_of

from .base import Bot
from .heuristic_bidding import (
    GAME_BONUS,
    bid_from_distribution,
    estimate_tricks,
    heuristic_bid,
    trick_distribution,
)
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
from .knowledge import SIDE_SUITS as _SIDE

__all__ = [
    "GAME_BONUS",
    "HeuristicBot",
    "bid_from_distribution",
    "choose_card",
    "estimate_tricks",
    "heuristic_bid",
    "heuristic_card",
    "trick_distribution",
]


# ------------------------------------------------------------------ play


def _threat(  # noqa: PLR0913, PLR0917 - plain positional arguments on the rollouts' hot path, as choose_card's
    c: int,
    led: int,
    later: tuple[int, ...],
    outstanding: int,
    voids: list[int],
    hands: list[int] | None = None,
) -> bool:
    """Whether an opponent still to play in this trick may beat card ``c``
    (can, when the seat sees every hand: ``hands``)."""
    if not later:
        return False
    led_mask = SUIT_MASKS[led]
    few_left = (outstanding & led_mask).bit_count() <= 1
    above = BEATERS[led][c]
    if hands is not None:
        # It must follow the suit led if it holds it, else may play any card.
        return any(
            above & hands[t] & led_mask or (above & hands[t] and not hands[t] & led_mask)
            for t in later
        )
    for t in later:
        beat = above & outstanding & ~voids[t]
        # A seat that may still hold the suit led must follow it, so it can
        # beat c only with a card of that suit; one that may be out of it
        # can play any card that beats c.
        if beat & led_mask or (beat and (voids[t] & led_mask or few_left)):
            return True
    return False


def _discard(hand: int, legal: int, outstanding: int, need_me: int, help_partner: bool) -> int:
    """A card to throw away when not trying to win the trick. ``outstanding``:
    the cards that may beat ours (``choose_card``'s ``theirs``)."""
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


def choose_card(  # noqa: C901, PLR0911, PLR0912, PLR0913, PLR0915, PLR0917 - the play's decision table, one flat function with plain positional arguments: the rollouts call it for every card
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
    hands: list[int] | None = None,
    reads_all: bool = False,
    team: bool = False,
) -> int:
    """The heuristic's card for ``seat``. ``legal`` is a non-empty mask of
    legal cards, ``trick`` the cards played to this trick so far, ``gone``
    every card played this hand (trick included), ``voids`` by seat the
    suits shown out of, ``bids`` / ``won`` / ``values`` by seat. ``hands``
    (by seat), for a seat that sees every hand (the search's rollouts, as
    an option): whether an opponent can beat a card, or a side suit's top
    card is sure, is then read from their cards; with ``reads_all`` too,
    which of the seat's cards are the top ones left (its discards, the
    hearts it cashes, the honours it leads away from); with ``team``
    instead, a seat that leads for a partner who needs tricks leads low
    into a side suit where the partner's top card is sure."""
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
    # The cards that may beat ours: any held by another seat, or, for a
    # seat that reads every hand, the opponents'.
    theirs = hands[o1] | hands[o2] if reads_all and hands is not None else outstanding
    n = len(trick)
    if n == 0:
        return _lead(
            seat,
            hand,
            legal,
            outstanding,
            voids,
            need,
            need_me,
            need_p,
            opp_need,
            theirs,
            hands,
            team,
        )

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
        return _discard(hand, legal, theirs, need_me, need_p > 0 and need_me == 0)

    def cheapest_safe() -> int:
        m = mine_win
        while m:
            low = m & -m
            c = low.bit_length() - 1
            if not _threat(c, led, later_opps, outstanding, voids, hands):
                return c
            m ^= low
        return -1

    if not mine_win:
        return lose()

    if wseat == partner:
        partner_safe = not _threat(best, led, later_opps, outstanding, voids, hands)
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


def _lead(  # noqa: C901, PLR0911, PLR0912, PLR0913, PLR0915, PLR0917 - the lead's decision table, flat and positional: called from choose_card on the rollouts' hot path
    seat: int,
    hand: int,
    legal: int,
    outstanding: int,
    voids: list[int],
    need: list[int],
    need_me: int,
    need_p: int,
    opp_need: int,
    theirs: int,
    hands: list[int] | None,
    team: bool = False,
) -> int:
    """The lead. ``theirs``: the cards that may beat ours (``choose_card``'s);
    ``team``: see ``choose_card``."""
    around = SEAT_AFTER[seat]
    partner = around[2]
    o1 = around[1]
    o2 = around[3]
    my_h = hand & HEARTS
    out_h = theirs & HEARTS
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
        if hands is not None:
            for o in (o1, o2):
                held = hands[o]
                if held & ABOVE[t] or (held & HEARTS and not held & SUIT_MASKS[s]):
                    return -1
            return t
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
        if team and hands is not None:
            c = _to_partner(hand, hands[partner], hands[o1], hands[o2])
            if c >= 0:
                return c
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
        if RANK_OF[top] >= 10 and theirs & ABOVE[top] and n <= 3:
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


def _to_partner(hand: int, partner: int, h1: int, h2: int) -> int:
    """Our lowest card of the first side suit whose top card the partner
    holds for sure (no opponent holds a higher one of the suit or can ruff
    it), or -1: a lead into the partner's winner (``_lead`` with ``team``)."""
    for s in _SIDE:
        sm = SUIT_MASKS[s]
        mine = hand & sm
        theirs = partner & sm
        if not mine or not theirs:
            continue
        if (h1 | h2) & sm & ABOVE[theirs.bit_length() - 1]:
            continue
        if any(h & HEARTS and not h & sm for h in (h1, h2)):
            continue
        return low_card(mine)
    return -1


# ------------------------------------------------------------------ bot


def heuristic_card(k: Knowledge, *, gone: int | None = None, voids: list[int] | None = None) -> int:
    """The heuristic's card for the seat of ``k`` among its legal cards;
    ``gone`` and ``voids`` stand in for what ``k`` knows when a player knows
    more (a colluder told its partner's hand counts those cards as out of
    the opponents' reach)."""
    return choose_card(
        k.seat,
        k.hand,
        mask_of(k.legal or ()),
        k.trick,
        k.gone if gone is None else gone,
        k.voids if voids is None else voids,
        k.bids,
        k.won,
        k.values,
        k.tricks_left,
    )


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
        return heuristic_card(k)
