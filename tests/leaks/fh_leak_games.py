"""The games of the leak tests, played through a real server and then
checked by ``fh_leaks.py``.

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
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fh_leaks import CheckSummary, Recipient, check_game, view_key
from fh_wire import CARD_NAMES, Account, Wire

from fourhundred.bots import make_bot
from fourhundred.bots.protocol import view_from_dict
from fourhundred.engine import BID_BASE, REDEAL

__all__ = ["KINDS", "GameOptions", "GameResult", "LeakGame"]

KINDS = ("bots", "humans", "mixed")


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
