"""The load generator of ``fourhundred loadtest``: many tables of simulated
players against a running server over real WebSockets.

Each table has four simulated players: guests created over HTTP, one of
whom creates a Private table (so the public lobby is not flooded); the
others join by its invite and sit; all four say ready, and then each plays
whenever its view says it is its turn, after a short random "think" pause,
taking a uniformly random legal action. A finished game is replaced by a new
table. Latency is measured at the acting player, from sending a command to
receiving the broadcast of the event it caused.

The load is bounded: it only talks to loopback addresses, opens at most
``4 * tables`` sockets, and stops by itself after ``duration`` seconds.

For fault tests (``bench/chaos.py``): with ``reconnect`` a player whose
socket drops connects again (to the next server, as a client behind a load
balancer would) and rejoins its table from its last version; with
``record`` every acknowledged move and the arrival time of every table
frame are written to a JSON file, to be checked against the stored log.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import random
import re
import socket
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import msgspec

from .loadstats import LoadResult, LoadStats, Record, percentile, round2

if TYPE_CHECKING:  # imported by the command only when it runs, yet kept light
    import httpx
    from websockets.asyncio.client import ClientConnection

__all__ = ["check_loopback", "run_load"]


def check_loopback(url: str) -> str:
    """The host of ``url`` if it is a loopback address, else ``ValueError``:
    a load test never targets another machine."""
    host = urlsplit(url).hostname or ""
    try:
        addrs = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except OSError as e:
        raise ValueError(f"cannot resolve {host!r}: {e}") from None
    for a in addrs:
        if not ipaddress.ip_address(str(a).split("%")[0]).is_loopback:
            raise ValueError(
                f"{host!r} is not a loopback address: the load test only targets this machine"
            )
    return host


async def _server_rss(http_base: str, pid: int | None = None) -> int | None:
    """The server's resident memory: from /proc when its pid is given (the
    server runs on this machine), else from its Prometheus metrics."""
    if pid is not None:
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            return None
    import httpx

    try:
        async with httpx.AsyncClient(base_url=http_base, timeout=5) as client:
            text = (await client.get("/metrics")).text
    except httpx.HTTPError:
        return None
    m = re.search(r"^process_resident_memory_bytes\s+([0-9.e+]+)$", text, re.MULTILINE)
    return int(float(m.group(1))) if m else None


_decode = msgspec.json.Decoder().decode


class Player:
    """One simulated player: a guest session and a WebSocket."""

    def __init__(  # noqa: PLR0917 - who, where, and how it plays
        self,
        base: str,
        ws_url: str,
        name: str,
        stats: LoadStats,
        think_ms: int,
        ws_urls: Sequence[str] = (),
    ):
        self.base = base
        self.ws_url = ws_url
        self.ws_urls = list(ws_urls)
        """Where to connect again when the socket drops (empty: do not)."""
        self.table: str | None = None
        self.rejoin_id: int | None = None
        self.sent: dict[int, tuple[str, Any]] = {}  # command id -> move, for --record
        self.name = name
        self.stats = stats
        self.think_ms = think_ms
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
            cmd_id = frame.get("id")
            self.pending.pop(cmd_id, None)  # type: ignore[arg-type]
            move = self.sent.pop(cmd_id, None)  # type: ignore[arg-type]
            record = self.stats.record
            if record is not None and move is not None and self.table is not None:
                seat = -1 if self.seat is None else self.seat
                record.table(self.table).acks.append((seat, *move, frame["version"]))
            return
        if kind == "error":
            self.pending.pop(frame.get("id"), None)  # type: ignore[arg-type]
            self.sent.pop(frame.get("id"), None)  # type: ignore[arg-type]
            self.stats.error(str(frame.get("code")))
            if self.ws_urls and frame.get("id") == self.rejoin_id:
                # The rejoin was refused (the table is changing servers):
                # a client tries again, or it would never play on.
                task = asyncio.get_running_loop().create_task(self._rejoin_later())
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            if self.ws_urls:
                # The move may be tried again on this version (it was not
                # taken: its table was moving); the view that follows says.
                self.acted_version = -1
            return
        if kind not in ("snapshot", "catchup", "event"):
            return
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
        if kind == "event":
            event = frame.get("event") or {}
            if event.get("kind") in ("bid", "play", "redeal") and event.get("seat") == self.seat:
                sent = self.sent_at_version.pop(version - 1, None)
                if sent is not None:
                    self.stats.latencies_ms.append((time.perf_counter() - sent) * 1000)
                    self.stats.stamps.append(time.monotonic())
                    self.stats.actions += 1
            if event.get("kind") == "game_over":
                self.stats.games_finished += 1
                self.over.set()
                return
        view = frame.get("view")
        self.latest = (version, view)
        if view and view.get("turn") == self.seat and view.get("legal") and not self.acting:
            self.acting = True
            self._spawn_act()

    def _spawn_act(self) -> None:
        task = asyncio.get_running_loop().create_task(self.act())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def act(self) -> None:
        """Think, then act on the newest position (events may have arrived
        meanwhile: acting on an old version would be refused as stale)."""
        import websockets

        try:
            if self.think_ms:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think_ms / 1000)
            version, view = self.latest
            if not view or view.get("turn") != self.seat or not view.get("legal"):
                return
            if version <= self.acted_version:
                return
            if self.ws is None or self.over.is_set():
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
            if (
                view
                and version > self.acted_version
                and view.get("turn") == self.seat
                and view.get("legal")
                and not self.over.is_set()
            ):
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


async def _table_loop(
    index: int,
    *,
    bases: Sequence[str],
    ws_urls: Sequence[str],
    stats: LoadStats,
    stop: asyncio.Event,
    think_ms: int,
    reconnect: bool = False,
) -> None:
    """Keep one table busy: play games back to back until told to stop.
    With several servers (a cluster), the table is created through one and
    its four players connect round the servers, as a load balancer would
    spread them: most commands then travel between processes."""
    import httpx
    import websockets

    game = 0
    n = len(bases)
    shift = 0
    while not stop.is_set():
        base = bases[(index + shift) % n]
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            while not stop.is_set():
                players = [
                    Player(
                        base,
                        ws_urls[(index + shift + s) % n],
                        f"load{index}-{game}-{s}",
                        stats,
                        think_ms,
                        ws_urls if reconnect else (),
                    )
                    for s in range(4)
                ]
                game += 1
                try:
                    for p in players:
                        await p.login(http)
                    host = players[0]
                    r = await http.post(
                        "/api/tables",
                        json={"kind": "private", "preset": "standard", "timer": 90},
                        headers={"Cookie": host.cookie},
                    )
                    r.raise_for_status()
                    created = r.json()
                    table, invite = created["table"]["id"], created["invite"]
                    for p in players:
                        p.table = table
                        await p.connect()
                    tasks = [asyncio.create_task(p.run(stop)) for p in players]
                    await host.send({"type": "join", "table": table})
                    for seat, p in enumerate(players[1:], start=1):
                        await p.send({"type": "join", "invite": invite})
                        await p.send({"type": "sit", "seat": seat})
                    for p in players:
                        await p.send({"type": "ready", "ready": True})
                    stats.tables_started += 1
                    stop_wait = asyncio.create_task(stop.wait())
                    await asyncio.wait([stop_wait, *tasks], return_when=asyncio.FIRST_COMPLETED)
                    stop_wait.cancel()
                except (httpx.HTTPError, OSError, websockets.WebSocketException, KeyError) as e:
                    stats.error(type(e).__name__)
                    await asyncio.sleep(1)
                    if reconnect:
                        shift += 1  # that server may be gone: the next table goes elsewhere
                        break
                finally:
                    for p in players:
                        await p.close()


async def _servers_rss(bases: Sequence[str], pids: Sequence[int]) -> int | None:
    """The servers' resident memory, summed (None if any is unknown)."""
    if pids:
        found = [await _server_rss(bases[0], pid) for pid in pids]
    else:
        found = [await _server_rss(base) for base in bases]
    return None if any(r is None for r in found) else sum(r for r in found if r is not None)


