"""Abuse limits (issue 14, item 1) against a real server with ``serve``'s
default limits: the 11th guest in a minute from one address, a user's 2nd
open waiting room and an address's 4th are refused with ``429``,
``Retry-After`` and a message saying when to try again, and nothing is
created; a room that starts frees its slot; table creation and chat are
limited per user. Each test comes from its own loopback address."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fh_server_helpers import StrictServer
from fh_wire import Account, Databases, Server

from fourhundred.server.config import ServerConfig

DEFAULTS = ServerConfig(bot="random", bot_workers=0, node="n")
CHAT_LIMIT = 3


@pytest.fixture(scope="module")
def limits_server() -> Iterator[Server]:
    """The default limits, but chat (lowered, to be reached before each
    table's own 5 lines in 10 seconds)."""
    tmp = Path(tempfile.mkdtemp(prefix="fh-limits-"))
    logs = Path(tempfile.gettempdir()) / "fourhundred-test-logs"
    logs.mkdir(exist_ok=True)
    server = StrictServer(
        Databases(tmp).new("sqlite"),
        extra=["--chat-limit", str(CHAT_LIMIT)],
        log_path=logs / "security-limits.log",
    )
    try:
        yield server.start()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def _count(server: Server, sql: str) -> int:
    path = server.database_url.split(":///", 1)[1]
    with sqlite3.connect(path) as db:
        return int(db.execute(sql).fetchone()[0])


def _refused(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 429, r.text
    wait = int(r.headers["retry-after"])
    assert wait >= 1
    error: dict[str, Any] = r.json()["error"]
    assert error["code"] == "rate_limited"
    assert error["message"].endswith(f"try again in {wait} s"), error
    assert "set-cookie" not in r.headers
    return error


async def test_the_11th_guest_in_a_minute_is_refused(limits_server: Server) -> None:
    limit = DEFAULTS.guest_limit_per_minute
    assert limit == 10
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.21")
    async with httpx.AsyncClient(
        base_url=limits_server.url, transport=transport, timeout=30
    ) as http:
        for i in range(limit):
            r = await http.post("/api/guest", json={"name": f"Many{i}"})
            assert r.status_code == 201, (i, r.text)
        users = _count(limits_server, "SELECT count(*) FROM users")
        http.cookies.clear()
        r = await http.post("/api/guest", json={"name": "OneTooMany"})
        assert "guests" in _refused(r)["message"]
        assert _count(limits_server, "SELECT count(*) FROM users") == users
        assert (await http.get("/api/me")).status_code == 401
        # Bad input is judged first and spends nothing.
        assert (await http.post("/api/guest", json={"name": ""})).status_code == 422
    # Another address has its own budget.
    other = await Account(limits_server.url, "Elsewhere", local_address="127.0.0.22").guest()
    await other.aclose()


async def _guest(server: Server, name: str, address: str) -> Account:
    return await Account(server.url, name, local_address=address).guest()


def _waiting(server: Server) -> int:
    return _count(server, "SELECT count(*) FROM tables WHERE status = 'waiting'")


async def _start(account: Account, table: str) -> None:
    """Fill ``table`` (hosted by ``account``) with bots and start it."""
    w = await account.wire()
    await w.join(table=table)
    for seat in (1, 2, 3):
        assert (await w.request("add_bot", seat=seat))["type"] == "ack"
    assert (await w.request("ready", ready=True))["type"] == "ack"
    await w.wait(lambda: bool((w.latest() or {}).get("view")), 20)
    await w.close()


async def test_open_waiting_rooms_per_user_and_per_address(limits_server: Server) -> None:
    address = "127.0.0.31"
    assert (DEFAULTS.rooms_per_user, DEFAULTS.rooms_per_address) == (1, 3)
    people = [await _guest(limits_server, f"Host{i}", address) for i in range(4)]
    try:
        first = await people[0].create_table(kind="casual")
        before = _waiting(limits_server)
        # A user's second open room.
        r = await people[0].http.post("/api/tables", json={"kind": "private"})
        assert "a player" in _refused(r)["message"]
        assert _waiting(limits_server) == before
        # Two more users from the address: three rooms; the fourth is refused.
        await people[1].create_table(kind="private")
        await people[2].create_table(kind="casual")
        r = await people[3].http.post("/api/tables", json={"kind": "casual"})
        assert "this address" in _refused(r)["message"]
        assert _waiting(limits_server) == before + 2
        lobby = (await people[3].http.get("/api/tables?status=waiting&limit=200")).json()
        assert not any((t.get("host") or "") == people[3].id for t in lobby["tables"]), (
            "nothing was created"
        )
        # The first room starts: its slot is free, for its host and the address.
        await _start(people[0], first["table"]["id"])
        made = await people[3].create_table(kind="casual")
        assert made["table"]["status"] == "waiting"
        # Someone from another address is not counted with them.
        elsewhere = await _guest(limits_server, "Away", "127.0.0.32")
        await elsewhere.create_table(kind="casual")
        await elsewhere.aclose()
    finally:
        for p in people:
            await p.aclose()


async def test_table_creation_is_limited_per_user(limits_server: Server) -> None:
    limit = DEFAULTS.table_limit_per_minute
    host = await _guest(limits_server, "Maker", "127.0.0.41")
    try:
        # Refused input spends nothing.
        for _ in range(limit + 1):
            r = await host.http.post(
                "/api/tables", json={"kind": "private", "settings": {"target": 7}}
            )
            assert r.status_code == 422, r.text
        for _ in range(limit):
            made = await host.create_table(kind="private")
            # Out of it again (one may sit at one table at a time).
            w = await host.wire()
            await w.join(table=made["table"]["id"])
            assert (await w.request("leave"))["type"] == "ack"
            await w.close()
        tables = _count(limits_server, "SELECT count(*) FROM tables")
        r = await host.http.post("/api/tables", json={"kind": "private"})
        assert "new tables" in _refused(r)["message"]
        assert _count(limits_server, "SELECT count(*) FROM tables") == tables
    finally:
        await host.aclose()


async def test_chat_is_limited_per_user_over_all_tables(limits_server: Server) -> None:
    host = await _guest(limits_server, "Talker", "127.0.0.51")
    try:
        made = await host.create_table(kind="private")
        w = await host.wire()
        await w.join(table=made["table"]["id"])
        for _ in range(CHAT_LIMIT + 1):  # refused lines spend nothing
            assert (await w.request("chat", text=" \u202e "))["code"] == "bad_message"
            # nor does a line to a tournament one may not chat in
            line = await w.request("tournament_chat", tournament="t-none", text="hello")
            assert line["code"] == "not_found", line
        for i in range(CHAT_LIMIT):
            assert (await w.request("chat", text=f"line {i}"))["type"] != "error"
        refused = await w.request("chat", text="one too many")
        assert refused["type"] == "error" and refused["code"] == "chat_rate_limited"
        assert "try again in" in refused["message"]
        await w.close()
    finally:
        await host.aclose()
