"""The game state: phases, the checked path and its errors (each quoting the
input and the reason, and changing nothing), the fast path, and utilities."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from fourhundred.engine import (
    BID_BASE,
    REDEAL,
    STANDARD,
    FourHundredError,
    GameOver,
    GameState,
    IllegalAction,
    IllegalBid,
    IllegalCard,
    IllegalRedeal,
    InvalidDeal,
    NotYourTurn,
    Phase,
    RecordError,
    Trick,
    WrongPhase,
    card_str,
    cards_of,
    mask_of,
    parse_card,
    view_for,
)
from fourhundred.engine.errors import InvalidSettings

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


def fingerprint(state: GameState) -> tuple[Any, ...]:
    views = (
        ()
        if state.phase is Phase.DEAL
        else tuple(json.dumps(view_for(state, v).to_dict()) for v in (None, 0, 1, 2, 3))
    )
    return (
        state.line(),
        state.hands,
        state.plays,
        list(state.history),
        list(state.scores),
        state.dealt,
        views,
    )


def refused(
    state: GameState, error: type[Exception], message: str, act: Callable[[], object]
) -> None:
    """``act`` raises exactly ``error`` with exactly ``message`` and leaves
    the state as it was."""
    before = fingerprint(state)
    with pytest.raises(error) as info:
        act()
    assert type(info.value) is error
    assert str(info.value) == message
    assert fingerprint(state) == before


# ---------------------------------------------------------------- the errors


def test_error_hierarchy() -> None:
    for e in (
        IllegalAction,
        IllegalBid,
        IllegalCard,
        IllegalRedeal,
        NotYourTurn,
        WrongPhase,
        GameOver,
        InvalidDeal,
        InvalidSettings,
        RecordError,
    ):
        assert issubclass(e, FourHundredError)
        assert issubclass(e, ValueError)
    for e in (IllegalBid, IllegalCard, IllegalRedeal, NotYourTurn, WrongPhase):
        assert issubclass(e, IllegalAction)
    assert issubclass(GameOver, WrongPhase)


def test_illegal_bid() -> None:
    s = bidding()
    refused(s, IllegalBid, "bid 1 by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid(1))
    refused(
        s, IllegalBid, "bid 13 by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid(13)
    )
    refused(
        s,
        IllegalBid,
        "bid 1 by seat 0 is not legal: seat 0 may bid 2 to 12",
        lambda: s.apply(BID_BASE + 1),
    )
    refused(
        s, IllegalBid, "bid 3.0 by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid(3.0)
    )  # type: ignore[arg-type]
    refused(
        s,
        IllegalBid,
        "bid True by seat 0 is not legal: seat 0 may bid 2 to 12",
        lambda: s.bid(True),
    )
    refused(
        s, IllegalBid, "bid '3' by seat 0 is not legal: seat 0 may bid 2 to 12", lambda: s.bid("3")
    )  # type: ignore[arg-type]


def test_not_your_turn() -> None:
    s = bidding()
    refused(
        s, NotYourTurn, "bid 3 by seat 2: it is seat 0's turn, not seat 2's", lambda: s.bid(3, 2)
    )
    refused(
        s,
        NotYourTurn,
        "bid 3 by seat 1: it is seat 0's turn, not seat 1's",
        lambda: s.apply(BID_BASE + 3, 1),
    )
    refused(s, NotYourTurn, "bid 3 by seat 7: 7 is not a seat", lambda: s.bid(3, 7))
    refused(s, NotYourTurn, "bid 3 by seat True: True is not a seat", lambda: s.bid(3, True))
    p = playing()
    refused(
        p,
        NotYourTurn,
        "card '3C' by seat 1: it is seat 0's turn, not seat 1's",
        lambda: p.play(parse_card("3C"), 1),
    )


@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_a_seat_must_be_an_int_even_when_it_equals_the_turn(seat: Any) -> None:
    """True == 1 and 1.0 == 1, but neither is seat 1 (a bug found and fixed)."""
    s = bidding(dealer=0)
    assert s.turn == 1
    refused(s, NotYourTurn, f"bid 3 by seat {seat}: {seat!r} is not a seat", lambda: s.bid(3, seat))
    refused(
        s,
        NotYourTurn,
        f"bid 3 by seat {seat}: {seat!r} is not a seat",
        lambda: s.apply(BID_BASE + 3, seat),
    )
    p = playing(dealer=0)
    assert p.turn == 1
    card = p.legal_cards()[0]
    refused(
        p,
        NotYourTurn,
        f"card {card_str(card)!r} by seat {seat}: {seat!r} is not a seat",
        lambda: p.play(card, seat),
    )


def test_illegal_card() -> None:
    p = playing()
    assert p.turn == 0
    refused(
        p,
        IllegalCard,
        "card 'AH' by seat 0 is not legal: seat 0 does not hold it",
        lambda: p.play(parse_card("AH")),
    )
    p.play(parse_card("2C"))
    # Seat 1 holds clubs (3C, 7C, JC) and must follow.
    refused(
        p,
        IllegalCard,
        "card '2D' by seat 1 is not legal: seat 1 must follow clubs",
        lambda: p.play(parse_card("2D")),
    )
    refused(p, IllegalCard, "52 is not a card", lambda: p.play(52))
    refused(p, IllegalCard, "-1 is not a card", lambda: p.play(-1))
    refused(p, IllegalCard, "True is not a card", lambda: p.play(True))
    refused(p, IllegalCard, "'AH' is not a card", lambda: p.play("AH"))  # type: ignore[arg-type]


def test_wrong_phase() -> None:
    s = bidding()
    refused(
        s,
        WrongPhase,
        "card '2C' by seat 0: it is the bid phase, not play",
        lambda: s.play(parse_card("2C")),
    )
    refused(s, WrongPhase, "cannot deal during the bid phase", lambda: s.deal(INTERLEAVED))
    refused(s, WrongPhase, "cannot deal during the bid phase", lambda: s.deal_random(seed=1))
    p = playing()
    refused(p, WrongPhase, "bid 3 by seat 0: it is the play phase, not bid", lambda: p.bid(3))
    fresh = GameState(first_dealer=0)
    refused(
        fresh, WrongPhase, "bid 2 by seat 1: it is the deal phase, not bid", lambda: fresh.bid(2)
    )
    refused(
        fresh,
        WrongPhase,
        "card '2C' by seat 1: it is the deal phase, not play",
        lambda: fresh.play(0),
    )
    refused(fresh, WrongPhase, "no timeout action during the deal phase", fresh.timeout_action)


def test_game_over() -> None:
    s = finished()
    turn = s.turn
    refused(s, GameOver, f"bid 3 by seat {turn}: the game is over", lambda: s.bid(3))
    refused(s, GameOver, f"card '2C' by seat {turn}: the game is over", lambda: s.play(0))
    refused(s, GameOver, "redeal request by seat 1: the game is over", lambda: s.request_redeal(1))
    refused(s, WrongPhase, "cannot deal during the over phase", lambda: s.deal(INTERLEAVED))
    refused(s, WrongPhase, "no timeout action during the over phase", s.timeout_action)
    assert s.legal_actions() == []
    assert s.legal_bids() == []
    assert s.legal_cards() == []
    assert s.phase is Phase.OVER


def test_illegal_redeal() -> None:
    s = bidding(settings=STANDARD.replace(no_face_card_redeal=True))
    refused(
        s,
        IllegalRedeal,
        "redeal request by seat 0 not allowed: the hand holds an A, K, Q or J",
        lambda: s.request_redeal(0),
    )
    refused(
        s,
        IllegalRedeal,
        "redeal request by seat 0 not allowed: the hand holds an A, K, Q or J",
        lambda: s.apply(REDEAL),
    )
    refused(s, IllegalRedeal, "redeal request by 4: not a seat", lambda: s.request_redeal(4))
    off = bidding()
    refused(
        off,
        IllegalRedeal,
        "redeal request by seat 0 not allowed: no_face_card_redeal is off",
        lambda: off.request_redeal(0),
    )


def test_not_an_action() -> None:
    s = bidding()
    for bad in (52, 67, -1, 10**6):
        refused(s, IllegalAction, f"{bad} is not an action", lambda bad=bad: s.apply(bad))
    for weird in (True, 3.0, "3", None, [53]):
        refused(s, IllegalAction, f"{weird!r} is not an action", lambda w=weird: s.apply(w))


@pytest.mark.parametrize(
    "deal",
    [
        INTERLEAVED[:3],
        [*INTERLEAVED, 0],
        [INTERLEAVED[0], INTERLEAVED[0], INTERLEAVED[2], INTERLEAVED[3]],
        [INTERLEAVED[0] ^ 1, INTERLEAVED[1] | 1, INTERLEAVED[2], INTERLEAVED[3]],
        [INTERLEAVED[0] | (1 << 52), INTERLEAVED[1], INTERLEAVED[2], INTERLEAVED[3]],
        [True, INTERLEAVED[1], INTERLEAVED[2], INTERLEAVED[3]],
        [str(INTERLEAVED[0]), INTERLEAVED[1], INTERLEAVED[2], INTERLEAVED[3]],
    ],
)
def test_invalid_deal(deal: list[Any]) -> None:
    s = GameState(first_dealer=0)
    refused(
        s, InvalidDeal, "the deal is not 52 distinct cards, 13 to each seat", lambda: s.deal(deal)
    )
    assert s.phase is Phase.DEAL


@pytest.mark.parametrize("bad", [4, -1, True, 1.0, "0"])
def test_first_dealer_must_be_a_seat(bad: object) -> None:
    with pytest.raises(ValueError, match="first_dealer must be a seat 0-3") as info:
        GameState(first_dealer=bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


# ---------------------------------------------------------- phases and turns


def test_a_new_game_waits_for_a_deal() -> None:
    s = GameState(first_dealer=2)
    assert s.phase is Phase.DEAL
    assert s.hand_index == 0
    assert s.dealer == 2
    assert s.turn == 3
    assert s.scores == [0, 0, 0, 0]
    assert s.required == 11
    assert s.legal_actions() == []
    # The first bid of the hand is known before its deal (docs/game-record.md,
    # "The result of a replay": `next`).
    assert s.legal_bids() == list(range(2, 13))
    assert s.bid_range() == (2, 12)
    assert s.line() == (
        "hand 0 dealer 2 deal turn 3 scores 0 0 0 0 need 11 bids - - - - won 0 0 0 0"
    )


def test_one_hand_through_the_phases() -> None:
    s = bidding(dealer=3)
    assert s.phase is Phase.BID
    assert s.turn == 0
    assert s.legal_actions() == [BID_BASE + n for n in range(2, 13)]
    assert s.legal_cards() == []
    for expected_turn, n in zip((0, 1, 2, 3), (3, 4, 2, 2), strict=True):
        assert s.turn == expected_turn
        s.bid(n)
    assert s.bids_in_order() == [3, 4, 2, 2]
    assert [s.bid_of(x) for x in range(4)] == [3, 4, 2, 2]
    assert s.phase is Phase.PLAY
    assert s.turn == 0
    assert s.legal_bids() == []
    assert s.legal_cards() == cards_of(INTERLEAVED[0])
    assert s.line() == (
        "hand 0 dealer 3 play turn 0 scores 0 0 0 0 need 11 bids 3 4 2 2 won 0 0 0 0 trick -"
    )
    s.play(parse_card("AC"))
    assert s.line().endswith("trick AC")
    assert s.last_trick() is None
    # Seat 1 follows clubs: 3C 7C JC.
    assert [card_str(c) for c in s.legal_cards()] == ["3C", "7C", "JC"]
    for name in ("3C", "4C", "5C"):
        s.play(parse_card(name))
    assert s.trick_winners == [0]
    assert s.tricks_won == [1, 0, 0, 0]
    assert s.tricks() == [(0, [parse_card(x) for x in ("AC", "3C", "4C", "5C")], 0)]
    assert s.last_trick() == Trick(0, tuple(parse_card(x) for x in ("AC", "3C", "4C", "5C")), 0)
    assert s.turn == 0
    while s.phase is Phase.PLAY:
        s.play(s.legal_cards()[0])
    assert s.phase is Phase.DEAL
    assert s.hand_index == 1
    assert s.dealer == 0
    assert s.turn == 1
    h = s.history[0]
    assert h.hand_index == 0
    assert h.dealer == 3
    assert h.deal == tuple(INTERLEAVED)
    assert h.bids == (3, 4, 2, 2)
    # Dealer 3: seat 0 bid first, so by seat the order is the same.
    assert h.bids_by_seat == (3, 4, 2, 2)
    assert len(h.plays) == 52
    assert sum(h.tricks) == 13
    assert list(h.scores) == s.scores
    assert len(h.trick_winners) == 13
    assert h.trick_winners[0] == 0
    assert [h.trick_winners.count(x) for x in range(4)] == list(h.tricks)
    # Between hands the last trick is the finished hand's.
    last = s.last_trick()
    assert last is not None and last == h.last_trick()
    assert last.cards == h.plays[-4:] and last.winner == h.trick_winners[-1]
    assert last.leader == h.trick_winners[-2]
    s.deal(INTERLEAVED)
    assert s.last_trick() is None


def test_unchecked_fast_path_matches_the_checked_one() -> None:
    rng = random.Random(3)
    a = GameState(first_dealer=1)
    b = GameState(first_dealer=1)
    for hand in range(6):
        a.deal_random(seed=hand)
        b.deal_random(seed=hand)
        while a.phase is Phase.BID:
            lo, hi = b.bid_range()
            assert a.legal_bids() == list(range(lo, hi + 1))
            n = rng.randint(lo, min(hi, lo + 2))
            a.bid(n)
            b.bid_unchecked(n)
        mask = b.legal_mask() if b.phase is Phase.PLAY else 0
        while a.phase is Phase.PLAY:
            assert cards_of(mask) == a.legal_cards()
            c = rng.choice(a.legal_cards())
            a.play(c)
            mask = b.play_unchecked(c)
        assert mask == 0 or b.phase is Phase.DEAL
        assert a.line() == b.line()
        assert a.history == b.history
        if a.phase is Phase.OVER:
            break


@pytest.mark.parametrize(
    "how",
    [copy.copy, copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_copies_and_pickles_are_equal_and_independent(how: Callable[[GameState], Any]) -> None:
    s = playing()
    s.play(parse_card("AC"))
    s.play(parse_card("3C"))
    c = how(s)
    assert isinstance(c, GameState)
    assert c.line() == s.line()
    assert c.hands == s.hands
    assert c.plays == s.plays
    assert c.history == s.history
    assert c.legal_actions() == s.legal_actions()
    assert view_for(c, 2) == view_for(s, 2)
    c.play(c.legal_cards()[0])
    assert len(s.current_trick) == 2, "playing on the copy changed the original"
    # The copy plays on exactly like the original.
    s.play(c.current_trick[-1])
    assert c.line() == s.line()


def test_a_finished_game_pickles() -> None:
    s = finished()
    c = pickle.loads(pickle.dumps(s))
    assert c.line() == s.line()
    assert c.winner == 0
    with pytest.raises(GameOver):
        c.bid(2)


def test_clone_is_independent() -> None:
    s = playing()
    s.play(parse_card("AC"))
    c = s.clone()
    assert c.line() == s.line()
    assert c.hands == s.hands
    c.play(c.legal_cards()[0])
    assert c.line() != s.line()
    assert len(s.current_trick) == 1
    assert s.hand(1) != c.hand(1)
    c.scores[0] = 99
    assert s.scores[0] == 0


def test_seeded_deals_repeat_and_default_deals_vary() -> None:
    a = GameState(first_dealer=0)
    b = GameState(first_dealer=0)
    a.deal_random(seed=42)
    b.deal_random(seed=42)
    assert a.dealt == b.dealt
    c = GameState(first_dealer=0)
    c.deal_random(seed=43)
    assert c.dealt != a.dealt
    # A game's rng drives the first dealer and every deal.
    g1 = GameState(rng=random.Random(9))
    g2 = GameState(rng=random.Random(9))
    g1.deal_random()
    g2.deal_random()
    assert (g1.first_dealer, g1.dealt) == (g2.first_dealer, g2.dealt)
    # Without a seed or rng the deal comes from secrets: two deals differ.
    d1 = GameState(first_dealer=0)
    d2 = GameState(first_dealer=0)
    d1.deal_random()
    d2.deal_random()
    assert d1.dealt != d2.dealt
    for d in (a.dealt, g1.dealt, d1.dealt):
        assert all(m.bit_count() == 13 for m in d)
        assert d[0] | d[1] | d[2] | d[3] == (1 << 52) - 1


def test_value_of_bid_uses_the_scores_before_the_hand() -> None:
    s = GameState(STANDARD.replace(thirteen_bid=True, five_six_face_at_30=True), first_dealer=0)
    s.scores = [0, 30, 0, 0]
    s.deal(INTERLEAVED)
    assert s.value_of_bid(0, 5) == 10
    assert s.value_of_bid(1, 5) == 5
    assert s.value_of_bid(1, 13) is None


def test_repr_shows_the_line() -> None:
    s = bidding()
    assert repr(s) == f"<GameState {s.line()}>"
    assert s.hands_str().startswith("0: C:")
