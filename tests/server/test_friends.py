"""Friends over HTTP and WebSocket (docs/protocol.md, "Friends and
invites"): requests, accepting, declining, removing; the list with who is
online and at which table; live notices; every bad input refused with the
right status and nothing changed."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fh_server_helpers import Player, Server

from fourhundred.server.config import ServerConfig


async def member(server: Server, stem: str) -> Player:
    """A registered player with a fresh username."""
    return await Player(server, f"{stem}_{secrets.token_hex(3)}").register()


async def lists(p: Player) -> dict[str, Any]:
    r = await p.http.get("/api/friends")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def ids(people: list[dict[str, Any]]) -> list[str]:
    return [x["id"] for x in people]


def error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == code, err
    return err


def notices(p: Player, kind: str) -> list[dict[str, Any]]:
    return [f for f in p.frames if f["type"] == "notice" and f["notice"] == kind]


async def befriend(a: Player, b: Player) -> None:
    r = await a.http.post("/api/friends", json={"user": b.id})
    assert r.status_code == 201 and r.json()["status"] == "requested", r.text
    r = await b.http.post(f"/api/friends/{a.id}/accept")
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.text


async def test_request_accept_list_and_remove(server: Server) -> None:
    a, b, c = [await member(server, n) for n in ("amal", "basel", "celine")]
    await b.connect()
    try:
        r = await a.http.post("/api/friends", json={"username": b.name.upper()})
        assert r.status_code == 201, r.text
        assert r.json() == {"status": "requested", "user": {"id": b.id, "name": b.name}}
        # b's socket hears of it at once.
        await b.wait(lambda: bool(notices(b, "friend_request")))
        assert notices(b, "friend_request")[0]["from"] == {"id": a.id, "name": a.name}

        la, lb = await lists(a), await lists(b)
        assert ids(la["outgoing"]) == [b.id] and la["friends"] == [] and la["incoming"] == []
        assert ids(lb["incoming"]) == [a.id] and lb["outgoing"] == []

        # Asking twice: 409, nothing changes.
        error(await a.http.post("/api/friends", json={"user": b.id}), 409, "conflict")
        assert await lists(a) == la

        # b asks a back: that accepts a's request.
        r = await b.http.post("/api/friends", json={"user": a.id})
        assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
        la, lb = await lists(a), await lists(b)
        assert la["outgoing"] == [] and lb["incoming"] == []
        assert [(f["id"], f["online"], f["table"]) for f in la["friends"]] == [(b.id, True, None)]
        assert [(f["id"], f["online"]) for f in lb["friends"]] == [(a.id, False)]
        error(await a.http.post("/api/friends", json={"user": b.id}), 409, "conflict")

        # c asks a; a declines; c's request is gone on both sides.
        assert (await c.http.post("/api/friends", json={"user": a.id})).status_code == 201
        r = await a.http.post(f"/api/friends/{c.id}/decline")
        assert r.status_code == 204, r.text
        assert (await lists(a))["incoming"] == [] and (await lists(c))["outgoing"] == []
        error(await a.http.post(f"/api/friends/{c.id}/decline"), 404, "not_found")
        error(await a.http.post(f"/api/friends/{c.id}/accept"), 404, "not_found")

        # Removing a friend removes both sides.
        assert (await b.http.delete(f"/api/friends/{a.id}")).status_code == 204
        assert (await lists(a))["friends"] == [] and (await lists(b))["friends"] == []
        error(await b.http.delete(f"/api/friends/{a.id}"), 404, "not_found")

        # A request can be taken back by its sender.
        assert (await c.http.post("/api/friends", json={"user": a.id})).status_code == 201
        assert (await c.http.delete(f"/api/friends/{a.id}")).status_code == 204
        assert (await lists(a))["incoming"] == []

        # The asker hears when their request is accepted.
        await c.connect()
        assert (await c.http.post("/api/friends", json={"user": a.id})).status_code == 201
        assert (await a.http.post(f"/api/friends/{c.id}/accept")).status_code == 200
        await c.wait(lambda: bool(notices(c, "friend_accepted")))
        assert notices(c, "friend_accepted")[0]["from"] == {"id": a.id, "name": a.name}
        assert ids((await lists(c))["friends"]) == [a.id]
    finally:
        for p in (a, b, c):
            await p.aclose()


async def test_friend_at_a_table_and_a_private_table_stays_hidden(server: Server) -> None:
    a, b = await member(server, "dalia"), await member(server, "elias")
    try:
        await befriend(a, b)
        await b.connect()
        r = await b.http.post("/api/tables", json={"kind": "casual", "preset": "quick"})
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
        await b.join(table=table)  # the host holds seat 0
        friend = (await lists(a))["friends"][0]
        assert friend["online"] is True and friend["table"] == table

        await b.ok("leave")
        r = await b.http.post("/api/tables", json={"kind": "private", "preset": "quick"})
        assert r.status_code == 201, r.text
        private = r.json()["table"]["id"]
        await b.join(table=private)
        friend = (await lists(a))["friends"][0]
        assert friend["online"] is True and friend["table"] is None
        assert private not in str(await lists(a))

        await b.close()
        for _ in range(100):
            if not (await lists(a))["friends"][0]["online"]:
                break
            await asyncio.sleep(0.05)
        assert (await lists(a))["friends"][0]["online"] is False
    finally:
        await a.aclose()
        await b.aclose()


async def test_bad_friend_requests_change_nothing(server: Server) -> None:
    a, b = await member(server, "farah"), await member(server, "ghada")
    guest = await Player(server, "Guesty").guest()
    try:
        before = await lists(a)
        post = a.http.post
        error(await post("/api/friends", json={"user": "nobody-here"}), 404, "not_found")
        error(await post("/api/friends", json={"username": "no_such_name_x"}), 404, "not_found")
        err = error(await post("/api/friends", json={"user": a.id}), 422, "bad_request")
        assert err["field"] == "user"
        error(await post("/api/friends", json={}), 422, "bad_request")
        error(
            await post("/api/friends", json={"user": b.id, "username": b.name}), 422, "bad_request"
        )
        err = error(await post("/api/friends", json={"user": 5}), 422, "bad_request")
        assert err["field"] == "user"
        err = error(await post("/api/friends", json={"user": b.id, "x": 1}), 422, "bad_request")
        r = await post("/api/friends", content=b"{", headers={"content-type": "application/json"})
        error(r, 400, "bad_request")
        error(await post("/api/friends", json={"user": guest.id}), 403, "forbidden")
        error(await post("/api/friends/nobody/accept"), 404, "not_found")
        error(await post(f"/api/friends/{b.id}/accept"), 404, "not_found")
        error(await a.http.delete("/api/friends/%00x"), 404, "not_found")
        error(await a.http.put("/api/friends"), 405, "method_not_allowed")
        assert await lists(a) == before and await lists(b) == before

        # Guests: a clear 403 on every endpoint; anonymous: 401.
        for r in (
            await guest.http.get("/api/friends"),
            await guest.http.post("/api/friends", json={"user": a.id}),
            await guest.http.post("/api/blocks", json={"user": a.id}),
            await guest.http.get("/api/invites"),
        ):
            assert "sign in to have friends" in error(r, 403, "forbidden")["message"]
        async with Player(server, "nobody").http as anon:
            error(await anon.get("/api/friends"), 401, "unauthorized")
    finally:
        for p in (a, b, guest):
            await p.aclose()


async def test_friend_requests_are_rate_limited(server: Server) -> None:
    a, b = await member(server, "hadi"), await member(server, "iman")
    try:
        # A burst as large as --friend-request-limit (30 by default) passes
        # the limit (each refused for its own reason); the next is refused
        # before anything is looked at.
        for _ in range(ServerConfig().friend_request_limit_per_hour):
            error(await a.http.post("/api/friends", json={"user": "nobody"}), 404, "not_found")
        r = await a.http.post("/api/friends", json={"user": b.id})
        error(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1
        assert (await lists(b))["incoming"] == []
        # Someone else is not limited by a's flood.
        assert (await b.http.post("/api/friends", json={"user": a.id})).status_code == 201
    finally:
        await a.aclose()
        await b.aclose()
