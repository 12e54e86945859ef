"""Helpers for the server tests: a real ``fourhundred serve`` process on a
free port, fresh databases (SQLite files, PostgreSQL databases), and a
player client speaking the WebSocket protocol with ``websockets`` and the
HTTP API with ``httpx``."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

PG_ADMIN_URL = os.environ.get("FOURHUNDRED_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
CARD_RE = re.compile(r'"([2-9TJQKA][CDHS])"')
RANKS = "23456789TJQKA"
SUITS = "CDHS"


# ------------------------------------------------------------------ databases


class FakeClock:
    """A clock that moves only when told to (in-process tests of the
    server's parts)."""

    def __init__(self) -> None:
        self.ms = 1_800_000_000_000
        self.mono = 1000.0

    def now_ms(self) -> int:
        return self.ms

    def monotonic(self) -> float:
        return self.mono

    def advance(self, seconds: float) -> None:
        self.ms += round(seconds * 1000)
        self.mono += seconds


def pg_available() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return True
    except OSError:
        return False


async def _pg_admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Databases:
    """Fresh databases for one test session, dropped at its end."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.prefix = f"fourhundred_test_{secrets.token_hex(4)}"
        self.pg: list[str] = []
        self._n = itertools.count()

    def new(self, backend: str) -> str:
        n = next(self._n)
        if backend == "sqlite":
            return f"sqlite+aiosqlite:///{self.tmp / f'db{n}.sqlite3'}"
        name = f"{self.prefix}_{n}"
        asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
        self.pg.append(name)
        base = PG_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        return f"{base}/{name}"

    def drop_all(self) -> None:
        for name in self.pg:
            with contextlib.suppress(Exception):
                asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self.pg.clear()


# --------------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


OPEN_LIMITS: Final = (
    "--guest-limit",
    "1000000",
    "--rooms-per-address",
    "1000000",
    "--rooms-per-user",
    "1000000",
    "--table-limit",
    "1000000",
    "--chat-limit",
    "1000000",
)
"""``serve`` options that take the abuse limits out of a test's way."""


class Server:
    """A ``fourhundred serve`` process. Test clients make many guests and
    rooms from 127.0.0.1, so the abuse limits are wide open (``extra``
    wins); :class:`StrictServer` keeps ``serve``'s defaults."""

    open_limits: tuple[str, ...] = OPEN_LIMITS

    def __init__(
        self,
        database_url: str,
        *,
        timer_scale: float | None = None,
        bot: str = "random",
        extra: Iterable[str] = (),
        log_path: Path | None = None,
    ) -> None:
        self.database_url = database_url
        self.timer_scale = timer_scale
        self.bot = bot
        # Substitutes play as ``bot`` too (the server's own default, the
        # expert, would make every timed-out test game search).
        self.substitute = bot
        self.extra = list(extra)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = log_path
        self._log: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> Server:
        env = dict(os.environ)
        env.pop("FOURHUNDRED_TEST_TIMER_SCALE", None)
        if self.timer_scale is not None:
            env["FOURHUNDRED_TEST_TIMER_SCALE"] = str(self.timer_scale)
        cmd = [
            sys.executable,
            "-m",
            "fourhundred.cli",
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            self.database_url,
            "--bot",
            self.bot,
            "--substitute",
            self.substitute,
            "--bot-delay",
            "0",
            "--bot-workers",
            "1",
            # The fair-play check scores finished games for seconds of CPU
            # each; its own tests turn it on (test_server_fairplay.py).
            "--fair-play",
            "off",
            *self.open_limits,
            *self.extra,
        ]
        self._log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, env=env, stdout=self._log, stderr=self._log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited with {self.proc.returncode} (log {self.log_path})"
                )
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not become healthy in 60 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self._log not in (None, subprocess.DEVNULL):
            self._log.close()
            self._log = None


# --------------------------------------------------------------------- client


class StrictServer(Server):
    """A ``fourhundred serve`` process with ``serve``'s own abuse limits."""

    open_limits = ()


