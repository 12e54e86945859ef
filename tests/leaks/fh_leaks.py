"""No card leaks: games through a real server, and a checker that reads every
frame each seat and each spectator received against the finished game's
record.

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

:class:`LeakGame` plays one game on a server, of one of three kinds: four
server bots and a spectator (the host sits passive until three timeouts
hand the seat to a bot), four people driven by this client from
``view.legal``, or two people and two bots; each with a spectator, and some
with a player who drops and rejoins (``catchup``) or a spectator who comes
late (``snapshot``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from fh_wire import CARD_NAMES, Account, Wire

from fourhundred.bots import make_bot
from fourhundred.bots.protocol import view_from_dict
from fourhundred.engine import (
    BID_BASE,
    REDEAL,
    GameState,
    Settings,
    bid_action,
    mask_of,
    parse_card,
)
from fourhundred.engine.steps import view_at

__all__ = [
    "KINDS",
    "CheckSummary",
    "GameResult",
    "LeakChecker",
    "LeakGame",
    "Recipient",
    "check_game",
    "view_key",
]

CARDS = frozenset(CARD_NAMES)
EMBEDDED_CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[CDHS](?![A-Za-z0-9])")
KINDS = ("bots", "humans", "mixed")


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


# --------------------------------------------------------------- the games


@dataclass
class GameResult:
    kind: str
    table: str
    finished: bool
    frames: int = 0
    views: int = 0
    cards_seen: int = 0
    recipients: int = 0
    actions: int = 0
    frame_types: dict[str, int] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    client_errors: dict[str, int] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class GameOptions:
    """How a :class:`LeakGame` tests the server beyond plain play."""

    reconnect: float = 0.0
    """The chance, at each look at the table from the second trick of a
    hand on, that the last person drops the socket and rejoins with its last
    version (once a game)."""
    late_spectator: bool = False
    """A second spectator joins mid-game (and gets a snapshot)."""
    time_limit: float = 180.0
    """Seconds the game may take."""


class LeakGame:
    """One game on a server: set up, played to the end, then checked.

    ``people``: the guests this game may use (the first is the host; a
    ``bots`` game uses one, ``mixed`` two, ``humans`` four); ``watchers``:
    guests for the spectator and a late spectator.
    """

    def __init__(
        self,
        kind: str,
        people: list[Account],
        watchers: list[Account],
        rng: random.Random,
        options: GameOptions = GameOptions(),
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}")
        self.kind = kind
        self.people = people[: {"bots": 1, "mixed": 2, "humans": 4}[kind]]
        self.watchers = watchers
        self.rng = rng
        self.reconnect = options.reconnect
        self.late_spectator = options.late_spectator
        self.time_limit = options.time_limit
        self.table = ""
        self.join: dict[str, str] = {}
        self.recipients: list[Recipient] = []
        self.wires: list[Wire] = []
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.over = asyncio.Event()
        self._seen = 0
        self._game_over = False
        self._bot = make_bot("heuristic", seed=rng.getrandbits(32))

    async def _wire(self, acct: Account, **join: Any) -> Wire:
        w = await acct.wire(light=True)
        self.wires.append(w)
        await w.join(**(join or self.join))
        return w

    async def setup(self) -> None:
        host = self.people[0]
        private = self.rng.random() < 0.5
        timer = 15 if self.kind == "bots" else 90
        made = await host.create_table(
            kind="private" if private else "casual",
            preset="standard",
            settings={"target": 11},
            timer=timer,
        )
        self.table = made["table"]["id"]
        self.join = {"invite": made["invite"]} if private else {"table": self.table}
        self.seated: list[tuple[int, Account, Recipient, Wire]] = []
        for seat, acct in enumerate(self.people):
            rec = Recipient(f"{self.kind}:{self.table}:seat{seat}", seat)
            w = await self._wire(acct)
            if seat > 0:
                reply = await w.request("sit", seat=seat)
                if reply["type"] != "ack":
                    raise RuntimeError(f"sit refused: {reply}")
            self.recipients.append(rec)
            self.seated.append((seat, acct, rec, w))
        host_wire = self.seated[0][3]
        for seat in range(len(self.people), 4):
            reply = await host_wire.request("add_bot", seat=seat, bot="heuristic")
            if reply["type"] != "ack":
                raise RuntimeError(f"add_bot refused: {reply}")
        spec = Recipient(f"{self.kind}:{self.table}:spectator", None)
        self.spectator = await self._wire(self.watchers[0])
        self.recipients.append(spec)
        for _, _, _, w in self.seated:
            reply = await w.request("ready", ready=True)
            if reply["type"] != "ack":
                raise RuntimeError(f"ready refused: {reply}")

    def _is_over(self) -> bool:
        frames = self.spectator.frames
        for i in range(self._seen, len(frames)):
            if frames[i].get("kind") == "game_over":
                self._game_over = True
        self._seen = len(frames)
        return self._game_over

    async def _drive(self, seat: int, acct: Account, rec: Recipient, wire: Wire) -> None:
        """Play ``seat`` from its views until the game is over."""
        acted: tuple[Any, ...] | None = None
        dropped = not (self.reconnect > 0 and seat == len(self.people) - 1)
        deadline = time.monotonic() + self.time_limit
        while not self.over.is_set() and time.monotonic() < deadline:
            frame = wire.latest()
            view = frame.get("view") if frame else None
            if (
                not dropped
                and view is not None
                and view["phase"] == "play"
                and len(view["tricks"]) >= 2
                and self.rng.random() < self.reconnect
            ):
                # Drop the connection mid-hand and come back with the last
                # version seen: the server answers with a catchup.
                dropped = True
                last = frame["version"] if frame else None
                await wire.close()
                await asyncio.sleep(self.rng.uniform(0.0, 0.3))
                wire = await acct.wire(light=True)
                self.wires.append(wire)
                await wire.join(**self.join, last_version=last)
                continue
            if view is not None and view.get("legal") and view.get("turn") == seat:
                key = (view_key(view), frame["version"] if frame else 0)
                if key != acted:
                    acted = key
                    # A moment to think: people (and the server's 20 frames a
                    # second per socket) do not play at machine speed.
                    await asyncio.sleep(self.rng.uniform(0.02, 0.08))
                    kind, move = self._choose(view)
                    body = {"bid": {"bid": move}, "play": {"card": move}}.get(kind, {})
                    try:
                        reply = await wire.request(kind, version=frame["version"], **body)
                    except (TimeoutError, ConnectionError):
                        continue
                    if reply["type"] == "ack":
                        self.actions += 1
                    else:
                        code = str(reply.get("code"))
                        self.errors[code] = self.errors.get(code, 0) + 1
                    continue
            await wire.changed(0.5)

    def _choose(self, view: dict[str, Any]) -> tuple[str, Any]:
        """Mostly the heuristic bot's choice (so games end), sometimes any
        legal card (so odd positions come up too; a wild bid would only make
        the game long)."""
        if view["phase"] == "play" and self.rng.random() < 0.1:
            move = self.rng.choice(view["legal"])
            return ("bid", move) if isinstance(move, int) else ("play", move)
        action = self._bot.choose(view_from_dict(view))
        if action == REDEAL:
            return "redeal", None
        if action >= BID_BASE:
            return "bid", action - BID_BASE
        return "play", CARD_NAMES[action]

    async def play(self) -> bool:
        """Play the game to its end (False if it did not end in time)."""
        drivers = []
        if self.kind != "bots":
            drivers = [
                asyncio.create_task(self._drive(seat, acct, rec, w))
                for seat, acct, rec, w in self.seated
            ]
        late: Recipient | None = None
        deadline = time.monotonic() + self.time_limit
        try:
            while time.monotonic() < deadline:
                if self._is_over():
                    break
                if self.late_spectator and late is None and len(self.spectator.frames) > 60:
                    late = Recipient(f"{self.kind}:{self.table}:late-spectator", None)
                    self.recipients.append(late)
                    await self._wire(self.watchers[1])
                await self.spectator.wait(self._is_over, 1.0)
        finally:
            self.over.set()
            for d in drivers:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(d, 10)
        return self._is_over()

    def _collect(self) -> None:
        """Every frame each recipient's sockets got, in order."""
        for rec in self.recipients:
            rec.raw = []
        for w in self.wires:
            owner = self._owner(w)
            if owner is not None:
                owner.raw.extend(w.raw)

    def _owner(self, w: Wire) -> Recipient | None:
        for _, acct, rec, _ in self.seated:
            if w.token == acct.token:
                return rec
        if w.token == self.watchers[0].token:
            return next(r for r in self.recipients if r.label.endswith(":spectator"))
        if len(self.watchers) > 1 and w.token == self.watchers[1].token:
            return next((r for r in self.recipients if r.label.endswith("late-spectator")), None)
        return None

    async def run(
        self,
        check: Callable[[dict[str, Any], list[Recipient]], Awaitable[CheckSummary]] | None = None,
    ) -> GameResult:
        """Set up, play, fetch the record, check every frame (with
        :func:`check_game`, or ``check`` if given)."""
        try:
            await self.setup()
            finished = await self.play()
            # The last frames are on their way: a moment for them.
            await asyncio.sleep(0.1)
        finally:
            for w in self.wires:
                await w.close()
        self._collect()
        result = GameResult(self.kind, self.table, finished, actions=self.actions)
        result.client_errors = dict(self.errors)
        result.recipients = len(self.recipients)
        if not finished:
            result.note = "the game did not end in time"
            return result
        r = await self.people[0].http.get(f"/api/games/{self.table}/record")
        if r.status_code != 200:
            result.violations.append(f"no record for finished table {self.table}: {r.status_code}")
            return result
        record = r.json()
        summary = (
            check_game(record, self.recipients)
            if check is None
            else await check(record, self.recipients)
        )
        result.frames = summary.frames
        result.views = summary.views
        result.cards_seen = summary.cards_seen
        result.frame_types = summary.frame_types
        result.violations = summary.violations
        return result
