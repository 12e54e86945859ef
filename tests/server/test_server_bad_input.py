"""Bad input of every kind gets a clear error and changes nothing; abuse
closes the connection; HTTP mistakes are 4xx with a reason, never a 500."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from fh_server_helpers import Player, Server, play_turns
from test_server_game import seat_four
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus


def first_change(p: Player, mark: int) -> tuple[int, str, int | None] | None:
    """The first frame since ``p.frames[mark]`` that changed what ``p`` sees
    (its version, and for an event its kind and seat)."""
    for f in p.frames[mark:]:
        if f["type"] == "event":
            return f["version"], f["event"]["kind"], f["event"].get("seat")
        if f["type"] in ("snapshot", "catchup"):
            return f["version"], f["type"], None
    return None


async def test_bad_frames_get_errors_and_change_nothing(server: Server) -> None:
    players, _table, created = await seat_four(server)
    spectator = await Player(server, "Spec").guest()
    await spectator.connect()
    await spectator.join(invite=created["invite"])
    mover = next(p for p in players if p.view and p.view["legal"])
    other = next(p for p in players if p is not mover)
    assert mover.view is not None
    watchers = [*players, spectator]
    marks = [len(x.frames) for x in watchers]
    v = mover.version
    await _refuse_malformed_frames(other)
    legal = mover.view["legal"]
    await _refuse_bad_bids(mover, other, spectator, v)
    await _refuse_duplicate_ids(mover, legal)
    # A good move is still taken, at the version the client named: the
    # table judged every frame above before it. Nothing changed for anyone
    # in between: the move's event is the first change each one hears of.
    ack = await mover.cmd("bid", bid=legal[-1], version=v)
    assert ack["type"] == "ack" and ack["version"] == v + 1
    for x, mark in zip(watchers, marks, strict=True):
        await x.wait(lambda x=x: x.version >= v + 1)
        assert first_change(x, mark) == (v + 1, "bid", mover.seat), x.name
    await _refuse_bad_cards(players, watchers)
    for x in (*players, spectator):
        await x.aclose()


async def _refused(p: Player, frame: str | bytes, code: str, cid: Any = None) -> dict[str, Any]:
    """Send ``frame`` raw and return the error it gets (``code``, ``cid``)."""
    n = len(p.frames)
    await p.send_raw(frame)
    await p.wait(lambda: any(f["type"] == "error" for f in p.frames[n:]))
    err = next(f for f in p.frames[n:] if f["type"] == "error")
    assert err["code"] == code, err
    assert err["id"] == cid
    assert err["message"]
    return err


async def _refuse_malformed_frames(other: Player) -> None:
    """Frames that are not messages."""
    await _refused(other, '{"type": "bid", ', "bad_json")
    await _refused(other, b"\x00\x01binary", "bad_json")
    await _refused(other, "[1, 2]", "bad_message")
    await _refused(other, '"just a string"', "bad_message")
    err = await _refused(other, '{"type": "fly", "id": 1}', "unknown_type", 1)
    assert "fly" in err["message"] and "bid" in err["message"]
    await _refused(other, '{"type": "bid", "id": 2, "bid": "3"}', "bad_message", 2)
    await _refused(other, '{"type": "bid", "id": 3, "bid": 3.0}', "bad_message", 3)
    await _refused(other, '{"type": "bid", "id": 4, "bid": true}', "bad_message", 4)
    await _refused(other, '{"type": "bid", "id": 5, "bid": 3, "extra": 1}', "bad_message", 5)
    await _refused(other, '{"type": "bid", "bid": 3}', "bad_message")
    await _refused(other, '{"type": "bid", "id": -1, "bid": 3}', "bad_message")
    await _refused(other, '{"type": "bid", "id": "' + "x" * 65 + '", "bid": 3}', "bad_message")


async def _refuse_bad_bids(mover: Player, other: Player, spectator: Player, v: int) -> None:
    """Messages that the game refuses during the bidding (``mover`` is to
    bid at version ``v``)."""
    assert mover.view is not None
    legal = mover.view["legal"]
    assert (await other.cmd("bid", bid=legal[0]))["code"] == "not_your_turn"
    other_seat = other.seat
    assert (await mover.cmd("bid", bid=legal[0], seat=other_seat))["code"] == "not_your_seat"
    assert (await spectator.cmd("bid", bid=legal[0]))["code"] == "not_seated"
    assert (await mover.cmd("bid", bid=legal[0] - 1))["code"] == "illegal"
    low = await mover.cmd("bid", bid=1)
    assert low["code"] == "illegal" and "may bid" in low["message"]
    assert (await mover.cmd("bid", bid=14))["code"] == "illegal"
    assert (await mover.cmd("play", card="AS"))["code"] == "wrong_phase"
    assert (await mover.cmd("play", card="ZZ"))["code"] == "illegal"
    stale = await mover.cmd("bid", bid=legal[0], version=v - 1)
    assert stale["code"] == "stale" and str(v) in stale["message"]
    assert (await mover.cmd("redeal"))["code"] == "illegal"
    assert (await mover.cmd("reclaim"))["code"] == "not_allowed"


async def _refuse_duplicate_ids(mover: Player, legal: list[int]) -> None:
    """A duplicated command id: the first is judged, the copy refused."""
    first = await mover.cmd("ping", id=777)
    assert first["type"] == "pong"
    dup = await mover.cmd("bid", bid=legal[0], id=777)
    assert dup["code"] == "duplicate"
    # A refused command changed nothing, so its id is free again; refusing
    # a duplicate frees nothing.
    assert (await mover.cmd("bid", bid=1, id=888))["code"] == "illegal"
    assert (await mover.cmd("bid", bid=1, id=888))["code"] == "illegal"
    assert (await mover.cmd("bid", bid=legal[0], id=777))["code"] == "duplicate"


async def _refuse_bad_cards(players: list[Player], watchers: list[Player]) -> None:
    """During play: a card not held, a card that does not follow suit."""
    await play_turns(
        players,
        lambda: bool(
            players[0].view
            and players[0].view["phase"] == "play"
            and players[0].view["tricks"]
            and players[0].view["tricks"][-1]["cards"]
        ),
    )
    top = max(x.version for x in players)
    for x in watchers:
        await x.wait(lambda x=x: x.version >= top)
    p = next(x for x in players if x.view and x.view["legal"])
    assert p.view is not None and p.version == top
    hand, legal_cards = p.view["hand"], p.view["legal"]
    marks = [len(x.frames) for x in watchers]
    not_held = next(c for c in _deck() if c not in hand)
    err = await p.cmd("play", card=not_held)
    assert err["code"] == "illegal" and "does not hold" in err["message"]
    unfollowing = [c for c in hand if c not in legal_cards]
    if unfollowing:
        err = await p.cmd("play", card=unfollowing[0])
        assert err["code"] == "illegal" and "must follow" in err["message"]
    assert (await p.cmd("bid", bid=3))["code"] == "wrong_phase"
    # The same proof: a good card, judged after those, is the first change.
    ack = await p.cmd("play", card=legal_cards[0], version=top)
    assert ack["type"] == "ack" and ack["version"] == top + 1
    for x, mark in zip(watchers, marks, strict=True):
        await x.wait(lambda x=x: x.version >= top + 1)
        assert first_change(x, mark) == (top + 1, "play", p.seat), x.name


def _deck() -> list[str]:
    return [r + s for s in "CDHS" for r in "23456789TJQKA"]


async def test_commands_before_join_and_chat_limits(server: Server) -> None:
    p = await Player(server, "Early").guest()
    await p.connect()
    assert (await p.cmd("bid", bid=3))["code"] == "not_attached"
    assert (await p.cmd("chat", text="hi"))["code"] == "not_attached"
    assert (await p.cmd("join", table="no-such-table"))["code"] == "not_found"
    both = await p.cmd("join", table="x", invite="y")
    assert both["code"] == "bad_message"
    assert (await p.cmd("mute", user=p.id, muted=True))["code"] == "not_allowed"
    await p.aclose()


async def test_frame_over_64_kib_closes_with_an_error(server: Server) -> None:
    p = await Player(server, "Big").guest()
    await p.connect()
    await p.send_raw(json.dumps({"type": "chat", "id": 1, "text": "x" * (70 * 1024)}))
    await p.wait(lambda: p.close_code is not None)
    assert p.close_code == 1009
    err = next(f for f in p.frames if f["type"] == "error")
    assert err["code"] == "too_large"
    # Over 1 MiB the transport itself refuses it.
    q = await Player(server, "Huge").guest()
    await q.connect()
    with pytest.raises(ConnectionClosed):
        await q.send_raw("x" * (2 << 20))
        await q.wait(lambda: q.close_code is not None)
        await q.cmd("ping")
    await q.wait(lambda: q.close_code is not None)
    assert q.close_code == 1009
    await p.aclose()
    await q.aclose()


async def test_flood_is_refused_then_closed(fast_server: Server) -> None:
    p = await Player(fast_server, "Flood").guest()
    await p.connect()
    for i in range(400):
        try:
            await p.send_raw(json.dumps({"type": "ping", "id": i}))
        except ConnectionClosed:
            break
    await p.wait(lambda: p.close_code is not None)
    assert p.close_code == 1008
    codes = [f.get("code") for f in p.frames if f["type"] in ("error", "closing")]
    assert "rate_limited" in codes and codes[-1] == "abuse"
    assert any(f["type"] == "pong" for f in p.frames)
    await p.aclose()


async def test_repeated_junk_closes_the_socket(server: Server) -> None:
    p = await Player(server, "Junk").guest()
    await p.connect()
    for _ in range(25):
        try:
            await p.send_raw("{nope")
        except ConnectionClosed:
            break
        await asyncio.sleep(0.06)  # under the rate limit: only the junk counts
    await p.wait(lambda: p.close_code is not None)
    assert p.close_code == 1008
    assert [f for f in p.frames if f["type"] == "closing"][-1]["code"] == "abuse"
    await p.aclose()


async def test_socket_needs_a_session_and_the_same_origin(server: Server) -> None:
    async with connect(server.ws_url) as ws:
        msg = json.loads(await ws.recv())
        assert msg == {
            "type": "closing",
            "code": "unauthorized",
            "message": msg["message"],
        }
        with pytest.raises(ConnectionClosed) as info:
            await ws.recv()
    assert info.value.rcvd is not None and info.value.rcvd.code == 4401
    p = await Player(server, "Origin").guest()
    with pytest.raises(InvalidStatus) as bad:
        await connect(
            server.ws_url,
            additional_headers={"Cookie": f"fh_session={p.token}"},
            origin="https://evil.example",  # type: ignore[arg-type]
        )
    assert bad.value.response.status_code == 403
    async with connect(
        server.ws_url,
        additional_headers={"Cookie": "fh_session=forged-token"},
    ) as ws:
        assert json.loads(await ws.recv())["code"] == "unauthorized"
    await p.aclose()


# ----------------------------------------------------------------------- HTTP


async def test_http_inputs_are_checked(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as c:
        await _bad_guests(c)
        await _bad_accounts(c)
        await _bad_tables(c)
        await _bad_lookups(c)
        await _origins(c, server)


async def _expect(r: httpx.Response, status: int, code: str, field: str | None = None) -> None:
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code and err["message"]
    if field is not None:
        assert err.get("field") == field, err


async def _bad_guests(c: httpx.AsyncClient) -> None:
    await _expect(
        await c.post("/api/guest", content=b"{", headers={"content-type": "application/json"}),
        400,
        "bad_request",
    )
    await _expect(
        await c.post("/api/guest", content=b"", headers={"content-type": "application/json"}),
        400,
        "bad_request",
    )
    await _expect(await c.post("/api/guest", data={"name": "x"}), 415, "bad_request")
    await _expect(await c.post("/api/guest", json={"name": 3}), 422, "bad_request", "name")
    await _expect(
        await c.post("/api/guest", json={"name": "a", "admin": True}),
        422,
        "bad_request",
        "admin",
    )
    await _expect(await c.post("/api/guest", json={}), 422, "bad_request", "name")
    await _expect(await c.post("/api/guest", json={"name": "   "}), 422, "bad_request", "name")
    await _expect(await c.post("/api/guest", json={"name": "x" * 25}), 422, "bad_request", "name")
    await _expect(await c.post("/api/guest", json={"name": "a\u202eb"}), 422, "bad_request", "name")
    await _expect(await c.post("/api/guest", json={"name": "x" * (70 * 1024)}), 413, "too_large")


async def _bad_accounts(c: httpx.AsyncClient) -> None:
    """Registering and logging in, refused (``dupe_user`` exists after)."""
    await _expect(
        await c.post("/api/register", json={"username": "ab", "password": "longenough"}),
        422,
        "bad_request",
        "username",
    )
    await _expect(
        await c.post("/api/register", json={"username": "okname", "password": "short"}),
        422,
        "bad_request",
        "password",
    )
    await _expect(
        await c.post("/api/login", json={"username": "nobody_here", "password": "whatever1"}),
        401,
        "unauthorized",
    )
    r = await c.post("/api/register", json={"username": "dupe_user", "password": "longenough"})
    assert r.status_code in (201, 409)
    c.cookies.clear()
    await _expect(
        await c.post("/api/register", json={"username": "DUPE_user", "password": "longenough"}),
        409,
        "conflict",
        "username",
    )
    wrong = await c.post("/api/login", json={"username": "dupe_user", "password": "not it!!"})
    await _expect(wrong, 401, "unauthorized")
    assert wrong.json()["error"]["message"] == "wrong username or password"
    await _expect(await c.get("/api/me"), 401, "unauthorized")
    await _expect(await c.post("/api/tables", json={"kind": "casual"}), 401, "unauthorized")


async def _bad_tables(c: httpx.AsyncClient) -> None:
    """Logged in as ``dupe_user``: tables with settings out of range."""
    ok = await c.post("/api/login", json={"username": "dupe_user", "password": "longenough"})
    assert ok.status_code == 200 and "httponly" in ok.headers["set-cookie"].lower()
    await _expect(await c.post("/api/tables", json={"kind": "ranked"}), 422, "bad_request", "kind")
    await _expect(
        await c.post("/api/tables", json={"kind": "casual", "preset": "x"}),
        422,
        "bad_request",
        "preset",
    )
    await _expect(
        await c.post("/api/tables", json={"kind": "casual", "timer": 20}),
        422,
        "bad_request",
        "timer",
    )
    await _expect(
        await c.post("/api/tables", json={"kind": "casual", "timer": "30"}),
        422,
        "bad_request",
        "timer",
    )
    await _expect(
        await c.post("/api/tables", json={"kind": "casual", "settings": {"min_bid": 9}}),
        422,
        "bad_request",
        "settings.min_bid",
    )
    await _expect(
        await c.post("/api/tables", json={"kind": "casual", "settings": {"min_bid": "2"}}),
        422,
        "bad_request",
        "settings.min_bid",
    )
    await _expect(
        await c.post("/api/tables", json={"kind": "casual", "settings": {"speed": 9}}),
        422,
        "bad_request",
        "settings.speed",
    )
    await _expect(
        await c.post("/api/tables", json={"kind": "casual", "settings": []}),
        422,
        "bad_request",
        "settings",
    )


async def _bad_lookups(c: httpx.AsyncClient) -> None:
    await _expect(await c.get("/api/tables?status=sleeping"), 422, "bad_request", "status")
    await _expect(await c.get("/api/tables?limit=abc"), 422, "bad_request", "limit")
    await _expect(await c.get("/api/tables?limit=0"), 422, "bad_request", "limit")
    await _expect(await c.get("/api/leaderboard?limit=9999"), 422, "bad_request", "limit")
    await _expect(await c.get("/api/games/nope"), 404, "not_found")
    await _expect(await c.get("/api/games/nope/record"), 404, "not_found")
    await _expect(await c.get("/api/users/nope"), 404, "not_found")
    await _expect(await c.get("/api/users/" + "x" * 500 + "/games"), 404, "not_found")
    await _expect(await c.get("/api/tables/nope"), 404, "not_found")
    await _expect(await c.get("/api/invites/" + "x" * 300), 404, "not_found")
    await _expect(await c.get("/api/nothing/here"), 404, "not_found")
    await _expect(await c.put("/api/tables", json={}), 405, "method_not_allowed")


async def _origins(c: httpx.AsyncClient, server: Server) -> None:
    await _expect(
        await c.post("/api/guest", json={"name": "x"}, headers={"origin": "https://evil.example"}),
        403,
        "forbidden_origin",
    )
    r = await c.post("/api/guest", json={"name": "Same"}, headers={"origin": server.url})
    assert r.status_code == 201
    # An origin the operator allowed (--allowed-origin) is accepted too.
    r = await c.post(
        "/api/guest", json={"name": "Friend"}, headers={"origin": "https://friend.example"}
    )
    assert r.status_code == 201


async def test_login_attempts_are_rate_limited(fast_server: Server) -> None:
    async with httpx.AsyncClient(base_url=fast_server.url) as c:
        codes = []
        for _ in range(4):
            r = await c.post("/api/login", json={"username": "victim", "password": "guess123"})
            codes.append(r.status_code)
        assert codes == [401, 401, 401, 429]  # this server allows 3 a minute
        r = await c.post("/api/login", json={"username": "victim", "password": "guess123"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


async def test_a_request_cut_off_mid_body_is_not_a_server_error(server: Server) -> None:
    """A client that goes away halfway through its body is its own problem:
    the server answers (to nobody) 400, not 500, and logs no error."""
    assert server.log_path is not None
    marker = f"cut-off-{id(server)}"
    _reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(
        b"POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n"
        b"X-Test: " + marker.encode() + b"\r\n\r\n" + b'{"name": "Cut'
    )
    await writer.drain()
    await asyncio.sleep(0.3)
    writer.close()
    await writer.wait_closed()
    await asyncio.sleep(0.5)
    async with httpx.AsyncClient(base_url=server.url) as c:
        assert (await c.get("/healthz")).status_code == 200
    log = server.log_path.read_text(errors="replace")
    assert "ClientDisconnect" not in log
