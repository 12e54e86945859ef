"""Security headers (issue 14, item 2): every HTTP response of a real
server, a page, JSON, a static file, a 404, a refusal, carries the
Content-Security-Policy, ``nosniff``, a frame policy and the referrer
policy; HSTS only when the server runs with ``--secure-cookies``; a 500 has
them too; the WebSocket still opens."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fh_wire import Account, Server, running_server
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from fourhundred.server.app import _App, _server_error
from fourhundred.server.headers import CSP, HSTS

EXPECTED = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}


def _has_headers(r: httpx.Response, *, hsts: bool) -> None:
    for name, value in EXPECTED.items():
        assert r.headers.get(name) == value, (r.request.url, name, r.headers.get(name))
        assert len(r.headers.get_list(name)) == 1, (r.request.url, name)
    assert (r.headers.get("strict-transport-security") == HSTS) is hsts, r.request.url


def test_the_policy_allows_only_the_server_itself() -> None:
    parts = dict(p.split(" ", 1) for p in CSP.split("; "))
    for directive in ("default-src", "script-src", "style-src", "img-src", "connect-src"):
        assert parts[directive] == "'self'", directive
    for directive in ("object-src", "base-uri", "frame-ancestors"):
        assert parts[directive] == "'none'", directive
    assert "unsafe" not in CSP and "*" not in CSP and "data:" not in CSP


def _responses(url: str) -> list[httpx.Response]:
    with httpx.Client(base_url=url, timeout=30) as c:
        guest = c.post("/api/guest", json={"name": "Headers"})
        assert guest.status_code == 201
        out = [
            c.get("/"),  # the page
            c.get("/index.html"),
            c.get("/js/app.js"),  # static files
            c.get("/css/app.css"),
            c.get("/favicon.svg"),
            c.get("/api/presets"),  # JSON
            c.get("/healthz"),
            c.get("/metrics"),
            guest,
            c.get("/no-such-page"),  # 404s
            c.get("/api/no-such-endpoint"),
            c.get("/api/games/nope/record"),
            c.put("/api/presets", json={}),  # 405
            c.post("/api/tables", json={"kind": 5}),  # 422
            c.post("/api/tables", content=b"{", headers={"content-type": "application/json"}),
            c.post(
                "/api/tables", json={"kind": "casual"}, headers={"Origin": "https://evil.example"}
            ),  # 403 from the origin check
        ]
        c.cookies.clear()
        out.append(c.get("/api/me"))  # 401
    return out


def test_every_response_has_the_headers(sec_server: Server) -> None:
    responses = _responses(sec_server.url)
    statuses = {r.status_code for r in responses}
    assert {200, 201, 401, 403, 404, 405, 422} <= statuses
    for r in responses:
        _has_headers(r, hsts=False)
    page = responses[0]
    assert '<script type="module" src=' in page.text
    assert "<script>" not in page.text and " style=" not in page.text


@pytest.fixture(scope="module")
def secure_server() -> Iterator[Server]:
    with running_server("sqlite", log_name="security-hsts") as server:
        server.stop()
        server.extra.append("--secure-cookies")
        server.start()
        yield server


def test_hsts_only_with_secure_cookies(secure_server: Server) -> None:
    for r in _responses(secure_server.url):
        _has_headers(r, hsts=True)


async def test_the_socket_still_opens(sec_server: Server) -> None:
    a = await Account(sec_server.url, "HdrWs").guest()
    try:
        w = await a.wire(origin=sec_server.url)
        assert w.hello() is not None
        await w.close()
    finally:
        await a.aclose()


async def test_a_500_has_the_headers_too() -> None:
    async def boom(request: Request) -> Response:
        raise RuntimeError("on purpose")

    app = _App(
        hsts=True,
        routes=[Route("/boom", boom)],
        exception_handlers={Exception: _server_error},
    )
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        r = await c.get("/boom")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal"
    _has_headers(r, hsts=True)
