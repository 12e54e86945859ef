"""Where a game record may end: no hand and no card after the game is won,
and the last hand may stop anywhere, its deltas zero until it is played out."""

from __future__ import annotations

import copy

from fh_records import Record, cut_hand, error_of

from fourhundred.engine import (
    BID_BASE,
    PRESETS,
    GameState,
    Phase,
    card_str,
    mask_of,
    record_from_state,
    replay_result,
)

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
