"""Game records (docs/game-record.md): parse, replay, save; and every kind of
malformed or illegal record gives ``hand H action A: reason`` with the
right H and A."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from fourhundred.engine import (
    BID_BASE,
    PRESETS,
    STANDARD,
    GameRecord,
    GameState,
    Phase,
    RecordError,
    Settings,
    card_str,
    mask_of,
    parse_card,
    record_from_state,
    replay,
    replay_result,
    result_of,
)

Record = dict[str, Any]

# Card c goes to seat c % 4: every seat holds every suit.
INTERLEAVED = [mask_of(c for c in range(52) if c % 4 == s) for s in range(4)]
LOW = [
    parse_card(x)
    for x in ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "2D", "3D", "4D", "5D"]
]


def low_deal(seat: int) -> list[int]:
    """``seat`` holds no face card; the rest goes round in deck order."""
    rest = [c for c in range(52) if c not in LOW]
    masks = []
    for s in range(4):
        if s == seat:
            masks.append(mask_of(LOW))
        else:
            masks.append(mask_of(rest[:13]))
            rest = rest[13:]
    return masks


def base_state(settings: Settings = STANDARD) -> GameState:
    """Three hands from seat 0's deal: hand 0 played in full (seat 1 deals
    hand 1), hand 1 thrown in, hand 2 under way (bids done, 5 cards)."""
    s = GameState(settings, first_dealer=0)
    s.deal(INTERLEAVED)
    for n in (3, 4, 2, 2):
        s.bid(n)
    while s.phase is Phase.PLAY:
        s.play(s.legal_cards()[0])
    s.deal(INTERLEAVED)
    for n in (2, 2, 2, 2):
        s.bid(n)
    assert s.history[-1].thrown_in
    s.deal(INTERLEAVED)
    for n in (3, 3, 3, 3):
        s.bid(n)
    for _ in range(5):
        s.play(s.legal_cards()[-1])
    return s


@pytest.fixture
def record() -> Record:
    data = record_from_state(base_state()).to_dict()
    assert [h["dealer"] for h in data["hands"]] == [0, 1, 2]
    return data


def error_of(data: object) -> str:
    with pytest.raises(RecordError) as info:
        replay(data)
    return str(info.value)


# ------------------------------------------------------------- a good record


def test_record_shape(record: Record) -> None:
    assert list(record) == ["format", "rules", "first_dealer", "hands"]
    assert record["format"] == "fourhundred-record/1"
    assert record["rules"] == {"preset": "standard"}
    assert record["first_dealer"] == 0
    h0 = record["hands"][0]
    assert list(h0) == ["dealer", "deal", "redeal_request", "bids", "plays"]
    assert h0["deal"][0][:4] == ["2C", "6C", "TC", "AC"]
    assert h0["redeal_request"] is None
    assert h0["bids"] == [3, 4, 2, 2]
    assert len(h0["plays"]) == 52
    assert record["hands"][1]["plays"] == []
    assert len(record["hands"][2]["plays"]) == 5
    assert json.loads(json.dumps(record)) == record


def test_replay_gives_the_same_game(record: Record) -> None:
    s = base_state()
    again = replay(record)
    assert again.line() == s.line()
    assert again.history == s.history
    assert replay_result(record) == result_of(s)


def test_result_lists_the_unfinished_hand(record: Record) -> None:
    result = replay_result(record)
    assert len(result["hands"]) == 3
    assert result["hands"][1] == {
        "thrown_in": True,
        "tricks": [0, 0, 0, 0],
        "deltas": [0, 0, 0, 0],
        "scores": result["hands"][0]["scores"],
    }
    last = result["hands"][2]
    assert last["thrown_in"] is False
    assert last["deltas"] == [0, 0, 0, 0]
    assert sum(last["tricks"]) == 1
    assert last["scores"] == result["scores"]
    nxt = result["next"]
    assert nxt["hand"] == 2
    assert nxt["phase"] == "play"
    # Cards in deck order, as text; the timeout card is one of them.
    assert nxt["legal"] == sorted(nxt["legal"], key=parse_card)
    assert nxt["timeout_action"] in nxt["legal"]


def test_game_record_round_trip(record: Record) -> None:
    parsed = GameRecord.from_dict(record)
    assert parsed.to_dict() == record
    assert parsed.settings == STANDARD
    assert replay(parsed).line() == replay(record).line()


def test_redeal_request_may_be_left_out(record: Record) -> None:
    for h in record["hands"]:
        del h["redeal_request"]
    assert replay_result(record) == replay_result(record_from_state(base_state()).to_dict())


def test_rules_as_a_full_object_or_a_preset_with_overrides(record: Record) -> None:
    record["rules"] = STANDARD.to_dict()
    assert replay(record).settings == STANDARD
    record["rules"] = {"preset": "quick", "target": 41}
    assert replay(record).settings == STANDARD
    assert GameRecord.from_dict(record).to_dict()["rules"] == {"preset": "quick", "target": 41}
    rules = {"preset": "traditional", "thirteen_bid": False}
    state = base_state(Settings.from_dict(rules))
    kept = record_from_state(state, rules).to_dict()
    assert kept["rules"] == rules
    assert replay(kept).settings == PRESETS["traditional"].replace(thirteen_bid=False)


def test_a_record_with_no_hands_yet() -> None:
    data = {"format": "fourhundred-record/1", "rules": {"preset": "syrian"}, "first_dealer": 3}
    data["hands"] = []
    result = replay_result(data)
    assert result["hands"] == []
    assert result["next"] == {
        "hand": 0,
        "seat": 0,
        "phase": "bid",
        "legal": list(range(1, 13)),
        "timeout_action": 1,
    }


def test_a_redealt_hand() -> None:
    settings = STANDARD.replace(no_face_card_redeal=True)
    s = GameState(settings, first_dealer=2)
    s.deal(low_deal(1))
    s.request_redeal(1)
    s.deal(INTERLEAVED)
    s.bid(2)
    data = record_from_state(s).to_dict()
    assert data["hands"][0]["redeal_request"] == 1
    assert data["hands"][0]["bids"] == []
    assert [h["dealer"] for h in data["hands"]] == [2, 2], "the same dealer deals again"
    assert replay(data).line() == s.line()
    assert replay_result(data)["hands"][0]["thrown_in"] is True


# ------------------------------------------------------------ bad records

Mutation = Callable[[Record], Any]


def drop(key: str) -> Mutation:
    return lambda r: r.pop(key)


def put(key: str, value: Any) -> Mutation:
    return lambda r: r.__setitem__(key, value)


def in_hand(i: int, key: str, value: Any) -> Mutation:
    return lambda r: r["hands"][i].__setitem__(key, value)


def drop_in_hand(i: int, key: str) -> Mutation:
    return lambda r: r["hands"][i].pop(key)


def set_bid(i: int, k: int, value: Any) -> Mutation:
    return lambda r: r["hands"][i]["bids"].__setitem__(k, value)


def set_play(i: int, k: int, value: Any) -> Mutation:
    return lambda r: r["hands"][i]["plays"].__setitem__(k, value)


def swap_in_deal(i: int) -> Mutation:
    def f(r: Record) -> None:
        deal = r["hands"][i]["deal"]
        deal[0][0], deal[1][0] = deal[1][0], deal[0][0]

    return f


def deal_cards(i: int, seat: int, cards: Any) -> Mutation:
    return lambda r: r["hands"][i]["deal"].__setitem__(seat, cards)


def edit_deal(i: int, seat: int, k: int, name: Any) -> Mutation:
    return lambda r: r["hands"][i]["deal"][seat].__setitem__(k, name)


def move_card(i: int) -> Mutation:
    """Seat 0 gets 14 cards and seat 1 gets 12."""

    def f(r: Record) -> None:
        deal = r["hands"][i]["deal"]
        deal[0].append(deal[1].pop())

    return f


def cut_hand(i: int, bids: int | None = None, plays: int | None = None) -> Mutation:
    def f(r: Record) -> None:
        h = r["hands"][i]
        if bids is not None:
            h["bids"] = h["bids"][:bids]
        if plays is not None:
            h["plays"] = h["plays"][:plays]

    return f


NO_SEAT = "hand - action -: first_dealer must be a seat"
CASES: list[tuple[str, Mutation, str | None]] = [
    # ---- the record as a whole: hand - action -
    ("unknown top-level key", put("players", ["a"]), "hand - action -: unknown keys ['players']"),
    ("format missing", drop("format"), "hand - action -: format must be"),
    ("format wrong", put("format", "fourhundred-record/2"), "hand - action -: format must be"),
    ("rules missing", drop("rules"), "hand - action -: "),
    ("rules not an object", put("rules", "standard"), "hand - action -: rules must be an object"),
    (
        "unknown setting",
        put("rules", {"min_bids": 2}),
        "hand - action -: unknown setting 'min_bids'",
    ),
    ("unknown preset", put("rules", {"preset": "fast"}), "hand - action -: unknown preset 'fast'"),
    (
        "setting out of range",
        put("rules", {"preset": "standard", "min_bid": 5}),
        "hand - action -: setting 'min_bid' cannot be 5",
    ),
    (
        "setting of the wrong type",
        put("rules", {"thirteen_bid": "yes"}),
        "hand - action -: setting 'thirteen_bid' cannot be 'yes'",
    ),
    ("first_dealer missing", drop("first_dealer"), NO_SEAT),
    ("first_dealer 4", put("first_dealer", 4), NO_SEAT),
    ("first_dealer -1", put("first_dealer", -1), NO_SEAT),
    (
        "first_dealer true",
        put("first_dealer", True),
        NO_SEAT,
    ),
    ("first_dealer 0.0", put("first_dealer", 0.0), NO_SEAT),
    ("first_dealer '0'", put("first_dealer", "0"), NO_SEAT),
    ("hands missing", drop("hands"), "hand - action -: hands must be a list"),
    ("hands not a list", put("hands", {"0": {}}), "hand - action -: hands must be a list"),
    # ---- one hand: hand H action -
    ("hand not an object", lambda r: r["hands"].__setitem__(1, [1, 2]), "hand 1 action -: "),
    ("unknown key in a hand", in_hand(1, "trump", "H"), "hand 1 action -: "),
    ("hand without bids", drop_in_hand(1, "bids"), "hand 1 action -: "),
    ("hand without plays", drop_in_hand(2, "plays"), "hand 2 action -: "),
    ("hand without deal", drop_in_hand(0, "deal"), "hand 0 action -: "),
    ("hand without dealer", drop_in_hand(1, "dealer"), "hand 1 action -: "),
    ("bids not a list", in_hand(1, "bids", "2 2 2 2"), "hand 1 action -: "),
    ("dealer true", in_hand(1, "dealer", True), "hand 1 action -: "),
    ("redeal_request true", in_hand(1, "redeal_request", True), "hand 1 action -: "),
    ("wrong dealer", in_hand(1, "dealer", 2), "hand 1 action -: dealer should be seat 1"),
    ("first dealer disagrees", put("first_dealer", 3), "hand 0 action -: dealer should be seat 3"),
    ("deal swaps keep 13 each", swap_in_deal(1), None),  # still a deal: not an error by itself
    ("deal: a duplicate card", edit_deal(1, 0, 0, "AS"), "hand 1 action -: the deal is not"),
    ("deal: not a card", edit_deal(2, 3, 5, "1H"), "hand 2 action -: the deal is not"),
    ("deal: lower case", edit_deal(0, 1, 0, "3c"), "hand 0 action -: the deal is not"),
    ("deal: a number", edit_deal(0, 1, 0, 1), "hand 0 action -: the deal is not"),
    ("deal: 14 and 12 cards", move_card(1), "hand 1 action -: the deal is not"),
    (
        "deal: three seats",
        lambda r: r["hands"][2]["deal"].pop(),
        "hand 2 action -: the deal is not",
    ),
    ("deal: a seat not a list", deal_cards(1, 2, "2C 3C"), "hand 1 action -: the deal is not"),
    ("redeal with the setting off", in_hand(2, "redeal_request", 0), "hand 2 action -: redeal"),
    # ---- one action: hand H action A
    ("bid 3.0", set_bid(0, 0, 3.0), "hand 0 action 0: bid 3.0 by seat 1 is not legal"),
    ("bid true", set_bid(0, 1, True), "hand 0 action 1: bid True by seat 2 is not legal"),
    ("bid '3'", set_bid(0, 2, "3"), "hand 0 action 2: bid '3' by seat 3 is not legal"),
    ("bid null", set_bid(0, 3, None), "hand 0 action 3: bid None by seat 0 is not legal"),
    ("bid too low", set_bid(1, 2, 1), "hand 1 action 2: bid 1 by seat 0 is not legal"),
    ("bid 13 without the setting", set_bid(2, 1, 13), "hand 2 action 1: bid 13 by seat 0"),
    ("five bids", lambda r: r["hands"][0]["bids"].append(2), "hand 0 action 4: "),
    ("missing bids", cut_hand(1, bids=2), "hand 1 action 2: hand is missing bids"),
    ("missing plays", cut_hand(0, plays=30), "hand 0 action 34: hand is missing plays"),
    ("no plays at all", cut_hand(0, plays=0), "hand 0 action 4: hand is missing plays"),
    ("a card not held", set_play(0, 0, "2C"), "hand 0 action 4: card '2C' by seat 1 is not legal"),
    ("not following suit", set_play(2, 1, "2C"), "hand 2 action 5: card '2C' by seat 0"),
    ("a card in lower case", set_play(0, 2, "ac"), "hand 0 action 6: card 'ac' by seat 3"),
    ("a card as a number", set_play(0, 3, 12), "hand 0 action 7: card 12 by seat 0"),
    ("a card as 10H", set_play(2, 4, "10H"), "hand 2 action 8: card '10H' by seat "),
    ("plays in a thrown-in hand", in_hand(1, "plays", ["2C"]), "hand 1 action 4: thrown-in"),
    (
        "a card before the bids are complete",
        cut_hand(2, bids=3),
        "hand 2 action 4: a card is played before the bidding is complete",
    ),
    (
        "a card after the hand is over",
        lambda r: r["hands"][0]["plays"].append("2C"),
        "hand 0 action 56: the hand is already over",
    ),
]


@pytest.mark.parametrize(("why", "mutate", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_record(record: Record, why: str, mutate: Mutation, expected: str | None) -> None:
    data = copy.deepcopy(record)
    mutate(data)
    if expected is None:
        replay(data)  # a different deal that the plays may not fit, or may
        return
    message = error_of(data)
    assert message.startswith(expected), f"{why}: {message}"
    assert "\n" not in message


def test_the_plays_of_a_swapped_deal_are_checked(record: Record) -> None:
    """Hand 1 was thrown in, so swapping its cards is fine; in hand 0 the
    same swap makes a card someone no longer holds."""
    data = copy.deepcopy(record)
    swap_in_deal(0)(data)
    assert error_of(data).startswith("hand 0 action ")


@pytest.mark.parametrize("value", [None, [], "record", 3])
def test_a_record_must_be_an_object(value: Any) -> None:
    assert error_of(value) == "hand - action -: a record must be a JSON object"


def test_the_error_carries_hand_and_action(record: Record) -> None:
    data = copy.deepcopy(record)
    set_play(0, 3, "KH")(data)
    with pytest.raises(RecordError) as info:
        replay(data)
    assert (info.value.hand, info.value.action) == (0, 7)
    assert info.value.reason.startswith("card 'KH' by seat 0 is not legal")
    assert isinstance(info.value, ValueError)


# ----------------------------------------------------------------- redeals

REDEAL_ON = {"preset": "standard", "no_face_card_redeal": True}


def redeal_record(asker: int = 1) -> Record:
    s = GameState(Settings.from_dict(REDEAL_ON), first_dealer=2)
    s.deal(low_deal(asker))
    s.request_redeal(asker)
    s.deal(INTERLEAVED)
    for n in (3, 3, 3, 3):
        s.bid(n)
    return record_from_state(s, REDEAL_ON).to_dict()


def test_redeal_record_is_good() -> None:
    assert replay(redeal_record()).phase is Phase.PLAY


@pytest.mark.parametrize(
    ("why", "mutate"),
    [
        ("the seat holds a face card", in_hand(0, "redeal_request", 0)),
        ("not a seat", in_hand(0, "redeal_request", 4)),
        ("a negative seat", in_hand(0, "redeal_request", -1)),
        ("with bids", in_hand(0, "bids", [2])),
        ("with plays", in_hand(0, "plays", ["2C"])),
        ("setting off", put("rules", {"preset": "standard"})),
    ],
)
def test_redeal_not_allowed(why: str, mutate: Mutation) -> None:
    data = redeal_record()
    mutate(data)
    assert error_of(data) == "hand 0 action -: redeal request not allowed", why


def test_redealt_hand_must_keep_the_dealer() -> None:
    data = redeal_record()
    data["hands"][1]["dealer"] = 3
    assert error_of(data) == "hand 1 action -: dealer should be seat 2"


# ------------------------------------------------------- after the game ends


def won_record() -> Record:
    """Seat 1 bids 13 holding every heart and wins the game in hand 0."""
    s = GameState(PRESETS["traditional"], first_dealer=0)
    hearts = list(range(26, 39))
    rest = [c for c in range(52) if c not in hearts]
    s.deal([mask_of(rest[:13]), mask_of(hearts), mask_of(rest[13:26]), mask_of(rest[26:])])
    for _ in range(4):
        s.apply(BID_BASE + (13 if s.turn == 1 else 2))
    while s.phase is Phase.PLAY:
        s.play(s.legal_cards()[0])
    assert s.winner == 1
    return record_from_state(s).to_dict()


def test_no_hand_after_the_game_ended() -> None:
    data = won_record()
    assert replay_result(data)["next"] is None
    extra = copy.deepcopy(data["hands"][0])
    extra["dealer"] = 1
    extra["bids"] = []
    extra["plays"] = []
    data["hands"].append(extra)
    assert error_of(data) == "hand 1 action -: the game was already over before this hand"


def test_no_card_after_the_game_ended() -> None:
    data = won_record()
    data["hands"][0]["plays"].append(card_str(0))
    assert error_of(data).startswith("hand 0 action 56: ")


def test_the_last_hand_may_stop_anywhere(record: Record) -> None:
    for bids in range(5):
        data = copy.deepcopy(record)
        cut_hand(2, bids=bids, plays=0 if bids < 4 else None)(data)
        result = replay_result(data)
        assert result["next"]["hand"] == 2
        assert result["next"]["phase"] == ("bid" if bids < 4 else "play")
    for plays in range(6):
        data = copy.deepcopy(record)
        cut_hand(2, plays=plays)(data)
        assert replay_result(data)["hands"][2]["deltas"] == [0, 0, 0, 0]
