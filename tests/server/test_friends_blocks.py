"""Blocks and invites to a table (docs/protocol.md, "Friends and
invites"): a block ends a friendship, forbids requests and invites both
ways and hides the blocked player's chat from the blocker (also after a
reconnect, and ``mute`` cannot lift it); invites go to friends only, from
a player of a waiting table, reach the invitee's socket, are listed until
the table starts and can be declined; floods get 429."""

from __future__ import annotations

import asyncio
from typing import Any

from fh_server_helpers import Player, Server
from test_friends import befriend, error, lists, member, notices

from fourhundred.server.config import ServerConfig


def chats(p: Player) -> list[str]:
    return [f["text"] for f in p.frames if f["type"] == "chat"]


async def invites(p: Player) -> list[dict[str, Any]]:
    r = await p.http.get("/api/invites")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["invites"]
    return out


async def new_table(host: Player, kind: str = "casual") -> dict[str, Any]:
    r = await host.http.post("/api/tables", json={"kind": kind, "preset": "quick"})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    await host.join(table=created["table"]["id"])  # the host holds seat 0
    return created


async def test_block_stops_chat_requests_and_invites(server: Server) -> None:
    a, b, c = [await member(server, n) for n in ("jamil", "kenza", "lina")]
    try:
        await befriend(a, b)
        for p in (a, b, c):
            await p.connect()
        created = await new_table(a)
        table = created["table"]["id"]
        for p in (b, c):
            await p.join(table=table)
            await p.ok("sit")

        r = await a.http.post("/api/blocks", json={"user": b.id})
        assert r.status_code == 201 and r.json()["blocked"]["id"] == b.id, r.text
        la, lb = await lists(a), await lists(b)
        assert la["friends"] == [] and lb["friends"] == []
        assert [x["id"] for x in la["blocked"]] == [b.id] and lb["blocked"] == []
        error(await a.http.post("/api/blocks", json={"user": b.id}), 409, "conflict")

        # Chat: a no longer reads b; c still does. ``mute`` cannot lift a block.
        await a.ok("mute", user=b.id, muted=False)
        await b.ok("chat", text="hello from b")
        await c.ok("chat", text="hello from c")
        await a.wait(lambda: "hello from c" in chats(a))
        await c.wait(lambda: "hello from b" in chats(c))
        assert "hello from b" not in chats(a)

        # Requests and invites, either way: 403, saying no more than needed.
        for p, q in ((a, b), (b, a)):
            err = error(await p.http.post("/api/friends", json={"user": q.id}), 403, "forbidden")
            assert err["message"] == "you cannot send a request to this player"
        r = await b.http.post(f"/api/tables/{table}/invite", json={"user": a.id})
        assert error(r, 403, "forbidden")["message"] == "you cannot invite this player"
        assert (await lists(a))["incoming"] == [] and (await lists(b))["incoming"] == []

        # After a reconnect the block still hides b's chat (loaded at connect).
        await a.close()
        await a.connect()
        await a.join(table=table)
        await b.ok("chat", text="still blocked")
        await c.ok("chat", text="after reconnect")
        await a.wait(lambda: "after reconnect" in chats(a))
        assert "still blocked" not in chats(a)

        # Unblock: chat flows again; a request is possible again.
        assert (await a.http.delete(f"/api/blocks/{b.id}")).status_code == 204
        error(await a.http.delete(f"/api/blocks/{b.id}"), 404, "not_found")
        await b.ok("chat", text="unblocked now")
        await a.wait(lambda: "unblocked now" in chats(a))
        assert (await a.http.post("/api/friends", json={"user": b.id})).status_code == 201

        # Bad block input.
        error(await a.http.post("/api/blocks", json={"user": a.id}), 422, "bad_request")
        error(await a.http.post("/api/blocks", json={"user": "nobody"}), 404, "not_found")
        error(await a.http.post("/api/blocks", json={"id": b.id}), 422, "bad_request")
        assert (await lists(a))["blocked"] == []
    finally:
        for p in (a, b, c):
            await p.aclose()


async def test_invite_a_friend_to_a_table(server: Server) -> None:
    a, b, c = [await member(server, n) for n in ("maya", "nabil", "omar")]
    try:
        await befriend(a, b)
        for p in (a, b):
            await p.connect()
        created = await new_table(a, "private")
        table, code = created["table"]["id"], created["invite"]

        r = await a.http.post(f"/api/tables/{table}/invite", json={"user": b.id})
        assert r.status_code == 201, r.text
        await b.wait(lambda: bool(notices(b, "table_invite")))
        note = notices(b, "table_invite")[0]
        assert note["table"] == table and note["invite"] == code
        assert note["from"] == {"id": a.id, "name": a.name}
        [inv] = await invites(b)
        assert inv["table"]["id"] == table and inv["invite"] == code
        assert inv["from"]["id"] == a.id
        error(
            await a.http.post(f"/api/tables/{table}/invite", json={"user": b.id}), 409, "conflict"
        )

        # Refusals, each changing nothing.
        before = await invites(b)
        invite = a.http.post
        error(await invite(f"/api/tables/{table}/invite", json={"user": c.id}), 403, "forbidden")
        error(await invite(f"/api/tables/{table}/invite", json={"user": a.id}), 422, "bad_request")
        error(await invite(f"/api/tables/{table}/invite", json={"user": "x"}), 404, "not_found")
        error(await invite(f"/api/tables/{table}/invite", json={}), 422, "bad_request")
        error(await invite("/api/tables/nosuch/invite", json={"user": b.id}), 404, "not_found")
        # c is not at a's table: it is not theirs to invite to (and a Private
        # table's existence is not revealed).
        await befriend(c, b)
        r = await c.http.post(f"/api/tables/{table}/invite", json={"user": b.id})
        error(r, 404, "not_found")
        assert await invites(b) == before
        assert await invites(c) == []

        # Declining, then a fresh invite; joining with the code seats b.
        assert (await b.http.delete(f"/api/invites/{table}")).status_code == 204
        assert await invites(b) == []
        error(await b.http.delete(f"/api/invites/{table}"), 404, "not_found")
        assert (
            await a.http.post(f"/api/tables/{table}/invite", json={"user": b.id})
        ).status_code == 201
        await b.join(invite=code)
        await b.ok("sit")
        error(await a.http.delete(f"/api/invites/{table}"), 404, "not_found")  # a has none

        # Once the table starts, the invite is no longer listed.
        await a.ok("add_bot", seat=2)
        await a.ok("add_bot", seat=3)
        for p in (a, b):
            await p.ok("ready", ready=True)
        for p in (a, b):
            await p.wait(lambda p=p: p.view is not None)
        for _ in range(100):
            if not await invites(b):
                break
            await asyncio.sleep(0.05)
        assert await invites(b) == []
        r = await a.http.post(f"/api/tables/{table}/invite", json={"user": b.id})
        assert r.status_code in (409, 404), r.text
    finally:
        for p in (a, b, c):
            await p.aclose()


async def test_invites_are_rate_limited(server: Server) -> None:
    a, b = await member(server, "rania"), await member(server, "samir")
    try:
        await befriend(a, b)
        await a.connect()
        table = (await new_table(a))["table"]["id"]
        for _ in range(ServerConfig().invite_limit_per_hour):
            r = await a.http.post(f"/api/tables/{table}/invite", json={"user": "nobody"})
            error(r, 404, "not_found")
        r = await a.http.post(f"/api/tables/{table}/invite", json={"user": b.id})
        error(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1
        assert await invites(b) == []
    finally:
        await a.aclose()
        await b.aclose()
