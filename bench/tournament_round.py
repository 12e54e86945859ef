"""A Swiss round of 256 teams started at once on one server process: how
long until every one of its 128 tables is seated (all four players joined
and ready, the game started), and the latency from a move to its broadcast
while the round is played.

    python bench/tournament_round.py --teams 256 --play 60

It starts a fresh ``fourhundred serve`` (SQLite in a temporary directory),
registers ``2 * teams`` players and an organiser, enters and checks in every
team over HTTP, connects every player's WebSocket, then the organiser starts
a one-round Swiss. Each player, on its ``matched`` frame, joins its table
and sends ``ready``; then plays a uniformly random legal action on its turn
after a random pause (``--think-ms``, mean). Latency is measured at the
acting player, from sending a command to receiving the ``event`` frame of
the move it caused (as ``fourhundred loadtest`` does). The clients run in
this process, beside the server on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Bench:
    def __init__(self, think_ms: int) -> None:
        self.think_ms = think_ms
        self.latencies: list[float] = []
        self.seated_at: dict[str, float] = {}
        self.playing = True
        self.errors = 0


class Client:
    """One player: an HTTP session and a WebSocket that plays its turns."""

    def __init__(self, base: str, name: str, bench: Bench) -> None:
        self.http = httpx.AsyncClient(base_url=base, timeout=120)
        self.name = name
        self.bench = bench
        self.id = ""
        self.ws: ClientConnection | None = None
        self.ids = 0
        self.table: str | None = None
        self.seat: int | None = None
        self.sent: float | None = None
        self.turn_version = -1

    async def register(self) -> Client:
        r = await self.http.post(
            "/api/register", json={"username": self.name, "password": "bench password 1"}
        )
        r.raise_for_status()
        self.id = r.json()["user"]["id"]
        return self

    def _send(self, ws: ClientConnection, msg: dict[str, Any]) -> Any:
        self.ids += 1
        return ws.send(json.dumps({**msg, "id": self.ids}))

    async def run(self, url: str) -> None:
        token = self.http.cookies.get("fh_session")
        self.ws = ws = await connect(url, additional_headers={"Cookie": f"fh_session={token}"})
        async for raw in ws:
            f = json.loads(raw)
            t = f["type"]
            if t == "matched" and f["kind"] == "tournament":
                self.table = f["table"]
                await self._send(ws, {"type": "join", "table": self.table})
            elif t == "snapshot" and f["table"] == self.table:
                self.seat = f["you"]["seat"]
                await self._send(ws, {"type": "ready", "ready": True})
            elif t == "event":
                await self._on_event(ws, f)
            elif t == "error":
                self.bench.errors += 1

    async def _on_event(self, ws: ClientConnection, f: dict[str, Any]) -> None:
        ev = f["event"]
        if ev["kind"] == "started" and self.table not in self.bench.seated_at:
            self.bench.seated_at[str(self.table)] = time.perf_counter()
        if (
            self.sent is not None
            and ev["kind"] in ("bid", "play", "redeal")
            and ev.get("seat") == self.seat
        ):
            self.bench.latencies.append((time.perf_counter() - self.sent) * 1000)
            self.sent = None
        view = f["view"]
        if not self.bench.playing or not view or not view.get("legal"):
            return
        if f["version"] <= self.turn_version:
            return
        self.turn_version = f["version"]
        version = f["version"]
        await asyncio.sleep(random.uniform(0, 2 * self.bench.think_ms) / 1000)
        if self.turn_version != version:
            return
        choice = random.choice(view["legal"])
        kind = "bid" if view["phase"] == "bid" else "play"
        self.sent = time.perf_counter()
        await self._send(ws, {"type": kind, "bid" if kind == "bid" else "card": choice})


def start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    url = f"sqlite+aiosqlite:///{workdir / 'tournament.sqlite3'}"
    cmd = [sys.executable, "-m", "fourhundred.cli", "serve", "--port", str(port)]
    cmd += ["--database-url", url, "--auth-limit", "1000000", "--ws-rate", "100000"]
    cmd += ["--tournament-limit", "1000000", "--tournament-poll", "0.5", "--bot-workers", "1"]
    log = (workdir / "server.log").open("ab")
    env = dict(os.environ)
    env.pop("FOURHUNDRED_TEST_TIMER_SCALE", None)
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1):
                return proc, base
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


async def _gather_limited(coros: list[Any], limit: int = 16) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(c: Any) -> Any:
        async with gate:
            return await c

    return await asyncio.gather(*(one(c) for c in coros))


async def bench(base: str, teams: int, play_s: float, think_ms: int) -> dict[str, Any]:
    b = Bench(think_ms)
    tag = secrets.token_hex(3)
    org = await Client(base, f"org{tag}", b).register()
    players = await _gather_limited(
        [Client(base, f"p{tag}{i}", b).register() for i in range(2 * teams)]
    )
    start_ms = time.time_ns() // 1_000_000 + 3_600_000
    r = await org.http.post(
        "/api/tournaments",
        json={"name": "Bench round", "format": "swiss", "rounds": 1, "max_teams": teams,
              "start_ms": start_ms},
    )  # fmt: skip
    r.raise_for_status()
    tid = r.json()["tournament"]["id"]

    async def enter(i: int) -> None:
        a, p = players[2 * i], players[2 * i + 1]
        r = await a.http.post(f"/api/tournaments/{tid}/enter", json={"partner": p.name})
        r.raise_for_status()
        team = next(
            t["id"] for t in r.json()["tournament"]["teams"] if t["players"][0]["id"] == a.id
        )
        (
            await p.http.post(f"/api/tournaments/{tid}/accept", json={"team": team})
        ).raise_for_status()
        for x in (a, p):
            (await x.http.post(f"/api/tournaments/{tid}/check-in")).raise_for_status()

    for i in range(teams):
        await enter(i)  # one at a time: each reads the whole tournament back
    ws_url = base.replace("http", "ws") + "/ws"
    tasks = [asyncio.create_task(p.run(ws_url)) for p in players]
    while sum(p.ws is not None for p in players) < len(players):
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)
    t0 = time.perf_counter()
    (await org.http.post(f"/api/tournaments/{tid}/start")).raise_for_status()
    tables = teams // 2
    while len(b.seated_at) < tables:
        await asyncio.sleep(0.05)
        if time.perf_counter() - t0 > 600:
            break
    seated_s = max(b.seated_at.values()) - t0 if b.seated_at else float("nan")
    await asyncio.sleep(play_s)
    b.playing = False
    moves = list(b.latencies)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "teams": teams,
        "tables": tables,
        "tables_seated": len(b.seated_at),
        "seconds_until_all_seated": round(seated_s, 2),
        "moves": len(moves),
        "moves_per_s": round(len(moves) / play_s, 1),
        "p50_ms": round(statistics.median(moves), 1) if moves else None,
        "p99_ms": round(percentile(moves, 0.99), 1),
        "max_ms": round(max(moves), 1) if moves else None,
        "errors": b.errors,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--teams", type=int, default=256)
    ap.add_argument("--play", type=float, default=60.0, help="seconds of play measured")
    ap.add_argument("--think-ms", type=int, default=1000, help="mean pause before a move")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp))
        try:
            result = asyncio.run(bench(base, args.teams, args.play, args.think_ms))
        finally:
            proc.terminate()
            proc.wait(30)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
