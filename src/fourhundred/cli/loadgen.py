"""The load generator of ``fourhundred loadtest``: many tables of simulated
players against a running server over real WebSockets.

Each table has four simulated players: guests created over HTTP, one of
whom creates a Private table (so the public lobby is not flooded); the
others join by its invite and sit; all four say ready, and then each plays
whenever its view says it is its turn, after a short random "think" pause,
taking a uniformly random legal action (:mod:`.loadplayer`). A finished game
is replaced by a new table. Latency is measured at the acting player, from
sending a command to receiving the broadcast of the event it caused.

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
import ipaddress
import math
import re
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .loadplayer import Player, PlayStyle
from .loadstats import LoadResult, LoadStats, Record, percentile, round2

if TYPE_CHECKING:  # imported by the command only when it runs, yet kept light
    import httpx

__all__ = ["LoadOptions", "Servers", "check_loopback", "run_load"]


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


@dataclass(frozen=True, slots=True)
class LoadOptions:
    """How much load, for how long, and how the simulated players behave."""

    tables: int
    """Tables of four players, kept busy for the whole run."""
    duration: float
    """Seconds to measure (after the ramp and the warm-up)."""
    think_ms: int = 1000
    """A player's mean pause before acting."""
    ramp_s: float = 10.0
    """Seconds over which the tables are opened."""
    warmup_s: float = 0.0
    """Seconds between the ramp and the measurement."""
    reconnect: bool = False
    """A player whose socket drops connects again (to the next server)."""


@dataclass(frozen=True, slots=True)
class Servers:
    """The servers under test: their HTTP bases and WebSocket URLs, in the
    same order."""

    bases: tuple[str, ...]
    ws_urls: tuple[str, ...]

    @classmethod
    def from_urls(cls, urls: Sequence[str]) -> Servers:
        """The servers at WebSocket base ``urls`` (loopback only)."""
        if not urls:
            raise ValueError("give at least one server URL")
        bases, ws_urls = [], []
        for u in urls:
            check_loopback(u)
            parts = urlsplit(u)
            scheme = "https" if parts.scheme == "wss" else "http"
            bases.append(f"{scheme}://{parts.netloc}")
            ws_urls.append(f"{parts.scheme}://{parts.netloc}/ws")
        return cls(tuple(bases), tuple(ws_urls))


@dataclass(frozen=True, slots=True)
class _Run:
    """What every table loop of one run shares."""

    servers: Servers
    options: LoadOptions
    stats: LoadStats
    stop: asyncio.Event

    @property
    def style(self) -> PlayStyle:
        reconnect_to = self.servers.ws_urls if self.options.reconnect else ()
        return PlayStyle(self.options.think_ms, reconnect_to)


async def _table_loop(index: int, run: _Run) -> None:
    """Keep one table busy: play games back to back until told to stop.
    With several servers (a cluster), the table is created through one and
    its four players connect round the servers, as a load balancer would
    spread them: most commands then travel between processes."""
    import httpx
    import websockets

    game = 0
    servers, stop = run.servers, run.stop
    n = len(servers.bases)
    shift = 0
    while not stop.is_set():
        base = servers.bases[(index + shift) % n]
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            while not stop.is_set():
                players = [
                    Player(
                        f"load{index}-{game}-{s}",
                        servers.ws_urls[(index + shift + s) % n],
                        run.stats,
                        run.style,
                    )
                    for s in range(4)
                ]
                game += 1
                try:
                    await _play_game(http, players, run)
                except (httpx.HTTPError, OSError, websockets.WebSocketException, KeyError) as e:
                    run.stats.error(type(e).__name__)
                    await asyncio.sleep(1)
                    if run.options.reconnect:
                        shift += 1  # that server may be gone: the next table goes elsewhere
                        break
                finally:
                    for p in players:
                        await p.close()


async def _play_game(http: httpx.AsyncClient, players: list[Player], run: _Run) -> None:
    """Seat ``players`` at a new Private table of the first one's and play
    until the game is over (or the run stops)."""
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
    tasks = [asyncio.create_task(p.run(run.stop)) for p in players]
    await host.send({"type": "join", "table": table})
    for seat, p in enumerate(players[1:], start=1):
        await p.send({"type": "join", "invite": invite})
        await p.send({"type": "sit", "seat": seat})
    for p in players:
        await p.send({"type": "ready", "ready": True})
    run.stats.tables_started += 1
    stop_wait = asyncio.create_task(run.stop.wait())
    await asyncio.wait([stop_wait, *tasks], return_when=asyncio.FIRST_COMPLETED)
    stop_wait.cancel()


