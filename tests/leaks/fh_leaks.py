"""No card leaks: the checker that reads every frame each seat and each
spectator of a game through a real server received against the finished
game's record.

:class:`LeakChecker` holds a game record (``GET /api/games/{id}/record``)
replayed with the engine, so it knows every hand's deal, who played which
card, and when. For each frame a recipient got it checks that

- every card name in the frame sits where a card may be: the recipient's
  own ``view.hand`` and ``view.legal``, the cards of ``view.tricks``, a
  ``play`` event's card, a ``hand_over``'s ``last_trick`` (also in a
  snapshot's ``sheet``), a ``catchup``'s events. Anywhere else (the room,
  the clock, a message, a field no one expected) is a leak;
- a view's hand holds only the recipient's own unplayed cards (a spectator's
  view has no ``hand`` at all), its tricks are exactly the cards played so
  far in that hand, and the whole view equals the engine's ``view_at`` at
  that point of the game;
- a played card shown to anyone was played no later than the command the
  frame belongs to (a card of seat X reaches seat Y only after X played it),
  and every ``play`` event names the card and seat the record has;
- every recipient got the same public event for the same version.

The games it checks (:class:`LeakGame`: four bots, four people, or two of
each, through a real server) are played by ``fh_leak_games.py``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fh_wire import CARD_NAMES

from fourhundred.engine import REDEAL, GameState, Settings, bid_action, mask_of, parse_card
from fourhundred.engine.steps import view_at

__all__ = [
    "CheckSummary",
    "LeakChecker",
    "Recipient",
    "check_game",
    "view_key",
]

CARDS = frozenset(CARD_NAMES)
EMBEDDED_CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[CDHS](?![A-Za-z0-9])")


def view_key(view: dict[str, Any]) -> tuple[int, int, int, str]:
    """Where in the game a view is: hand, bids made, cards played, phase.

    >>> view_key({"hand_index": 2, "bids": [3, None, 4, None], "phase": "bid",
    ...           "tricks": []})
    (2, 2, 0, 'bid')
    """
    bids = sum(b is not None for b in view["bids"])
    played = sum(len(t["cards"]) for t in view["tricks"])
    return int(view["hand_index"]), bids, played, str(view["phase"])


@dataclass
class Recipient:
    """Everything one seat (``seat`` 0..3) or one spectator (``None``) got at
    one table, in order, over one or more sockets."""

    label: str
    seat: int | None
    raw: list[str] = field(default_factory=list)


class LeakChecker:
    """Checks the frames of one finished game against its record."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.violations: list[str] = []
        self.frames = 0
        self.frame_types: Counter[str] = Counter()
        self.views = 0
        self.cards_seen = 0
        self._positions: dict[tuple[int, int, int, str], GameState] = {}
        self._expected: dict[tuple[tuple[int, int, int, str], int | None], dict[str, Any]] = {}
        self.deals: list[list[frozenset[str]]] = []
        self.plays: list[list[str]] = []
        self.play_seats: list[list[int]] = []
        self._replay()
        self.play_version: dict[tuple[int, int], int] = {}
        self.events: dict[int, str] = {}

    # -------------------------------------------------------------- record

    def _replay(self) -> None:
        rec = self.record
        state = GameState(Settings.from_dict(rec["rules"]), first_dealer=rec["first_dealer"])
        for hand in rec["hands"]:
            state.deal([mask_of([parse_card(c) for c in cards]) for cards in hand["deal"]])
            self.deals.append([frozenset(cards) for cards in hand["deal"]])
            self.plays.append(list(hand["plays"]))
            seats: list[int] = []
            self.play_seats.append(seats)
            self._keep(state)
            if hand.get("redeal_request") is not None:
                state.apply(REDEAL, hand["redeal_request"])
                self._keep(state)
                continue
            for b in hand["bids"]:
                state.apply(bid_action(b))
                self._keep(state)
            for c in hand["plays"]:
                seats.append(state.turn)
                state.apply(parse_card(c))
                self._keep(state)

    def _keep(self, state: GameState) -> None:
        # Every point of the game has a view, between hands too (the hand
        # just ended, phase "deal"), since each event carries its own.
        key = view_key(view_at(state, None).to_dict())
        self._positions[key] = state.clone()

    def expected_view(self, key: tuple[int, int, int, str], seat: int | None) -> dict[str, Any]:
        cached = self._expected.get((key, seat))
        if cached is None:
            cached = view_at(self._positions[key], seat).to_dict()
            self._expected[(key, seat)] = cached
        return cached

    def last_trick(self, h: int) -> list[str]:
        plays = self.plays[h]
        n = len(plays) - len(plays) % 4
        return plays[n - 4 : n] if n >= 4 else []

    # ------------------------------------------------------------- checking

    def bad(self, who: Recipient, what: str, raw: str = "") -> None:
        self.violations.append(f"{who.label}: {what}" + (f" -- {raw[:240]}" if raw else ""))

    def check(self, recipients: list[Recipient]) -> None:
        """Check every frame of every recipient."""
        parsed = {id(r): [json.loads(x) for x in r.raw] for r in recipients}
        self._index_events(recipients, parsed)
        for r in recipients:
            frames = parsed[id(r)]
            horizon = self._horizons(frames)
            for raw, msg, vcmd in zip(r.raw, frames, horizon, strict=True):
                self.frames += 1
                self.frame_types[str(msg.get("type"))] += 1
                self._check_frame(r, raw, msg, vcmd)

    def _index_events(self, recipients: list[Recipient], parsed: dict[int, list[Any]]) -> None:
        """Every public event by version (all recipients must agree), and the
        version at which each card of the record was played."""
        for r in recipients:
            for msg in parsed[id(r)]:
                pairs: list[tuple[int, Any]] = []
                if msg.get("type") == "event":
                    pairs.append((msg["version"], msg["event"]))
                elif msg.get("type") == "catchup":
                    pairs.extend((e["version"], e["event"]) for e in msg["events"])
                for v, ev in pairs:
                    text = json.dumps(ev, sort_keys=True)
                    if self.events.setdefault(v, text) != text:
                        self.bad(r, f"event {v} differs between recipients", text)
        self._place_plays()

    def _place_plays(self) -> None:
        """The version of each play event, by (hand, index in the hand), and
        each checked against the record."""
        h, k = -1, 0
        versions = sorted(self.events)
        for prev, v in zip([None, *versions], versions, strict=False):
            ev = json.loads(self.events[v])
            kind = ev.get("kind")
            if kind == "deal":
                h, k = ev["hand_index"], 0
            elif kind == "play":
                if prev is not None and prev != v - 1:
                    self.violations.append(f"events {prev}..{v} missing: plays cannot be placed")
                if not 0 <= h < len(self.plays) or k >= len(self.plays[h]):
                    self.violations.append(f"play event {v} beyond the record: {ev}")
                    continue
                if ev["card"] != self.plays[h][k] or ev["seat"] != self.play_seats[h][k]:
                    self.violations.append(
                        f"play event {v} says seat {ev['seat']} played {ev['card']}; the record"
                        f" says seat {self.play_seats[h][k]} played {self.plays[h][k]}"
                    )
                self.play_version[(h, k)] = v
                k += 1

    @staticmethod
    def _horizons(frames: list[dict[str, Any]]) -> list[int]:
        """For each frame, the last version of the command it belongs to:
        the events of one command come back to back, each carrying the state
        after the whole command."""
        out = [0] * len(frames)
        i = 0
        while i < len(frames):
            msg = frames[i]
            v = msg.get("version") if msg.get("type") in ("event", "snapshot", "catchup") else None
            if msg.get("type") != "event":
                out[i] = v if isinstance(v, int) else 0
                i += 1
                continue
            j = i
            view = json.dumps(msg.get("view"), sort_keys=True)
            top = msg["version"]
            while (
                j + 1 < len(frames)
                and frames[j + 1].get("type") == "event"
                and json.dumps(frames[j + 1].get("view"), sort_keys=True) == view
                and frames[j + 1]["version"] == frames[j]["version"] + 1
            ):
                j += 1
                top = frames[j]["version"]
            for x in range(i, j + 1):
                out[x] = top
            i = j + 1
        return out

    def _check_frame(self, r: Recipient, raw: str, msg: Any, vcmd: int) -> None:
        if not isinstance(msg, dict):
            self.bad(r, "a frame that is not an object", raw)
            return
        kind = msg.get("type")
        allowed: set[tuple[Any, ...]] = set()
        if kind in ("event", "snapshot", "catchup"):
            view = msg.get("view")
            if view is not None:
                allowed |= self._check_view(r, raw, view, vcmd)
            if kind == "event":
                allowed |= self._check_event(r, raw, msg["event"], ("event",), vcmd)
            if kind == "catchup":
                for i, e in enumerate(msg.get("events") or []):
                    allowed |= self._check_event(r, raw, e["event"], ("events", i, "event"), vcmd)
            for i, line in enumerate(msg.get("sheet") or []):
                allowed |= self._check_last_trick(r, raw, line, ("sheet", i), vcmd)
        for path, text in _strings(msg, ()):
            if text in CARDS:
                self.cards_seen += 1
                if path not in allowed:
                    self.bad(r, f"card {text} at {_dotted(path)}, where no card belongs", raw)
            elif path and path[-1] in ("message", "text", "name") and EMBEDDED_CARD.search(text):
                self.bad(r, f"a card name inside {_dotted(path)}: {text!r}", raw)

    def _check_view(
        self, r: Recipient, raw: str, view: dict[str, Any], vcmd: int
    ) -> set[tuple[Any, ...]]:
        self.views += 1
        allowed: set[tuple[Any, ...]] = set()
        key = view_key(view)
        h, _, played, _ = key
        if view.get("seat") != r.seat:
            self.bad(r, f"a view for seat {view.get('seat')}", raw)
        if key not in self._positions:
            self.bad(r, f"a view at {key}, a point the game never reached", raw)
            return allowed
        # Independently of view_at: the tricks are the cards played so far...
        shown = [c for t in view["tricks"] for c in t["cards"]]
        if shown != self.plays[h][:played]:
            self.bad(r, f"tricks {shown} are not the first {played} plays of hand {h}", raw)
        for i, t in enumerate(view["tricks"]):
            for j, _ in enumerate(t["cards"]):
                allowed.add(("view", "tricks", i, "cards", j))
        if played:
            v = self.play_version.get((h, played - 1))
            if v is not None and v > vcmd:
                self.bad(r, f"shows a card played at version {v} in a frame of version {vcmd}", raw)
        # ...the hand is the recipient's own unplayed cards, or absent.
        if r.seat is None:
            if "hand" in view:
                self.bad(r, "a spectator's view holds a hand", raw)
        else:
            allowed |= self._check_hand(r, raw, view, h, played)
        # And the whole view is the engine's, for this recipient, there.
        if view != self.expected_view(key, r.seat):
            self.bad(r, f"the view at {key} is not view_at's", raw)
        return allowed

    def _check_hand(
        self, r: Recipient, raw: str, view: dict[str, Any], h: int, played: int
    ) -> set[tuple[Any, ...]]:
        """A seat's view holds its own unplayed cards of hand ``h`` (after
        ``played`` plays), and its legal cards are among them."""
        assert r.seat is not None
        mine_played = {
            c
            for c, s in zip(self.plays[h][:played], self.play_seats[h], strict=False)
            if s == r.seat
        }
        unplayed = self.deals[h][r.seat] - mine_played
        hand = view.get("hand") or []
        if set(hand) != unplayed:
            self.bad(
                r,
                f"hand {sorted(hand)} is not seat {r.seat}'s unplayed cards {sorted(unplayed)}",
                raw,
            )
        allowed = {("view", "hand", i) for i in range(len(hand))}
        for i, x in enumerate(view.get("legal") or []):
            if isinstance(x, str):
                allowed.add(("view", "legal", i))
                if x not in unplayed:
                    self.bad(r, f"legal card {x} is not in the seat's hand", raw)
        return allowed

    def _check_event(
        self, r: Recipient, raw: str, ev: dict[str, Any], at: tuple[Any, ...], vcmd: int
    ) -> set[tuple[Any, ...]]:
        kind = ev.get("kind")
        if kind == "play":
            return {(*at, "card")}
        if kind == "hand_over":
            return self._check_last_trick(r, raw, ev, at, vcmd)
        return set()

    def _check_last_trick(
        self, r: Recipient, raw: str, line: dict[str, Any], at: tuple[Any, ...], vcmd: int
    ) -> set[tuple[Any, ...]]:
        lt = line.get("last_trick")
        if not lt:
            return set()
        h = line.get("hand_index")
        if not isinstance(h, int) or not 0 <= h < len(self.plays):
            self.bad(r, f"a last trick of hand {h}, which the record lacks", raw)
            return set()
        if lt.get("cards") != self.last_trick(h):
            self.bad(r, f"last trick {lt.get('cards')} of hand {h} is not the record's", raw)
        n = len(self.plays[h])
        v = self.play_version.get((h, n - 1))
        if v is not None and v > vcmd:
            self.bad(r, f"hand {h}'s last trick (version {v}) in a frame of version {vcmd}", raw)
        return {(*at, "last_trick", "cards", j) for j in range(len(lt.get("cards") or []))}


def _strings(obj: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, str) and k in CARDS:
                yield (*path, "<key>"), k
            yield from _strings(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _strings(v, (*path, i))


def _dotted(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "<top>"


@dataclass
class CheckSummary:
    frames: int
    views: int
    cards_seen: int
    frame_types: dict[str, int]
    violations: list[str]


def check_game(record: dict[str, Any], recipients: list[Recipient]) -> CheckSummary:
    """Check one finished game's frames (a plain function: it can run in
    another process)."""
    checker = LeakChecker(record)
    checker.check(recipients)
    return CheckSummary(
        checker.frames,
        checker.views,
        checker.cards_seen,
        dict(checker.frame_types),
        checker.violations,
    )