async def run_load(
    url: str | Sequence[str],
    tables: int,
    duration: float,
    *,
    think_ms: int = 1000,
    ramp_s: float = 10.0,
    warmup_s: float = 0.0,
    server_pid: int | Sequence[int] | None = None,
    progress: Any = None,
    reconnect: bool = False,
    record: Record | None = None,
) -> LoadResult:
    """Run the load test against one server, or several sharing their tables
    (``url`` a list); ``progress(stats, elapsed)`` is called twice a second.
    ``server_pid``: the servers' process ids, for their memory. ``reconnect``:
    players whose socket drops connect again; ``record``: filled with what
    the players saw (see :class:`Record`)."""
    urls = [url] if isinstance(url, str) else list(url)
    if not urls:
        raise ValueError("give at least one server URL")
    bases, ws_urls = [], []
    for u in urls:
        check_loopback(u)
        parts = urlsplit(u)
        scheme = "https" if parts.scheme == "wss" else "http"
        bases.append(f"{scheme}://{parts.netloc}")
        ws_urls.append(f"{parts.scheme}://{parts.netloc}/ws")
    pids = [server_pid] if isinstance(server_pid, int) else list(server_pid or ())
    stats = LoadStats(record=record)
    stop = asyncio.Event()
    rss_before = await _servers_rss(bases, pids)
    loops = []
    for i in range(tables):
        loops.append(
            asyncio.create_task(
                _table_loop(
                    i,
                    bases=bases,
                    ws_urls=ws_urls,
                    stats=stats,
                    stop=stop,
                    think_ms=think_ms,
                    reconnect=reconnect,
                )
            )
        )
        await asyncio.sleep(ramp_s / max(tables, 1))
    if warmup_s:
        await asyncio.sleep(warmup_s)  # the tables' first deals settle
    measure_from = time.monotonic()
    base_actions = stats.actions
    stats.latencies_ms.clear()
    stats.stamps.clear()
    rss_during: int | None = None
    deadline = measure_from + duration
    while (now := time.monotonic()) < deadline:
        if progress is not None:
            progress(stats, now - measure_from)
        if rss_during is None and now - measure_from > duration / 2:
            rss_during = await _servers_rss(bases, pids)
        await asyncio.sleep(0.5)
    if rss_during is None:
        rss_during = await _servers_rss(bases, pids)
    elapsed = time.monotonic() - measure_from
    actions = stats.actions - base_actions
    lat = stats.latencies_ms[:]
    stamps = stats.stamps[: len(lat)]
    windows = []
    for w0 in range(0, max(1, math.ceil(elapsed)), 10):
        part = [x for x, t in zip(lat, stamps, strict=True) if w0 <= t - measure_from < w0 + 10]
        windows.append(
            {
                "from_s": w0,
                "p50": round2(percentile(part, 0.5)),
                "p99": round2(percentile(part, 0.99)),
            }
        )
    stop.set()
    await asyncio.wait(loops, timeout=15)
    for t in loops:
        t.cancel()
    return LoadResult(
        tables=tables,
        duration_s=elapsed,
        actions=actions,
        actions_per_s=actions / elapsed if elapsed else 0.0,
        p50_ms=percentile(lat, 0.50),
        p95_ms=percentile(lat, 0.95),
        p99_ms=percentile(lat, 0.99),
        max_ms=max(lat) if lat else None,
        errors=stats.errors,
        error_codes=dict(stats.error_codes),
        disconnects=stats.disconnects,
        reconnects=stats.reconnects,
        games_finished=stats.games_finished,
        server_rss_bytes_before=rss_before,
        server_rss_bytes_during=rss_during,
        windows=windows,
    )
