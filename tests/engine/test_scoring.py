"""Bid values, escalations and the end of the game as functions
(docs/rules.md, "Bidding", "Scoring", "Winning")."""

from __future__ import annotations

import pytest

from fourhundred.engine import (
    PRESETS,
    STANDARD,
    Settings,
    bid_value,
    highest_bid,
    lowest_bid,
    required_total,
    winning_team,
)

# The bid values table of docs/rules.md, "Scoring": bid -> (lebanese, classic)
TABLE = {
    1: (1, 1),
    2: (2, 2),
    3: (3, 3),
    4: (4, 4),
    5: (10, 5),
    6: (12, 6),
    7: (14, 14),
    8: (16, 16),
    9: (27, 18),
    10: (30, 20),
    11: (33, 22),
    12: (36, 24),
}
LEBANESE = STANDARD
CLASSIC = STANDARD.replace(scoring="classic")


@pytest.mark.parametrize("bid", range(1, 13))
@pytest.mark.parametrize("score", [-50, 0, 29, 30, 100])
def test_the_table(bid: int, score: int) -> None:
    lebanese, classic = TABLE[bid]
    assert bid_value(LEBANESE, bid, score) == lebanese
    assert bid_value(CLASSIC, bid, score) == classic


@pytest.mark.parametrize(
    ("score", "five", "six"),
    [(-10, 10, 12), (0, 10, 12), (29, 10, 12), (30, 5, 6), (31, 5, 6), (75, 5, 6)],
)
def test_five_six_face_at_30(score: int, five: int, six: int) -> None:
    settings = LEBANESE.replace(five_six_face_at_30=True)
    assert bid_value(settings, 5, score) == five
    assert bid_value(settings, 6, score) == six
    # "From 7 upwards the values stay the same", and below 5 too.
    for bid in (*range(1, 5), *range(7, 13)):
        assert bid_value(settings, bid, score) == TABLE[bid][0]


def test_five_six_face_at_30_is_ignored_with_classic() -> None:
    settings = CLASSIC.replace(five_six_face_at_30=True)
    for score in (0, 30, 60):
        assert bid_value(settings, 5, score) == 5
        assert bid_value(settings, 6, score) == 6
        assert bid_value(settings, 7, score) == 14


@pytest.mark.parametrize("scoring", ["lebanese", "classic"])
def test_big_bids(scoring: str) -> None:
    column = 0 if scoring == "lebanese" else 1
    ten_40 = STANDARD.replace(scoring=scoring, big_bids="ten_40")
    eleven_50 = STANDARD.replace(scoring=scoring, big_bids="eleven_50")
    for bid in range(1, 10):
        assert bid_value(ten_40, bid, 0) == TABLE[bid][column]
    for bid in (10, 11, 12):
        assert bid_value(ten_40, bid, 0) == 40
        assert bid_value(ten_40, bid, 45) == 40
    for bid in range(1, 11):
        assert bid_value(eleven_50, bid, 0) == TABLE[bid][column]
    for bid in (11, 12):
        assert bid_value(eleven_50, bid, 0) == 50


def test_big_bids_with_five_six_face() -> None:
    jawaker = PRESETS["jawaker"]
    assert bid_value(jawaker, 5, 30) == 5
    assert bid_value(jawaker, 9, 30) == 27
    assert bid_value(jawaker, 10, 30) == 40


@pytest.mark.parametrize("bid", [0, 13, 14, -1])
def test_a_bid_outside_1_to_12_has_no_value(bid: int) -> None:
    with pytest.raises(ValueError, match=f"a bid of {bid} has no point value"):
        bid_value(STANDARD, bid, 0)


@pytest.mark.parametrize(
    ("score", "low"),
    [(-20, 2), (0, 2), (29, 2), (30, 3), (39, 3), (40, 4), (49, 4), (50, 5), (120, 5)],
)
def test_escalating_min_bid(score: int, low: int) -> None:
    assert lowest_bid(STANDARD, score) == low
    assert lowest_bid(STANDARD.replace(escalating_min_bid=False), score) == 2