class Player:
    """One person: an HTTP session and (once connected) one WebSocket."""

    def __init__(self, server: Server, name: str) -> None:
        self.server = server
        self.name = name
        self.http = httpx.AsyncClient(base_url=server.url, timeout=30)
        self.user: dict[str, Any] = {}
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.clock: dict[str, Any] | None = None
        self.you: dict[str, Any] | None = None
        self.table: str | None = None
        self.close_code: int | None = None
        self._ids = itertools.count(1)
        self._waiters: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    # -- http

    @property
    def token(self) -> str:
        return self.http.cookies.get("fh_session") or ""

    async def guest(self) -> Player:
        r = await self.http.post("/api/guest", json={"name": self.name})
        assert r.status_code == 201, r.text
        self.user = r.json()["user"]
        return self

    async def register(self, password: str = "correct horse battery") -> Player:
        r = await self.http.post(
            "/api/register", json={"username": self.name, "password": password}
        )
        assert r.status_code == 201, r.text
        self.user = r.json()["user"]
        return self

    @property
    def id(self) -> str:
        return str(self.user["id"])

    # -- socket

    async def connect(self) -> Player:
        self.close_code = None
        self.ws = await connect(
            self.server.ws_url,
            additional_headers={"Cookie": f"fh_session={self.token}"},
            max_size=None,
            open_timeout=20,
        )
        self._reader = asyncio.create_task(self._read(self.ws))
        await self.wait(lambda: any(f["type"] == "hello" for f in self.frames))
        return self

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                assert isinstance(raw, str)
                msg = json.loads(raw)
                self.raw.append(raw)
                self.frames.append(msg)
                t = msg["type"]
                if t in ("event", "snapshot", "catchup"):
                    self.version = msg["version"]
                    self.view = msg["view"]
                    self.room = msg["room"]
                    self.clock = msg["clock"]
                    self.you = msg["you"]
                    self.table = msg["table"]
                if t == "presence" and self.room is not None:
                    self.room["seats"][msg["seat"]]["connected"] = msg["connected"]
                if t in ("ack", "error", "pong"):
                    fut = self._waiters.pop(msg.get("id"), None)
                    if fut is not None and not fut.done():
                        fut.set_result(msg)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = ws.close_code
            self._changed.set()

    async def send_raw(self, data: str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(data)

    async def cmd(self, type_: str, timeout: float = 20, **fields: Any) -> dict[str, Any]:
        """Send a command; return its ``ack`` or ``error``."""
        cid = fields.pop("id", None)
        if cid is None:
            cid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters[cid] = fut
        await self.send_raw(json.dumps({"type": type_, "id": cid, **fields}))
        return await asyncio.wait_for(fut, timeout)

    async def ok(self, type_: str, **fields: Any) -> dict[str, Any]:
        reply = await self.cmd(type_, **fields)
        assert reply["type"] == "ack", reply
        return reply

    async def wait(self, pred: Callable[[], bool], timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: condition not met in {timeout} s")
            self._changed.clear()
            if pred():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def join(
        self, table: str | None = None, invite: str | None = None, **kw: Any
    ) -> dict[str, Any]:
        fields: dict[str, Any] = dict(kw)
        if table is not None:
            fields["table"] = table
        if invite is not None:
            fields["invite"] = invite
        n = len(self.frames)
        await self.ok("join", **fields)
        await self.wait(lambda: any(f["type"] in ("snapshot", "catchup") for f in self.frames[n:]))
        return next(f for f in self.frames[n:] if f["type"] in ("snapshot", "catchup"))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            if self._reader is not None:
                with contextlib.suppress(Exception):
                    await self._reader
            self.ws = None

    async def aclose(self) -> None:
        await self.close()
        await self.http.aclose()

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        out = []
        for f in self.frames:
            if f["type"] == "event":
                out.append(f["event"])
            elif f["type"] == "catchup":
                out.extend(e["event"] for e in f["events"])
        return [e for e in out if kind is None or e["kind"] == kind]

    @property
    def seat(self) -> int | None:
        return None if self.you is None else self.you["seat"]


# ----------------------------------------------------------------- predicates


def cards_played(p: Player) -> int:
    """Cards played so far in the hand ``p`` sees."""
    return 0 if p.view is None else sum(len(t["cards"]) for t in p.view["tricks"])


def hand_index(p: Player) -> int:
    return -1 if p.view is None else int(p.view["hand_index"])


def is_over(p: Player) -> bool:
    return p.view is not None and p.view["phase"] == "over"


def saw(p: Player, kind: str, seat: int | None = None) -> bool:
    """Whether ``p`` received an event of this kind (for this seat)."""
    return any(e["kind"] == kind and (seat is None or e.get("seat") == seat) for e in p.events())


# ------------------------------------------------------------------- strategy


def card_key(c: str) -> tuple[int, int]:
    return RANKS.index(c[0]), SUITS.index(c[1])


def choose(view: dict[str, Any]) -> tuple[str, Any]:
    """A simple sensible player: estimate tricks from high cards and hearts;
    win a trick as cheaply as possible, else throw the lowest card. Returns
    ``("bid", n)`` or ``("play", card)``."""
    legal = view["legal"]
    hand = view["hand"]
    if view["phase"] == "bid":
        est = sum(1 for c in hand if c[0] == "A")
        est += sum(1 for c in hand if c[0] == "K" and sum(x[1] == c[1] for x in hand) >= 2)
        est += max(0, sum(1 for c in hand if c[1] == "H") - 3)
        n = min(max(est, legal[0]), legal[-1])
        bids = view["bids"]
        if sum(b is not None for b in bids) == 3:
            need = view["required_total"] - sum(b for b in bids if b is not None)
            n = max(n, min(need, legal[-1]))
        n = min(max(n, legal[0]), legal[-1])
        return "bid", n
    trick = view["tricks"][-1] if view["tricks"] and view["tricks"][-1]["winner"] is None else None
    if not trick or not trick["cards"]:
        return "play", max(legal, key=card_key)
    led = trick["cards"][0][1]

    def power(c: str) -> int:
        if c[1] == "H":
            return 100 + RANKS.index(c[0])
        return RANKS.index(c[0]) if c[1] == led else -1

    best = max(power(c) for c in trick["cards"])
    winners = [c for c in legal if power(c) > best]
    if winners:
        return "play", min(winners, key=power)
    return "play", min(legal, key=lambda c: (c[1] == "H", RANKS.index(c[0])))


def timeout_card(legal: list[str]) -> str:
    """docs/rules.md, "When a turn timer runs out": the lowest-ranked legal
    card; a non-heart before a heart, then clubs, diamonds, spades."""
    order = {"C": 0, "D": 1, "S": 2, "H": 3}
    return min(legal, key=lambda c: (RANKS.index(c[0]), order[c[1]]))


async def play_turns(
    players: list[Player],
    stop: Callable[[], bool],
    max_actions: int = 5000,
    on_action: Callable[[Player, dict[str, Any]], None] | None = None,
) -> int:
    """Let the player to act act (with :func:`choose`) until ``stop()``;
    returns the number of actions made."""
    done = 0
    while not stop():
        assert done < max_actions, "the game did not end"
        # Everyone at the same version first: no view is stale.
        top = max(p.version for p in players)
        for p in players:
            await p.wait(lambda p=p, top=top: p.version >= top)
        mover = next(
            (p for p in players if p.view is not None and p.view.get("legal") is not None),
            None,
        )
        if mover is None:
            if stop():
                break
            await players[0].wait(
                lambda top=top: stop() or any(p.version > top for p in players), 20
            )
            continue
        assert mover.view is not None
        kind, value = choose(mover.view)
        reply = await mover.cmd(kind, **{("bid" if kind == "bid" else "card"): value})
        assert reply["type"] == "ack", reply
        if on_action is not None:
            on_action(mover, reply)
        v = reply["version"]
        for p in players:
            await p.wait(lambda p=p, v=v: p.version >= v)
        done += 1
    return done


async def caught_up(players: list[Player]) -> int:
    """Wait until every client has received every event another one has (a
    play can be followed by events the server makes itself, such as the next
    deal, which reach the clients one by one), then check that they all see
    the same public state; returns that version. Fails by timeout if a
    client never catches up."""
    while True:
        top = max(p.version for p in players)
        for p in players:
            await p.wait(lambda p=p, top=top: p.version >= top)
        if all(p.version == top for p in players):
            break
    for key in ("hand_index", "scores", "dealer", "turn", "phase"):
        assert len({repr((p.view or {})[key]) for p in players}) == 1, key
    return top


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
