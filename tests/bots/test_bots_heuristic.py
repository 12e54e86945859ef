"""The heuristic bot: always legal, and sound in the situations 400 players
know (bids by value and game situation, partner, trumps)."""

from __future__ import annotations

import random

import pytest

from fourhundred.bots import make_bot
from fourhundred.bots.heuristic import HeuristicBot, estimate_tricks
from fourhundred.engine import (
    BID_BASE,
    PRESETS,
    GameState,
    Phase,
    deal_masks,
    mask_of,
    parse_card,
    preset,
    view_for,
)


def _hand(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def _deal(hands: list[str], dealer: int = 3, name: str = "standard") -> GameState:
    s = GameState(preset(name), first_dealer=dealer)
    masks = [_hand(h) for h in hands]
    s.deal(masks)
    return s


# Four hands that split the deck: seat 0 strong in hearts.
HANDS = [
    "AH KH QH JH 3H AS 4S 2S AD 3D 2D 3C 2C",
    "TH 9H 8H KS QS JS KD QD JD AC KC QC JC",
    "7H 6H 5H TS 9S 8S TD 9D 8D TC 9C 8C 7C",
    "4H 2H 7S 6S 5S 3S 7D 6D 5D 4D 6C 5C 4C",
]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_always_legal_in_every_preset(name: str) -> None:
    bots = [make_bot("heuristic") for _ in range(4)]
    rng = random.Random(name)
    for _ in range(3):
        s = GameState(preset(name), rng=rng)
        while s.phase is not Phase.OVER and s.hand_index < 60:
            s.deal(deal_masks(rng))
            while s.phase in (Phase.BID, Phase.PLAY):
                v = view_for(s, s.turn)
                a = bots[s.turn].choose(v)
                if v.can_redeal and a == 66:
                    s.request_redeal(s.turn)
                    continue
                assert a in s.legal_actions()
                s.apply(a)


def test_stronger_hands_bid_more() -> None:
    s = _deal(HANDS)
    strong = HeuristicBot().choose(view_for(s, 0)) - BID_BASE
    assert estimate_tricks(_hand(HANDS[0])) > estimate_tricks(_hand(HANDS[2]))
    # Seat 2 (weak) would bid the minimum in the same seat.
    s2 = _deal([HANDS[2], HANDS[1], HANDS[0], HANDS[3]])
    weak = HeuristicBot().choose(view_for(s2, 0)) - BID_BASE
    assert strong >= 4
    assert weak == 2


def test_dealer_keeps_a_good_hand_in_play_and_throws_a_bad_one_in() -> None:
    # Dealer is seat 3; the others bid 2, 2, 2: total 6 of 11 needed.
    good = [HANDS[1], HANDS[2], HANDS[3], HANDS[0]]
    s = _deal(good)
    for _ in range(3):
        s.bid(2)
    assert HeuristicBot().choose(view_for(s, 3)) - BID_BASE >= 5
    s = _deal(HANDS)
    for _ in range(3):
        s.bid(2)
    # Seat 3 holds the weakest hand: it does not promise 5 tricks.
    assert HeuristicBot().choose(view_for(s, 3)) - BID_BASE == 2


def test_bids_what_wins_the_game() -> None:
    s = _deal(HANDS, dealer=3)
    s.scores = [37, 0, 5, 0]  # seat 0 needs 4 more; the partner is above zero
    got = HeuristicBot().choose(view_for(s, 0)) - BID_BASE
    assert got >= 4
    s.scores = [0, 0, 0, 0]
    fresh = HeuristicBot().choose(view_for(s, 0)) - BID_BASE
    assert got <= fresh + 1


def _play_state(bids: list[int], plays: list[str], hands: list[str] | None = None) -> GameState:
    s = _deal(hands or HANDS)
    for b in bids:
        s.bid(b)
    for c in plays:
        s.play(parse_card(c))
    return s


def test_draws_trumps_with_the_top_heart() -> None:
    s = _play_state([5, 3, 2, 2], [])
    assert s.turn == 0
    assert HeuristicBot().choose(view_for(s, 0)) == parse_card("AH")


def test_does_not_take_a_trick_the_partner_needs() -> None:
    from fourhundred.bots.heuristic import choose_card

    # We are seat 1 and have made our 2; our partner, seat 3, bid 6 and has
    # 2. The partner led the QC (the best club but our AC and KC), seat 0
    # followed: we duck rather than take the partner's trick.
    hand = _hand("AC KC 2C")
    trick = [parse_card("QC"), parse_card("4C")]
    bids = [3, 2, 3, 6]
    won = [1, 2, 1, 2]
    c = choose_card(1, hand, hand, trick, mask_of(trick), [0, 0, 0, 0], bids, won, bids, 10)
    assert c == parse_card("2C")
    # Had we still needed tricks and the partner not, we would take it.
    c = choose_card(
        1, hand, hand, trick, mask_of(trick), [0, 0, 0, 0], [3, 4, 3, 2], won, [3, 4, 3, 2], 10
    )
    assert c == parse_card("KC")


def test_ruffs_cheaply_when_void() -> None:
    from fourhundred.bots.heuristic import choose_card

    hand = _hand("9H 4H 2D")
    trick = [parse_card("AS")]  # an opponent leads the top spade; we have none
    c = choose_card(
        1,
        hand,
        hand,
        trick,
        mask_of(trick),
        [0, 0, 0, 0],
        [3, 3, 2, 3],
        [0, 1, 0, 0],
        [3, 3, 2, 3],
        12,
    )
    # Two players follow after us and may hold spades: the 4H wins unless
    # someone else is void in spades, which nobody has shown.
    assert c == parse_card("4H")


def test_discards_instead_of_trumping_a_partners_winner() -> None:
    from fourhundred.bots.heuristic import choose_card

    hand = _hand("9H 4H 2D 7C")
    # Seat 0 (our partner, seat 2 is us) led the AS, seat 1 followed: we are
    # third and void in spades; the partner needs tricks.
    trick = [parse_card("AS"), parse_card("3S")]
    gone = mask_of(trick) | mask_of(
        parse_card(c) for c in ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "2S"]
    )
    c = choose_card(
        2, hand, hand, trick, gone, [0, 0, 0, 0], [4, 3, 2, 3], [1, 1, 2, 0], [4, 3, 2, 3], 10
    )
    assert c in (parse_card("2D"), parse_card("7C"))


