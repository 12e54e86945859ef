"""``GET /api/session``: whether a request is signed in, always answered 200
(a visitor who has not signed in yet is no error); ``GET /api/me`` still
refuses a request without a session."""

from __future__ import annotations

import httpx
from fh_server_helpers import Player, Server


async def test_session_says_whether_the_request_is_signed_in(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as anonymous:
        r = await anonymous.get("/api/session")
        assert r.status_code == 200
        assert r.json() == {"signed_in": False, "user": None}
        assert (await anonymous.get("/api/me")).status_code == 401
    p = await Player(server, "Sessioned").guest()
    r = await p.http.get("/api/session")
    assert r.status_code == 200
    assert r.json() == {"signed_in": True, "user": p.user}
    assert (await p.http.get("/api/me")).json() == {"user": p.user}
    assert (await p.http.post("/api/logout")).status_code == 204
    assert (await p.http.get("/api/session")).json() == {"signed_in": False, "user": None}
    await p.aclose()
