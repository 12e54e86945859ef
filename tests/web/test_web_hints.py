"""The client's side of hints and levels (js/state.js, js/scoresheet.js,
js/screens/game.js) over server-shaped frames: a `hint` frame is shown
only while the table is at its version, the score sheet marks the seats
that used a hint, the suggestion is put in words from the frame's fields,
and a seat's level reaches the renderer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fh_web import blank_page


@pytest.fixture(scope="module")
def js(browser: Any, static_url: str) -> Iterator[Any]:
    with blank_page(browser, static_url) as page:
        page.evaluate(
            """async () => {
                window.S = await import('/js/state.js');
                window.Sheet = await import('/js/scoresheet.js');
                window.G = await import('/js/screens/game.js');
            }"""
        )
        yield page


ROOM = {
    "id": "t",
    "status": "playing",
    "hints": True,
    "timer": 30,
    "seats": [
        {"seat": 0, "user": {"id": "u0", "name": "Rami"}, "bot": None, "level": None},
        {"seat": 1, "user": None, "bot": "expert", "level": "expert", "label": "Expert bot"},
        {"seat": 2, "user": None, "bot": "beginner", "level": "beginner"},
        {"seat": 3, "user": None, "bot": "random", "level": None, "label": "random"},
    ],
}


def test_a_hint_is_shown_at_its_version_only(js: Any) -> None:
    out = js.evaluate(
        """(room) => {
            const ts = new S.TableState();
            ts.apply({type: "snapshot", table: "t", version: 9, room, view: null, clock: null,
                      sheet: [], chat: [], you: {seat: 0, role: "player", host: true}});
            ts.apply({type: "hint", id: 4, table: "t", version: 9, seat: 0, action: "bid 4",
                      reason: "bid 4: 72% chance of making it", chance: 0.72, values: []});
            const shown = ts.model().hint;
            ts.apply({type: "hint", id: 5, table: "other", version: 9, seat: 0, action: "QD",
                      reason: "", chance: null, values: []});
            const foreign = ts.model().hint;
            ts.apply({type: "event", table: "t", version: 10, room, view: null, clock: null,
                      event: {kind: "bid", seat: 0, bid: 4, by: "player"}});
            return {shown: shown && shown.id, foreign: foreign && foreign.id,
                    after: ts.model().hint, hints: ts.model().hints,
                    levels: ts.seats().map((s) => s.level)};
        }""",
        ROOM,
    )
    assert out["shown"] == 4 and out["foreign"] == 4  # another table's hint is ignored
    assert out["after"] is None  # the table moved on: the hint no longer applies
    assert out["hints"] is True
    assert out["levels"] == [None, "expert", "beginner", None]


def test_the_score_sheet_marks_the_seats_that_used_a_hint(js: Any) -> None:
    row = {
        "hand_index": 0,
        "dealer": 0,
        "bids": [3, 2, 2, 4],
        "tricks": [3, 2, 4, 4],
        "deltas": [3, 2, 2, 4],
        "scores": [3, 2, 2, 4],
        "thrown_in": False,
        "hinted": [2],
    }
    marked = js.evaluate(
        """(row) => {
            const el = Sheet.scoreSheet([row], (s) => `P${s}`, 0, null);
            return [...el.querySelectorAll("td.hinted")].map((td) => [
                td.dataset.seat, td.querySelector(".hint-mark").textContent]);
        }""",
        row,
    )
    assert marked == [["2", "hint"]]


def test_the_suggestion_in_words(js: Any) -> None:
    texts = js.evaluate(
        """() => [
            G.hintText({action: "bid 4", chance: 0.72, values: []}),
            G.hintText({action: "QD", chance: null, values: [["QD", 3.24], ["KD", 1.1]]}),
            G.hintText({action: "2C", chance: null, values: []}),
            G.hintText({action: "redeal", chance: null, values: []}),
        ]"""
    )
    assert texts[0] == "bid 4: 72% chance of making it."
    assert texts[1].endswith("+3.2 expected points; next best King of diamonds: +1.1.")
    assert texts[1].startswith("Queen of diamonds")
    assert "only sensible card" in texts[2] and "new deal" in texts[3]
