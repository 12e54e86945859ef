"""The rules of docs/rules.md played out on concrete deals: scoring. Its
worked example (docs/rules.md, "Scoring"), also as the record spec prints it;
the bid values of every scoring variant in play; and the end of the game (the
partner rule, both teams at the target, a partner below zero)."""

from __future__ import annotations

import pytest
from fh_rules import (
    EXAMPLE_TRICKS,
    EXAMPLE_TRICKS_WON,
    ROLES,
    cards,
    example_deal,
    new_state,
    play_example,
    seat_of,
)

from fourhundred.engine import (
    BID_BASE,
    PRESETS,
    STANDARD,
    GameOver,
    GameState,
    Phase,
    Settings,
    WrongPhase,
    preset,
    record_from_state,
    replay_result,
)

# ---------------------------------------------------------------- the example
#
# The deal and its tricks are in fh_rules.py, with the text of the rules
# they play out.


def test_example_deal_is_a_deal() -> None:
    masks = example_deal(0)
    assert all(m.bit_count() == 13 for m in masks)
    assert masks[0] | masks[1] | masks[2] | masks[3] == (1 << 52) - 1
    played = [c for _, text, _ in EXAMPLE_TRICKS for c in cards(text)]
    assert sorted(played) == list(range(52))


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_worked_example_of_the_rules(dealer: int) -> None:
    state = new_state(dealer=dealer)
    state.deal(example_deal(dealer))
    # West (the seat after North, the dealer) bids first; North bids last.
    assert state.turn == seat_of(dealer, "W")
    for role, n in zip(ROLES, (3, 4, 2, 2), strict=True):
        assert state.turn == seat_of(dealer, role)
        state.bid(n)
    assert state.phase is Phase.PLAY, "a total of 11 is played"
    assert state.turn == seat_of(dealer, "W"), "West leads to the first trick"
    for i, (leader, text, winner) in enumerate(EXAMPLE_TRICKS):
        assert state.turn == seat_of(dealer, leader), f"trick {i + 1}"
        for c in cards(text):
            state.play(c)
        if i < 12:
            assert state.trick_winners[-1] == seat_of(dealer, winner)
    assert state.phase is Phase.DEAL
    hand = state.history[-1]
    by_seat = {seat_of(dealer, r): r for r in ROLES}
    assert {by_seat[s]: hand.tricks[s] for s in range(4)} == EXAMPLE_TRICKS_WON
    assert {by_seat[s]: hand.deltas[s] for s in range(4)} == {"W": 3, "S": -4, "E": 2, "N": 2}
    assert {by_seat[s]: state.scores[s] for s in range(4)} == {"W": 3, "S": -4, "E": 2, "N": 2}
    assert hand.thrown_in is False
    assert state.winner is None
    # The deal passes to the right: West deals the next hand.
    assert state.dealer == seat_of(dealer, "W")
    assert state.hand_index == 1


def test_worked_example_as_the_record_spec_prints_it() -> None:
    """With seat 2 dealing, the example is the worked example of
    docs/game-record.md, "A worked example"."""
    state = new_state(dealer=2)
    play_example(state, {"W": 3, "S": 4, "E": 2, "N": 2})
    record = record_from_state(state).to_dict()
    assert record["first_dealer"] == 2
    assert record["hands"][0]["bids"] == [3, 4, 2, 2]
    assert replay_result(record) == {
        "hands": [
            {
                "thrown_in": False,
                "tricks": [3, 3, 3, 4],
                "deltas": [-4, 2, 2, 3],
                "scores": [-4, 2, 2, 3],
            }
        ],
        "scores": [-4, 2, 2, 3],
        "winner": None,
        "next": {
            "hand": 1,
            "seat": 0,
            "phase": "bid",
            "legal": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
            "timeout_action": 2,
        },
    }


# ---------------------------------------------------- scoring variants in play


def delta_of(state: GameState, role: str) -> int:
    return state.history[-1].deltas[seat_of(state.history[-1].dealer, role)]