def test_a_seat_that_sees_the_deal_leads_into_the_partners_sure_winner() -> None:
    from fourhundred.bots.heuristic import choose_card
    from fourhundred.bots.knowledge import FULL
    from fourhundred.bots.rollout import true_voids

    # Three tricks left. We (seat 1) have made our bid; our partner (seat
    # 3) needs two more. The partner holds the AS, the top spade: leading
    # our spade gives the partner a trick. Without reading the partner's
    # cards we lead our lowest card, the 2C.
    hands = [_hand("KS 9D 3C"), _hand("7S 8D 2C"), _hand("QS TD 4C"), _hand("AS 4S 5D")]
    gone = FULL ^ hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
    bids, won = [3, 2, 3, 4], [3, 2, 3, 2]
    args = (1, hands[1], hands[1], [], gone, true_voids(hands), bids, won, bids, 3, hands)
    assert choose_card(*args) == parse_card("2C")
    assert choose_card(*args, False, True) == parse_card("7S")
    # Not when an opponent could ruff the spade (void in it, with a heart).
    hands[0], hands[2] = _hand("KS 9D 3C"), _hand("2H TD 4C")
    gone = FULL ^ hands[0] ^ hands[1] ^ hands[2] ^ hands[3]
    args = (1, hands[1], hands[1], [], gone, true_voids(hands), bids, won, bids, 3, hands)
    assert choose_card(*args, False, True) == parse_card("2C")
