"""The client's table state (js/state.js) over engine-made frames: events
in order build the score sheet, old or foreign events change nothing, and
the end of a hand is shown from the events when the server's view has
already moved on to the next hand."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from fourhundred.engine import BID_BASE, CARD_NAMES, GameState, Phase, view_for


@pytest.fixture(scope="module")
def js(browser: Any, static_url: str) -> Iterator[Any]:
    context = browser.new_context()
    page = context.new_page()
    blank = f"{static_url}/__blank__.html"
    page.route(blank, lambda r: r.fulfill(body="<!doctype html>", content_type="text/html"))
    page.goto(blank)
    page.evaluate("async () => { window.S = await import('/js/state.js'); }")
    yield page
    context.close()


def _play_to_last_card(seed: int) -> tuple[GameState, dict[str, Any], int]:
    """A hand played to its last card; returns the state, seat 0's view
    before that card, and the card."""
    rng = random.Random(seed)
    s = GameState(first_dealer=0)
    s.deal_random(seed=seed)
    while s.phase is Phase.BID:
        s.apply(BID_BASE + s.legal_bids()[min(1, len(s.legal_bids()) - 1)])
    assert s.phase is Phase.PLAY
    while len(s.plays) < 51:
        s.apply(rng.choice(s.legal_cards()))
    before = view_for(s, 0).to_dict()
    return s, before, s.legal_cards()[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_last_trick_of_a_hand_is_shown_before_the_next_hand(js: Any, seed: int) -> None:
    s, before, card = _play_to_last_card(seed)
    seat = s.turn
    s.apply(card)
    hand = s.history[-1]
    if s.phase is Phase.DEAL:
        s.deal_random(seed=seed + 100)
    after = view_for(s, 0).to_dict()
    event = {"kind": "play", "seat": seat, "card": CARD_NAMES[card], "by": "player"}
    event["trick_winner"] = None  # the client must work it out if absent
    got = js.evaluate("([b, e, a]) => S.interimView(b, e, a)", [before, event, after])
    assert got is not None
    assert got["tricks_won"] == list(hand.tricks)
    assert len(got["tricks"]) == 13 and got["tricks"][-1]["winner"] is not None
    assert got["turn"] is None and got["legal"] is None
    assert got["hand"] == [c for c in before["hand"] if c != CARD_NAMES[card]]
    # Within a hand the frame's own view already shows the card.
    same = js.evaluate("([b, e]) => S.interimView(b, e, b)", [before, event])
    assert same is None


def test_frames_build_the_sheet_in_order_and_ignore_stale_events(js: Any) -> None:
    room = {"id": "t", "status": "playing", "seats": [], "timer": 30}
    snap = {
        "type": "snapshot",
        "table": "t",
        "version": 10,
        "you": {"seat": 0, "role": "player", "host": True},
        "room": room,
        "view": None,
        "clock": {"seat": 0, "timer": 30, "remaining_ms": 20000, "deadline_ms": 0},
        "sheet": [],
        "chat": [],
    }
    row = {"kind": "hand_over", "hand_index": 0, "dealer": 0, "bids": [3, 3, 3, 3]}
    frames = [
        snap,
        {"type": "event", "table": "t", "version": 11, "event": row, "room": room},
        {"type": "event", "table": "t", "version": 11, "event": row, "room": room},
        {"type": "event", "table": "t", "version": 9, "event": dict(row, hand_index=5)},
        {"type": "event", "table": "other", "version": 12, "event": dict(row, hand_index=6)},
        {"type": "presence", "table": "t", "seat": 0, "connected": False},
        {"type": "chat", "table": "t", "channel": "players", "from": {"id": "u", "name": "N"}},
    ]
    out = js.evaluate(
        """(frames) => {
            const ts = new S.TableState();
            ts.apply(frames[0], 1000);
            const deadline = ts.deadline;
            for (const f of frames.slice(1)) ts.apply(f, 5000);
            return {sheet: ts.sheet.map((r) => r.hand_index), version: ts.version,
                    chat: ts.chat.length, deadline};
        }""",
        json.loads(json.dumps(frames)),
    )
    assert out == {"sheet": [0], "version": 11, "chat": 1, "deadline": 21000}
