"""The rules of docs/rules.md played out on concrete deals: its worked
example (docs/rules.md, "Scoring"), the 13 bid, five_to_run,
no_face_card_redeal, throw-ins, the scoring variants in play, the end of the
game and the timeout order."""

from __future__ import annotations

import pytest

from fourhundred.engine import (
    BID_BASE,
    PRESETS,
    REDEAL,
    STANDARD,
    GameOver,
    GameState,
    IllegalBid,
    IllegalRedeal,
    Phase,
    RecordError,
    Settings,
    WrongPhase,
    card_str,
    mask_of,
    parse_card,
    preset,
    record_from_state,
    replay,
    replay_result,
    required_total,
    view_for,
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


# ------------------------------------------------------------------ escalations


def test_escalating_min_bid_in_play() -> None:
    state = new_state(STANDARD, 0, [30, 40, 50, 29])
    state.deal(example_deal(0))
    # Seat 1 bids first (40 -> 4), then 2 (50 -> 5), 3 (29 -> 2), 0 (30 -> 3).
    expected_low = {1: 4, 2: 5, 3: 2, 0: 3}
    for seat in (1, 2, 3, 0):
        assert state.turn == seat
        assert state.legal_bids()[0] == expected_low[seat]
        with pytest.raises(IllegalBid, match=f"may bid {expected_low[seat]} to 12"):
            state.bid(expected_low[seat] - 1)
        state.bid(expected_low[seat])


def test_escalating_total_in_play() -> None:
    state = new_state(PRESETS["jawaker"], 0, [30, 0, 0, 0])
    assert state.required == 12
    state.deal(example_deal(0))
    for n in (2, 3, 3, 3):  # 11 < 12
        state.bid(n)
    hand = state.history[-1]
    assert hand.thrown_in
    assert state.phase is Phase.DEAL
    assert state.dealer == 1
    assert view_for(_dealt(state), None).required_total == 12


def _dealt(state: GameState) -> GameState:
    state.deal(example_deal(state.dealer))
    return state


# -------------------------------------------------------------------- throw-in


def test_throw_in_passes_the_deal_and_scores_nothing() -> None:
    state = new_state(STANDARD, 3, [5, -2, 7, 0])
    state.deal(example_deal(3))
    for n in (2, 2, 2, 2):
        state.bid(n)
    assert state.phase is Phase.DEAL
    hand = state.history[-1]
    assert hand.thrown_in
    assert hand.redeal_request is None
    assert hand.bids == (2, 2, 2, 2)
    assert hand.plays == ()
    assert hand.tricks == (0, 0, 0, 0)
    assert hand.deltas == (0, 0, 0, 0)
    assert state.scores == [5, -2, 7, 0]
    assert state.winner is None
    assert state.dealer == 0, "the dealer passes to the next seat"
    assert state.hand_index == 1
    assert state.turn == 1
    data = record_from_state(state).to_dict()
    data["hands"][0]["plays"] = ["AC"]
    with pytest.raises(RecordError, match="thrown-in hand has plays"):
        replay(data)


def test_a_total_just_reaching_the_minimum_is_played() -> None:
    state = new_state(STANDARD.replace(min_total=9, min_bid=1), 0)
    state.deal(example_deal(0))
    for n in (3, 2, 2, 2):
        state.bid(n)
    assert state.phase is Phase.PLAY


# -------------------------------------------------------------------- 13 bids

THIRTEEN = PRESETS["traditional"]


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


HEARTS = [parse_card(r + "H") for r in "23456789TJQKA"]


@pytest.mark.parametrize("bidder_offset", [1, 2, 3, 4])
def test_thirteen_won_wins_the_game_whatever_the_scores(bidder_offset: int) -> None:
    dealer = 0
    bidder = (dealer + bidder_offset) % 4
    scores = [-20, 35, -5, 10]
    state = new_state(THIRTEEN, dealer, scores)
    state.deal(deal_giving(bidder, HEARTS))
    for _ in range(4):
        state.bid(13 if state.turn == bidder else state.legal_bids()[0])
    assert state.phase is Phase.PLAY
    while state.phase is Phase.PLAY:
        state.play(state.timeout_action())
    hand = state.history[-1]
    assert hand.tricks[bidder] == 13
    assert len(hand.plays) == 52
    assert hand.deltas == (0, 0, 0, 0)
    assert state.scores == scores
    assert state.phase is Phase.OVER
    assert state.winner == bidder % 2
    result = replay_result(record_from_state(state).to_dict())
    assert result["winner"] == bidder % 2
    assert result["next"] is None
    assert result["hands"][-1]["deltas"] == [0, 0, 0, 0]


def test_thirteen_lost_to_the_partner_loses_at_once() -> None:
    """The bidder leads three top hearts, then a club that the partner's ace
    wins: the hand stops after that fourth trick and the bidder's team loses."""
    dealer = 3
    bidder = 0  # leads to the first trick
    partner = 2
    held = cards("2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    partner_cards = cards("AC 2H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD")
    opp1 = cards("3C 4C 5C 6C KD AD 2S 3S 4S 5S 6S 7S 8S")
    state = new_state(THIRTEEN, dealer, [12, 3, 0, 44])
    state.deal(deal_giving(bidder, held, {partner: partner_cards, 1: opp1}))
    state.bid(13)
    assert state.legal_bids()[-1] == 12, "only one 13 bid per hand"
    with pytest.raises(IllegalBid):
        state.bid(13)
    for _ in range(3):
        state.bid(state.legal_bids()[0])
    script = [
        "AH 2S 2H 9S",  # the partner must follow with the 2H
        "KH 3S 2D TS",
        "QH 4S 3D JS",
        "2C 3C AC 7C",  # the partner's ace takes the bidder's trick
    ]
    for trick in script:
        for c in cards(trick):
            state.play(c)
    assert state.phase is Phase.OVER
    assert state.winner == 1
    hand = state.history[-1]
    assert hand.tricks == (3, 0, 1, 0)
    assert len(hand.plays) == 16
    assert hand.deltas == (0, 0, 0, 0)
    assert state.scores == [12, 3, 0, 44]
    with pytest.raises(GameOver):
        state.play(state.hand(2).bit_length() - 1)
    # The record ends with that trick; one more card is refused.
    data = record_from_state(state).to_dict()
    assert len(data["hands"][0]["plays"]) == 16
    assert replay_result(data)["winner"] == 1
    data["hands"][0]["plays"].append(card_str(state.hand(1).bit_length() - 1))
    with pytest.raises(RecordError) as info:
        replay(data)
    assert str(info.value).startswith("hand 0 action 20: ")


def test_thirteen_lost_on_the_first_trick() -> None:
    held = cards("2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    state = new_state(THIRTEEN, 3)
    state.deal(deal_giving(0, held))
    for n in (13, 2, 2, 2):
        state.bid(n)
    state.play(parse_card("2C"))
    for _ in range(3):
        state.play(state.legal_cards()[-1])
    assert state.phase is Phase.OVER
    assert state.winner == 1
    assert sum(state.history[-1].tricks) == 1


def test_thirteen_needs_the_setting() -> None:
    state = new_state(STANDARD, 0)
    state.deal(example_deal(0))
    assert state.legal_bids()[-1] == 12
    with pytest.raises(IllegalBid, match="may bid 2 to 12"):
        state.bid(13)


def test_thirteen_is_worth_no_points_in_the_view() -> None:
    state = new_state(THIRTEEN, 0)
    state.deal(example_deal(0))
    view = view_for(state, state.turn)
    assert view.legal is not None
    assert view.legal[-1] == 13
    assert view.to_dict()["values"][-1] is None
    assert view.to_dict()["values"][:-1] == [2, 3, 4, 10, 12, 14, 16, 27, 30, 33, 36]


# ----------------------------------------------------------------- five_to_run

FIVE = STANDARD.replace(five_to_run=True)


@pytest.mark.parametrize(
    ("earlier", "dealer_low"),
    [
        ((2, 2, 2), 5),
        ((4, 4, 4), 5),
        ((2, 5, 2), 2),
        ((6, 2, 2), 2),
    ],
)
def test_five_to_run(earlier: tuple[int, ...], dealer_low: int) -> None:
    state = new_state(FIVE, 2)
    state.deal(example_deal(2))
    for n in earlier:
        assert state.legal_bids()[0] == 2, "only the dealer is bound"
        state.bid(n)
    assert state.turn == 2
    assert state.legal_bids()[0] == dealer_low
    if dealer_low == 5:
        with pytest.raises(IllegalBid, match="may bid 5 to 12"):
            state.bid(4)
        assert state.timeout_action() == BID_BASE + 5


def test_five_to_run_counts_a_13() -> None:
    state = new_state(FIVE.replace(thirteen_bid=True), 2)
    state.deal(example_deal(2))
    for n in (13, 2, 2):
        state.bid(n)
    assert state.legal_bids() == list(range(2, 13))


def test_five_to_run_off_by_default() -> None:
    state = new_state(STANDARD, 2)
    state.deal(example_deal(2))
    for n in (2, 2, 2):
        state.bid(n)
    assert state.legal_bids()[0] == 2


# ---------------------------------------------------------- no_face_card_redeal

REDEAL_ON = STANDARD.replace(no_face_card_redeal=True)
LOW_HAND = cards("2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D")


def redeal_state(settings: Settings = REDEAL_ON, asker: int = 2) -> GameState:
    """Seat 1 deals; ``asker`` holds no face card, every other seat does."""
    state = new_state(settings, 1)
    state.deal(deal_giving(asker, LOW_HAND))
    return state


def test_redeal_request_same_dealer_deals_again() -> None:
    state = redeal_state()
    assert state.turn == 2
    assert state.can_redeal(2)
    assert not any(state.can_redeal(s) for s in (0, 1, 3))
    assert REDEAL not in state.legal_actions()
    assert view_for(state, 2).can_redeal
    assert not view_for(state, 0).can_redeal
    assert not view_for(state, None).can_redeal
    state.apply(REDEAL, 2)
    assert state.phase is Phase.DEAL
    assert state.dealer == 1, "the same dealer deals again"
    assert state.hand_index == 1
    assert state.turn == 2
    assert state.scores == [0, 0, 0, 0]
    hand = state.history[-1]
    assert hand.redeal_request == 2
    assert hand.thrown_in
    assert hand.bids == ()
    assert hand.deltas == (0, 0, 0, 0)


def test_redeal_by_a_seat_that_is_not_to_act() -> None:
    state = redeal_state(asker=0)
    assert state.turn == 2
    state.request_redeal(0)
    assert state.history[-1].redeal_request == 0
    state.deal(example_deal(1))
    result = replay_result(record_from_state(state).to_dict())
    assert result["hands"][0] == {
        "thrown_in": True,
        "tricks": [0, 0, 0, 0],
        "deltas": [0, 0, 0, 0],
        "scores": [0, 0, 0, 0],
    }


@pytest.mark.parametrize(
    ("why", "settings", "seat", "bid_first", "message"),
    [
        ("setting off", STANDARD, 2, False, "no_face_card_redeal is off"),
        ("holds a face card", REDEAL_ON, 0, False, "holds an A, K, Q or J"),
        ("after the first bid", REDEAL_ON, 2, True, "only before the first bid"),
    ],
)
def test_redeal_refused(
    why: str, settings: Settings, seat: int, bid_first: bool, message: str
) -> None:
    state = redeal_state(settings, asker=2)
    if bid_first:
        state.bid(2)
    line = state.line()
    assert not state.can_redeal(seat), why
    with pytest.raises(IllegalRedeal, match=message):
        state.request_redeal(seat)
    assert state.line() == line


def test_redeal_refused_when_no_seat_is_eligible() -> None:
    state = new_state(REDEAL_ON, 0)
    state.deal(example_deal(0))  # every seat holds a face card
    assert not any(state.can_redeal(s) for s in range(4))
    with pytest.raises(IllegalRedeal):
        state.apply(REDEAL)


# -------------------------------------------------------------- timeout order


@pytest.mark.parametrize(
    ("held", "expected"),
    [
        ("2H 2S 2D 5C 6C 7C 8C 9C TC JC QC KC AC", "2D"),  # a non-heart first, D before S
        ("2H 2S 3C 3D 5C 6C 7C 8C 9C TC JC QC KC", "2S"),  # lowest rank wins over suit
        ("2H 3C 3D 3S 5C 6C 7C 8C 9C TC JC QC KC", "2H"),  # lowest rank even if a heart
        ("2C 2H 2D 2S 5C 6C 7C 8C 9C TC JC QC KC", "2C"),  # clubs first
        ("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H AS", "3H"),
    ],
)
def test_timeout_play_is_the_lowest_ranked_card(held: str, expected: str) -> None:
    state = new_state(STANDARD, 3)
    state.deal(deal_giving(0, cards(held)))
    for _ in range(4):
        state.bid(3)
    assert state.turn == 0
    assert card_str(state.timeout_action()) == expected


def test_timeout_follows_suit_first() -> None:
    state = new_state(STANDARD, 3)
    state.deal(deal_giving(1, cards("2H 2S 2D 5C 6C 7C 8C 9C TC JC QC KC AC")))
    for _ in range(4):
        state.bid(3)
    # Seat 0 got 2C 3C 4C and low diamonds: it leads the 2C; seat 1 must
    # follow clubs, so its lowest legal card is the 5C, not a 2.
    assert card_str(state.timeout_action()) == "2C"
    state.play(state.timeout_action())
    assert card_str(state.timeout_action()) == "5C"


def test_timeout_bid_is_the_smallest_legal_bid() -> None:
    state = new_state(STANDARD, 0, [0, 45, 0, 0])
    state.deal(example_deal(0))
    assert state.timeout_action() == BID_BASE + 4
    with pytest.raises(WrongPhase, match="no timeout action during the deal phase"):
        new_state(STANDARD, 0).timeout_action()
