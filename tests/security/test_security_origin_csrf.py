"""Cross-site requests: a WebSocket handshake from a foreign Origin is
refused (and takes nothing over), and every state-changing HTTP call from a
foreign Origin, or with a body a cross-site form can send (not JSON), is
refused and changes nothing. The session cookie is HttpOnly and SameSite."""

from __future__ import annotations

import httpx
import pytest
from fh_wire import Account, Server, Wire
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

FOREIGN = ["https://evil.example", "null", "http://127.0.0.1:1", "http://localhost.evil.example"]


def _own_origin(server: Server) -> str:
    return server.url  # http://127.0.0.1:PORT


@pytest.mark.parametrize("origin", FOREIGN)
async def test_a_foreign_origin_gets_no_socket(sec_server: Server, origin: str) -> None:
    a = await Account(sec_server.url, "Orig").guest()
    try:
        # The user's own socket, from its own origin, is up.
        mine = await a.wire(origin=_own_origin(sec_server))
        assert mine.hello() is not None
        with pytest.raises(InvalidStatus) as refused:
            await connect(
                a.ws_url,
                additional_headers={"Cookie": f"fh_session={a.token}"},
                origin=origin,  # type: ignore[arg-type]
                open_timeout=10,
            )
        assert refused.value.response.status_code == 403
        # The refused handshake took nothing over: the real socket lives on.
        reply = await mine.request("ping")
        assert reply["type"] == "pong" and not mine.closed
        await mine.close()
    finally:
        await a.aclose()


async def test_the_own_origin_and_no_origin_get_a_socket(sec_server: Server) -> None:
    a = await Account(sec_server.url, "OrigOk").guest()
    for origin in (_own_origin(sec_server), None):
        w = await Wire(a.ws_url, a.token, origin=origin).open()
        assert w.hello() is not None, origin
        await w.close()
    await a.aclose()


async def test_cross_site_posts_are_refused_and_change_nothing(sec_server: Server) -> None:
    a = await Account(sec_server.url, "Csrf").guest()
    http = a.http
    evil = {"Origin": "https://evil.example"}
    try:
        before = (await http.get("/api/tables?status=waiting&limit=200")).json()
        # Each state-changing call, JSON body and all, from a foreign origin.
        calls = [
            ("POST", "/api/tables", {"kind": "casual"}),
            ("POST", "/api/guest", {"name": "Mallory"}),
            ("POST", "/api/register", {"username": "mallory_x", "password": "hunter2hunter2"}),
            ("POST", "/api/login", {"username": "mallory_x", "password": "hunter2hunter2"}),
            ("POST", "/api/queue", None),
            ("DELETE", "/api/queue", None),
            ("POST", "/api/logout", None),
        ]
        for method, path, body in calls:
            r = await http.request(method, path, json=body, headers=evil)
            assert r.status_code == 403, (path, r.text)
            assert r.json()["error"]["code"] == "forbidden_origin"
            assert "set-cookie" not in r.headers, path
        # Nothing changed: same session, same user, no table, no account.
        me = await http.get("/api/me")
        assert me.status_code == 200 and me.json()["user"]["id"] == a.id
        after = (await http.get("/api/tables?status=waiting&limit=200")).json()
        assert after == before
        assert (await http.get("/api/queue")).json() == {"status": "idle"}
        r = await http.post(
            "/api/login", json={"username": "mallory_x", "password": "hunter2hunter2"}
        )
        assert r.status_code == 401, "the cross-site registration made no account"
        # The same calls from this server's own origin work.
        r = await http.post(
            "/api/tables", json={"kind": "casual"}, headers={"Origin": sec_server.url}
        )
        assert r.status_code == 201
    finally:
        await a.aclose()


@pytest.mark.parametrize(
    "ctype",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""],
)
async def test_bodies_a_cross_site_form_can_send_are_refused(
    sec_server: Server, ctype: str
) -> None:
    a = await Account(sec_server.url, "Form").guest()
    http = a.http
    try:
        before = (await http.get("/api/tables?status=waiting&limit=200")).json()
        for path, body in (
            ("/api/tables", '{"kind": "casual"}'),
            ("/api/guest", '{"name": "Mallory"}'),
            ("/api/register", '{"username": "mallory_f", "password": "hunter2hunter2"}'),
            ("/api/login", '{"username": "mallory_f", "password": "hunter2hunter2"}'),
        ):
            headers = {"Content-Type": ctype} if ctype else {}
            r = await http.post(path, content=body.encode(), headers=headers)
            assert r.status_code == 415, (path, ctype, r.status_code, r.text)
            assert r.json()["error"]["code"] == "bad_request"
            assert "set-cookie" not in r.headers
        assert (await http.get("/api/tables?status=waiting&limit=200")).json() == before
        assert (await http.get("/api/me")).json()["user"]["id"] == a.id
    finally:
        await a.aclose()


async def test_the_session_cookie_is_httponly_and_samesite(sec_server: Server) -> None:
    async with httpx.AsyncClient(base_url=sec_server.url) as http:
        r = await http.post("/api/guest", json={"name": "Cookie"})
        cookie = r.headers["set-cookie"]
    parts = [p.strip().lower() for p in cookie.split(";")]
    assert parts[0].startswith("fh_session=")
    token = parts[0].split("=", 1)[1]
    assert len(token) >= 32, "at least 192 random bits"
    assert "httponly" in parts
    assert "samesite=lax" in parts
    assert "path=/" in parts
