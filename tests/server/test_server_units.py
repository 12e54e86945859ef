"""Unit tests of the server's pure parts: doctests, the wire protocol (every
example in docs/protocol.md parses), matchmaking, ratings, the event fold."""

from __future__ import annotations

import doctest
import importlib
import json
import re
from pathlib import Path

import pytest

from fourhundred.engine import GameState, view_for
from fourhundred.server import events, protocol
from fourhundred.server.errors import CommandError
from fourhundred.server.matchmaking import QueueEntry, allowed_range, find_matches
from fourhundred.server.ratings import balanced_teams, leaver_loss, rate_game
from fourhundred.server.room import rebuild
from fourhundred.store import StoredEvent

ROOT = Path(__file__).resolve().parents[2]
MODULES = [
    "fourhundred.server.auth",
    "fourhundred.server.chat",
    "fourhundred.server.competitions.detail",
    "fourhundred.server.competitions.system",
    "fourhundred.server.config",
    "fourhundred.server.errors",
    "fourhundred.server.events",
    "fourhundred.server.frames",
    "fourhundred.server.matchmaking",
    "fourhundred.server.protocol",
    "fourhundred.server.ratelimit",
    "fourhundred.server.ratings",
    "fourhundred.server.room",
    "fourhundred.server.standing",
    "fourhundred.server.chatfilter",
    "fourhundred.server.ws",
    "fourhundred.store.database",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_every_client_example_in_the_protocol_doc_parses() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.startswith('{"type": "') and ln.endswith("}")]
    client = [ln for ln in lines if json.loads(ln)["type"] in protocol.MESSAGE_TYPES]
    assert {json.loads(ln)["type"] for ln in client} == set(protocol.MESSAGE_TYPES)
    for ln in client:
        protocol.decode(ln)


def test_decode_errors_are_classified() -> None:
    cases = {
        "{": "bad_json",
        "[]": "bad_message",
        '{"type": "nope", "id": 1}': "unknown_type",
        '{"type": "play", "id": 1}': "bad_message",
        '{"type": "move", "id": 1, "from": 4, "to": 0}': "bad_message",
        '{"type": "sit", "id": 1, "seat": -1}': "bad_message",
    }
    for frame, code in cases.items():
        with pytest.raises(CommandError) as e:
            protocol.decode(frame)
        assert e.value.code == code, frame
    assert protocol.frame_id('{"id": "abc", "type": 3}') == "abc"
    assert protocol.frame_id('{"id": true}') is None


def test_matchmaking_widens_with_waiting() -> None:
    near = [QueueEntry(f"n{i}", "n", 25.0, 1.0, 0.0) for i in range(3)]
    far = QueueEntry("far", "f", 25.0 + 10.0, 1.0, 0.0)
    assert find_matches([*near, far], now=0.0) == []
    need = next(t for t in range(100) if allowed_range(t) >= 10.0)
    groups = find_matches([*near, far], now=float(need))
    assert len(groups) == 1 and {e.user_id for e in groups[0]} == {"n0", "n1", "n2", "far"}
    # Eight players in two rating bands make two matches, one per band.
    band = [QueueEntry(f"a{i}", "a", 40.0 + i / 10, 1.0, float(i)) for i in range(4)]
    band += [QueueEntry(f"b{i}", "b", 10.0 + i / 10, 1.0, float(i)) for i in range(4)]
    groups = find_matches(band, now=4.0)
    assert sorted(sorted(e.user_id[0] for e in g) for g in groups) == [["a"] * 4, ["b"] * 4]


def test_ratings() -> None:
    start = [(25.0, 25 / 3)] * 4
    new = rate_game(start, winner=1)
    assert new[1][0] > 25 > new[0][0] and new[1] == new[3]
    mu, _ = leaver_loss(start, seat=2)
    assert mu < 25
    # 30 + 20 against 29 + 21: player 0 partners player 1 (seats 0 and 2).
    assert balanced_teams([(30.0, 1.0), (20.0, 1.0), (29.0, 1.0), (21.0, 1.0)]) == (0, 2, 1, 3)


def _created(kind: str = "casual") -> StoredEvent:
    return StoredEvent(
        1,
        "created",
        {
            "table_kind": kind,
            "host": "u1",
            "preset": "standard",
            "settings": {"preset": "standard"},
            "timer": 30,
            "invite": "secret",
            "seats": [{"id": "u1", "name": "A", "guest": True, "rating": None}, None, None, None],
            "ready": [False] * 4,
        },
        0,
    )


