"""The client's table state (js/state.js) over engine-made frames: events
in order build the score sheet, old or foreign events change nothing, and
each event is drawn with the view the server sent with it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fh_web import blank_page

from fourhundred.engine import BID_BASE, GameState, Phase, view_for
from fourhundred.engine.steps import hand_line, view_at


@pytest.fixture(scope="module")
def js(browser: Any, static_url: str) -> Iterator[Any]:
    with blank_page(browser, static_url) as page:
        page.evaluate("async () => { window.S = await import('/js/state.js'); }")
        yield page


def test_each_event_is_drawn_with_its_own_view(js: Any) -> None:
    """The last card of a hand, the hand's end and the next deal: the state
    follows each event's own view (the server's), never a computed one."""
    rng = random.Random(5)
    s = GameState(first_dealer=0)
    s.deal_random(seed=5)
    while s.phase is Phase.BID:
        s.apply(BID_BASE + s.legal_bids()[min(1, len(s.legal_bids()) - 1)])
    while s.phase is Phase.PLAY:
        s.apply(rng.choice(s.legal_cards()))
    ended = view_at(s, 0).to_dict()
    line = {"kind": "hand_over", **hand_line(s.history[-1])}
    s.deal_random(seed=6)
    dealt = view_for(s, 0).to_dict()
    room = {"id": "t", "status": "playing", "seats": [], "timer": 30}
    frames = [
        {
            "type": "event",
            "table": "t",
            "version": 60,
            "room": room,
            "view": ended,
            "event": {"kind": "play", "seat": 3, "card": "2C", "by": "bot", "trick_winner": 1},
        },
        {"type": "event", "table": "t", "version": 61, "room": room, "view": ended, "event": line},
        {
            "type": "event",
            "table": "t",
            "version": 62,
            "room": room,
            "view": dealt,
            "event": {"kind": "deal", "hand_index": 1, "dealer": 1},
        },
    ]
    out = js.evaluate(
        """(frames) => {
            const ts = new S.TableState();
            ts.apply({type: "snapshot", table: "t", version: 59, room: frames[0].room,
                      view: null, sheet: [], chat: []});
            return frames.map((f) => {
                ts.apply(f);
                return {version: ts.version, phase: ts.view.phase, sheet: ts.sheet.length};
            });
        }""",
        json.loads(json.dumps(frames)),
    )
    assert out == [
        {"version": 60, "phase": "deal", "sheet": 0},
        {"version": 61, "phase": "deal", "sheet": 1},
        {"version": 62, "phase": "bid", "sheet": 1},
    ]


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