async def _servers_rss(bases: Sequence[str], pids: Sequence[int]) -> int | None:
    """The servers' resident memory, summed (None if any is unknown)."""
    if pids:
        found = [await _server_rss(bases[0], pid) for pid in pids]
    else:
        found = [await _server_rss(base) for base in bases]
    return None if any(r is None for r in found) else sum(r for r in found if r is not None)


async def run_load(
    url: str | Sequence[str],
    options: LoadOptions,
    *,
    server_pid: int | Sequence[int] | None = None,
    progress: Any = None,
    record: Record | None = None,
) -> LoadResult:
    """Run the load test against one server, or several sharing their tables
    (``url`` a list); ``progress(stats, elapsed)`` is called twice a second.
    ``server_pid``: the servers' process ids, for their memory; ``record``:
    filled with what the players saw (see :class:`Record`)."""
    servers = Servers.from_urls([url] if isinstance(url, str) else list(url))
    pids = [server_pid] if isinstance(server_pid, int) else list(server_pid or ())
    run = _Run(servers, options, LoadStats(record=record), asyncio.Event())
    rss_before = await _servers_rss(servers.bases, pids)
    loops = []
    for i in range(options.tables):
        loops.append(asyncio.create_task(_table_loop(i, run)))
        await asyncio.sleep(options.ramp_s / max(options.tables, 1))
    if options.warmup_s:
        await asyncio.sleep(options.warmup_s)  # the tables' first deals settle
    measured = await _measure(run, pids, progress)
    run.stop.set()
    await asyncio.wait(loops, timeout=15)
    for t in loops:
        t.cancel()
    return measured.result(run, rss_before)


@dataclass(frozen=True, slots=True)
class _Measured:
    """What the measurement window saw."""

    started: float
    elapsed: float
    actions: int
    latencies_ms: list[float]
    stamps: list[float]
    rss_during: int | None

    def windows(self) -> list[dict[str, float | None]]:
        """p50 and p99 latency of each 10 s."""
        out: list[dict[str, float | None]] = []
        timed = list(zip(self.latencies_ms, self.stamps, strict=True))
        for w0 in range(0, max(1, math.ceil(self.elapsed)), 10):
            part = [x for x, t in timed if w0 <= t - self.started < w0 + 10]
            out.append(
                {
                    "from_s": w0,
                    "p50": round2(percentile(part, 0.5)),
                    "p99": round2(percentile(part, 0.99)),
                }
            )
        return out

    def result(self, run: _Run, rss_before: int | None) -> LoadResult:
        stats, lat, elapsed = run.stats, self.latencies_ms, self.elapsed
        return LoadResult(
            tables=run.options.tables,
            duration_s=elapsed,
            actions=self.actions,
            actions_per_s=self.actions / elapsed if elapsed else 0.0,
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
            server_rss_bytes_during=self.rss_during,
            windows=self.windows(),
        )


async def _measure(run: _Run, pids: Sequence[int], progress: Any) -> _Measured:
    """Count actions and latencies for the run's duration, from now (what
    came before, the ramp and the warm-up, is not measured); the servers'
    memory is taken halfway."""
    stats, duration = run.stats, run.options.duration
    started = time.monotonic()
    base_actions = stats.actions
    stats.latencies_ms.clear()
    stats.stamps.clear()
    rss_during: int | None = None
    deadline = started + duration
    while (now := time.monotonic()) < deadline:
        if progress is not None:
            progress(stats, now - started)
        if rss_during is None and now - started > duration / 2:
            rss_during = await _servers_rss(run.servers.bases, pids)
        await asyncio.sleep(0.5)
    if rss_during is None:
        rss_during = await _servers_rss(run.servers.bases, pids)
    lat = stats.latencies_ms[:]
    return _Measured(
        started=started,
        elapsed=time.monotonic() - started,
        actions=stats.actions - base_actions,
        latencies_ms=lat,
        stamps=stats.stamps[: len(lat)],
        rss_during=rss_during,
    )
