"""The account in the player's hands (issue 14, item 6), against a real
server: changing the password ends the other sessions; the sessions are
listed without their tokens and can all be ended; the export holds the
profile, the rating and every game with its record; a deleted account's
games stay, shown as a deleted player's, and nobody else's rating moves;
a wrong password changes nothing."""

from __future__ import annotations

import itertools
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from fh_server_helpers import Player, play_turns
from fh_wire import Account, Databases, Server, Wire, pg_available

PASSWORD = "correct horse battery"
NEW_PASSWORD = "another horse entirely"
_GAMES = itertools.count(1)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def acct_server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """Each backend (PostgreSQL when it runs): the deletion rewrites stored
    JSON. Test clients play faster than people: no frame limit in the way."""
    if request.param == "postgresql" and not pg_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    tmp = Path(tempfile.mkdtemp(prefix="fh-accounts-"))
    logs = Path(tempfile.gettempdir()) / "fourhundred-test-logs"
    logs.mkdir(exist_ok=True)
    dbs = Databases(tmp)
    server = Server(
        dbs.new(request.param),
        extra=["--auth-limit", "1000", "--ws-rate", "100000"],
        log_path=logs / f"security-accounts-{request.param}.log",
    )
    try:
        yield server.start()
    finally:
        server.stop()
        dbs.drop_all()
        shutil.rmtree(tmp, ignore_errors=True)


def _client(server: Server) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.url, timeout=30)


async def _login(server: Server, username: str, password: str) -> httpx.AsyncClient:
    c = _client(server)
    r = await c.post("/api/login", json={"username": username, "password": password})
    assert r.status_code == 200, r.text
    return c


async def _status(c: httpx.AsyncClient) -> int:
    return (await c.get("/api/me")).status_code


async def test_changing_the_password_ends_the_other_sessions(acct_server: Server) -> None:
    me = await Account(acct_server.url, "pw_changer").register(PASSWORD)
    other = await _login(acct_server, "pw_changer", PASSWORD)
    try:
        url = "/api/account/password"
        # Wrong current password, or an unusable new one: nothing changes.
        r = await me.http.post(url, json={"current": "not it at all", "new": NEW_PASSWORD})
        assert r.status_code == 401 and r.json()["error"]["field"] == "current"
        r = await me.http.post(url, json={"current": PASSWORD, "new": "short"})
        assert r.status_code == 422 and r.json()["error"]["field"] == "new"
        r = await me.http.post(url, json={"current": PASSWORD})
        assert r.status_code == 422
        assert await _status(other) == 200
        (await _login(acct_server, "pw_changer", PASSWORD)).cookies.clear()
        # The right one: this session stays, the others end (their socket too).
        theirs = await _wire(me, other)
        r = await me.http.post(url, json={"current": PASSWORD, "new": NEW_PASSWORD})
        assert r.status_code == 204, r.text
        assert await _status(me.http) == 200
        assert await _status(other) == 401
        await _closed_for_session(theirs)
        r = await me.http.get("/api/account/sessions")
        assert len(r.json()["sessions"]) == 1
        bad = await other.post("/api/login", json={"username": "pw_changer", "password": PASSWORD})
        assert bad.status_code == 401
        await (await _login(acct_server, "pw_changer", NEW_PASSWORD)).aclose()
        # A guest has no password to change.
        g = await Account(acct_server.url, "Guesty").guest()
        r = await g.http.post(url, json={"current": PASSWORD, "new": NEW_PASSWORD})
        assert r.status_code == 409
        await g.aclose()
    finally:
        await me.aclose()
        await other.aclose()


async def _wire(account: Account, client: httpx.AsyncClient) -> Wire:
    """A socket opened with ``client``'s session."""
    token = client.cookies.get("fh_session") or ""
    return await Wire(account.ws_url, token).open()


async def _closed_for_session(w: Wire) -> None:
    assert await w.wait(lambda: w.closed, 10), "the socket stayed open"
    assert w.close_code == 4401
    assert any(f.get("type") == "closing" and f["code"] == "unauthorized" for f in w.frames)