def test_private_fields_never_reach_clients() -> None:
    deal = events.Deal(hand_index=0, dealer=0, cards=(("AH",) * 13,) * 4).public()
    assert deal == {"kind": "deal", "hand_index": 0, "dealer": 0}
    created = events.from_stored("created", _created().data).public()
    assert "invite" not in created and created["table_kind"] == "casual"
    rating = events.Rating(user="u", before=1, after=0, reason="left", mu=1.0, sigma=2.0)
    assert set(rating.public()) == {"kind", "user", "before", "after", "reason"}
    kinds = [t for t in events.Event.__args__ if t.PRIVATE]  # type: ignore[attr-defined]
    assert {t.__struct_config__.tag for t in kinds} == {
        "created",
        "deal",
        "rating",
        "game_over",
        "rematch_opened",
    }
    for t in kinds:
        assert set(t.__struct_fields__) >= t.PRIVATE, t


def test_the_fold_refuses_what_does_not_fit() -> None:
    ready = StoredEvent(3, "ready", {"seat": 0, "ready": True}, 0)
    with pytest.raises(ValueError, match="does not follow"):
        rebuild("t", [_created(), ready])
    with pytest.raises(ValueError, match="explode"):
        rebuild("t", [_created(), StoredEvent(2, "explode", {}, 0)])
    other = {"id": "u2", "name": "B", "guest": True, "rating": None}
    with pytest.raises(ValueError, match="taken"):
        rebuild("t", [_created(), StoredEvent(2, "seated", {"seat": 0, "user": other}, 0)])
    m = rebuild("t", [_created()])
    copy = m.copy()
    copy.apply(events.Ready(seat=0, ready=True))
    assert copy.seats[0].ready and not m.seats[0].ready and m.version == 1 and copy.version == 2


def test_views_sent_are_the_engines() -> None:
    # The actor sends view_for's JSON unchanged; a spectator's has no hand.
    s = GameState(first_dealer=0)
    s.deal_random(seed=3)
    assert "hand" not in view_for(s, None).to_dict()
    assert re.fullmatch(r"[2-9TJQKA][CDHS]", view_for(s, 1).to_dict()["hand"][0])


def test_the_protocol_doc_lists_every_event_with_its_public_fields() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text.split("\n### Events\n", 1)[1].split("\n### ", 1)[0]
    documented: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) == 3 and cells[0].startswith("`"):
            names = re.findall(r"`([a-z_]+)`", cells[1])
            documented[cells[0].strip("`")] = set(names)
    for kind in events.Event.__args__:  # type: ignore[attr-defined]
        tag = kind.__struct_config__.tag
        public = set(kind.__struct_fields__) - kind.PRIVATE
        public = {"from" if f == "from_" else f for f in public}
        assert documented.get(tag) == public, (tag, documented.get(tag), public)


def test_a_session_is_named_by_browser_and_system_not_by_the_header() -> None:
    from fourhundred.server.devices import device_of

    chrome = "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0"
    cases = {
        f"Mozilla/5.0 (Windows NT 10.0; Win64; x64) {chrome} Safari/537.36 Edg/131.0.0.0": (
            "Edge",
            "Windows",
        ),
        f"Mozilla/5.0 (Linux; Android 14; Pixel 8) {chrome} Mobile Safari/537.36": (
            "Chrome",
            "Android",
        ),
        f"Mozilla/5.0 (Linux; Android 14; SM-S918B) {chrome} SamsungBrowser/26.0 Safari/537.36": (
            "Samsung Internet",
            "Android",
        ),
        "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Version/17.0 Safari/604.1": (
            "Safari",
            "iPad",
        ),
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) CriOS/131.0 Mobile Safari/604.1": (
            "Chrome",
            "iPhone",
        ),
        f"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) {chrome} Safari/537.36 OPR/115.0": (
            "Opera",
            "macOS",
        ),
        f"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) {chrome} Safari/537.36": ("Chrome", "ChromeOS"),
        "something else entirely": ("", ""),
        "": ("", ""),
    }
    for ua, named in cases.items():
        assert device_of(ua) == named, ua
    assert all(len(part) <= 40 for part in device_of("Firefox/1 " * 1000))
