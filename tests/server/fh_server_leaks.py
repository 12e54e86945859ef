"""The leak check of the server tests: no frame a client receives shows a
card its seat may not see (another seat's hand, a card not yet played)."""

from __future__ import annotations

import json
import re
from typing import Any

CARD_RE = re.compile(r'"([2-9TJQKA][CDHS])"')


def check_no_leaks(frames: list[str], seat: int | None, record: dict[str, Any]) -> int:
    """Every frame's cards are this seat's own (in its deal for that hand) or
    cards already played. Returns how many frames held a view."""
    checked = 0
    for raw in frames:
        msg = json.loads(raw)
        if msg["type"] not in ("event", "snapshot", "catchup"):
            continue
        view = msg["view"]
        cards = set(CARD_RE.findall(raw))
        allowed: set[str] = set()
        if msg["type"] == "event":
            allowed |= _cards_shown_by(msg["event"])
        for h in msg.get("sheet") or []:
            if h.get("last_trick"):
                allowed.update(h["last_trick"]["cards"])
        if msg["type"] == "catchup":
            for e in msg["events"]:
                allowed |= _cards_shown_by(e["event"])
        if view is not None:
            checked += 1
            allowed |= _cards_seen_in(view, seat, record)
        leaked = cards - allowed
        assert not leaked, f"frame shows unplayed cards {sorted(leaked)}: {raw[:300]}"
    return checked


def _cards_shown_by(ev: dict[str, Any]) -> set[str]:
    """The cards an event may show: the card played, or the last trick."""
    if ev["kind"] == "play":
        return {ev["card"]}
    if ev["kind"] == "hand_over" and ev["last_trick"]:
        return set(ev["last_trick"]["cards"])
    return set()


def _cards_seen_in(view: dict[str, Any], seat: int | None, record: dict[str, Any]) -> set[str]:
    """The cards ``seat``'s view may show (the tricks, and its own hand,
    which must hold only cards dealt to it)."""
    seen = {c for t in view["tricks"] for c in t["cards"]}
    if seat is None:
        assert "hand" not in view, "a spectator's view holds a hand"
        return seen
    assert view["seat"] == seat
    hand = set(view["hand"])
    dealt = set(record["hands"][view["hand_index"]]["deal"][seat])
    assert hand <= dealt, "a view's hand holds cards not dealt to this seat"
    return seen | hand
