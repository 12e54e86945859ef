"""Tricks (docs/rules.md, "Play"): the winner, the legal plays, the voids shown.

The engine's answers are checked against the play cores (which decide every
real trick) and against a reference written independently from docs/rules.md."""

from __future__ import annotations

import random

import pytest

from fourhundred.engine import (
    BEATERS,
    HEARTS_MASK,
    SHOWN_VOID,
    SUIT_MASKS,
    GameState,
    Phase,
    Suit,
    Trick,
    beaters,
    legal_plays,
    mask_of,
    parse_card,
    trick_winner,
    winning_index,
)


def cards(text: str) -> list[int]:
    return [parse_card(x) for x in text.split()]


def reference_index(trick: list[int]) -> int:
    led = trick[0] // 13

    def key(c: int) -> tuple[int, int]:
        if c // 13 == Suit.HEARTS:
            return (2, c % 13)
        return (1, c % 13) if c // 13 == led else (0, 0)

    return max(range(len(trick)), key=lambda i: key(trick[i]))


@pytest.mark.parametrize(
    ("trick", "leader", "winner"),
    [
        ("2C AC KC 3D", 2, 3),  # highest of the suit led
        ("2C AC 2H AD", 0, 2),  # any heart beats the suit led
        ("5H AS 3H KH", 1, 0),  # the highest heart
        ("KS 2D 3D 4D", 3, 3),  # discards never win
        ("QD KD 9H TH", 1, 0),
    ],
)
def test_trick_winner(trick: str, leader: int, winner: int) -> None:
    assert trick_winner(cards(trick), leader) == winner


def test_trick_winner_of_a_trick_in_progress() -> None:
    assert trick_winner(cards("2C AC"), 3) == 0
    assert trick_winner(cards("2C"), 3) == 3
    assert winning_index(cards("2C AC 2H")) == 2
    with pytest.raises(ValueError, match="1 to 4 cards"):
        trick_winner([], 0)
    with pytest.raises(ValueError, match="1 to 4 cards"):
        trick_winner(cards("2C 3C 4C 5C 6C"), 0)


def test_random_tricks_agree_with_the_reference() -> None:
    rng = random.Random(1)
    for _ in range(5000):
        trick = rng.sample(range(52), rng.randint(1, 4))
        leader = rng.randrange(4)
        assert winning_index(trick) == reference_index(trick)
        assert trick_winner(trick, leader) == (leader + reference_index(trick)) % 4


def test_the_play_core_agrees_on_whole_games() -> None:
    """Every trick the core decides, ``trick_winner`` decides the same way,
    and ``legal_plays`` is the core's legal set at every card."""
    rng = random.Random(2)
    for seed in range(20):
        s = GameState(first_dealer=seed % 4)
        while s.phase is not Phase.OVER and s.hand_index < 4:
            s.deal_random(seed=rng.randrange(10**6))
            while s.phase is Phase.BID:
                s.bid(s.legal_bids()[-1 if rng.random() < 0.3 else 0])
            while s.phase is Phase.PLAY:
                assert legal_plays(s.hand(s.turn), s.current_trick) == s.legal_mask()
                s.play(rng.choice(s.legal_cards()))
            h = s.history[-1]
            leader = (h.dealer + 1) % 4
            for i, w in enumerate(h.trick_winners):
                assert trick_winner(h.plays[4 * i : 4 * i + 4], leader) == w
                leader = w
            last = h.last_trick()
            if h.trick_winners:
                assert last == Trick(
                    h.trick_winners[-2] if len(h.trick_winners) > 1 else (h.dealer + 1) % 4,
                    h.plays[-4:],  # type: ignore[arg-type]
                    h.trick_winners[-1],
                )
            else:
                assert last is None


def test_legal_plays_follow_suit() -> None:
    hand = mask_of(cards("3S 4S AH 2C"))
    assert legal_plays(hand, cards("KS")) == mask_of(cards("3S 4S"))
    assert legal_plays(hand, cards("KD QD")) == hand
    assert legal_plays(hand, []) == hand
    assert legal_plays(hand, cards("2H")) == mask_of(cards("AH"))


def test_beaters() -> None:
    qs = parse_card("QS")
    assert beaters(qs, Suit.SPADES) == mask_of(cards("KS AS")) | HEARTS_MASK
    assert beaters(parse_card("QH"), Suit.SPADES) == mask_of(cards("KH AH"))
    # A discard is beaten by the suit led and every heart.
    assert beaters(parse_card("2D"), Suit.CLUBS) == SUIT_MASKS[Suit.CLUBS] | HEARTS_MASK
    # Exhaustively: with ``c`` winning so far, ``other`` played after it
    # takes the trick exactly when it is one of ``beaters(c, led)``.
    for c in range(52):
        for led in range(4):
            if c // 13 == led:
                opening: list[int] = []
            elif c // 13 == Suit.HEARTS:
                opening = [led * 13]  # the 2 of the suit led, trumped by c
            else:
                continue  # a discard never wins: checked above
            for other in range(52):
                if other == c or other in opening:
                    continue
                trick = [*opening, c, other]
                wins = winning_index(trick) == len(trick) - 1
                assert wins == bool(beaters(c, led) >> other & 1), (c, led, other)
    assert all(BEATERS[led][c] == beaters(c, led) for led in range(4) for c in range(52))


def test_shown_void() -> None:
    ks, kd, ah = parse_card("KS"), parse_card("KD"), parse_card("AH")
    assert SHOWN_VOID[ks][parse_card("2S")] == 0
    assert SHOWN_VOID[ks][kd] == SUIT_MASKS[Suit.SPADES]
    assert SHOWN_VOID[ks][ah] == SUIT_MASKS[Suit.SPADES]
    assert SHOWN_VOID[ah][ks] == HEARTS_MASK
