"""Helpers of the scale-out tests: a cluster of server processes, a private
``redis-server``, a TCP proxy that can cut the database off, a player loop
that survives a moving table, and checks of the stored log against what the
clients saw."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fh_server_helpers import Player, Server, choose, free_port

from fourhundred.engine import view_for

LEASE_MS = 1500
REDIS_URL = "redis://127.0.0.1:6379/0"
RETRY_CODES = frozenset({"unavailable", "stale", "not_your_turn", "wrong_phase"})


def cluster_server(
    database_url: str, redis_url: str, prefix: str, log_path: Path, node: str
) -> Server:
    return Server(
        database_url,
        log_path=log_path,
        extra=[
            "--redis-url",
            redis_url,
            "--redis-prefix",
            prefix,
            "--lease-ms",
            str(LEASE_MS),
            "--node",
            node,
            "--auth-limit",
            "1000",
            "--ws-rate",
            "100000",
            "--bot-workers",
            "0",
            "--substitute",
            "heuristic",
        ],
    )


class PrivateRedis:
    """A throw-away ``redis-server`` on a free port (no persistence)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        exe = shutil.which("redis-server")
        assert exe is not None, "redis-server is not installed"
        self.proc = subprocess.Popen(
            [
                exe,
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--bind",
                "127.0.0.1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import socket

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


class TcpProxy:
    """Forwards 127.0.0.1:port to a target; :meth:`cut` closes every
    connection and refuses new ones (the database is unreachable) until
    :meth:`restore`."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> TcpProxy:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
        return self

    async def _pipe(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while data := await r.read(65536):
                w.write(data)
                await w.drain()
        with contextlib.suppress(Exception):
            w.close()

    async def _client(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        try:
            ur, uw = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            w.close()
            return
        self.writers |= {w, uw}
        await asyncio.gather(self._pipe(r, uw), self._pipe(ur, w))
        self.writers -= {w, uw}

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for w in list(self.writers):
            w.transport.abort()
        self.writers.clear()
        await self.server.wait_closed()

    async def restore(self) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", self.port)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.cut()


Acked = list[tuple[str, int, str, Any, int]]
"""(table, seat, kind, value, version) of every acknowledged move."""

PLAY_TIMEOUT_S = 90
"""How long :func:`play` may take for its moves (faults included)."""


async def play(
    players: list[Player],
    table: str,
    n_actions: int,
    acked: Acked,
    *,
    refused: list[dict[str, Any]] | None = None,
) -> None:
    """Make ``n_actions`` accepted moves at ``table``; a move refused because
    the table is moving (``unavailable``) or acted on an old view is tried
    again on the latest view."""
    deadline = time.monotonic() + PLAY_TIMEOUT_S
    done = 0
    while done < n_actions:
        assert time.monotonic() < deadline, f"{table}: only {done} of {n_actions} moves"
        top = max(p.version for p in players)
        with contextlib.suppress(TimeoutError):
            for p in players:
                await p.wait(lambda p=p, top=top: p.version >= top, timeout=2)
        mover = next(
            (p for p in players if p.view is not None and p.view.get("legal") is not None),
            None,
        )
        if mover is None or mover.view is None:
            await asyncio.sleep(0.05)
            continue
        kind, value = choose(mover.view)
        field = "bid" if kind == "bid" else "card"
        reply = await mover.cmd(kind, version=mover.version, **{field: value})
        if reply["type"] == "ack":
            acked.append((table, mover.seat or 0, kind, value, reply["version"]))
            done += 1
            v = reply["version"]
            for p in players:
                await p.wait(lambda p=p, v=v: p.version >= v, timeout=20)
        else:
            assert reply["code"] in RETRY_CODES, reply
            if refused is not None:
                refused.append(reply)
            await asyncio.sleep(0.1)


async def stored_events(database_url: str, table: str) -> tuple[int, list[tuple[int, str, Any]]]:
    """The table's stored version and its event log, straight from PostgreSQL."""
    import json

    import asyncpg

    conn = await asyncpg.connect(database_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        version = await conn.fetchval("SELECT version FROM tables WHERE id = $1", table)
        rows = await conn.fetch(
            "SELECT version, kind, data FROM table_events WHERE table_id = $1 ORDER BY version",
            table,
        )
    finally:
        await conn.close()
    out = []
    for r in rows:
        data = r["data"]
        out.append((r["version"], r["kind"], json.loads(data) if isinstance(data, str) else data))
    return version, out


async def check_log(database_url: str, table: str, players: list[Player], acked: Acked) -> None:
    """The stored log is whole (versions 1..N, N the table's version), folds
    through the engine's checked path (a move applied twice would be
    illegal), holds every acknowledged move at its acknowledged version, and
    every client's final state is exactly the stored one."""
    from fourhundred.server.room import rebuild
    from fourhundred.store import StoredEvent

    version, events = await stored_events(database_url, table)
    assert [v for v, _, _ in events] == list(range(1, version + 1))
    model = rebuild(table, [StoredEvent(v, k, d, 0) for v, k, d in events])
    by_version = {v: (k, d) for v, k, d in events}
    for t, seat, kind, value, v in acked:
        if t != table:
            continue
        k, d = by_version[v]
        assert k == kind and d["seat"] == seat, (v, k, d, kind, seat)
        assert d["bid" if kind == "bid" else "card"] == value, (v, d, value)
    assert model.game is not None
    for p in players:
        await p.wait(lambda p=p: p.version >= version, timeout=20)
        assert p.version == version
        assert p.view == view_for(model.game, p.seat).to_dict()


def wait_until(pred: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline
        time.sleep(0.05)
