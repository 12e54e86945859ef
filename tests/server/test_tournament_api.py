"""The tournament API's refusals: each bad request gets a clear 4xx naming
its problem and changes nothing (the tournament's version stays)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from fh_server_helpers import Databases, Player, Server
from fh_tournaments import (
    create,
    detail,
    enter_team,
    matched_tables,
    now_ms,
    post,
    registered,
    uname,
)


@pytest.fixture(scope="module")
def tserver(backend: str, databases: Databases, logs_dir: Path) -> Iterator[Server]:
    s = Server(
        databases.new(backend),
        log_path=logs_dir / f"tournament-api-{backend}.log",
        extra=["--auth-limit", "1000", "--tournament-limit", "30", "--tournament-poll", "0.1"],
    ).start()
    yield s
    s.stop()


@pytest.fixture
async def people(tserver: Server) -> AsyncIterator[list[Player]]:
    ps = await registered(tserver, "api", 8)
    yield ps
    for p in ps:
        await p.aclose()


def error(r: object, status: int, code: str) -> dict[str, object]:
    assert getattr(r, "status_code") == status, getattr(r, "text")  # noqa: B009
    body: dict[str, object] = getattr(r, "json")()["error"]  # noqa: B009
    assert body["code"] == code, body
    return body


async def test_create_refuses_bad_fields_and_guests(tserver: Server, people: list[Player]) -> None:
    org = people[0]
    good = {"name": "Cup", "format": "knockout", "max_teams": 8, "start_ms": now_ms() + 60_000}
    cases: list[tuple[dict[str, object], str, str | None]] = [
        ({**good, "format": "league"}, "bad_request", "format"),
        ({**good, "max_teams": "8"}, "bad_request", "max_teams"),
        ({**good, "max_teams": 1}, "bad_request", None),
        ({**good, "start_ms": now_ms() - 1000}, "bad_request", None),
        ({**good, "format": "swiss"}, "bad_request", None),
        ({**good, "rounds": 3}, "bad_request", None),
        ({**good, "timer": 7}, "bad_request", None),
        ({**good, "name": " "}, "bad_request", None),
        ({**good, "surprise": 1}, "bad_request", "surprise"),
        ({**good, "preset": "nope"}, "bad_settings", "settings"),
        ({**good, "settings": {"target": 5}}, "bad_settings", "settings"),
    ]
    before = (await org.http.get("/api/tournaments?status=upcoming")).json()["tournaments"]
    for body, code, field in cases:
        e = error(await org.http.post("/api/tournaments", json=body), 422, code)
        if field is not None:
            assert e.get("field") == field, e
    guest = await Player(tserver, "Visitor").guest()
    error(await guest.http.post("/api/tournaments", json=good), 403, "forbidden")
    anon = Player(tserver, "nobody")
    error(await anon.http.post("/api/tournaments", json=good), 401, "unauthorized")
    for p in (guest, anon):
        await p.aclose()
    after = (await org.http.get("/api/tournaments?status=upcoming")).json()["tournaments"]
    assert after == before


async def test_entering_refusals_change_nothing(tserver: Server, people: list[Player]) -> None:
    org, a, b, c, d, e, f, g = people
    made = await create(org, max_teams=2)
    tid = made["tournament"]["id"]
    assert made["tournament"]["status"] == "open" and "invite" not in made
    await enter_team(tid, a, b, check_in=False)
    version = (await detail(org, tid))["version"]

    error(await post(a, tid, "enter", {"partner": c.name}), 409, "already_entered")
    error(await post(c, tid, "enter", {"partner": a.name}), 409, "partner_taken")
    error(await post(c, tid, "enter", {"partner": c.name}), 422, "bad_request")
    error(await post(c, tid, "enter", {"partner": "no-such-one"}), 404, "not_found")
    error(await post(c, tid, "enter", {"partner": d.name, "solo": True}), 422, "bad_request")
    error(await post(c, tid, "enter", {}), 422, "bad_request")
    error(await post(c, tid, "enter", {"partner": 5}), 422, "bad_request")
    error(await post(c, tid, "accept", {"team": "t1"}), 409, "not_invited")
    error(await post(c, tid, "check-in"), 409, "not_entered")
    error(await post(a, tid, "start"), 403, "forbidden")
    error(await post(a, tid, "cancel"), 403, "forbidden")
    error(await post(a, tid, "remove", {"team": "t1"}), 403, "forbidden")
    error(await post(org, tid, "remove", {"team": "t9"}), 409, "unknown_team")
    error(await post(org, tid, "pause"), 409, "wrong_phase")
    error(await post(a, tid, "fly"), 404, "not_found")
    # Results come from the games' records: no client reports one.
    error(await post(a, tid, "report", {"winner": "t1", "points": [40, 0]}), 403, "forbidden")
    assert (await detail(org, tid))["version"] == version

    await enter_team(tid, c, d, check_in=False)
    error(await post(e, tid, "enter", {"partner": f.name}), 409, "full")
    error(await post(g, tid, "enter", {"solo": True}), 409, "full")
    for p in (a, b, c, d):
        assert (await post(p, tid, "check-in")).status_code == 200
    error(await post(a, tid, "check-in"), 409, "already_checked_in")
    r = await post(org, tid, "start")
    assert r.status_code == 200, r.text
    started = r.json()["tournament"]
    assert started["status"] == "running" and len(started["rounds"]) == 1
    version = started["version"]
    error(await post(e, tid, "enter", {"partner": f.name}), 409, "wrong_phase")
    error(await post(org, tid, "start"), 409, "wrong_phase")
    assert (await detail(org, tid))["version"] == version


async def test_private_tournaments_need_the_invite(tserver: Server, people: list[Player]) -> None:
    org, a, b = people[:3]
    made = await create(org, public=False)
    tid, code = made["tournament"]["id"], made["invite"]
    assert made["invite_url"] == f"/?tournament={code}"
    error(await a.http.get(f"/api/tournaments/{tid}"), 404, "not_found")
    assert (await a.http.get(f"/api/tournaments/{tid}?invite={code}")).status_code == 200
    r = await a.http.get(f"/api/tournament-invites/{code}")
    assert r.status_code == 200 and r.json()["tournament"]["id"] == tid
    error(await a.http.get("/api/tournament-invites/nope"), 404, "not_found")
    error(await post(a, tid, "enter", {"partner": b.name}), 404, "not_found")
    r = await a.http.post(f"/api/tournaments/{tid}/enter?invite={code}", json={"partner": b.name})
    assert r.status_code == 200, r.text
    assert (await b.http.get(f"/api/tournaments/{tid}")).status_code == 200  # invited: in it
    listed = (await a.http.get("/api/tournaments?status=upcoming")).json()["tournaments"]
    assert tid not in {t["id"] for t in listed}
    error(await a.http.get("/api/tournaments?status=later"), 422, "bad_request")


async def test_the_list_and_the_log(tserver: Server, people: list[Player]) -> None:
    org, a, b = people[:3]
    name = uname("Listed")
    tid = (await create(org, name=name))["tournament"]["id"]
    listed = (await a.http.get("/api/tournaments?status=upcoming")).json()["tournaments"]
    row = next(t for t in listed if t["id"] == tid)
    assert row["name"] == name and row["organiser"]["id"] == org.id
    await enter_team(tid, a, b)
    d = await detail(org, tid)
    kinds = [(e["kind"], e["by"]) for e in d["log"]]
    assert kinds == [
        ("created", org.id),
        ("entered", a.id),
        ("partner_accepted", b.id),
        ("checked_in", a.id),
        ("checked_in", b.id),
    ]
    assert (await post(org, tid, "cancel")).status_code == 200
    d = await detail(org, tid)
    assert d["status"] == "cancelled" and d["log"][-1]["by"] == org.id
    finished = (await a.http.get("/api/tournaments?status=finished")).json()["tournaments"]
    assert tid in {t["id"] for t in finished}


async def test_a_flood_is_rate_limited(tserver: Server, people: list[Player]) -> None:
    org, a = people[:2]
    tid = (await create(org))["tournament"]["id"]
    codes = [(await post(a, tid, "check-in")).status_code for _ in range(40)]
    assert 429 in codes
    r = await post(a, tid, "check-in")
    assert r.status_code == 429 and "Retry-After" in r.headers


async def test_following_and_the_tournament_chat(tserver: Server, people: list[Player]) -> None:
    org, a, b, outsider = people[:4]
    tid = (await create(org))["tournament"]["id"]
    hidden = await create(org, public=False)
    for p in (org, a, outsider):
        await p.connect()
    n = len(outsider.frames)
    await outsider.ok("follow", tournament=tid)
    await outsider.wait(lambda: any(f["type"] == "tournament" for f in outsider.frames[n:]))
    first = next(f for f in outsider.frames[n:] if f["type"] == "tournament")["tournament"]
    assert first["id"] == tid and first["teams"] == []
    bad = await outsider.cmd("follow", tournament=hidden["tournament"]["id"])
    assert bad["type"] == "error" and bad["code"] == "not_found"
    await outsider.ok("follow", tournament=hidden["tournament"]["id"], invite=hidden["invite"])
    await outsider.ok("follow", tournament=tid)
    await org.ok("follow", tournament=tid)
    # A change reaches every follower.
    await enter_team(tid, a, b, check_in=False)
    await outsider.wait(
        lambda: any(f["type"] == "tournament" and f["tournament"]["teams"] for f in outsider.frames)
    )
    # Chat: the entrants and the organiser, to every follower.
    refused = await outsider.cmd("tournament_chat", tournament=tid, text="hello")
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    await a.ok("tournament_chat", tournament=tid, text="  good luck  ")
    for p in (outsider, org):
        await p.wait(lambda p=p: any(f["type"] == "tournament_chat" for f in p.frames))
    line = next(f for f in outsider.frames if f["type"] == "tournament_chat")
    assert line["from"] == {"id": a.id, "name": a.name} and line["text"] == "good luck"
    too_long = await a.cmd("tournament_chat", tournament=tid, text="x" * 301)
    assert too_long["type"] == "error" and too_long["code"] == "bad_message"
    codes = [(await a.cmd("tournament_chat", tournament=tid, text="hi"))["type"] for _ in range(8)]
    assert "error" in codes  # at most 5 lines in 10 s
    await outsider.ok("mute", user=org.id, muted=True)
    await outsider.ok("follow", tournament=None)
    seen = len(outsider.frames)
    await org.ok("tournament_chat", tournament=tid, text="not for the outsider")
    await a.wait(lambda: any(f.get("text") == "not for the outsider" for f in org.frames))
    assert not any(f["type"].startswith("tournament") for f in outsider.frames[seen:])


async def test_tournament_chat_is_masked_and_as_said_only_to_who_chose_it(
    tserver: Server, people: list[Player]
) -> None:
    org, a, b, reader = people[:4]
    tid = (await create(org))["tournament"]["id"]
    await enter_team(tid, a, b, check_in=False)
    for p in (a, reader, org):
        await p.connect()
        await p.ok("follow", tournament=tid)
    await reader.ok("chat_filter", off=True)
    await a.ok("tournament_chat", tournament=tid, text="what a shit draw")
    for p in (reader, org):
        await p.wait(lambda p=p: any(f["type"] == "tournament_chat" for f in p.frames))
    plain = next(f for f in org.frames if f["type"] == "tournament_chat")
    assert plain["text"] == "what a **** draw" and "raw" not in plain
    chose = next(f for f in reader.frames if f["type"] == "tournament_chat")
    assert chose["text"] == "what a **** draw" and chose["raw"] == "what a shit draw"
    # A clean line is sent once, without "raw", to both.
    await a.ok("tournament_chat", tournament=tid, text="good game")
    await reader.wait(lambda: any(f.get("text") == "good game" for f in reader.frames))
    clean = next(f for f in reader.frames if f.get("text") == "good game")
    assert "raw" not in clean


async def test_withdrawing_before_the_start(tserver: Server, people: list[Player]) -> None:
    org, a, b, c = people[:4]
    tid = (await create(org))["tournament"]["id"]
    error(await post(a, tid, "withdraw"), 409, "not_entered")
    await enter_team(tid, a, b)
    r = await post(b, tid, "withdraw")
    assert r.status_code == 200, r.text
    d = r.json()["tournament"]
    assert d["teams"] == [] and d["log"][-1]["kind"] == "withdrawn" and d["log"][-1]["by"] == b.id
    assert (await post(a, tid, "enter", {"partner": c.name})).status_code == 200


async def test_a_player_who_connects_late_is_told_of_the_waiting_match(
    tserver: Server, people: list[Player]
) -> None:
    """The director's ``matched`` went out while a player had no socket:
    their next socket's hello is followed by it (one query of the store); a
    player with no waiting match gets none."""
    org, a, b, c, d, e = people[:6]
    tid = (await create(org))["tournament"]["id"]
    await enter_team(tid, a, b)
    await enter_team(tid, c, d)
    await b.connect()
    r = await post(org, tid, "start")
    assert r.status_code == 200, r.text
    table = r.json()["tournament"]["rounds"][0]["matches"][0]["table"]
    await b.wait(lambda: matched_tables(b) == [table])  # the director made it and told b
    await a.connect()
    await a.wait(lambda: matched_tables(a) == [table])
    await e.connect()  # not entered: the hello comes alone
    assert (await e.cmd("ping"))["type"] == "pong"  # the hello and what follows it are in
    assert matched_tables(e) == []
