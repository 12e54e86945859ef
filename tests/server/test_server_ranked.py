"""The Ranked queue: eight players queue, two matches are made of players of
similar rating, teams are balanced, the standard preset is used and the game
starts at once; leaving a Ranked game costs the leaver rating."""

from __future__ import annotations

import asyncio
import secrets

from fh_server_helpers import Player, Server

from fourhundred.engine import STANDARD
from fourhundred.store import Store

STRONG = [41.0, 40.5, 40.0, 39.5]
WEAK = [11.0, 10.5, 10.0, 9.5]


async def test_queue_of_eight_makes_two_balanced_matches(server: Server) -> None:
    tag = secrets.token_hex(3)
    strong = [await Player(server, f"s{i}_{tag}").register() for i in range(4)]
    weak = [await Player(server, f"w{i}_{tag}").register() for i in range(4)]
    await _set_ratings(server, [*zip(strong, STRONG, strict=True), *zip(weak, WEAK, strict=True)])
    everyone = [x for pair in zip(strong, weak, strict=True) for x in pair]
    # Two of them listen on a socket for the push.
    await everyone[0].connect()
    await everyone[1].connect()
    for p in everyone:
        r = await p.http.post("/api/queue")
        assert r.status_code == 200, r.text
        assert r.json()["status"] in ("waiting", "matched")

    tables = await _matched_tables(everyone)
    assert len(tables) == 8
    assert len({tables[p.id] for p in strong}) == 1
    assert len({tables[p.id] for p in weak}) == 1
    assert tables[strong[0].id] != tables[weak[0].id]
    for p in everyone[:2]:
        await p.wait(lambda p=p: any(f["type"] == "matched" for f in p.frames))
        pushed = next(f for f in p.frames if f["type"] == "matched")
        assert pushed["table"] == tables[p.id] and pushed["kind"] == "ranked"
    for group, mus in ((strong, STRONG), (weak, WEAK)):
        await _check_balanced(group, mus, tables[group[0].id])

    # Queueing again while seated is refused.
    r = await strong[0].http.post("/api/queue")
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    await _leavers_pay(strong, tables[strong[0].id])
    for p in everyone:
        await p.aclose()


async def _set_ratings(server: Server, ratings: list[tuple[Player, float]]) -> None:
    store = await Store.open(server.database_url, migrate=False)
    try:
        for p, mu in ratings:
            await store.set_rating(p.id, mu, 2.0)
    finally:
        await store.close()


async def _matched_tables(everyone: list[Player]) -> dict[str, str]:
    """Each player's table, as the queue tells it once matched."""
    tables: dict[str, str] = {}
    for p in everyone:
        for _ in range(600):
            status = (await p.http.get("/api/queue")).json()
            if status["status"] == "matched":
                tables[p.id] = status["table"]
                break
            await asyncio.sleep(0.05)
    return tables


async def _check_balanced(group: list[Player], mus: list[float], table: str) -> None:
    """A Ranked table of the standard preset, in play, whose teams pair the
    best with the worst of ``group`` (ratings ``mus``, best first)."""
    r = await group[0].http.get(f"/api/tables/{table}")
    room = r.json()["table"]
    assert room["kind"] == "ranked" and room["status"] == "playing" and room["rated"]
    assert room["preset"] == "standard" and room["settings"] == STANDARD.to_dict()
    by_id = {p.id: mu for p, mu in zip(group, mus, strict=True)}
    seat_mu = [by_id[s["user"]["id"]] for s in room["seats"]]
    # The best and the worst are partners; the middle two are partners.
    team0, team1 = {seat_mu[0], seat_mu[2]}, {seat_mu[1], seat_mu[3]}
    assert {frozenset(team0), frozenset(team1)} == {
        frozenset({mus[0], mus[3]}),
        frozenset({mus[1], mus[2]}),
    }


async def _leavers_pay(strong: list[Player], table: str) -> None:
    """A leaver takes a loss at once; the game is no longer rated."""
    for p in strong:
        if p.ws is None:
            await p.connect()
        await p.join(table=table)
    before = (await strong[1].http.get(f"/api/users/{strong[1].id}")).json()
    assert (await strong[1].cmd("leave"))["type"] == "ack"
    await strong[0].wait(lambda: bool(strong[0].events("rating")))
    charge = strong[0].events("rating")[0]
    assert charge["user"] == strong[1].id and charge["reason"] == "left"
    assert charge["after"] < charge["before"] == before["user"]["rating"]
    assert "mu" not in charge
    assert strong[0].room is not None and strong[0].room["rated"] is False
    after = (await strong[1].http.get(f"/api/users/{strong[1].id}")).json()
    assert after["user"]["rating"] == charge["after"] and after["rated_games"] == 1
    # Everyone else leaves too: the game ends, abandoned and unrated, and the
    # leaver's charge is in the record of the game.
    for p in (strong[0], strong[2], strong[3]):
        assert (await p.cmd("leave"))["type"] == "ack"
    await strong[0].wait(lambda: bool(strong[0].events("game_over")))
    game = (await strong[0].http.get(f"/api/games/{table}")).json()
    assert game["rated"] is False and game["reason"] == "abandoned"
    leaver = next(x for x in game["players"] if x["user"]["id"] == strong[1].id)
    assert (leaver["rating_before"], leaver["rating_after"]) == (charge["before"], charge["after"])


async def test_guests_cannot_queue(server: Server) -> None:
    g = await Player(server, "Guesty").guest()
    r = await g.http.post("/api/queue")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert (await g.http.get("/api/queue")).json() == {"status": "idle"}
    anon = Player(server, "Nobody")
    r = await anon.http.post("/api/queue")
    assert r.status_code == 401
    await g.aclose()
    await anon.aclose()


async def test_leaving_the_queue(server: Server) -> None:
    p = await Player(server, f"solo_{secrets.token_hex(3)}").register()
    r = await p.http.post("/api/queue")
    assert r.json()["status"] == "waiting" and r.json()["queued"] >= 1
    assert (await p.http.delete("/api/queue")).status_code == 204
    assert (await p.http.get("/api/queue")).json() == {"status": "idle"}
    await p.aclose()
