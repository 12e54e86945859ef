"""Good game records (docs/game-record.md): their shape, replay, the result
of a replay, parse and save, the forms of their rules, a record with no hands
yet and one with a redealt hand."""

from __future__ import annotations

import json

from fh_game_states import INTERLEAVED
from fh_records import Record, base_state, low_deal

from fourhundred.engine import (
    PRESETS,
    STANDARD,
    GameRecord,
    GameState,
    Settings,
    parse_card,
    record_from_state,
    replay,
    replay_result,
    result_of,
)

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