async def test_sessions_are_listed_and_ended(acct_server: Server) -> None:
    me = await Account(acct_server.url, "many_sessions").register(PASSWORD)
    others = [await _login(acct_server, "many_sessions", PASSWORD) for _ in range(2)]
    try:
        r = await me.http.get("/api/account/sessions")
        assert r.status_code == 200
        sessions = r.json()["sessions"]
        assert len(sessions) == 3
        assert [s["current"] for s in sessions].count(True) == 1
        for s in sessions:
            assert set(s) == {"created_ms", "expires_ms", "browser", "system", "current"}
            assert s["expires_ms"] > s["created_ms"]
        assert {(s["browser"], s["system"]) for s in sessions} == {("python-httpx", "")}
        # A browser's sign-in is named by its browser and system, and the
        # header itself is kept nowhere.
        firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
        c = _client(acct_server)
        c.headers["User-Agent"] = firefox
        login = {"username": "many_sessions", "password": PASSWORD}
        assert (await c.post("/api/login", json=login)).status_code == 200
        others.append(c)
        r = await me.http.get("/api/account/sessions")
        assert r.json()["sessions"][0] | {"created_ms": 0, "expires_ms": 0} == {
            "created_ms": 0,
            "expires_ms": 0,
            "browser": "Firefox",
            "system": "Linux",
            "current": False,
        }
        assert "Gecko" not in r.text
        for c in [me.http, *others]:
            assert (c.cookies.get("fh_session") or "?") not in r.text
        assert (await me.http.delete("/api/account/sessions?all=yes")).status_code == 422
        assert all([await _status(c) == 200 for c in others])
        # Log out everywhere else: the other session's socket closes too.
        theirs = await _wire(me, others[0])
        r = await me.http.delete("/api/account/sessions")
        assert r.status_code == 200 and r.json() == {"ended": 3}
        assert [await _status(c) for c in others] == [401, 401, 401]
        assert await _status(me.http) == 200
        await _closed_for_session(theirs)
        # And everywhere, this socket too.
        mine = await _wire(me, me.http)
        r = await me.http.delete("/api/account/sessions?all=1")
        assert r.json() == {"ended": 1}
        assert await _status(me.http) == 401
        await _closed_for_session(mine)
        assert (await me.http.get("/api/account/sessions")).status_code == 401
    finally:
        await me.aclose()
        for c in others:
            await c.aclose()


@pytest_asyncio.fixture
async def finished(acct_server: Server) -> AsyncIterator[tuple[list[Player], str]]:
    """Four registered players after a whole game together (Private, to 11)."""
    tag = next(_GAMES)
    players = [await Player(acct_server, f"fin{tag}_{i}").register(PASSWORD) for i in range(4)]
    r = await players[0].http.post(
        "/api/tables", json={"kind": "private", "preset": "quick", "settings": {"target": 11}}
    )
    assert r.status_code == 201, r.text
    created = r.json()
    table = created["table"]["id"]
    for p in players:
        await p.connect()
    await players[0].join(table=table)
    for p in players[1:]:
        await p.join(invite=created["invite"])
        await p.ok("sit")
    for p in players:
        await p.ok("ready", ready=True)
    for p in players:
        await p.wait(lambda p=p: p.view is not None)

    def over() -> bool:
        return players[0].view is not None and players[0].view["phase"] == "over"

    await play_turns(players, over)
    for p in players:
        await p.wait(lambda p=p: bool(p.events("game_over")))
    try:
        yield players, table
    finally:
        for p in players:
            await p.aclose()


async def test_the_export_holds_every_game_played(
    acct_server: Server, finished: tuple[list[Player], str]
) -> None:
    players, table = finished
    me = players[1]
    r = await me.http.get("/api/account/export")
    assert r.status_code == 200
    assert r.headers["content-disposition"].startswith("attachment;")
    data = r.json()
    assert data["format"] == "fourhundred-account/1"
    assert data["profile"]["id"] == me.id and data["profile"]["username"] == me.name
    assert {"mu", "sigma", "rated_games", "games", "wins"} <= set(data["rating"])
    assert data["rating"]["games"] == 1
    [game] = data["games"]
    assert game["id"] == table
    assert game["record"]["format"] == "fourhundred-record/1"
    assert game["record"] == (await me.http.get(f"/api/games/{table}/record")).json()
    assert {p["user"]["id"] for p in game["players"]} == {p.id for p in players}
    assert "argon2" not in r.text and (me.token not in r.text)


