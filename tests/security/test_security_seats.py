"""A session acts only for its own seat: naming another seat, acting from a
spectator's socket, a second user at the table, a socket taken over by the
same user's newer one, no session or a dead one -- all refused, and the
table, seen afresh by every seat and a spectator, is as it was."""

from __future__ import annotations

import json

import pytest
from fh_sec import Table, seat_four, state_of
from fh_wire import Account, Server, Wire
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def _move(table: Table, seat: int) -> dict[str, object]:
    """The body of a legal move for ``seat`` if it were its turn."""
    legal = table.legal(table.mover())
    pick = legal[0]
    if isinstance(pick, int):
        return {"type": "bid", "bid": pick}
    return {"type": "play", "card": pick}


async def test_only_your_own_seat(sec_server: Server) -> None:
    table = await seat_four(sec_server.url, "Own")
    observer = await Account(sec_server.url, "OwnObs").guest()
    spectator = await Account(sec_server.url, "OwnSpec").guest()
    outsider = await Account(sec_server.url, "OwnOut").guest()
    try:
        before = await state_of(table, observer)
        mover = table.mover()
        body = await _move(table, mover)
        # Every seated player naming every other seat: not_your_seat, even
        # the player whose turn it is, even with the move that is legal.
        for seat, w in enumerate(table.wires):
            for other in range(4):
                if other == seat:
                    continue
                for kind in (body, {"type": "redeal"}):
                    reply = await w.request(kind["type"], seat=other, **_fields(kind))
                    assert reply["code"] == "not_your_seat", (seat, other, reply)
        # The seat to play, acting "for" the others without naming them
        # is acting for itself; the others acting without a seat: not
        # their turn.
        for seat, w in enumerate(table.wires):
            if seat != mover:
                reply = await w.request(body["type"], **_fields(body))
                assert reply["code"] == "not_your_turn", reply
        # A second user at the table (a spectator), naming the seat to play.
        sw = await spectator.wire()
        await sw.join(**table.join)
        for kind in (body, {"type": "redeal"}):
            reply = await sw.request(kind["type"], seat=mover, **_fields(kind))
            assert reply["code"] == "not_seated", (kind, reply)
        for name in ("leave", "reclaim"):
            assert (await sw.request(name))["code"] == "not_seated"
        assert (await sw.request("sit", seat=mover))["code"] == "not_allowed"
        assert (await sw.request("sit"))["code"] == "not_allowed"
        # A user attached to no table.
        ow = await outsider.wire()
        reply = await ow.request(body["type"], seat=mover, **_fields(body))
        assert reply["code"] == "not_attached"
        # Host commands from non-hosts.
        for seat in (1, 2, 3):
            w = table.wires[seat]
            assert (await w.request("remove", seat=0))["code"] == "not_host"
            assert (await w.request("configure", settings={"target": 51}))["code"] == "not_host"
        after = await state_of(table, observer)
        assert after == before, "a refused command changed the table"
        # The player whose turn it is can play, for its own seat.
        reply = await table.wires[mover].request(body["type"], seat=mover, **_fields(body))
        assert reply["type"] == "ack", reply
        await sw.close()
        await ow.close()
    finally:
        await table.aclose()
        for a in (observer, spectator, outsider):
            await a.aclose()


def _fields(body: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in body.items() if k != "type"}


async def test_a_newer_socket_of_the_same_user_takes_over(sec_server: Server) -> None:
    table = await seat_four(sec_server.url, "Take")
    try:
        mover = table.mover()
        old = table.wires[mover]
        new = await table.people[mover].wire()
        await new.join(**table.join)
        table.wires[mover] = new
        assert await old.wait(lambda: old.closed, 10)
        assert old.close_code == 4000
        closing = [f for f in old.frames if f.get("type") == "closing"]
        assert closing and closing[-1]["code"] == "replaced"
        # The replaced socket can no longer act.
        body = await _move(table, mover)
        assert not await old.send(json.dumps({"id": 1, **body}))
        assert not [f for f in old.frames if f.get("type") == "ack" and f.get("id") == 1]
        reply = await new.request(body["type"], **_fields(body))
        assert reply["type"] == "ack", reply
    finally:
        await table.aclose()


@pytest.mark.parametrize("token", [None, "", "not-a-session", "x" * 43, "y" * 500])
async def test_no_valid_session_no_socket(sec_server: Server, token: str | None) -> None:
    w = Wire(sec_server.url.replace("http", "ws") + "/ws", token)
    await w.open()
    await w.wait(lambda: w.closed, 10)
    assert w.close_code == 4401
    assert [f["type"] for f in w.frames] == ["closing"]
    assert w.frames[0]["code"] == "unauthorized"


async def test_a_logged_out_session_opens_no_socket(sec_server: Server) -> None:
    a = await Account(sec_server.url, "Gone").guest()
    token = a.token
    w = await a.wire()
    assert w.hello() is not None
    await w.close()
    r = await a.http.post("/api/logout")
    assert r.status_code == 204
    async with connect(
        sec_server.url.replace("http", "ws") + "/ws",
        additional_headers={"Cookie": f"fh_session={token}"},
    ) as ws:
        msg = json.loads(await ws.recv())
        assert msg["type"] == "closing" and msg["code"] == "unauthorized"
        with pytest.raises(ConnectionClosed) as info:
            await ws.recv()
    assert info.value.rcvd is not None and info.value.rcvd.code == 4401
    assert (await a.http.get("/api/me")).status_code == 401
    await a.aclose()
