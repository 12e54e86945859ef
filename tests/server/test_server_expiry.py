"""A waiting room nobody has open closes by itself after a while: it leaves
the lobby and its players may sit elsewhere; one with a socket open stays."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fh_server_helpers import Databases, Player, Server

EXPIRY_S = 1.5


@pytest.fixture(scope="module")
def expiring_server(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    s = Server(
        databases.new(backend),
        log_path=logs_dir / f"expiry-server-{backend}.log",
        extra=["--waiting-expiry", str(EXPIRY_S), "--auth-limit", "1000"],
    ).start()
    yield s
    s.stop()


async def _status(p: Player, table: str) -> str:
    r = await p.http.get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    status: str = r.json()["table"]["status"]
    return status


async def _closed_in_time(p: Player, table: str) -> None:
    """Wait until the waiting room ``table`` closes (it must, soon)."""
    deadline = time.monotonic() + EXPIRY_S + 10
    while await _status(p, table) == "waiting":
        assert time.monotonic() < deadline, "the abandoned waiting room never closed"
        await asyncio.sleep(0.2)
    assert await _status(p, table) == "closed"


async def test_an_abandoned_waiting_room_closes(expiring_server: Server) -> None:
    host = await Player(expiring_server, "Host").guest()
    watcher = await Player(expiring_server, "Watcher").guest()
    r = await host.http.post("/api/tables", json={"kind": "casual", "preset": "standard"})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    # A second table by the same host is refused while the first is open.
    again = await host.http.post("/api/tables", json={"kind": "casual", "preset": "standard"})
    assert again.status_code == 409, again.text

    await watcher.connect()
    await watcher.join(table=tid)
    # Rather than a pause: a control room that nobody opens, made after this
    # one. Once the server has closed it, this one would have closed too,
    # had nobody had it open.
    other = await Player(expiring_server, "Other").guest()
    r = await other.http.post("/api/tables", json={"kind": "casual", "preset": "standard"})
    assert r.status_code == 201, r.text
    await _closed_in_time(other, r.json()["table"]["id"])
    # Someone has it open (a spectator is enough): it stays.
    assert await _status(host, tid) == "waiting"

    await watcher.close()
    await _closed_in_time(host, tid)
    listed = (await host.http.get("/api/tables")).json()["tables"]
    assert all(t["id"] != tid for t in listed)
    # Its host is free to open another table.
    r = await host.http.post("/api/tables", json={"kind": "casual", "preset": "standard"})
    assert r.status_code == 201, r.text

    # Whoever comes back sees why: the spectator catches up from the
    # version it last had.
    last = watcher.version
    await watcher.connect()
    sync = await watcher.join(table=tid, last_version=last)
    assert sync["type"] == "catchup", sync
    assert [e["event"]["kind"] for e in sync["events"]] == ["closed"]
    assert sync["events"][0]["event"]["reason"] == "expired"
    await asyncio.gather(host.aclose(), watcher.aclose(), other.aclose())
