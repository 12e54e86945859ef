"""Game records with a redealt hand (no_face_card_redeal): a good one
replays, and a redeal request the rules do not allow, or a redealt hand
dealt by another seat, is refused."""

from __future__ import annotations

import pytest
from fh_game_states import INTERLEAVED
from fh_records import Mutation, Record, error_of, in_hand, low_deal, put

from fourhundred.engine import GameState, Phase, Settings, record_from_state, replay

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