async def _profile(c: httpx.AsyncClient, user_id: str) -> dict[str, Any]:
    r = await c.get(f"/api/users/{user_id}")
    assert r.status_code == 200
    out: dict[str, Any] = r.json()
    return out


async def test_a_deleted_account_keeps_its_games_as_a_deleted_player(
    acct_server: Server, finished: tuple[list[Player], str]
) -> None:
    players, table = finished
    leaving, rest = players[2], [players[0], players[1], players[3]]
    look = _client(acct_server)
    before = {p.id: await _profile(look, p.id) for p in rest}
    game_before = (await look.get(f"/api/games/{table}")).json()
    # A wrong or missing password: nothing changes.
    r = await leaving.http.request("DELETE", "/api/account", json={"password": "wrong one!"})
    assert r.status_code == 401
    r = await leaving.http.request("DELETE", "/api/account", json={})
    assert r.status_code == 422 and r.json()["error"]["field"] == "password"
    assert await _status(leaving.http) == 200
    assert (await _profile(look, leaving.id))["user"]["name"] == leaving.name
    # The right one.
    r = await leaving.http.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 204, r.text
    assert await _status(leaving.http) == 401
    await leaving.wait(lambda: leaving.close_code == 4401, 10)  # its socket too
    gone = await look.post("/api/login", json={"username": leaving.name, "password": PASSWORD})
    assert gone.status_code == 401
    # The game stays, with a deleted player in the seat.
    game = (await look.get(f"/api/games/{table}")).json()
    assert game["scores"] == game_before["scores"] and game["winner"] == game_before["winner"]
    seat = next(p for p in game["players"] if p["user"]["id"] == leaving.id)
    assert seat["user"]["name"] == "Deleted player" and seat["user"]["deleted"] is True
    assert seat["score"] == next(
        p["score"] for p in game_before["players"] if p["user"]["id"] == leaving.id
    )
    names = {p["user"]["name"] for p in game["players"]}
    assert {p.name for p in rest} <= names and leaving.name not in names
    assert (await look.get(f"/api/games/{table}/record")).status_code == 200
    # In the others' history, on the profile, in the lobby row of the table.
    history = (await look.get(f"/api/users/{players[0].id}/games")).json()["games"]
    assert any(p["user"]["name"] == "Deleted player" for p in history[0]["players"])
    assert (await _profile(look, leaving.id))["user"]["name"] == "Deleted player"
    room = (await players[0].http.get(f"/api/tables/{table}")).json()["table"]
    assert leaving.name not in str(room) and "Deleted player" in str(room)
    board = (await look.get("/api/leaderboard?limit=200")).json()["players"]
    assert leaving.id not in {p["user"]["id"] for p in board}
    # Nobody else's rating moved.
    for p in rest:
        after = await _profile(look, p.id)
        assert (after["mu"], after["sigma"], after["games"]) == (
            before[p.id]["mu"],
            before[p.id]["sigma"],
            before[p.id]["games"],
        )
    # The username is free again.
    again = await Account(acct_server.url, leaving.name).register(NEW_PASSWORD)
    assert again.id != leaving.id
    await again.aclose()
    await look.aclose()


async def test_a_guest_may_delete_too(acct_server: Server) -> None:
    g = await Account(acct_server.url, "Passing").guest()
    r = await g.http.request("DELETE", "/api/account", json={})
    assert r.status_code == 204
    assert await _status(g.http) == 401
    profile = await _profile(g.http, g.id)
    assert profile["user"] == {
        "id": g.id,
        "name": "Deleted player",
        "guest": True,
        "rating": None,
        "deleted": True,
    }
    await g.aclose()