@pytest.mark.parametrize(
    ("name", "settings", "role", "score", "bid", "delta"),
    [
        # South wins 3 tricks: a bid of 5 fails.
        ("lebanese 5", STANDARD, "S", 0, 5, -10),
        ("lebanese 5 at 29", PRESETS["traditional"], "S", 29, 5, -10),
        ("five_six_face_at_30", PRESETS["traditional"], "S", 30, 5, -5),
        ("five_six_face_at_30, 6", PRESETS["traditional"], "S", 45, 6, -6),
        ("no five_six_face_at_30", STANDARD, "S", 30, 5, -10),
        (
            "face value ignored with classic",
            preset("classic").replace(five_six_face_at_30=True),
            "S",
            30,
            6,
            -6,
        ),
        ("classic 7", PRESETS["classic"], "S", 0, 7, -14),
        ("lebanese 9", STANDARD, "S", 0, 9, -27),
        ("ten_40", PRESETS["jawaker"], "S", 0, 10, -40),
        ("eleven_50 keeps 10", STANDARD.replace(big_bids="eleven_50"), "S", 0, 10, -30),
        ("eleven_50", STANDARD.replace(big_bids="eleven_50"), "S", 0, 11, -50),
        ("classic ten_40", PRESETS["classic"].replace(big_bids="ten_40"), "S", 0, 12, -40),
        # West wins 4 tricks: made bids score their value, extra tricks nothing.
        ("made 4", STANDARD, "W", 0, 4, 4),
        ("made 3 of 4", STANDARD, "W", 0, 3, 3),
        ("syrian 1", PRESETS["syrian"], "S", 0, 1, 1),
        ("made at 40", STANDARD, "W", 40, 4, 4),
    ],
)
def test_bid_values_in_play(  # noqa: PLR0913, PLR0917 - one parameter per column
    name: str, settings: Settings, role: str, score: int, bid: int, delta: int
) -> None:
    dealer = 1
    scores = [0, 0, 0, 0]
    scores[seat_of(dealer, role)] = score
    state = new_state(settings, dealer, scores)
    # The others bid what they win, so that the total is played.
    bids = dict(EXAMPLE_TRICKS_WON)
    bids[role] = bid
    play_example(state, bids)
    assert delta_of(state, role) == delta, name
    assert state.scores[seat_of(dealer, role)] == score + delta


# ------------------------------------------------------------- the end of game


@pytest.mark.parametrize(("partner_rule", "winner"), [("positive", None), ("non_negative", 0)])
def test_partner_rule(partner_rule: str, winner: int | None) -> None:
    """North (seat 0) reaches 41 while South, the partner, ends on exactly 0."""
    settings = STANDARD.replace(partner_rule=partner_rule)
    # dealer 0: N=0, W=1, S=2, E=3; team 0 is North and South.
    state = new_state(settings, 0, [38, 0, -3, 0])
    play_example(state, {"W": 4, "S": 3, "E": 2, "N": 3})
    assert state.scores == [41, 4, 0, 2]
    assert state.winner == winner
    assert state.phase is (Phase.DEAL if winner is None else Phase.OVER)


def test_partner_rule_positive_needs_more_than_zero() -> None:
    state = new_state(STANDARD, 0, [38, 0, -2, 0])
    play_example(state, {"W": 4, "S": 3, "E": 2, "N": 3})
    assert state.scores == [41, 4, 1, 2]
    assert state.winner == 0
    assert state.phase is Phase.OVER
    with pytest.raises(WrongPhase):
        state.deal(example_deal(1))
    with pytest.raises(GameOver, match="the game is over"):
        state.apply(BID_BASE + 2)


def test_a_team_whose_partner_reaches_target_too() -> None:
    """Either partner may be the one at the target."""
    state = new_state(STANDARD, 0, [0, 0, 38, 0])
    play_example(state, {"W": 4, "S": 3, "E": 2, "N": 3})
    assert state.scores == [3, 4, 41, 2]
    assert state.winner == 0


@pytest.mark.parametrize(
    ("before", "after", "winner"),
    [
        # Both teams reach 11 with a positive partner: the higher combined wins.
        ([8, 8, 1, 1], [11, 11, 4, 4], None),  # 15 against 15: play on
        ([8, 8, 1, 0], [11, 11, 4, 3], 0),  # 15 against 14
        ([8, 8, 0, 1], [11, 11, 3, 4], 1),  # 14 against 15
    ],
)
def test_both_teams_qualify(before: list[int], after: list[int], winner: int | None) -> None:
    settings = STANDARD.replace(target=11)
    state = new_state(settings, 0, before)
    # dealer 0: W=1 (4 tricks), S=2, E=3, N=0 (3 tricks each)
    play_example(state, {"W": 3, "S": 3, "E": 3, "N": 3})
    assert state.scores == after
    assert state.winner == winner
    if winner is None:
        assert state.phase is Phase.DEAL
        assert state.hand_index == 1


def test_a_partner_below_zero_keeps_the_team_out() -> None:
    settings = STANDARD.replace(target=11)
    # Both teams have a seat at 11, but team 0's other partner is below zero.
    state = new_state(settings, 0, [8, 8, -10, 1])
    play_example(state, {"W": 3, "S": 3, "E": 3, "N": 3})
    assert state.scores == [11, 11, -7, 4]
    assert state.winner == 1
