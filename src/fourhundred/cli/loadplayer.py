"""One simulated player of ``fourhundred loadtest`` (:mod:`.loadgen`): a
guest session and a WebSocket that plays a uniformly random legal action
whenever its view says it is its turn, after a short random "think" pause.

Latency is measured here, at the acting player: from sending a command to
receiving the broadcast of the event it caused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from .loadstats import LoadStats

if TYPE_CHECKING:  # imported by the command only when it runs, yet kept light
    import httpx
    from websockets.asyncio.client import ClientConnection

__all__ = ["PlayStyle", "Player"]

_MOVES = ("bid", "play", "redeal")
"""The events a player's own command causes (its latency is measured)."""


@dataclass(frozen=True, slots=True)
class PlayStyle:
    """How a simulated player plays: its mean pause before acting, and the
    servers to connect to again when its socket drops (empty: it does not)."""

    think_ms: int
    reconnect_to: tuple[str, ...] = ()


_decode = msgspec.json.Decoder().decode


class Player:
    """One simulated player: a guest session and a WebSocket."""

    def __init__(self, name: str, ws_url: str, stats: LoadStats, style: PlayStyle) -> None:
        self.ws_url = ws_url
        self.ws_urls = list(style.reconnect_to)
        """Where to connect again when the socket drops (empty: do not)."""
        self.table: str | None = None
        self.rejoin_id: int | None = None
        self.sent: dict[int, tuple[str, Any]] = {}  # command id -> move, for --record
        self.name = name
        self.stats = stats
        self.think_ms = style.think_ms
        self.rng = random.Random()
        self.cookie = ""
        self.ws: ClientConnection | None = None
        self.next_id = 0
        self.seat: int | None = None
        self.pending: dict[int, float] = {}  # command id -> send time
        self.sent_at_version: dict[int, float] = {}
        self.last_version = 0
        self.latest: tuple[int, dict[str, Any] | None] = (0, None)
        self.acting = False
        self.acted_version = -1
        self.tasks: set[asyncio.Task[None]] = set()
        self.over = asyncio.Event()

    async def login(self, http: httpx.AsyncClient) -> None:
        r = await http.post("/api/guest", json={"name": self.name})
        r.raise_for_status()
        self.cookie = "; ".join(f"{k}={v}" for k, v in r.cookies.items())

    async def connect(self) -> None:
        import websockets

        self.ws = await websockets.connect(
            self.ws_url,
            additional_headers={"Cookie": self.cookie},
            max_size=2**20,
            open_timeout=30,
            ping_interval=None,
        )
        self.stats.sockets_open += 1

    async def send(self, msg: dict[str, Any]) -> int:
        assert self.ws is not None
        self.next_id += 1
        msg["id"] = self.next_id
        self.pending[self.next_id] = time.perf_counter()
        await self.ws.send(json.dumps(msg))
        return self.next_id

    async def run(self, stop: asyncio.Event) -> None:
        """Read frames until the game is over or the test stops."""
        import websockets

        try:
            while True:
                assert self.ws is not None
                try:
                    async for raw in self.ws:
                        if stop.is_set():
                            break
                        frame = _decode(raw)
                        await self.on_frame(frame)
                        if self.over.is_set():
                            break
                    return
                except websockets.ConnectionClosed:
                    if stop.is_set() or self.over.is_set():
                        return
                    self.stats.disconnects += 1
                    if not self.ws_urls or not await self._reconnect(stop):
                        return
        finally:
            self.over.set()

    async def _reconnect(self, stop: asyncio.Event) -> bool:
        """Connect again, trying the servers in turn (the one that dropped
        the socket last), and rejoin the table from the last version seen.
        False if the test stopped first or nothing answered for a minute."""
        self.ws = None
        self.stats.sockets_open -= 1
        self.pending.clear()
        self.sent.clear()
        self.sent_at_version.clear()
        # A move sent on the lost socket may never have arrived: act again
        # on the view the rejoin brings if it is still this seat's turn.
        self.acted_version = -1
        i = self.ws_urls.index(self.ws_url) if self.ws_url in self.ws_urls else -1
        deadline = time.monotonic() + 60
        # As docs/protocol.md asks of a client: back-off from 0.5 s doubling
        # to 10 s, with jitter, so the sockets of a dead process do not all
        # land on the survivor in the same instant.
        delay = 0.5
        while not stop.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(delay * self.rng.uniform(0.5, 1.5))
            delay = min(2 * delay, 10.0)
            i = (i + 1) % len(self.ws_urls)
            self.ws_url = self.ws_urls[i]
            try:
                await self.connect()
            except Exception:  # refused, timed out, a 503 while it starts: next one
                continue
            self.stats.reconnects += 1
            await self._rejoin()
            return True
        return False

    async def _rejoin(self) -> None:
        self.rejoin_id = await self.send(
            {"type": "join", "table": self.table, "last_version": self.last_version or None}
        )

    async def _rejoin_later(self) -> None:
        import websockets

        await asyncio.sleep(0.5 * self.rng.uniform(0.5, 1.5))
        if self.ws is not None and not self.over.is_set():
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._rejoin()

    async def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "ack":
            self._on_ack(frame)
        elif kind == "error":
            self._on_error(frame)
        elif kind in ("snapshot", "catchup", "event"):
            self._on_table_frame(str(kind), frame)

    def _on_ack(self, frame: dict[str, Any]) -> None:
        cmd_id = frame.get("id")
        self.pending.pop(cmd_id, None)  # type: ignore[arg-type]
        move = self.sent.pop(cmd_id, None)  # type: ignore[arg-type]
        record = self.stats.record
        if record is not None and move is not None and self.table is not None:
            seat = -1 if self.seat is None else self.seat
            record.table(self.table).acks.append((seat, *move, frame["version"]))

    def _on_error(self, frame: dict[str, Any]) -> None:
        self.pending.pop(frame.get("id"), None)  # type: ignore[arg-type]
        self.sent.pop(frame.get("id"), None)  # type: ignore[arg-type]
        self.stats.error(str(frame.get("code")))
        if not self.ws_urls:
            return
        if frame.get("id") == self.rejoin_id:
            # The rejoin was refused (the table is changing servers):
            # a client tries again, or it would never play on.
            self._spawn(self._rejoin_later())
        # The move may be tried again on this version (it was not taken:
        # its table was moving); the view that follows says.
        self.acted_version = -1

    def _on_table_frame(self, kind: str, frame: dict[str, Any]) -> None:
        """A snapshot, catchup or event: note what it says, and act if it
        is this player's turn."""
        version = frame.get("version", 0)
        if self.stats.record is not None and self.table is not None:
            self.stats.record.table(self.table).frames.append(
                (round(time.time() * 1000), kind, version)
            )
        if kind != "event" and (frame.get("room") or {}).get("status") in ("over", "closed"):
            # The game ended while this socket was away (its catchup holds
            # the game_over): play the next one.
            self.over.set()
            return
        self.last_version = max(self.last_version, version)
        you = frame.get("you") or {}
        self.seat = you.get("seat")
        if kind == "event" and self._on_event(frame.get("event") or {}, version):
            return
        view = frame.get("view")
        self.latest = (version, view)
        if self._my_turn(view) and not self.acting:
            self.acting = True
            self._spawn_act()

    def _on_event(self, event: dict[str, Any], version: int) -> bool:
        """Count this player's own moves (with their latency); True when
        the game is over."""
        if event.get("kind") in _MOVES and event.get("seat") == self.seat:
            sent = self.sent_at_version.pop(version - 1, None)
            if sent is not None:
                self.stats.latencies_ms.append((time.perf_counter() - sent) * 1000)
                self.stats.stamps.append(time.monotonic())
                self.stats.actions += 1
        if event.get("kind") != "game_over":
            return False
        self.stats.games_finished += 1
        self.over.set()
        return True

    def _my_turn(self, view: dict[str, Any] | None) -> bool:
        """Whether ``view`` asks this player for a move."""
        return bool(view and view.get("turn") == self.seat and view.get("legal"))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _spawn_act(self) -> None:
        self._spawn(self.act())

    async def act(self) -> None:
        """Think, then act on the newest position (events may have arrived
        meanwhile: acting on an old version would be refused as stale)."""
        import websockets

        try:
            if self.think_ms:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think_ms / 1000)
            version, view = self.latest
            if not self._my_turn(view) or version <= self.acted_version:
                return
            if view is None or self.ws is None or self.over.is_set():
                return  # (reconnecting: the rejoin's view calls for a move again)
            self.acted_version = version
            choice = self.rng.choice(view["legal"])
            msg: dict[str, Any] = {"type": "bid", "bid": choice, "version": version}
            if view["phase"] == "play":
                msg = {"type": "play", "card": choice, "version": version}
            self.sent_at_version[version] = time.perf_counter()
            with contextlib.suppress(websockets.ConnectionClosed):
                cmd_id = await self.send(msg)
                if self.stats.record is not None:
                    self.sent[cmd_id] = (msg["type"], choice)
        finally:
            self.acting = False
            version, view = self.latest
            if version > self.acted_version and self._my_turn(view) and not self.over.is_set():
                self.acting = True
                self._spawn_act()

    async def close(self) -> None:
        self.over.set()
        for task in list(self.tasks):
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.stats.sockets_open -= 1
            self.ws = None
