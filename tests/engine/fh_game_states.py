"""Games at a known point, shared by the game-state tests
(``test_state_*.py``) and the record tests (``INTERLEAVED``): two fixed
deals, a game dealt and bidding, one dealt and playing, and one already won."""

from __future__ import annotations

from typing import Any

from fourhundred.engine import STANDARD, GameState, Phase, mask_of

# Card c goes to seat c % 4: every seat holds every suit.
INTERLEAVED = [mask_of(c for c in range(52) if c % 4 == s) for s in range(4)]
# Seat s holds the whole of suit s (clubs, diamonds, hearts, spades).
BY_SUIT = [mask_of(range(13 * s, 13 * s + 13)) for s in range(4)]


def bidding(dealer: int = 3, deal: list[int] = INTERLEAVED, settings: Any = STANDARD) -> GameState:
    state = GameState(settings, first_dealer=dealer)
    state.deal(deal)
    return state


def playing(dealer: int = 3, deal: list[int] = INTERLEAVED, bids: int = 3) -> GameState:
    state = bidding(dealer, deal)
    for _ in range(4):
        state.bid(bids)
    assert state.phase is Phase.PLAY
    return state


def finished() -> GameState:
    """A game won by team 0 in its first hand: seat 0 holds every heart and
    wins every trick, reaching 11 while its partner stays above zero."""
    state = GameState(STANDARD.replace(target=11), first_dealer=3)
    state.scores = [9, 0, 5, 0]
    state.deal([BY_SUIT[2], BY_SUIT[0], BY_SUIT[1], BY_SUIT[3]])
    for n in (2, 3, 3, 3):
        state.bid(n)
    while state.phase is Phase.PLAY:
        state.play(state.timeout_action())
    assert state.scores == [11, -3, 2, -3]
    assert state.phase is Phase.OVER
    assert state.winner == 0
    return state
