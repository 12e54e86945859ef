"""Deals and positions shared by the rules tests (``test_rules_*.py``): the
worked example of docs/rules.md, "Scoring", as a deal and its tricks; a game
at its first deal with given scores; and a deal that gives one seat the cards
a test needs."""

from __future__ import annotations

from fourhundred.engine import (
    STANDARD,
    GameState,
    Phase,
    Settings,
    mask_of,
    parse_card,
    required_total,
)

# ---------------------------------------------------------------- the example
#
# docs/rules.md, "Scoring": "North deals, so West bids first: West 3, South 4,
# East 2, North 2. The total is 11, so the hand is played. West takes 4
# tricks, South 3, East 3, North 3. West made 3 (+3), South failed 4 (-4),
# East and North made 2 (+2 each)."
#
# Play goes "to the right", and the seat after the dealer bids and leads
# first: with North the dealer, West is dealer+1, South dealer+2, East
# dealer+3. The deal below is built so that every trick but the last is a
# plain follow-suit trick won by the highest card, and in the last one East
# leads a heart to which nobody can follow.

ROLES = ("W", "S", "E", "N")
"""In bidding order: the dealer (North) bids last."""

EXAMPLE_DEAL = {
    "W": "AC KC QC 2C AD 3D 2D TH 9H 8H JS TS 9S",
    "S": "JC TC 9C KD QD JD 4D AH 3H 2H 8S 7S 6S",
    "E": "8C 7C 6C TD 9D 8D KH QH JH 4H 5S 4S 3S",
    "N": "5C 4C 3C 7D 6D 5D 7H 6H 5H AS KS QS 2S",
}

EXAMPLE_TRICKS = [
    # leader, cards in play order (from the leader), winner
    ("W", "AC JC 8C 5C", "W"),
    ("W", "KC TC 7C 4C", "W"),
    ("W", "QC 9C 6C 3C", "W"),
    ("W", "AD JD TD 7D", "W"),
    ("W", "3D KD 9D 6D", "S"),
    ("S", "QD 8D 5D 2D", "S"),
    ("S", "AH 4H 5H 8H", "S"),
    ("S", "8S 5S AS JS", "N"),
    ("N", "KS TS 7S 4S", "N"),
    ("N", "QS 9S 6S 3S", "N"),
    ("N", "6H 9H 3H KH", "E"),
    ("E", "QH 7H TH 2H", "E"),
    ("E", "JH 2S 2C 4D", "E"),
]
EXAMPLE_TRICKS_WON = {"W": 4, "S": 3, "E": 3, "N": 3}


def seat_of(dealer: int, role: str) -> int:
    return (dealer + 1 + ROLES.index(role)) % 4


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def example_deal(dealer: int) -> list[int]:
    masks = [0, 0, 0, 0]
    for role, text in EXAMPLE_DEAL.items():
        masks[seat_of(dealer, role)] = mask_of(cards(text))
    return masks


def new_state(
    settings: Settings = STANDARD, dealer: int = 0, scores: list[int] | None = None
) -> GameState:
    """A game at its first deal, with these scores before the hand. Setting
    the scores directly (and the required total that follows from them)
    stands for the hands that would have led there."""
    state = GameState(settings, first_dealer=dealer)
    if scores is not None:
        state.scores = list(scores)
        state.required = required_total(settings, scores)
    return state


def play_example(state: GameState, bids: dict[str, int], *, tricks: int = 13) -> None:
    """Deal the example hand, bid ``bids`` (by role) and play its tricks,
    each card by the seat the script says, checking every trick's winner."""
    d = state.dealer
    state.deal(example_deal(d))
    for role in ROLES:
        state.bid(bids[role], seat_of(d, role))
    assert state.phase is Phase.PLAY
    for leader, text, winner in EXAMPLE_TRICKS[:tricks]:
        seat = seat_of(d, leader)
        for c in cards(text):
            state.play(c, seat)
            seat = (seat + 1) % 4
        assert state.trick_winners[-1] == seat_of(d, winner)


def deal_giving(
    seat: int, held: list[int], others: dict[int, list[int]] | None = None
) -> list[int]:
    """A deal where ``seat`` holds ``held`` (13 cards), the seats in
    ``others`` hold theirs, and the rest of the deck goes round in deck order."""
    masks = [0, 0, 0, 0]
    masks[seat] = mask_of(held)
    for s, cs in (others or {}).items():
        masks[s] = mask_of(cs)
    rest = [c for c in range(52) if not any(m >> c & 1 for m in masks)]
    for s in range(4):
        while masks[s].bit_count() < 13:
            masks[s] |= 1 << rest.pop(0)
    assert masks[0] | masks[1] | masks[2] | masks[3] == (1 << 52) - 1
    return masks
