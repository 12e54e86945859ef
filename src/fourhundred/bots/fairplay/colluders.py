"""Colluding bots: **cheaters built only to measure the detector**.

Each is told its partner's unplayed cards before every decision (the game
loop of :mod:`.games` calls :meth:`Colluder.peek`), as partners talking
over a phone would be. They are never registered as playable bots (not in
``BOTS``, not a level) and nothing outside this package and
``bench/fairplay.py`` imports them.

Two strengths, each at a rate of cheating (the share of decisions, bids
and cards, on which the peeked hand is used; the others are made
honestly):

* ``heuristic``: in play, the heuristic told the partner's voids, and the
  partner's cards as out of the opponents' reach (a human cheat: "I'm out
  of clubs, I hold the ace of spades"); in bidding, the heuristic's bid
  with its honours under the partner's counted for more (:func:`cheat_bid`)
  and the partner's real strength in place of a guess from its bid;
* ``search``: the search bot whose deals give the partner its real hand
  (only the opponents' cards are sampled), on its bids (the simulated
  hands) and its cards, with a fixed number of deals.
"""

from __future__ import annotations

import random
from typing import Final

from fourhundred.engine import BID_BASE, REDEAL, SUIT_MASKS, Action, View

from ..base import Bot
from ..heuristic import (
    HeuristicBot,
    bid_from_distribution,
    estimate_tricks,
    trick_distribution,
)
from ..knowledge import Knowledge
from ..search import Sampler, SearchBot
from .policy import told_card
from .worlds import PartnerFixed

__all__ = [
    "COLLUDER_RATES",
    "COLLUDER_STRENGTHS",
    "Colluder",
    "HeuristicColluder",
    "SearchColluder",
    "cheat_bid",
    "make_colluder",
    "promoted",
]

COLLUDER_STRENGTHS: Final = ("heuristic", "search")
COLLUDER_RATES: Final = (1.0, 0.5, 0.25)
SEARCH_DEALS: Final = 16
"""Deals per decision of the search colluder (one process)."""


def promoted(hand: int, partner_hand: int) -> int:
    """``hand`` with each card raised past the partner's higher cards of its
    suit, as if the partner's cards were out of the deck: with the partner
    holding the ace and king of spades, a queen of spades counts as the
    ace. How a cheat who sees the partner's cards counts their own tricks.

    >>> from fourhundred.engine import mask_of, parse_card
    >>> mine = mask_of([parse_card("QS"), parse_card("2S")])
    >>> theirs = mask_of([parse_card("AS"), parse_card("KS"), parse_card("3S")])
    >>> promoted(mine, theirs) == mask_of([parse_card("AS"), parse_card("5S")])
    True
    """
    out = 0
    for suit_mask in SUIT_MASKS:
        base = (suit_mask & -suit_mask).bit_length() - 1
        mine = (hand & suit_mask) >> base
        theirs = (partner_hand & suit_mask) >> base
        for rank in range(13):
            if mine >> rank & 1:
                lift = (theirs >> (rank + 1)).bit_count()
                out |= 1 << (base + rank + lift)
    return out


def cheat_bid(k: Knowledge, legal: tuple[int, ...], partner_hand: int) -> int:
    """The heuristic's bid (:func:`..heuristic.heuristic_bid`) made with the
    partner's cards seen: the trick estimate moved half way from its own
    cards' to its :func:`promoted` cards' (a king under the partner's ace
    is more than a king, less than an ace: the ace takes a round of the
    suit), and lowered for a strong partner by the partner's real strength
    rather than by its bid (which the first bidders cannot see yet)."""
    own = estimate_tricks(k.hand)
    e = (own + 0.5 * (estimate_tricks(promoted(k.hand, partner_hand)) - own)) * 1.05 + 0.2
    strength = estimate_tricks(partner_hand)
    if strength >= 5:
        e -= 0.2 * (strength - 4)
    return bid_from_distribution(k, legal, trick_distribution(e))


class Colluder(Bot):
    """A bot told its partner's hand (:meth:`peek`) that uses it on a share
    ``rate`` of its decisions (bids and cards)."""

    rate: float
    partner_hand: int

    def peek(self, partner_hand: int) -> None:
        """Told the partner's unplayed cards (before each decision)."""
        self.partner_hand = partner_hand


class HeuristicColluder(HeuristicBot, Colluder):
    """The heuristic, told the partner's voids and cards."""

    name = "colluder-heuristic"

    def __init__(self, *, seed: int | None = None, rate: float = 1.0) -> None:
        super().__init__(seed=seed)
        self.rate = rate
        self.partner_hand = 0
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if view.legal is None or len(view.legal) < 2 or self._rng.random() >= self.rate:
            return super().choose(view)
        k = Knowledge.from_view(view)
        if view.phase == "bid":
            honest = super().choose(view)
            if honest == REDEAL:  # a new deal asked for: weak whatever the partner holds
                return honest
            return BID_BASE + cheat_bid(k, view.legal, self.partner_hand)
        return told_card(k, self.partner_hand)


class SearchColluder(SearchBot, Colluder):
    """The search, its deals giving the partner its real hand on the
    decisions it cheats on (bids and cards)."""

    name = "colluder-search"

    def __init__(
        self, *, seed: int | None = None, rate: float = 1.0, deals: int = SEARCH_DEALS
    ) -> None:
        super().__init__(seed=seed, iterations=deals, workers=1)
        self.rate = rate
        self.partner_hand = 0
        self._cheat_rng = random.Random(None if seed is None else seed + 7)
        self._cheating = False

    def choose(self, view: View) -> Action:
        self._cheating = self._cheat_rng.random() < self.rate
        return super().choose(view)

    def sampler(self, view: View) -> Sampler | None:
        if self._cheating and self.partner_hand:
            return PartnerFixed(self.partner_hand, self.fast)
        return None


def make_colluder(strength: str, rate: float, seed: int) -> Colluder:
    """A colluder by strength (:data:`COLLUDER_STRENGTHS`) and rate."""
    if strength == "heuristic":
        return HeuristicColluder(seed=seed, rate=rate)
    if strength == "search":
        return SearchColluder(seed=seed, rate=rate)
    raise ValueError(f"unknown colluder {strength!r} (known: {', '.join(COLLUDER_STRENGTHS)})")
