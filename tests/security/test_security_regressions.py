"""Regression tests for the bugs the security pass found (fixed in the server
by commit abf2fab): text PostgreSQL cannot store (NUL) in ids, invite codes
and logins -- what a guesser or a fuzzer sends -- and a Private table's id
told apart from an unknown id over the socket. Each docstring says what was
sent, what is expected, and what the server used to do."""

from __future__ import annotations

import json
import secrets

import pytest
from fh_wire import Account, Server


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/a%00b",
        "/api/invites/a%00b",
        "/api/users/u_%00",
        "/api/users/u_%00/games",
        "/api/games/a%00b",
        "/api/games/a%00b/record",
    ],
)
async def test_nul_in_an_http_id_is_not_found(any_db_server: Server, path: str) -> None:
    """Sent: ``GET`` of an id holding NUL (``%00``). Expected: ``404
    not_found``, as for any unknown id ("the server never answers a client's
    mistake with a 500"). Used to, on PostgreSQL: ``500 internal`` (asyncpg:
    ``invalid byte sequence for encoding "UTF8": 0x00``; SQLite stores NUL
    and answered 404)."""
    a = await Account(any_db_server.url, "Nul").guest()
    try:
        r = await a.http.get(path)
        assert r.status_code == 404, (r.status_code, r.text)
        assert r.json()["error"]["code"] == "not_found"
    finally:
        await a.aclose()


async def test_nul_in_a_login_is_refused(any_db_server: Server) -> None:
    """Sent: ``POST /api/login {"username": "a\\u0000b", ...}``. Expected:
    ``401`` (no such user) or ``422``. Used to, on PostgreSQL: ``500``."""
    a = Account(any_db_server.url, "x", local_address="127.0.0.6")
    try:
        r = await a.http.post("/api/login", json={"username": "a\u0000b", "password": "whatever1"})
        assert r.status_code in (401, 422), (r.status_code, r.text)
    finally:
        await a.aclose()


@pytest.mark.parametrize("field", ["table", "invite"])
async def test_nul_in_a_join_is_not_found(any_db_server: Server, field: str) -> None:
    """Sent: ``{"type": "join", "id": 1, "table": "a\\u0000b"}`` (or
    ``invite``). Expected: ``error`` ``not_found``, the socket open. Used to,
    on PostgreSQL: for ``invite`` no reply (the handler died, the socket was
    closed with 1000); for ``table``, ``unavailable`` ("try again in a
    moment", though no retry could ever find it)."""
    a = await Account(any_db_server.url, "NulJoin").guest()
    try:
        w = await a.wire()
        n = len(w.frames)
        await w.send(json.dumps({"type": "join", "id": 1, field: "a\u0000b"}))
        outcome = await w.next_reply(n, 10)
        assert outcome.code == "not_found", outcome
        assert (await w.request("ping"))["type"] == "pong", "the socket is still open"
        await w.close()
    finally:
        await a.aclose()


async def test_a_private_table_id_over_the_socket_looks_unknown(sec_server: Server) -> None:
    """Sent: ``join`` by the id of a Private table, without its invite, from
    someone not at the table; and ``join`` by an id that does not exist.
    Expected: the same answer (over HTTP it is), so that ids cannot be
    confirmed. Used to: ``{"code": "not_found", "message": "no such table",
    "version": 1}`` for the Private table (from its actor, with its live
    version) against ``{"code": "not_found", "message": "no table 'ID'",
    "version": null}`` for an unknown id."""
    host = await Account(sec_server.url, "PrivHost").guest()
    stranger = await Account(sec_server.url, "PrivStranger").guest()
    try:
        made = await host.create_table(kind="private")
        private_id = made["table"]["id"]
        other_id = secrets.token_urlsafe(8)
        w = await stranger.wire()
        private = await w.request("join", table=private_id)
        unknown = await w.request("join", table=other_id)

        def shape(f: dict[str, object], table_id: str) -> tuple[object, ...]:
            # An answer may name the id it was given: compare with it blanked.
            return f["type"], f["code"], str(f["message"]).replace(table_id, "ID"), f["version"]

        assert shape(private, private_id) == shape(unknown, other_id), (private, unknown)
        await w.close()
    finally:
        await host.aclose()
        await stranger.aclose()
