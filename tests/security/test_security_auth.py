"""Accounts: passwords are stored as argon2id hashes (read back from the
database itself, SQLite and PostgreSQL), sessions as hashes of their
tokens, a wrong username and a wrong password look alike, and logins and
registrations are rate-limited per address (429 with Retry-After; the
default, 10 a minute, as protocol.md says)."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from typing import Any

import asyncpg
import pytest
from argon2 import PasswordHasher
from fh_wire import Account, Server

PASSWORD = "Sesame-open-8472"


async def rows(server: Server, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Run a query on the server's database, as the operator could."""
    url = server.database_url
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1]
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return [tuple(r) for r in db.execute(sql.replace("$1", "?"), args)]
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        return [tuple(r) for r in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


async def test_passwords_are_argon2id_hashes(any_db_server: Server) -> None:
    server = any_db_server
    tag = hashlib.sha256(server.database_url.encode()).hexdigest()[:6]
    alice = await Account(server.url, f"alice_{tag}").register(PASSWORD)
    bob = await Account(server.url, f"bob_{tag}").register(PASSWORD)
    guest = await Account(server.url, "Guesty").guest()
    try:
        stored = dict(
            await rows(
                server,
                "SELECT id, password_hash FROM users WHERE id IN ($1, $2, $3)"
                if server.database_url.startswith("sqlite")
                else "SELECT id, password_hash FROM users WHERE id = ANY($1::text[])",
                *(
                    (alice.id, bob.id, guest.id)
                    if server.database_url.startswith("sqlite")
                    else ([alice.id, bob.id, guest.id],)
                ),
            )
        )
        for user in (alice, bob):
            h = stored[user.id]
            assert h.startswith("$argon2id$"), h
            assert PASSWORD not in h and PASSWORD.lower() not in h.lower()
            assert PasswordHasher().verify(h, PASSWORD)
        assert stored[alice.id] != stored[bob.id], "each hash has its own salt"
        assert stored[guest.id] is None, "a guest has no password"
        # Nothing else in the users table holds the password either.
        for row in await rows(server, "SELECT * FROM users"):
            assert not any(PASSWORD in str(v) for v in row)
        # Sessions are kept as the SHA-256 of the cookie's token, not the token.
        tokens = await rows(server, "SELECT token_hash FROM sessions")
        kept = {t[0] for t in tokens}
        assert alice.token not in kept
        assert hashlib.sha256(alice.token.encode()).hexdigest() in kept
        # Logging in checks the hash; a wrong password and an unknown user
        # get the same answer.
        r = await alice.http.post(
            "/api/login", json={"username": f"alice_{tag}", "password": PASSWORD}
        )
        assert r.status_code == 200
        wrong = await alice.http.post(
            "/api/login", json={"username": f"alice_{tag}", "password": PASSWORD + "x"}
        )
        nobody = await alice.http.post(
            "/api/login", json={"username": f"nobody_{tag}", "password": PASSWORD}
        )
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json()
    finally:
        for a in (alice, bob, guest):
            await a.aclose()


@pytest.mark.parametrize("path", ["/api/register", "/api/login"])
async def test_login_and_registration_are_rate_limited(sec_server: Server, path: str) -> None:
    """The server runs with the default limit, 10 a minute per address; this
    test comes from loopback addresses no other test uses."""
    server = sec_server
    kind = path[5:]
    user = f"limited_{kind}"
    # The owner registers from yet another address: its own budget.
    owner = Account(server.url, user, local_address=f"127.0.0.{2 if kind == 'login' else 3}")
    if kind == "login":
        await owner.register(PASSWORD)
    a = Account(server.url, "limit", local_address=f"127.0.0.{4 if kind == 'login' else 5}")
    try:
        # Ten attempts a minute are let through (these ten are turned away
        # for their empty bodies, cheaply: no argon2 work)...
        first = await asyncio.gather(*(a.http.post(path, json={}) for _ in range(10)))
        assert [r.status_code for r in first] == [422] * 10
        # ...and the eleventh is refused, even with the right password,
        # before anything is looked at.
        body = {"username": user if kind == "login" else "limited_new", "password": PASSWORD}
        r = await a.http.post(path, json=body)
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "rate_limited"
        retry = r.headers.get("retry-after")
        assert retry is not None and retry.isdigit() and 1 <= int(retry) <= 60, retry
        assert "set-cookie" not in r.headers
        if kind == "register":
            made = await rows(server, "SELECT id FROM users WHERE username = 'limited_new'")
            assert made == [], "the refused registration made no account"
        else:
            # The limit is per address: the owner, elsewhere, logs in.
            r = await owner.http.post(path, json=body)
            assert r.status_code == 200, r.text
    finally:
        await a.aclose()
        await owner.aclose()
