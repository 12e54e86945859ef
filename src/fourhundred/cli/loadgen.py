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

from .loadstats import LoadResult, LoadStats, percentile, round2

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

    def __init__(self, base: str, ws_url: str, name: str, stats: LoadStats, think_ms: int):
        self.base = base
        self.ws_url = ws_url
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

        assert self.ws is not None
        try:
            async for raw in self.ws:
                if stop.is_set():
                    break
                frame = _decode(raw)
                await self.on_frame(frame)
                if self.over.is_set():
                    break
        except websockets.ConnectionClosed:
            if not stop.is_set() and not self.over.is_set():
                self.stats.disconnects += 1
        finally:
            self.over.set()

    async def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "ack":
            self.pending.pop(frame.get("id"), None)  # type: ignore[arg-type]
            return
        if kind == "error":
            self.pending.pop(frame.get("id"), None)  # type: ignore[arg-type]
            self.stats.error(str(frame.get("code")))
            return
        if kind not in ("snapshot", "catchup", "event"):
            return
        version = frame.get("version", 0)
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
            self.acted_version = version
            choice = self.rng.choice(view["legal"])
            msg: dict[str, Any] = {"type": "bid", "bid": choice, "version": version}
            if view["phase"] == "play":
                msg = {"type": "play", "card": choice, "version": version}
            if self.ws is None or self.over.is_set():
                return
            self.sent_at_version[version] = time.perf_counter()
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.send(msg)
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
) -> None:
    """Keep one table busy: play games back to back until told to stop.
    With several servers (a cluster), the table is created through one and
    its four players connect round the servers, as a load balancer would
    spread them: most commands then travel between processes."""
    import httpx
    import websockets

    game = 0
    n = len(bases)
    base = bases[index % n]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            players = [
                Player(base, ws_urls[(index + s) % n], f"load{index}-{game}-{s}", stats, think_ms)
                for s in range(4)
            ]
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
            finally:
                for p in players:
                    await p.close()
            game += 1


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
) -> LoadResult:
    """Run the load test against one server, or several sharing their tables
    (``url`` a list); ``progress(stats, elapsed)`` is called twice a second.
    ``server_pid``: the servers' process ids, for their memory."""
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
    stats = LoadStats()
    stop = asyncio.Event()
    rss_before = await _servers_rss(bases, pids)
    loops = []
    for i in range(tables):
        loops.append(
            asyncio.create_task(
                _table_loop(
                    i, bases=bases, ws_urls=ws_urls, stats=stats, stop=stop, think_ms=think_ms
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
        games_finished=stats.games_finished,
        server_rss_bytes_before=rss_before,
        server_rss_bytes_during=rss_during,
        windows=windows,
    )
