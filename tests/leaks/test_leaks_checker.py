"""The leak checker itself: it passes the frames a correct server sends and
catches every kind of leak planted in them (a checker that cannot fail would
prove nothing)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from fh_leaks import LeakChecker, Recipient

from fourhundred.bots import make_bot
from fourhundred.engine import (
    CARD_NAMES,
    GameState,
    Phase,
    preset,
    record_from_state,
    view_for,
)


def synthetic_game(seed: int) -> tuple[dict[str, Any], list[Recipient]]:
    """A game of heuristic bots on the engine, and the frames a correct
    server would send each seat and a spectator (events in version order,
    each carrying the view after the whole command)."""
    rng = random.Random(seed)
    state = GameState(preset("standard").replace(target=11), first_dealer=0, rng=rng)
    bots = [make_bot("heuristic", seed=seed * 4 + i) for i in range(4)]
    recipients = [Recipient(f"seat{s}", s) for s in range(4)] + [Recipient("spec", None)]
    version = 1

    def send(events: list[dict[str, Any]]) -> None:
        nonlocal version
        for ev in events:
            version += 1
            for r in recipients:
                view = view_for(state, r.seat).to_dict() if state.phase is not Phase.DEAL else None
                r.raw.append(
                    json.dumps(
                        {
                            "type": "event",
                            "table": "t",
                            "version": version,
                            "event": ev,
                            "you": {"seat": r.seat},
                            "room": {"id": "t"},
                            "view": view,
                            "clock": None,
                        }
                    )
                )

    state.deal_random()
    send([{"kind": "deal", "hand_index": 0, "dealer": state.dealer}])
    while state.phase is not Phase.OVER:
        seat = state.turn
        hand_before = len(state.history)
        trick = list(state.current_trick)
        action = bots[seat].choose(view_for(state, seat))
        state.apply(action)
        if action < 52:
            events: list[dict[str, Any]] = [
                {
                    "kind": "play",
                    "seat": seat,
                    "card": CARD_NAMES[action],
                    "by": "bot",
                    "trick_winner": None,
                }
            ]
        else:
            events = [{"kind": "bid", "seat": seat, "bid": action - 53, "by": "bot"}]
        if len(state.history) > hand_before:
            h = state.history[-1]
            cards = [*trick, action] if action < 52 else []
            events.append(
                {
                    "kind": "hand_over",
                    "hand_index": h.hand_index,
                    "last_trick": {
                        "leader": 0,
                        "cards": [CARD_NAMES[c] for c in cards],
                        "winner": 0,
                    }
                    if len(cards) == 4
                    else None,
                }
            )
            if state.phase is Phase.DEAL:
                state.deal_random()
                events.append(
                    {"kind": "deal", "hand_index": state.hand_index, "dealer": state.dealer}
                )
        send(events)
    return record_from_state(state).to_dict(), recipients


@pytest.fixture(scope="module")
def game() -> tuple[dict[str, Any], list[Recipient]]:
    return synthetic_game(7)


def run(record: dict[str, Any], recipients: list[Recipient]) -> LeakChecker:
    checker = LeakChecker(record)
    checker.check(recipients)
    return checker


def test_a_correct_stream_passes(game: tuple[dict[str, Any], list[Recipient]]) -> None:
    record, recipients = game
    checker = run(record, recipients)
    assert checker.violations == []
    assert checker.views > 100 and checker.cards_seen > 1000


def tamper(
    game: tuple[dict[str, Any], list[Recipient]], who: int, at: int, change: Any
) -> list[str]:
    """Apply ``change(frame_dict)`` to frame ``at`` of recipient ``who``."""
    record, recipients = game
    recipients = copy.deepcopy(recipients)
    frames = recipients[who].raw
    idx = at % len(frames)
    while (
        json.loads(frames[idx])["view"] is None
        or json.loads(frames[idx])["view"]["phase"] != "play"
    ):
        idx += 1
    msg = json.loads(frames[idx])
    change(msg)
    frames[idx] = json.dumps(msg)
    return run(record, recipients).violations


def other_card(msg: dict[str, Any]) -> str:
    """A card that is in nobody's view of this frame: another seat's."""
    view = msg["view"]
    shown = set(view.get("hand") or []) | {c for t in view["tricks"] for c in t["cards"]}
    return next(c for c in CARD_NAMES if c not in shown)


def test_another_seats_card_in_a_hand_is_caught(game: Any) -> None:
    def leak(msg: dict[str, Any]) -> None:
        msg["view"]["hand"].append(other_card(msg))

    found = tamper(game, 1, 40, leak)
    assert any("is not seat 1's unplayed cards" in v for v in found), found


def test_a_spectator_with_a_hand_is_caught(game: Any) -> None:
    def leak(msg: dict[str, Any]) -> None:
        msg["view"]["hand"] = ["AS"]

    found = tamper(game, 4, 30, leak)
    assert any("spectator's view holds a hand" in v for v in found), found


def test_a_card_outside_the_view_is_caught(game: Any) -> None:
    for where in ("room", "clock", "you"):

        def leak(msg: dict[str, Any], where: str = where) -> None:
            msg[where] = {"peek": other_card(msg)}

        found = tamper(game, 2, 50, leak)
        assert any(f"at {where}.peek, where no card belongs" in v for v in found), (where, found)


def test_a_card_in_a_message_is_caught(game: Any) -> None:
    def leak(msg: dict[str, Any]) -> None:
        msg["room"]["name"] = f"seat 3 holds {other_card(msg)}"

    found = tamper(game, 0, 60, leak)
    assert any("a card name inside room.name" in v for v in found), found


def test_a_trick_card_not_yet_played_is_caught(game: Any) -> None:
    def leak(msg: dict[str, Any]) -> None:
        msg["view"]["tricks"].append({"leader": 0, "cards": [other_card(msg)], "winner": None})

    found = tamper(game, 3, 45, leak)
    assert any("are not the first" in v for v in found), found


def test_a_future_position_is_caught(game: Any) -> None:
    """A frame whose (otherwise correct) view is of a later point than the
    command it belongs to shows cards before they are played."""
    record, recipients = game
    recipients = copy.deepcopy(recipients)
    frames = recipients[2].raw
    # Frame i gets frame i+8's view: cards from the future.
    i = next(
        k
        for k in range(20, len(frames))
        if json.loads(frames[k])["view"]
        and json.loads(frames[k])["view"]["phase"] == "play"
        and json.loads(frames[k + 8])["view"]["hand_index"]
        == json.loads(frames[k])["view"]["hand_index"]
    )
    msg = json.loads(frames[i])
    msg["view"] = json.loads(frames[i + 8])["view"]
    frames[i] = json.dumps(msg)
    found = run(record, recipients).violations
    assert any("in a frame of version" in v for v in found), found


def test_a_wrong_play_event_is_caught(game: Any) -> None:
    record, recipients = game
    recipients = copy.deepcopy(recipients)
    for r in recipients:
        for i, raw in enumerate(r.raw):
            msg = json.loads(raw)
            if msg["event"]["kind"] == "play" and msg["version"] == 30:
                msg["event"]["card"] = "2C" if msg["event"]["card"] != "2C" else "3C"
                r.raw[i] = json.dumps(msg)
    found = run(record, recipients).violations
    assert any("the record says" in v for v in found), found


def test_recipients_disagreeing_on_an_event_is_caught(game: Any) -> None:
    record, recipients = game
    recipients = copy.deepcopy(recipients)
    msg = json.loads(recipients[1].raw[10])
    msg["event"]["extra"] = 1
    recipients[1].raw[10] = json.dumps(msg)
    found = run(record, recipients).violations
    assert any("differs between recipients" in v for v in found), found


def test_a_view_other_than_view_for_is_caught(game: Any) -> None:
    def leak(msg: dict[str, Any]) -> None:
        msg["view"]["scores"] = [99, 0, 0, 0]

    found = tamper(game, 0, 35, leak)
    assert any("is not view_at's" in v for v in found), found
