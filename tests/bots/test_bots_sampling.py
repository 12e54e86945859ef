"""Sampled deals are consistent with the view: counts, voids, own hand."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from fourhundred.bots.knowledge import SUIT_MASKS, Knowledge
from fourhundred.bots.sampling import bid_likelihood, sample_hands
from fourhundred.engine import GameState, Phase, mask_of, parse_card, view_for


def _hand(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split(" "))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(0, 55), rseed=st.integers(0, 100))
def test_samples_fit_the_view(seed: int, n: int, rseed: int) -> None:
    import fourhundred.engine as e

    rng = random.Random(seed)
    s = GameState(first_dealer=rng.randrange(4))
    s.deal(e.deal_masks(rng))
    for _ in range(n):
        if s.phase not in (Phase.BID, Phase.PLAY):
            break
        legal = s.legal_actions()
        s.apply(rng.choice(legal[:3] if s.phase is Phase.BID else legal))
    if s.phase not in (Phase.BID, Phase.PLAY):
        return
    for seat in range(4):
        k = Knowledge.from_view(view_for(s, seat))
        hands = sample_hands(k, random.Random(rseed))
        assert hands[seat] == s.hand(seat)
        assert hands[0] | hands[1] | hands[2] | hands[3] == (
            s.hand(0) | s.hand(1) | s.hand(2) | s.hand(3)
        )
        for x in range(4):
            assert hands[x].bit_count() == s.hand(x).bit_count()
            # Nobody is dealt a suit they have shown out of.
            assert not hands[x] & k.voids[x]
            # Voids inferred are real: the true hand has none of that suit.
            assert not s.hand(x) & k.voids[x]


def test_voids_are_read_from_failures_to_follow(advance: Callable[..., GameState]) -> None:
    s = GameState(first_dealer=3)
    # Seat 1 has no clubs: when seat 0 leads a club, seat 1 shows out.
    deal = [
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
        "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    ]
    s.deal([mask_of(parse_card(c) for c in h.split()) for h in deal])
    for _ in range(4):
        s.bid(3)
    s.play(parse_card("AC"))
    s.play(parse_card("2D"))
    k = Knowledge.from_view(view_for(s, 2))
    assert k.voids[1] == SUIT_MASKS[0]
    assert k.voids[0] == 0


def test_high_bids_fit_strong_hands() -> None:
    s = GameState(first_dealer=3)
    s.deal_random(seed=4)
    s.bid(6)
    k = Knowledge.from_view(view_for(s, 1))
    strong = mask_of(
        parse_card(c)
        for c in ["AH", "KH", "QH", "5H", "3H", "AS", "KS", "AD", "4D", "3C", "4C", "5C", "6S"]
    )
    weak = mask_of(
        parse_card(c)
        for c in ["2H", "3C", "4C", "5C", "6D", "7D", "8D", "2S", "3S", "4S", "5S", "6S", "7S"]
    )
    assert bid_likelihood(k, 0, strong) > 10 * bid_likelihood(k, 0, weak)