@pytest.mark.parametrize(
    ("min_bid", "score", "low"),
    [(1, 0, 1), (1, 30, 3), (3, 0, 3), (3, 30, 3), (4, 30, 4), (4, 40, 4), (4, 50, 5)],
)
def test_escalation_never_below_min_bid(min_bid: int, score: int, low: int) -> None:
    assert lowest_bid(STANDARD.replace(min_bid=min_bid), score) == low


def test_highest_bid_is_13_until_someone_bids_it() -> None:
    on = STANDARD.replace(thirteen_bid=True)
    assert highest_bid(on, []) == 13
    assert highest_bid(on, [0, 4, 0, 0]) == 13
    assert highest_bid(on, [13, 0, 0, 0]) == 12
    assert highest_bid(STANDARD.replace(thirteen_bid=False), []) == 12


def test_syrian_lowest_bid_does_not_rise() -> None:
    for score in (0, 30, 40, 50, 90):
        assert lowest_bid(PRESETS["syrian"], score) == 1


@pytest.mark.parametrize(
    ("scores", "need"),
    [
        ((0, 0, 0, 0), 11),
        ((29, 29, -40, 0), 11),
        ((30, 0, 0, 0), 12),
        ((0, 0, 0, 39), 12),
        ((0, 40, 0, 0), 13),
        ((49, 0, 0, 0), 13),
        ((0, 0, 50, 0), 14),
        ((12, 51, 0, 3), 14),
        ((-60, -60, -60, -60), 11),
    ],
)
def test_escalating_total_uses_the_highest_score(scores: tuple[int, ...], need: int) -> None:
    assert required_total(STANDARD.replace(escalating_total=True), scores) == need
    assert required_total(STANDARD, scores) == 11


@pytest.mark.parametrize(
    ("min_total", "top", "need"),
    [(9, 0, 9), (9, 30, 12), (13, 0, 13), (13, 30, 13), (13, 40, 13), (13, 50, 14), (12, 30, 12)],
)
def test_escalating_total_never_below_min_total(min_total: int, top: int, need: int) -> None:
    settings = STANDARD.replace(min_total=min_total, escalating_total=True)
    assert required_total(settings, (top, 0, 0, 0)) == need


# ------------------------------------------------------------ winning the game


@pytest.mark.parametrize(
    ("scores", "positive", "non_negative"),
    [
        ((41, 0, 1, 0), 0, 0),
        ((41, 0, 0, 0), None, 0),  # the partner at exactly zero
        ((41, 0, -1, 0), None, None),
        ((1, 0, 41, 0), 0, 0),  # either partner may be the one at the target
        ((0, 41, 0, 5), 1, 1),
        ((0, 5, 0, 41), 1, 1),
        ((40, 40, 40, 40), None, None),  # nobody at the target
        ((200, -1, -1, 200), None, None),  # a partner below zero each
    ],
)
def test_partner_rule(
    scores: tuple[int, ...], positive: int | None, non_negative: int | None
) -> None:
    assert winning_team(STANDARD, scores) == positive
    assert winning_team(STANDARD.replace(partner_rule="non_negative"), scores) == non_negative


@pytest.mark.parametrize(
    ("scores", "winner"),
    [
        ((41, 41, 5, 5), None),  # both qualify, equal combined scores: play on
        ((41, 41, 6, 5), 0),
        ((41, 45, 6, 3), 1),
        ((60, 41, 1, 25), 1),  # 61 against 66: the higher total, not the higher seat
        ((60, 41, 1, 20), None),  # 61 against 61
    ],
)
def test_both_teams_qualify(scores: tuple[int, ...], winner: int | None) -> None:
    t0 = scores[0] + scores[2]
    t1 = scores[1] + scores[3]
    assert winning_team(STANDARD, scores) == (None if t0 == t1 else (0 if t0 > t1 else 1))
    assert winning_team(STANDARD, scores) == winner


def test_target_is_a_setting() -> None:
    assert winning_team(Settings(target=31), (31, 0, 1, 0)) == 0
    assert winning_team(Settings(target=31), (30, 0, 1, 0)) is None
    assert winning_team(Settings(target=44), (43, 0, 1, 0)) is None
    assert winning_team(Settings(target=44), (44, 0, 1, 0)) == 0
